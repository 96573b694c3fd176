// The one table renderer of the play page and the replay viewer, for any registered ruleset: it
// draws a frame (training/viewer/frames.py) as a square table, the bottom seat being the viewer
// (seat 0 without one), the next seat (下家) on the right, the opposite on top, the previous on
// the left. What a ruleset adds comes from the frame (tags, markers, each legal action's click
// tile), never from its name. Tiles are CSS (rank large, suit letter and colour below): no network,
// no fonts; Latin labels read on machines without CJK fonts (the Chinese name is the tooltip).
const SUITS = ["m", "s", "p"];
const SUIT_NAMES = ["万", "条", "筒"];
const HONOURS = ["E", "S", "W", "N", "Rd", "Gn", "Wh"];
const HONOUR_NAMES = ["东", "南", "西", "北", "中", "发", "白"];
const POSITIONS = ["bottom", "right", "top", "left"];  // seat (bottom + i) % 4 sits at POSITIONS[i]
function tileName(k) { return k < 27 ? (k % 9 + 1) + "msp"[Math.floor(k / 9)] : (k - 26) + "z"; }
function esc(t) {
  return String(t).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
}
// One tile; opt: {cls: more classes, tag: "button", attrs: more attributes, marks: kinds marked}.
function tile(k, opt = {}) {
  const marks = opt.marks || MARKS;
  let cls, face, title;
  if (k < 27) {
    const s = Math.floor(k / 9);
    cls = ["m", "s1", "p"][s];
    face = `<span class="r">${k % 9 + 1}</span><span class="s">${SUITS[s]}</span>`;
    title = `${tileName(k)} ${k % 9 + 1}${SUIT_NAMES[s]}`;
  } else {
    const h = k - 27;
    cls = `z z${h + 1}`;
    face = `<span class="r">${HONOURS[h]}</span><span class="s">${tileName(k)}</span>`;
    title = `${tileName(k)} ${HONOUR_NAMES[h]}`;
  }
  const mark = marks[k];
  if (mark) { cls += " marked"; title += ` (${mark})`; }
  if (opt.cls) cls += " " + opt.cls;
  const tag = opt.tag || "span";
  return `<${tag} class="tile ${cls}" data-kind="${k}" title="${esc(title)}" ${opt.attrs || ""}>${face}</${tag}>`;
}
let MARKS = {};  // kind -> the marker's label, for the frame being drawn (a ruleset's wild tiles)
function back(n, cls = "") { return `<span class="tile back ${cls}"></span>`.repeat(n); }
function tiles(list, cls = "") { return list.map(k => tile(k, {cls})).join(""); }
function sortedTiles(list) { return [...list].sort((a, b) => a - b); }

