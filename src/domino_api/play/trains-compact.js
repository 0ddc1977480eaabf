// Mexican Train's board on a phone (issue 52): nine trains (eight seats and the Mexican train)
// must all be in view above the hand, so each train is a cell of a grid (three columns, two on a
// taller phone), one 44 px row high: its owner's short name, its marker, its count of tiles and
// its last tiles (the last one's open end is played on), beside the end's own 44 x 44 px button. Tapping the owner opens
// the whole train as a full-width row that scrolls sideways; one train is open at a time.

import { faceSvg, tileWords } from "./tiles.js";
import { el } from "./ui.js";

/** The train shown whole, per board box (a redraw keeps it open). */
const opened = new WeakMap();

/** At most eight characters of a name: the first seven and an ellipsis. */
export function shortName(name) {
  return name.length > 8 ? `${name.slice(0, 7)}…` : name;
}

function tileFace([a, b]) {
  return el("span", { class: "train-tile", html: faceSvg(a, b, false) });
}

/**
 * One train's cell. `train`: {end, owner (full), short, marked, tiles, end button or ""};
 * `toggle` opens or closes the whole train.
 */
function cell(train, open, toggle) {
  const { end, owner, short, marked, tiles } = train;
  const count = tiles.length;
  const marker = marked ? ", a marker: open to everyone" : "";
  const words = count ? tiles.map(tileWords).join(", ") : "no tiles yet";
  // Named by its content, not aria-label: the short name drawn is for the eye only, and what a
  // screen reader (or voice control) hears starts with the full one (WCAG 2.5.3).
  const button = el(
    "button",
    {
      type: "button",
      class: "train-owner",
      "aria-expanded": String(open),
      title: `${owner}: ${count} tiles`,
      onclick: toggle,
    },
    el("span", { class: "owner-name", "aria-hidden": "true" }, short),
    el("span", { class: "visually-hidden" }, `${owner}${marker}, `),
    el(
      "span",
      { class: "train-last" },
      el("span", { class: "train-count" }, String(count)),
      el("span", { class: "visually-hidden" }, ` tiles: ${open ? "hide" : "show"} them all`),
      // The last three tiles: a taller phone shows them all, a short one the last alone.
      open ? "" : el("span", { class: "train-ends" }, ...tiles.slice(-3).map(tileFace)),
    ),
  );
  const whole = open
    ? el(
        "div",
        { class: "train-strip", tabindex: "0", role: "group", "aria-label": `${owner}: tiles` },
        ...tiles.map((tile) => tileFace(tile)),
      )
    : "";
  return el(
    "li",
    { class: `train compact${marked ? " marked" : ""}${open ? " open" : ""}`, "data-train": end },
    button,
    train.target,
    // A badge on the cell's corner: the owner's name keeps the cell's width.
    marked
      ? el("span", { class: "marker", "aria-hidden": "true", title: "Open to everyone" }, "M")
      : "",
    // The whole train, from the engine out, for a screen reader without opening it.
    el("span", { class: "visually-hidden" }, `${owner} from the engine: ${words}.`),
    whole,
  );
}

/**
 * The compact trains list drawn into `box`; `trains` as for `cell`, `redraw()` draws the board
 * again (after a train is opened or closed).
 * @param {HTMLElement} box
 * @param {any[]} trains
 * @param {() => void} redraw
 */
export function compactTrains(box, trains, redraw) {
  const open = opened.get(box) ?? null;
  const rows = trains.map((train) =>
    cell(train, train.end === open, () => {
      opened.set(box, train.end === open ? null : train.end);
      redraw();
      // The redraw replaced the button: the focus goes back to the same train's.
      const again = box.querySelector(`[data-train="${train.end}"] .train-owner`);
      if (again instanceof HTMLElement) again.focus();
    }),
  );
  const list = el("ol", { class: "trains-list compact" }, ...rows);
  const strip = list.querySelector(".train-strip");
  return { list, scroll: () => strip && (strip.scrollLeft = strip.scrollWidth) };
}
