// Latin labels: they read on machines without CJK fonts (the Chinese name is the tile's tooltip).
const SUITS = ["m", "s", "p"];
const SUIT_NAMES = ["万", "条", "筒"];
const HONOURS = ["E", "S", "W", "N", "Rd", "Gn", "Wh"];
const HONOUR_NAMES = ["东", "南", "西", "北", "中", "发", "白"];
function tileName(k) { return k < 27 ? (k % 9 + 1) + "msp"[Math.floor(k / 9)] : (k - 26) + "z"; }
function tile(k) {
  if (k < 27) {
    const s = Math.floor(k / 9);
    const cls = ["m", "s1", "p"][s];
    return `<span class="tile ${cls}" data-kind="${k}" title="${tileName(k)} ${k % 9 + 1}${SUIT_NAMES[s]}">` +
           `<span class="r">${k % 9 + 1}</span><span class="s">${SUITS[s]}</span></span>`;
  }
  const h = k - 27;
  return `<span class="tile z z${h + 1}" data-kind="${k}" title="${tileName(k)} ${HONOUR_NAMES[h]}">` +
         `<span class="r">${HONOURS[h]}</span><span class="s">${tileName(k)}</span></span>`;
}
function back(n) { return `<span class="tile back"></span>`.repeat(n); }
function tiles(list) { return list.map(tile).join(""); }
function esc(t) { return String(t).replace(/[&<>]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;"}[c])); }
function drawTable(f, root) {
  let info = `<span>phase <b id="phase">${f.phase}</b></span><span>wall <b id="wall">${f.wall}</b> tiles</span>`;
  if (f.stacks !== undefined) info += `<span>stacks <b id="stacks">${f.stacks}</b></span>`;
  if (f.indicator !== undefined) info += `<span>indicator ${tile(f.indicator)} (its other copies are wild)</span>`;
  if (f.offered.length) info += `<span>offered by seat ${f.offered_by}: ${tiles(f.offered)}</span>`;
  if (f.revealed.length) info += `<span>face up: ${tiles(f.revealed)}</span>`;
  let html = `<div class="info">${info}</div>`;
  for (let s = 0; s < 4; s++) {
    const seat = f.seats[s];
    const hand = seat.hand === null ? back(seat.hidden) : tiles(seat.hand);
    const handData = seat.hand === null ? `hidden:${seat.hidden}` : seat.hand.join(",");
    const melds = seat.melds.map(m => `<span class="meld" title="${m.kind}">${m.hidden ? back(4) : tiles(m.tiles)}</span>`).join("");
    const acting = f.to_act.includes(s) ? " acting" : "";
    html += `<div class="seat${acting}" id="seat-${s}"><h2>seat ${s}${seat.tags.length ? " (" + esc(seat.tags.join(", ")) + ")" : ""}` +
            `${f.to_act.includes(s) ? " — to act" : ""} <span class="pay">payments ${f.payments[s]}</span></h2>` +
            `<div class="row"><span class="label">hand</span><span id="hand-${s}" data-tiles="${handData}">${hand}</span></div>` +
            `<div class="row"><span class="label">melds</span><span id="melds-${s}">${melds || "-"}</span></div>` +
            `<div class="row"><span class="label">river</span><span id="river-${s}" data-tiles="${seat.river.join(",")}">${tiles(seat.river) || "-"}</span></div></div>`;
  }
  if (f.result) {
    const r = f.result;
    html += `<table class="result" id="result"><tr><th>seat</th><th>payment</th></tr>` +
            r.payments.map((p, s) => `<tr><td>${s}${r.winners.includes(s) ? " (winner)" : ""}</td><td>${p}</td></tr>`).join("") +
            `</table><pre class="log">${esc(JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => k !== "payments"))))}</pre>`;
  }
  root.innerHTML = html;
}
