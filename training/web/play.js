// The human seat's page: the server (training.play) holds the game; every click is checked there.
async function refresh(resp) {
  const data = await resp.json();
  const msg = document.getElementById("message");
  if (!resp.ok) { msg.textContent = data.error; return; }
  msg.textContent = "";
  const f = data.frame;
  drawTable(f, document.getElementById("table"));
  document.getElementById("log").innerHTML = data.log.map(esc).join("<br>");
  const box = document.getElementById("actions");
  if (f.over) {
    box.innerHTML = `<b id="over">hand over</b> — ` +
        `<a id="replay-link" href="/replay" target="_blank">replay of this hand</a> <button id="new">new hand</button>`;
    document.getElementById("new").onclick = () => fetch("/new", {method: "POST"}).then(refresh);
    return;
  }
  const mine = data.actions;
  box.innerHTML = Object.entries(data.all_actions).map(([a, label]) =>
      `<button class="act" data-action="${a}" ${mine.includes(parseInt(a, 10)) ? "" : "disabled"}>` +
      `${esc(label)}</button>`).join("");
  for (const b of box.querySelectorAll("button.act")) b.onclick = () => sendAction(parseInt(b.dataset.action, 10));
}
function sendAction(a) {
  return fetch("/act", {method: "POST", headers: {"Content-Type": "application/json"},
                        body: JSON.stringify({action: a})}).then(refresh);
}
fetch("/state").then(refresh);
