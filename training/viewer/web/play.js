// The human seat's page: the server (training.play) holds the game; every click is checked there.
// Actions carry the token the server wrote into this page (it refuses requests without it).
const TOKEN = document.querySelector('meta[name="seat-token"]').content;
async function refresh(resp) {
  let data;
  try { data = await resp.json(); } catch (e) { data = {error: `the server answered ${resp.status} without JSON`}; }
  const msg = document.getElementById("message");
  msg.textContent = data.error || data.stalled || "";
  if (!data.frame) return;  // refused: the table did not change
  const f = data.frame;
  drawTable(f, document.getElementById("table"));
  document.getElementById("log").innerHTML = data.log.map(esc).join("<br>");
  const box = document.getElementById("actions");
  if (f.over || data.stalled) {
    box.innerHTML = (f.over ? `<b id="over">hand over</b> — ` +
        `<a id="replay-link" href="/replay" target="_blank">replay of this hand</a> `
        : `<b id="stalled">the hand cannot go on</b> — `) + `<button id="new">new hand</button>`;
    document.getElementById("new").onclick = () => post("/new", {});
    return;
  }
  const mine = data.actions;
  box.innerHTML = Object.entries(data.all_actions).map(([a, label]) =>
      `<button class="act" data-action="${a}" ${mine.includes(parseInt(a, 10)) ? "" : "disabled"}>` +
      `${esc(label)}</button>`).join("");
  for (const b of box.querySelectorAll("button.act")) b.onclick = () => sendAction(parseInt(b.dataset.action, 10));
}
function post(path, body) {
  return fetch(path, {method: "POST", headers: {"Content-Type": "application/json", "X-Seat-Token": TOKEN},
                      body: JSON.stringify(body)}).then(refresh);
}
function sendAction(a) { return post("/act", {action: a}); }
fetch("/state").then(refresh);
