/* gammoncam referee page: every form posts to /api/referee/<action> with the token, the
   author and the page's CSRF token as form fields; the answer is shown, never a reload. */
"use strict";

(function () {
  const GC = window.GC;
  const $ = GC.$;
  let filled = false;

  async function send(form) {
    const result = $("#result");
    const token = $("#token").value;
    if (!token) { result.className = "result err"; GC.text(result, "Enter the referee token first."); return; }
    const data = new FormData(form);
    data.set("token", token);
    data.set("author", $("#author").value || "referee");
    data.set("csrf", document.querySelector(".officials").dataset.csrf);
    for (const [key, value] of Array.from(data.entries())) if (value === "") data.delete(key);
    const action = form.dataset.action;
    try {
      const answer = await fetch("/api/referee/" + action, {
        method: "POST", body: new URLSearchParams(data), credentials: "same-origin",
      });
      const body = await answer.json().catch(() => ({}));
      result.className = answer.ok ? "result ok" : "result err";
      GC.text(result, answer.ok ? `${action}: ${body.message}` : `${action} refused (${answer.status}): ${body.error || ""}`);
      if (answer.ok) sessionStorage.setItem("gammoncam-author", $("#author").value);
    } catch (err) {
      result.className = "result err";
      GC.text(result, `${action}: the server did not answer`);
    }
  }

  function logEvent(event) {
    if (!event || event.type !== "referee") return;
    const li = GC.make("li", event.result === "rejected" ? "rejected" : "");
    const when = new Date(event.time * 1000).toLocaleTimeString();
    li.textContent = `${when} ${event.author}: ${event.action} — ${event.result}: ${event.message}`;
    $("#log").prepend(li);
  }

  function renderWarnings(state) {
    // every warning, not only the latest as on the live board: the official decides what they change
    const warnings = state.warnings || [];
    $("#warnings-card").hidden = warnings.length === 0;
    const list = $("#warnings");
    list.replaceChildren(...warnings.map((text) => GC.make("li", "", text)));
  }

  function fillAmend(d) {
    // a doubt's turn into the amend form; the dice read are offered where the record has another
    // roll, as a foul where its play is one for them
    const form = document.querySelector("form[data-action=amend_roll]");
    const recorded = ((GC.lastState && GC.lastState.plays) || []).find(
      (p) => p.game === d.game && p.turn === d.turn && p.player === d.player);
    const offered = d.dice && !(recorded && recorded.dice.join() === d.dice.join());
    form.elements.game.value = d.game;
    form.elements.turn.value = d.turn;
    form.elements.player.value = String(d.player);
    form.elements.dice.value = offered ? d.dice.join("-") : "";
    form.elements.foul.checked = Boolean(offered && d.foul_if_read);
    form.elements.dice.focus();
  }

  function renderDoubts(state) {
    // moments the watch was unsure of and did not call, for the official to check on the board:
    // first those whose play is a foul if the dice were read right (likeliest reading first),
    // then the rest newest first
    const newest = (state.doubts || []).slice().reverse();
    const doubts = [...newest.filter((d) => d.foul_if_read).sort((a, b) => (b.probability ?? 0) - (a.probability ?? 0)),
                    ...newest.filter((d) => !d.foul_if_read)];
    $("#doubts-card").hidden = doubts.length === 0;
    $("#doubts").replaceChildren(...doubts.map((d) => {
      const who = state.players && d.player ? `${state.players[String(d.player)]}: ` : "";
      const at = `${Math.floor(d.t / 60)}:${String(Math.floor(d.t % 60)).padStart(2, "0")}`;  // the video's m:ss
      const turn = d.turn != null ? `, turn ${d.turn}` : "";
      const text = `game ${d.game}${turn}, at ${at}, ${who}${d.what}`;
      const item = GC.make("li", d.foul_if_read ? "foul-if-read" : "", text);
      if (d.foul_if_read) {
        const how = [d.probability != null ? `read ${d.dice.join("-")} at ${d.probability}` : "",
                     d.px != null ? `dice ${d.px} px` : ""].filter(Boolean).join(", ");
        item.prepend(GC.make("strong", "", "Could hide a foul: "));
        if (how) item.append(` (${how})`);
      }
      if (d.action === "state_double") {
        // a cube action the watch may have missed: the official who saw it states the double
        const stateDouble = GC.make("button", "amend-doubt", "state double…");
        stateDouble.type = "button";
        stateDouble.addEventListener("click", () => {
          const form = document.querySelector("form[data-action=state_double]");
          form.elements.player.value = String(d.player);
          form.querySelector("button").focus();
        });
        item.append(" ", stateDouble);
      } else if (d.type === "game_end_unseen") {
        // a game whose end the record did not see: its result may be stated (the form names the game)
        const stateResult = GC.make("button", "amend-doubt", "state result…");
        stateResult.type = "button";
        stateResult.addEventListener("click", () => {
          const form = document.querySelector("form[data-action=state_result]");
          form.elements.game.value = d.game;
          form.elements.points.focus();
        });
        item.append(" ", stateResult);
      } else if (d.turn != null && d.player) {
        // the roll recorded there can be amended (the form refuses a roll its play does not fit)
        const amend = GC.make("button", "amend-doubt", "amend roll…");
        amend.type = "button";
        amend.addEventListener("click", () => fillAmend(d));
        item.append(" ", amend);
      }
      return item;
    }));
  }

  function followThrow(state) {
    // the correct-dice form names whose throw is being played: the one recorded, else the one seen
    const form = document.querySelector("form[data-action=correct_dice]");
    const player = state.dice && state.dice.length ? state.on_roll : (state.dice_seen && state.dice_seen.player);
    if (player && !form.contains(document.activeElement)) form.elements.player.value = String(player);
  }

  function renderActions(state) {
    // a watched game offers only the actions that leave its record to the board (state.actions)
    const allowed = state.actions;
    document.querySelectorAll("form.act-form").forEach((form) => {
      const off = Array.isArray(allowed) && !allowed.includes(form.dataset.action);
      form.querySelectorAll("button, input, select").forEach((el) => { el.disabled = off; });
      form.title = off ? "Not while a game is watched: the record follows the board" : "";
    });
  }

  function render(state, event) {
    GC.lastState = state;
    GC.drawBoard($("#board"), state);
    renderActions(state);
    followThrow(state);
    renderWarnings(state);
    renderDoubts(state);
    const call = state.call;
    const card = $("#callcard");
    card.classList.toggle("pending", !!(call && call.pending));
    if (call) {
      const who = state.players ? state.players[String(call.player)] : "";
      GC.text($("#call-text"), `#${call.id} ${GC.REASON_TITLES[call.kind] || call.kind} by ${who} (game ${call.game}, turn ${call.turn}): ` +
        `${call.detail || call.reason}` + (call.pending ? " — pending" : ` — ${call.resolution || "closed"}`));
      $("#ack-call-id").value = String(call.id);
    } else {
      GC.text($("#call-text"), "No call.");
      $("#ack-call-id").value = "";
    }
    const plays = GC.playsOfGame(state);
    const last = plays[plays.length - 1];
    GC.text($("#last-play"), last ? `Last play: ${state.players[String(last.player)]} ${GC.playText(last)}` : "No play yet in this game.");
    GC.text($("#summary"), `${state.players ? state.players["1"] + " " + state.score["1"] + " – " + state.score["2"] + " " + state.players["2"] : ""}` +
      ` · ${state.match_length ? state.match_length + "-point match" : "money play"} · game ${state.game} · ${state.profile} · ${state.mode} mode`);
    if (!filled && state.players) {
      filled = true;
      $("#p1").value = state.players["1"];
      $("#p2").value = state.players["2"];
      $("#len").value = String(state.match_length);
      $("#profile").value = state.profile;
      $("#mode-select").value = state.mode === "monitor" ? "silent" : "monitor";
    }
    logEvent(event);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const saved = sessionStorage.getItem("gammoncam-author");
    if (saved) $("#author").value = saved;
    $("#login").addEventListener("submit", (e) => e.preventDefault());
    document.querySelectorAll("form.act-form").forEach((form) => {
      form.addEventListener("submit", (e) => { e.preventDefault(); send(form); });
    });
    fetch("/api/events?since=0").then((r) => r.json()).then((body) => {
      for (const event of body.events || []) logEvent(event);
    }).catch(() => {});
    GC.live({ onState: render, onStatus: (s) => GC.text($("#conn"), s) });
  });
})();
