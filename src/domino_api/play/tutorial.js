// Seed 002's six-step tutorial of Draw to 50: on its own page (#/tutorial) and in a dialog at
// a Draw to 50 table ("How to play").

import { faceSvg } from "./tiles.js";
import { el, fill } from "./ui.js";

/** Each step: a title, what it teaches, and a few tiles that show it. */
const DRAW_50 = [
  {
    title: "The tiles and the deal",
    text:
      "Two players use a double-six set: 28 tiles, from 0-0 to 6-6. A blank counts as zero; a " +
      "double has the same value on both halves. Each player receives 7 tiles; the other 14 " +
      "form the face-down stock.",
    tiles: [
      [0, 0],
      [2, 5],
      [6, 6],
    ],
  },
  {
    title: "Who opens",
    text:
      "In the first round the highest double dealt opens. With no double in either hand, the " +
      "tile with the highest pip total opens; a tied total goes to the higher half. Later " +
      "rounds alternate the opener from the match's first starter, with any tile.",
    tiles: [
      [6, 6],
      [5, 5],
      [4, 6],
    ],
  },
  {
    title: "Playing a tile",
    text:
      "Join tiles end to end so that touching values match. Select a tile, then an open end " +
      "it fits. The chain scrolls sideways and both open ends keep their value labels.",
    tiles: [
      [1, 3],
      [3, 3],
      [3, 6],
    ],
  },
  {
    title: "Drawing and passing",
    text:
      "You must play when you can. When no tile fits, draw until one does or the stock is " +
      "empty, and play it at once. Pass only when the stock is empty and nothing fits. Two " +
      "passes in a row block the round.",
    tiles: [[2, 4]],
  },
  {
    title: "Winning a round",
    text:
      "Empty your hand to win the round at once. In a blocked round the lower pip total wins; " +
      "equal totals score nothing. Either way the winner scores every pip left in the " +
      "opponent's hand, without subtracting their own.",
    tiles: [
      [5, 6],
      [1, 2],
    ],
  },
  {
    title: "Winning the match",
    text:
      "The first player to reach or pass 50 points wins. Tab moves between controls, Enter or " +
      "Space activates one. On one device, pass it at each turn, then reveal your own hand. " +
      "There is no clock: take your time.",
    tiles: [
      [5, 5],
      [0, 5],
    ],
  },
];

const TUTORIALS = { "draw-50": DRAW_50 };

export function hasTutorial(preset) {
  return preset in TUTORIALS;
}

/** The steps with Back and Next; Next on the last step (or Close) calls `close`. */
export function tutorial(preset, close) {
  const steps = TUTORIALS[preset];
  let at = 0;
  const body = el("div", { class: "tutorial-step", "aria-live": "polite" });
  const back = el("button", { type: "button", onclick: () => go(at - 1) }, "Back");
  const next = el("button", { type: "button", class: "primary", onclick: () => go(at + 1) });
  const go = (step) => {
    if (step >= steps.length) return close();
    at = Math.max(0, step);
    const { title, text, tiles } = steps[at];
    fill(
      body,
      el("p", { class: "step-count" }, `Step ${at + 1} of ${steps.length}`),
      el("h3", {}, title),
      el("p", {}, text),
      el(
        "div",
        { class: "tiles", "aria-hidden": "true" },
        tiles.map(([a, b]) => el("span", { html: faceSvg(a, b) })),
      ),
    );
    back.disabled = at === 0;
    next.textContent = at === steps.length - 1 ? "Done" : "Next";
  };
  go(0);
  return el(
    "section",
    { class: "tutorial", "aria-label": "How to play" },
    body,
    el(
      "div",
      { class: "row" },
      back,
      next,
      el("button", { type: "button", class: "quiet", onclick: close }, "Close"),
    ),
  );
}

/** The tutorial over the table, in a modal dialog (Escape closes it too). */
export function openTutorial(preset) {
  const dialog = el("dialog", { class: "tutorial-dialog", "aria-label": "How to play" });
  dialog.append(tutorial(preset, () => dialog.close()));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  dialog.querySelector("button.primary")?.focus();
}

/** #/tutorial: Draw to 50's rules in six steps, then to a solo table. */
export function tutorialPage(root) {
  root.append(
    el("h2", { tabindex: "-1" }, "Learn Draw to 50"),
    tutorial("draw-50", () => (location.hash = "#/solo")),
  );
}
