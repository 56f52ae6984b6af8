/* gammoncam: draw the board as SVG from the state's board JSON (SCHEMA.md).
   Player 1 (light) sits at the bottom: its point 1 bottom right, 12 bottom left, 13 top left,
   24 top right. Both variants are drawn from board.points alone. */
"use strict";

const GC = window.GC || (window.GC = {});

(function () {
  const NS = "http://www.w3.org/2000/svg";
  // geometry of the drawing, in SVG units
  const B = 24;            // frame width
  const PW = 66;           // point width
  const Q = 6 * PW;        // a quarter (six points)
  const BAR = 70;          // bar width
  const TRAY = 84;         // bear-off tray width
  const H = 640;           // inner height
  const W = B + Q + BAR + Q + B + TRAY + B;
  const TOTAL_H = H + 2 * B + 40; // room for point numbers
  const TOP = 20 + B;      // y of the playing field
  const PH = H * 0.41;     // triangle height
  const R = PW / 2 - 3;    // checker radius

  function el(name, attrs, parent, text) {
    const node = document.createElementNS(NS, name);
    for (const key in attrs) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // x of the centre of player 1's point p (1..24), and whether it is in the top row
  function pointX(p) {
    const rightStart = B + Q + BAR;
    if (p >= 1 && p <= 6) return rightStart + (6 - p) * PW + PW / 2;
    if (p >= 7 && p <= 12) return B + (12 - p) * PW + PW / 2;
    if (p >= 13 && p <= 18) return B + (p - 13) * PW + PW / 2;
    return rightStart + (p - 19) * PW + PW / 2;
  }

  function checker(g, x, y, player, label) {
    const cls = player === 1 ? "ck ck1" : "ck ck2";
    el("circle", { cx: x, cy: y, r: R, class: cls }, g);
    el("circle", { cx: x, cy: y, r: R * 0.62, class: cls + " ck-ring" }, g);
    if (label) el("text", { x: x, y: y + 9, class: "ck-label ck-label" + player }, g, label);
  }

  function stack(g, x, yBase, dir, player, count, maxShown) {
    const shown = Math.min(count, maxShown);
    for (let i = 0; i < shown; i++) {
      const y = yBase + dir * (R + i * 2 * R);
      const label = i === shown - 1 && count > maxShown ? String(count) : "";
      checker(g, x, y, player, label);
    }
  }

  function die(g, x, y, value, player, size) {
    const s = size || 52;
    el("rect", { x: x - s / 2, y: y - s / 2, width: s, height: s, rx: s * 0.18,
                 class: player === 1 ? "die die1" : "die die2" }, g);
    const o = s * 0.27;
    const spots = {
      1: [[0, 0]], 2: [[-o, -o], [o, o]], 3: [[-o, -o], [0, 0], [o, o]],
      4: [[-o, -o], [o, -o], [-o, o], [o, o]], 5: [[-o, -o], [o, -o], [0, 0], [-o, o], [o, o]],
      6: [[-o, -o], [o, -o], [-o, 0], [o, 0], [-o, o], [o, o]],
    }[value] || [];
    for (const [dx, dy] of spots) {
      el("circle", { cx: x + dx, cy: y + dy, r: s * 0.09, class: player === 1 ? "pip pip1" : "pip pip2" }, g);
    }
  }

  function cube(g, x, y, cubeState) {
    const value = cubeState.offered ? cubeState.value * 2 : cubeState.value;
    const s = 56;
    el("rect", { x: x - s / 2, y: y - s / 2, width: s, height: s, rx: 8,
                 class: cubeState.offered ? "cube cube-offered" : "cube" }, g);
    el("text", { x: x, y: y + 11, class: "cube-text" }, g, String(value === 1 ? 64 : value));
  }

  /* Draw `state` into the <svg> element `svg`. opts: {numbers: true} */
  GC.drawBoard = function (svg, state, opts) {
    opts = opts || {};
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", opts.numbers === false ? `0 20 ${W} ${H + 2 * B}` : `0 0 ${W} ${TOTAL_H}`);
    svg.setAttribute("role", "img");
    const board = state && state.board;
    const g = el("g", {}, svg);
    const bottom = TOP + H;
    // frame, field, bar, tray
    el("rect", { x: 0, y: 20, width: W, height: H + 2 * B, rx: 14, class: "frame" }, g);
    el("rect", { x: B, y: TOP, width: Q, height: H, class: "field" }, g);
    el("rect", { x: B + Q + BAR, y: TOP, width: Q, height: H, class: "field" }, g);
    el("rect", { x: B + Q, y: TOP, width: BAR, height: H, class: "bar" }, g);
    const trayX = B + 2 * Q + BAR + B;
    el("rect", { x: trayX, y: TOP, width: TRAY, height: H / 2 - 8, class: "tray" }, g);
    el("rect", { x: trayX, y: TOP + H / 2 + 8, width: TRAY, height: H / 2 - 8, class: "tray" }, g);
    // points
    for (let p = 1; p <= 24; p++) {
      const x = pointX(p);
      const top = p >= 13;
      const yb = top ? TOP : bottom;
      const yt = top ? TOP + PH : bottom - PH;
      const cls = "tri " + ((p % 2) ? "tri-a" : "tri-b");
      el("polygon", { points: `${x - PW / 2 + 1},${yb} ${x + PW / 2 - 1},${yb} ${x},${yt}`, class: cls }, g);
      if (opts.numbers !== false) {
        el("text", { x: x, y: top ? 15 : TOTAL_H - 4, class: "pt-num" }, g, String(p));
      }
    }
    if (!board || !Array.isArray(board.points)) return;
    const maxShown = 5;
    board.points.forEach((entry, i) => {
      const p = i + 1;
      const owner = entry[0], count = entry[1];
      if (!owner || !count) return;
      const top = p >= 13;
      stack(g, pointX(p), top ? TOP : bottom, top ? 1 : -1, owner, count, maxShown);
    });
    // bar: player 1's checkers below the middle, player 2's above
    const barX = B + Q + BAR / 2;
    const mid = TOP + H / 2;
    const bar = board.bar || {};
    if (bar["1"]) stack(g, barX, mid + 40, 1, 1, bar["1"], 4);
    if (bar["2"]) stack(g, barX, mid - 40, -1, 2, bar["2"], 4);
    // trays: player 1 bears off into the lower tray, player 2 into the upper
    const off = board.off || {};
    const slab = 13;
    for (const [player, y0, dir] of [[1, bottom - 6, -1], [2, TOP + 6, 1]]) {
      const n = off[String(player)] || 0;
      for (let k = 0; k < n; k++) {
        const y = y0 + dir * (k * (slab + 3)) + (dir < 0 ? -slab : 0);
        el("rect", { x: trayX + 10, y: y, width: TRAY - 20, height: slab, rx: 4,
                     class: player === 1 ? "slab slab1" : "slab slab2" }, g);
      }
      if (n) {
        el("text", { x: trayX + TRAY / 2, y: dir < 0 ? y0 - n * (slab + 3) - 8 : y0 + n * (slab + 3) + 22,
                     class: "off-count" }, g, String(n));
      }
    }
    // cube: in the middle of the tray side when centred, else on its owner's side
    if (state.cube && state.variant !== "long") {
      const c = state.cube;
      const cy = c.owner === 1 ? bottom - H / 2 + 70 : c.owner === 2 ? TOP + H / 2 - 70 : mid;
      cube(g, trayX + TRAY / 2, c.offered ? mid : cy, c);
    }
    // dice: in the thrower's right-hand half (player 1: right half; player 2: left half)
    // (dice the camera reads but the referee has not recorded yet are drawn faded)
    const seen = state.dice_seen;
    const shown = state.dice && state.dice.length === 2 && state.on_roll ? [state.dice, state.on_roll, g]
      : seen && seen.dice && seen.dice.length === 2 && (seen.player || state.on_roll)
        ? [seen.dice, seen.player || state.on_roll, el("g", { class: "dice-unsure" }, g)] : null;
    if (shown) {
      const [values, player, into] = shown;
      const cx = player === 1 ? B + Q + BAR + Q / 2 : B + Q / 2;
      die(into, cx - 36, mid, values[0], player);
      die(into, cx + 36, mid, values[1], player);
    }
    // pip counts, when the profile allows aids
    if (state.pips) {
      el("text", { x: B + Q + BAR / 2, y: bottom + B - 5, class: "pips-text" }, g, String(state.pips["1"]));
      el("text", { x: B + Q + BAR / 2, y: TOP - 7, class: "pips-text" }, g, String(state.pips["2"]));
    }
  };

  GC.BOARD_SIZE = { width: W, height: TOTAL_H };
})();
