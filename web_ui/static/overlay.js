/* gammoncam overlay: what to show comes from the query string (see /overlay in SCHEMA.md). */
"use strict";

(function () {
  const GC = window.GC;
  const $ = GC.$;
  const body = document.body;
  const elements = (body.dataset.elements || "").split(",");
  const sound = body.dataset.sound === "1";
  let shownCall = null;

  function render(state) {
    GC.lastState = state;
    const board = $("#board");
    if (board) GC.drawBoard(board, state, { numbers: false });
    if ($("#bug")) {
      for (const p of ["1", "2"]) {
        GC.text($(`#name${p}`), state.players ? state.players[p] : "");
        GC.text($(`#score${p}`), elements.includes("score") && state.score ? state.score[p] : "");
        GC.text($(`#pips${p}`), elements.includes("pips") && state.pips ? state.pips[p] : "");
        $(`#row${p}`).classList.toggle("on-roll", state.on_roll === Number(p));
      }
      const parts = [state.match_length ? `${state.match_length}-point match` : "money play"];
      if (state.match_length && state.crawford && state.crawford !== "pre") parts.push(GC.crawfordText(state));
      if (state.cube && state.cube.value > 1) parts.push(`cube ${state.cube.value}`);
      GC.text($("#bugfoot"), parts.join(" \u00b7 "));
    }
    const plays = $("#ovplays");
    if (plays) {
      plays.replaceChildren();
      for (const p of GC.playsOfGame(state).slice(-4)) {
        const who = state.players ? state.players[String(p.player)] : "";
        plays.append(GC.make("div", "", `${who.split(" ")[0]}  ${GC.playText(p)}`));
      }
      plays.hidden = plays.childElementCount === 0;
    }
    const banner = $("#ovcall");
    if (banner) {
      const call = state.call;
      const visible = !!(call && call.pending && state.mode !== "silent");
      banner.hidden = !visible;
      if (visible) {
        const who = state.players ? state.players[String(call.player)] : "";
        GC.text($("#ovcall-title"), `${GC.REASON_TITLES[call.kind] || call.kind}: ${who}`);
        GC.text($("#ovcall-detail"), call.detail || call.reason || "");
        if (shownCall !== call.id) { shownCall = call.id; if (sound && GC.enableSound()) GC.beep(); }
      }
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const scale = Number(body.dataset.scale || "1");
    $("#stack").style.setProperty("transform", `scale(${scale})`);
    GC.live({ onState: render });
  });
})();
