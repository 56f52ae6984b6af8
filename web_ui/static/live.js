/* gammoncam: live updates by Server-Sent Events, with reconnection and Last-Event-ID.
   GC.live({onState(state, event), onStatus(text)}) keeps one EventSource open on /api/stream.
   The browser reconnects by itself and sends Last-Event-ID; when the stream is closed for good
   (a server restart answering an error) a new EventSource resumes with ?last_id=N. */
"use strict";

(function () {
  const GC = window.GC || (window.GC = {});

  GC.live = function (handlers) {
    let lastId = null;
    let source = null;
    let backoff = 1000;
    const status = (text) => handlers.onStatus && handlers.onStatus(text);

    function connect() {
      const url = lastId === null ? "/api/stream" : "/api/stream?last_id=" + lastId;
      source = new EventSource(url);
      source.onopen = () => { backoff = 1000; status("live"); };
      source.addEventListener("state", (msg) => {
        lastId = Number(msg.lastEventId);
        const data = JSON.parse(msg.data);
        handlers.onState(data.state, null);
      });
      source.addEventListener("update", (msg) => {
        lastId = Number(msg.lastEventId);
        const data = JSON.parse(msg.data);
        handlers.onState(data.state, data.event);
      });
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED) {
          status("reconnecting");
          source.close();
          setTimeout(connect, backoff);
          backoff = Math.min(backoff * 2, 15000);
        } else {
          status("reconnecting");
        }
      };
    }
    connect();
    return { lastId: () => lastId, close: () => source && source.close() };
  };

  /* A short two-tone alert through WebAudio (browsers allow it after a user gesture). */
  let audio = null;
  GC.enableSound = function () {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return false;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
    return true;
  };
  GC.beep = function () {
    if (!audio) return false;
    const t = audio.currentTime;
    [[880, 0], [660, 0.18]].forEach(([freq, at]) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t + at);
      gain.gain.exponentialRampToValueAtTime(0.3, t + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + at + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(t + at);
      osc.stop(t + at + 0.18);
    });
    return true;
  };

  GC.text = function (node, text) { if (node) node.textContent = text == null ? "" : String(text); };
  GC.$ = (sel, root) => (root || document).querySelector(sel);
  GC.make = function (tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  GC.REASON_TITLES = {
    illegal_play: "Illegal play", illegal_double: "Illegal double", reroll: "Re-roll",
  };
  GC.crawfordText = function (state) {
    if (!state.match_length) return "money play";
    return { pre: "", crawford: "Crawford game", post: "post-Crawford" }[state.crawford] || "";
  };
  GC.callTitle = function (call) {
    return (GC.REASON_TITLES[call.kind] || call.kind) + " \u2014 " +
      ((call.player && GC.lastState && GC.lastState.players) ? GC.lastState.players[String(call.player)] : "");
  };
  GC.playsOfGame = function (state) {
    return (state.plays || []).filter((p) => p.game === state.game);
  };
  /* A play as written: "31: 8/5 6/5", or "63: (no play)" for a roll that left none. */
  GC.playText = function (p) {
    return (p.dice && p.dice.length === 2 ? `${p.dice[0]}${p.dice[1]}: ` : "") + (p.play || "(no play)");
  };
  /* Rows of the play list: [turn, player 1's "31: 8/5 6/5", player 2's]. */
  GC.playRows = function (state) {
    const rows = new Map();
    for (const p of GC.playsOfGame(state)) {
      if (!rows.has(p.turn)) rows.set(p.turn, ["", ""]);
      const text = GC.playText(p);
      rows.get(p.turn)[p.player === 1 ? 0 : 1] = text;
    }
    return Array.from(rows.entries()).sort((a, b) => a[0] - b[0]).map(([t, r]) => [t, r[0], r[1]]);
  };
})();
