/* gammoncam calibration: four draggable corner handles over the camera frame (frame pixels). */
"use strict";

(function () {
  const GC = window.GC;
  const $ = GC.$;
  const NS = "http://www.w3.org/2000/svg";
  let corners = null;
  let dragging = -1;

  function draw() {
    const svg = $("#handles");
    svg.replaceChildren();
    if (!corners) return;
    const poly = document.createElementNS(NS, "polygon");
    poly.setAttribute("points", corners.map((c) => c.join(",")).join(" "));
    svg.append(poly);
    corners.forEach((c, i) => {
      const h = document.createElementNS(NS, "circle");
      h.setAttribute("cx", c[0]); h.setAttribute("cy", c[1]); h.setAttribute("r", 16);
      h.dataset.index = String(i);
      h.classList.add("handle");
      svg.append(h);
      const t = document.createElementNS(NS, "text");
      t.setAttribute("x", c[0] + 20); t.setAttribute("y", c[1] - 18);
      t.textContent = String(i + 1);
      svg.append(t);
    });
  }

  function toFrame(evt) {
    const svg = $("#handles");
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const img = $("#frame");
    return [Math.max(0, Math.min(img.naturalWidth, Math.round(p.x))), Math.max(0, Math.min(img.naturalHeight, Math.round(p.y)))];
  }

  async function load() {
    const info = await (await fetch("/api/calibration")).json();
    const img = $("#frame");
    if (!info.frame) { $("#noframe").hidden = false; $("#wrap").hidden = true; return; }
    img.onload = () => {
      const w = img.naturalWidth, h = img.naturalHeight;
      $("#handles").setAttribute("viewBox", `0 0 ${w} ${h}`);
      corners = info.corners || [[w * 0.2, h * 0.2], [w * 0.8, h * 0.2], [w * 0.8, h * 0.8], [w * 0.2, h * 0.8]];
      corners = corners.map((c) => [Math.round(c[0]), Math.round(c[1])]);
      draw();
    };
    img.src = "/api/frame.jpg?t=" + Date.now();
  }

  async function save(e) {
    e.preventDefault();
    const data = new URLSearchParams();
    data.set("token", $("#token").value);
    data.set("author", $("#author").value || "referee");
    data.set("csrf", document.querySelector(".officials").dataset.csrf);
    data.set("corners", JSON.stringify(corners));
    const answer = await fetch("/api/referee/calibrate", { method: "POST", body: data, credentials: "same-origin" });
    const body = await answer.json().catch(() => ({}));
    $("#result").className = answer.ok ? "result ok" : "result err";
    GC.text($("#result"), answer.ok ? body.message : `refused (${answer.status}): ${body.error || ""}`);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const svg = $("#handles");
    svg.addEventListener("pointerdown", (e) => {
      if (e.target.dataset && e.target.dataset.index !== undefined) {
        dragging = Number(e.target.dataset.index);
        svg.setPointerCapture(e.pointerId);
      }
    });
    svg.addEventListener("pointermove", (e) => { if (dragging >= 0) { corners[dragging] = toFrame(e); draw(); } });
    svg.addEventListener("pointerup", () => { dragging = -1; });
    $("#calib").addEventListener("submit", save);
    $("#reload").addEventListener("click", load);
    load();
  });
})();
