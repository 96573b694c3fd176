const HAND = JSON.parse(document.getElementById("hand-data").textContent);
const FRAMES = HAND.frames;
let at = 0;
function show(i) {
  at = Math.max(0, Math.min(FRAMES.length - 1, i));
  const f = FRAMES[at];
  drawTable(f, document.getElementById("table"));
  document.getElementById("step").textContent = `${at} / ${FRAMES.length - 1}`;
  document.getElementById("slider").value = at;
  const act = f.action ? `<b>seat ${f.action[0]}: ${esc(f.action[1])}</b><br>` : "<b>the deal</b><br>";
  const top = f.top ? "<br>policy: " + f.top.map(t => `${esc(t[2])} ${(100 * t[1]).toFixed(1)}%`).join(", ") : "";
  const legal = Object.entries(f.legal).map(([s, acts]) => `seat ${s} may: ` + acts.map(a => esc(a.name)).join(", ")).join("<br>");
  document.getElementById("log").innerHTML = act + f.log.map(esc).join("<br>") + top +
      (legal ? `<br><span class="legal" id="legal">next — ${legal}</span>` : "");
}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(at - 1);
document.getElementById("next").onclick = () => show(at + 1);
document.getElementById("last").onclick = () => show(FRAMES.length - 1);
const slider = document.getElementById("slider");
slider.max = FRAMES.length - 1;
slider.oninput = () => show(parseInt(slider.value, 10));
document.addEventListener("keydown", e => {
  if (e.key === "ArrowRight") show(at + 1);
  else if (e.key === "ArrowLeft") show(at - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(FRAMES.length - 1);
  else return;
  e.preventDefault();
});
document.getElementById("title").textContent = HAND.title;
show(0);
