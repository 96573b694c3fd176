// The human seat's page: the server (training.server) holds the game; every click is checked there.
// Actions carry the token the server wrote into this page (it refuses requests without it).
// Click a tile of your hand to play it (discard, pick, ...); claims and the other actions are
// buttons shown only when legal. Keyboard: ←/→ move a focus over the hand, Enter plays the tile.
const TOKEN = document.querySelector('meta[name="seat-token"]').content;
let focusAt = -1;  // the hand tile the keyboard focus is on (-1: the keyboard is not used)
let shown = null;  // the last state the server sent
async function refresh(resp) {
  let data;
  try { data = await resp.json(); } catch (e) { data = {error: `the server answered ${resp.status} without JSON`}; }
  const msg = document.getElementById("message");
  msg.textContent = data.error || data.stalled || "";
  if (!data.frame) {  // refused: the table did not change; its controls come back
    if (shown) draw(shown);
    return;
  }
  shown = data;
  draw(data);
}
function draw(data) {
  const f = data.frame;
  const playing = !f.over && !data.stalled;
  const mine = new Set(data.actions);
  const legal = playing ? (f.legal[String(f.viewer)] || []).filter(a => mine.has(a.action)) : [];
  const root = document.getElementById("table");
  drawTable(f, root, playing ? {legal} : null);
  root.dataset.events = f.events;
  const log = document.getElementById("log");
  log.innerHTML = data.log.map(esc).join("<br>");
  log.scrollTop = log.scrollHeight;  // the latest events in view
  const box = document.getElementById("status");
  box.innerHTML = playing ? "" : (f.over ? `<b id="over">hand over</b> — ` +
        `<a id="replay-link" href="/replay" target="_blank">replay of this hand</a> `
        : `<b id="stalled">the hand cannot go on</b> — `) + `<button id="new">new hand</button>`;
  if (!playing) {
    document.getElementById("new").onclick = () => post("/new", {});
    return;
  }
  for (const b of root.querySelectorAll("button.act")) b.onclick = () => sendAction(parseInt(b.dataset.action, 10));
  if (focusAt >= 0) moveFocus(0);
}
function handButtons() { return [...document.querySelectorAll(".seat.pos-bottom .hand button.act:not(:disabled)")]; }
function moveFocus(by) {  // from the focused hand tile (none: from the ends); kept over a redraw
  const list = handButtons();
  if (!list.length) return;
  const cur = list.indexOf(document.activeElement);
  const from = cur >= 0 ? cur : focusAt >= 0 && by === 0 ? focusAt : by < 0 ? list.length : -1;
  focusAt = Math.max(0, Math.min(list.length - 1, from + by));
  list[focusAt].focus();
}
document.addEventListener("keydown", e => {
  if (e.key === "ArrowRight") moveFocus(1);
  else if (e.key === "ArrowLeft") moveFocus(-1);
  else return;
  e.preventDefault();  // Enter on the focused tile is the button's own click
});
function post(path, body) {
  return fetch(path, {method: "POST", headers: {"Content-Type": "application/json", "X-Seat-Token": TOKEN},
                      body: JSON.stringify(body)}).then(refresh, e => {
    document.getElementById("message").textContent = `the server did not answer (${e}): is it still running?`;
    if (shown) draw(shown);
  });
}
function sendAction(a) {  // one action at a time: the controls are put away until the answer
  for (const b of document.querySelectorAll("button.act")) { b.disabled = true; b.classList.remove("act"); }
  return post("/act", {action: a});
}
fetch("/state").then(refresh);