// The bottom seat's hand: sorted, the drawn tile set apart; with `play` its tiles are buttons,
// each enabled when a legal action is played by clicking it (a discard, a pick, ...).
function handHTML(f, s, play) {
  const seat = f.seats[s];
  const drawn = f.drawn && f.drawn.seat === s ? f.drawn : null;
  const pos = POSITIONS[(s - bottomSeat(f) + 4) % 4];
  const size = pos === "bottom" ? "big" : "small";
  if (seat.hand === null) {
    const apart = drawn && seat.hidden > 0 ? 1 : 0;
    return `<span class="hand ${size}" id="hand-${s}" data-tiles="hidden:${seat.hidden}">${back(seat.hidden - apart, size)}` +
           (apart ? `<span class="drawn" id="drawn-${s}">${back(1, size)}</span>` : "") + `</span>`;
  }
  const hand = sortedTiles(seat.hand);
  let apart = null;
  if (drawn && drawn.tile !== null && hand.includes(drawn.tile)) {
    apart = drawn.tile;
    hand.splice(hand.indexOf(apart), 1);
  }
  const one = k => {
    if (!play) return tile(k, {cls: size});
    const a = play.byTile[k];
    return a === undefined ? tile(k, {cls: size + " act", tag: "button", attrs: "disabled"})
        : tile(k, {cls: size + " act", tag: "button", attrs: `data-action="${a.action}" aria-label="${esc(a.name)}"`});
  };
  return `<span class="hand ${size}" id="hand-${s}" data-tiles="${sortedTiles(seat.hand).join(",")}"` +
         `${apart === null ? "" : ` data-drawn="${apart}"`}>${hand.map(one).join("")}` +
         (apart === null ? "" : `<span class="drawn" id="drawn-${s}">${one(apart)}</span>`) + `</span>`;
}
function meldsHTML(f, s) {
  const size = POSITIONS[(s - bottomSeat(f) + 4) % 4] === "bottom" ? "" : "small";
  return `<span class="melds" id="melds-${s}">` + f.seats[s].melds.map(m =>
      `<span class="meld" title="${esc(m.kind)}" data-kind="${esc(m.kind)}" data-tiles="${m.hidden ? "hidden" : m.tiles.join(",")}">` +
      `${m.hidden ? back(4, size) : tiles(m.tiles, size)}</span>`).join("") + `</span>`;
}
function riverHTML(f, s) {
  const river = f.seats[s].river;
  const last = f.last_discard && f.last_discard.seat === s ? river.length - 1 : -1;
  const pos = POSITIONS[(s - bottomSeat(f) + 4) % 4];
  return `<div class="river pos-${pos}" id="river-${s}" data-tiles="${river.join(",")}"` +
         `${last >= 0 ? ` data-last="${river[last]}"` : ""}>` +
         river.map((k, i) => tile(k, {cls: "small" + (i === last ? " last" : "")})).join("") + `</div>`;
}
function bottomSeat(f) { return f.viewer === null || f.viewer === undefined ? 0 : f.viewer; }
function seatHTML(f, s, play) {
  const seat = f.seats[s];
  const pos = POSITIONS[(s - bottomSeat(f) + 4) % 4];
  const acting = f.to_act.includes(s);
  const tags = seat.tags.map(t => `<span class="tag">${esc(t)}</span>`).join("");
  let claims = "";
  if (play) {
    claims = `<div class="claims" id="claims">` + play.buttons.map(a =>
        `<button class="act claim" data-action="${a.action}"><span class="what">${esc(a.name)}</span>` +
        `${(a.tiles || []).length ? `<span class="shows">${tiles(a.tiles, "small")}</span>` : ""}</button>`).join("") +
        `</div>`;
  }
  return `<div class="seat pos-${pos}${acting ? " acting" : ""}" id="seat-${s}" data-acting="${acting}">` +
         `<div class="name">${acting ? '<span class="turn" title="to act">▶</span>' : ""}seat ${s}` +
         `${s === f.viewer ? " (you)" : ""} ${tags}<span class="pay" id="pay-${s}">${f.payments[s]}</span></div>` +
         claims + `<div class="holding">${handHTML(f, s, play)}${meldsHTML(f, s)}</div></div>`;
}
function markerHTML(m) {
  const text = m.text !== undefined ? `<b>${esc(m.text)}</b>` : "";
  const shown = m.tiles ? tiles(m.tiles, "small") : "";
  const hint = m.hint ? ` title="${esc(m.hint)}"` : "";
  return `<div class="marker" data-id="${esc(m.id)}"${hint}><span class="label">${esc(m.label)}</span> ${text}${shown}</div>`;
}
function resultHTML(r) {
  return `<table class="result" id="result"><tr><th>seat</th><th>payment</th></tr>` +
      r.payments.map((p, s) => `<tr><td>${s}${r.winners.includes(s) ? " (winner)" : ""}</td><td>${p}</td></tr>`).join("") +
      `</table><details><summary>settlement details</summary><pre class="details">` +
      `${esc(JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => k !== "payments")), null, 1))}</pre></details>`;
}
function centreHTML(f) {
  let html = `<div class="facts"><span>wall <b id="wall">${f.wall}</b></span><span class="phase">phase <b id="phase">${esc(f.phase)}</b></span></div>`;
  html += `<div class="turnline" id="turn">${f.over ? "hand over" :
      f.to_act.length ? "to act: " + f.to_act.map(s => `seat ${s}`).join(", ") : ""}</div>`;
  if (f.offered.length) html += `<div class="offered" id="offered">seat ${f.offered_by} offers ${tiles(f.offered, "small")}</div>`;
  html += `<div class="markers" id="markers">${f.markers.map(markerHTML).join("")}</div>`;
  if (f.result) html += resultHTML(f.result);
  return html;
}
// Draw frame `f` into `root`. `play` (the play page only): {legal: [{action, name, tile}]} of the
// bottom seat; actions with a tile are played by clicking it in the hand, the others are buttons.
function drawTable(f, root, play = null) {
  MARKS = {};
  for (const m of f.markers) if (m.marks) for (const k of m.tiles || []) MARKS[k] = m.label;
  let p = null;
  if (play) {
    p = {byTile: {}, buttons: []};
    for (const a of play.legal) {
      if (a.tile !== null && a.tile !== undefined && p.byTile[a.tile] === undefined) p.byTile[a.tile] = a;
      else p.buttons.push(a);
    }
  }
  const b = bottomSeat(f);
  const at = i => (b + i) % 4;
  root.innerHTML = `<div class="table">` +
      seatHTML(f, at(2), null) + seatHTML(f, at(3), null) +
      `<div class="middle">${riverHTML(f, at(2))}${riverHTML(f, at(3))}<div class="centre" id="centre">${centreHTML(f)}</div>` +
      `${riverHTML(f, at(1))}${riverHTML(f, at(0))}</div>` +
      seatHTML(f, at(1), null) + seatHTML(f, at(0), p) + `</div>`;
}
