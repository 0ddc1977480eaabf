// Your hand: real buttons in a row (arrow keys move along it, Enter picks a tile), drag a tile
// onto a glowing end, or pick it and then pick the end; Escape drops the choice.

import { faceSvg, tileLabel, tileWords } from "./tiles.js";
import { el, hints, seatName } from "./ui.js";

export const sameTile = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

/** The plays `view.legal` offers for one tile. */
export function playsOf(view, tile) {
  return view.legal.filter((o) => o.action === "play" && sameTile(o.tile, tile));
}

function moveFocus(row, event) {
  const buttons = [...row.querySelectorAll("button")];
  const at = buttons.indexOf(document.activeElement);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step || at < 0) return false;
  const next = buttons[(at + step + buttons.length) % buttons.length];
  for (const b of buttons) b.tabIndex = b === next ? 0 : -1;
  next.focus();
  return true;
}

/** Arrow keys move between the buttons of `row` (one tab stop for the whole row). */
export function arrowRow(row) {
  row.addEventListener("keydown", (event) => {
    if (moveFocus(row, event)) event.preventDefault();
  });
}

/** An end as said aloud: "the left end"; at Mexican Train "Ana's train", "the Mexican train". */
function endWords(view, end) {
  if (end === "mexican") return "the Mexican train";
  if (end.startsWith("train")) return `${seatName(view.seats[Number(end.slice(5))])}'s train`;
  return `the ${end} end`;
}

/** Where a tile goes and what it scores, for its name: "playable on the left end, scores 10". */
function playable(view, plays) {
  const fives = view.ruleset.play_scoring === "fives";
  const one = (p) =>
    `${p.end === null ? "to open the hand" : `on ${endWords(view, p.end)}`}${fives && p.points ? `, scores ${p.points}` : ""}`;
  return `playable ${plays.map(one).join("; or ")}`;
}

/** @param {import("./api.js").ViewOut} view */
export function renderHand(view, ctx) {
  const hand = view.you?.hand || [];
  const row = el("div", {
    class: "hand",
    role: "group",
    "aria-label": "Your hand (arrow keys to choose, Enter to pick, then Enter on a glowing end)",
  });
  const focusAt = Math.max(
    0,
    hand.findIndex((t) => sameTile(t, ctx.selected ?? ctx.lastFocus)),
  );
  hand.forEach((tile, index) => {
    const plays = playsOf(view, tile);
    const best = plays.length ? Math.max(...plays.map((p) => p.points || 0)) : null;
    const chosen = Boolean(sameTile(tile, ctx.selected));
    const hinted = plays.length && hints();
    const label = `${tileWords(tile)}${hinted ? `, ${playable(view, plays)}` : ""}`;
    const button = el("button", {
      type: "button",
      class: `tile${plays.length ? " playable" : ""}${chosen ? " chosen" : ""}`,
      "data-tile": tileLabel(tile),
      "aria-label": label,
      "aria-pressed": String(chosen),
      tabindex: index === focusAt ? 0 : -1,
      draggable: plays.length ? "true" : "false",
      html: faceSvg(tile[0], tile[1], true),
      onclick: () => ctx.pick(tile),
      ondragstart: (event) => {
        event.dataTransfer.setData("text/plain", tileLabel(tile));
        ctx.pick(tile, true);
      },
    });
    if (best && hinted)
      button.append(el("span", { class: "badge", "aria-hidden": "true" }, `+${best}`));
    row.append(button);
  });
  arrowRow(row);
  row.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && ctx.selected) ctx.pick(null);
  });
  return row;
}

/** What the board shows at one end: a glowing button for the chosen tile, else the pips. */
export function endTarget(view, ctx, end) {
  const pips = view.board.ends.find((e) => e.end === end)?.pips;
  const play = ctx.selected && playsOf(view, ctx.selected).find((p) => p.end === end);
  if (!play) {
    return end === null
      ? null
      : { label: String(pips), aria: `${endWords(view, end)} shows ${pips}` };
  }
  const where = end === null ? "to open the hand" : `on ${endWords(view, end)} (${pips})`;
  const scoring = view.ruleset.play_scoring !== "none" && hints();
  const points = scoring ? `+${play.points || 0}` : end === null ? "Play here" : `${pips}`;
  return {
    glow: true,
    label: points,
    aria: `Play ${tileWords(ctx.selected)} ${where}${scoring && play.points ? `, scores ${play.points}` : ""}`,
    onclick: () => ctx.play(play),
  };
}

/** Keys on the board's end buttons: arrows move between them, Escape drops the choice. */
export function wireEnds(box, ctx) {
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      ctx.pick(null);
      event.preventDefault();
    } else if (moveFocus(box, event)) {
      event.preventDefault();
    }
  });
  box.addEventListener("dragover", (event) => {
    if (event.target.closest?.(".end-target.glow")) event.preventDefault();
  });
  box.addEventListener("drop", (event) => {
    const target = event.target.closest?.(".end-target.glow");
    if (!target) return;
    event.preventDefault();
    target.click();
  });
}

/** Hot-seat: between two players the next hand stays hidden until its player asks for it. */
export function revealScreen(seat, reveal) {
  return el(
    "div",
    { class: "reveal", role: "dialog", "aria-label": "Hand over the device" },
    el("p", {}, `Pass the device to ${seatName(seat)}.`),
    el(
      "button",
      { type: "button", class: "primary", onclick: reveal },
      `Show ${seatName(seat)}'s hand`,
    ),
  );
}
