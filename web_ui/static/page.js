/* gammoncam: the viewer page (/) — board, names, score, plays, the call banner and history. */
"use strict";

(function () {
  const GC = window.GC;
  const $ = GC.$;
  let soundOn = false;
  let shownCall = null;

  function renderHeader(state) {
    for (const p of ["1", "2"]) {
      GC.text($(`#name${p}`), state.players ? state.players[p] : "");
      GC.text($(`#score${p}`), state.score ? state.score[p] : 0);
      GC.text($(`#pips${p}`), state.pips ? `pips ${state.pips[p]}` : "");
      $(`#side${p}`).classList.toggle("on-roll", state.on_roll === Number(p));
    }
    GC.text($("#length"), state.match_length ? `${state.match_length}-point match` : "money play");
    GC.text($("#crawford"), state.match_length ? GC.crawfordText(state) : "");
    $("#crawford").hidden = !(state.match_length && state.crawford && state.crawford !== "pre");
    GC.text($("#game"), `game ${state.game || 1}` + (state.turn ? ` \u00b7 turn ${state.turn}` : ""));
    GC.text($("#variant"), state.variant === "long" ? "long nardy" : "backgammon");
    GC.text($("#mode"), state.mode === "silent" ? "silent mode" : "monitor mode");
    $("#mode").classList.toggle("silent", state.mode === "silent");
  }

  function renderPlays(state) {
    const body = $("#plays tbody");
    body.replaceChildren();
    for (const [turn, a, b] of GC.playRows(state)) {
      const tr = GC.make("tr");
      tr.append(GC.make("td", "turn", `${turn})`), GC.make("td", "p1", a), GC.make("td", "p2", b));
      body.append(tr);
    }
    const wrap = $("#plays-wrap");
    wrap.scrollTop = wrap.scrollHeight;
    GC.text($("#plays-h1"), state.players ? state.players["1"] : "");
    GC.text($("#plays-h2"), state.players ? state.players["2"] : "");
  }

  function renderCalls(state) {
    const list = $("#calls");
    list.replaceChildren();
    const calls = (state.calls || []).slice().reverse();
    for (const c of calls) {
      const li = GC.make("li", c.pending ? "pending" : "");
      const who = state.players ? state.players[String(c.player)] : `player ${c.player}`;
      li.append(GC.make("strong", "", `${GC.REASON_TITLES[c.kind] || c.kind}`),
                GC.make("span", "where", ` game ${c.game}, turn ${c.turn}, ${who || ""}`),
                GC.make("div", "detail", c.detail || c.reason || ""));
      const status = c.pending ? "pending" : (c.resolution || (c.acknowledged_by ? "acknowledged" : "closed"));
      const by = c.pending ? "" : (c.overruled_by || c.recorded_by || c.acknowledged_by || "");
      li.append(GC.make("span", "status", by ? `${status} by ${by}` : status));
      list.append(li);
    }
    $("#no-calls").hidden = calls.length > 0;
  }

  function renderBanner(state, event) {
    const call = state.call;
    const banner = $("#banner");
    const visible = !!(call && call.pending && state.mode !== "silent");
    banner.hidden = !visible;
    if (visible) {
      const who = state.players ? state.players[String(call.player)] : "";
      GC.text($("#banner-title"), `${GC.REASON_TITLES[call.kind] || call.kind}: ${who}`);
      GC.text($("#banner-detail"), call.detail || call.reason || "");
      GC.text($("#banner-reason"), `${call.reason || ""} \u00b7 game ${call.game}, turn ${call.turn}`);
      banner.dataset.callId = String(call.id);
      if (shownCall !== call.id) {
        shownCall = call.id;
        banner.classList.remove("flash");
        void banner.offsetWidth;
        banner.classList.add("flash");
        if (soundOn) GC.beep();
      }
    }
  }

  function renderWarning(state) {
    const warnings = state.warnings || [];
    const el = $("#warning");
    el.hidden = warnings.length === 0;
    GC.text(el, warnings.length ? `Warning: ${warnings[warnings.length - 1]}` : "");
  }

  function render(state, event) {
    GC.lastState = state;
    GC.drawBoard($("#board"), state);
    renderHeader(state);
    renderPlays(state);
    renderCalls(state);
    renderBanner(state, event);
    renderWarning(state);
    GC.text($("#gnubg-id"), state.ids && state.ids.gnubg ? state.ids.gnubg : "\u2014");
    GC.text($("#xgid"), state.ids && state.ids.xgid ? state.ids.xgid : "\u2014");
    document.body.dataset.lastEvent = event ? String(event.id) : document.body.dataset.lastEvent || "";
    if (event) { GC.seen = (GC.seen || []).concat([event.id]).slice(-50); }
    document.body.dataset.turn = String(state.turn);
  }

  document.addEventListener("DOMContentLoaded", () => {
    GC.drawBoard($("#board"), null);
    $("#sound").addEventListener("click", () => {
      soundOn = !soundOn && GC.enableSound();
      $("#sound").textContent = soundOn ? "sound: on" : "sound: off";
      $("#sound").setAttribute("aria-pressed", soundOn ? "true" : "false");
      if (soundOn) GC.beep();
    });
    GC.live({
      onState: render,
      onStatus: (s) => { GC.text($("#conn"), s); $("#conn").className = "conn " + s; },
    });
  });
})();
