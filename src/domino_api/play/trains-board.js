// Mexican Train's board (docs/RULES.md section 13, docs/TRAINS.md): the round's engine double as
// the hub, then one row per train, each labelled with its owner's name and a marker badge when
// it carries one, the Mexican train last. A row scrolls sideways within itself, so the page
// stays as wide as the phone; a train's open end is the same target the line's ends are. On a
// phone, more than three trains are drawn as a compact grid instead (trains-compact.js).

import { faceSvg } from "./tiles.js";
import { compactTrains, shortName } from "./trains-compact.js";
import { el, seatName } from "./ui.js";

/** A phone's width (style.css's own breakpoint): the trains of more than two seats go compact. */
const PHONE = "(max-width: 899px)";

/** @typedef {import("./api.js").ViewOut} ViewOut */

/** The tiles of one train, each turned so the pip it joined comes first. */
function trainTiles(board, end) {
  return board.tiles
    .filter((t) => t.end === end)
    .map((t) => (t.tile[0] === t.outer ? [t.tile[1], t.tile[0]] : [t.tile[0], t.tile[1]]));
}

function owner(view, end) {
  if (end === "mexican") return "Mexican train";
  return `${seatName(view.seats[Number(end.slice(5))])}'s train`;
}

function ownerShort(view, end) {
  return end === "mexican" ? "Mexican" : shortName(seatName(view.seats[Number(end.slice(5))]));
}

function isMarked(board, end) {
  return end !== "mexican" && (board.markers || []).includes(Number(end.slice(5)));
}

function endButton(end, target) {
  const said = [
    el("span", { "aria-hidden": "true" }, target.label),
    el("span", { class: "visually-hidden" }, target.aria),
  ];
  const attrs = { class: `end-target${target.glow ? " glow" : ""}`, "data-end": end };
  return target.onclick
    ? el("button", { ...attrs, type: "button", onclick: target.onclick }, said)
    : el("span", attrs, said);
}

function trainRow(view, end, targets) {
  const board = view.board;
  const marked = isMarked(board, end);
  const label = el(
    "p",
    { class: "train-owner" },
    owner(view, end),
    marked ? " " : "",
    marked ? el("span", { class: "marker", title: "Open to everyone" }, "marker") : "",
  );
  const tiles = trainTiles(board, end).map(([a, b]) =>
    el("div", { class: "train-tile", html: faceSvg(a, b, false) }),
  );
  const target = targets(end);
  // A row that scrolls sideways is a stop of the keyboard's, so its tiles can be scrolled to.
  const strip = el(
    "div",
    {
      class: "train-strip",
      tabindex: "0",
      role: "group",
      "aria-label": `${owner(view, end)}: tiles`,
    },
    ...tiles,
    target ? endButton(end, target) : "",
  );
  return el("li", { class: `train${marked ? " marked" : ""}`, "data-train": end }, label, strip);
}

/** Each train a row of all its tiles, scrolling sideways (wide windows, and two seats' trains). */
function drawRows(box, hub, view, targets) {
  box.classList.remove("compact");
  const rows = view.board.ends.map((e) => trainRow(view, e.end, targets));
  const previous = [...box.querySelectorAll(".train-strip")].map((s) => s.scrollLeft);
  box.replaceChildren(hub, el("ol", { class: "trains-list" }, ...rows));
  // A row keeps where the player scrolled it; a new play shows the row's open end.
  box.querySelectorAll(".train-strip").forEach((strip, n) => {
    strip.scrollLeft = Math.max(previous[n] || 0, strip.scrollWidth - strip.clientWidth);
  });
}

/** Each train a cell of a grid, its last tile shown (a phone: trains-compact.js). */
function drawCompact(box, hub, view, targets) {
  const board = view.board;
  const trains = board.ends.map(({ end }) => {
    const target = targets(end);
    return {
      end,
      owner: owner(view, end),
      short: ownerShort(view, end),
      marked: isMarked(board, end),
      tiles: trainTiles(board, end),
      target: target ? endButton(end, target) : "",
    };
  });
  const { list, scroll } = compactTrains(box, trains, () => renderTrains(box, view, targets));
  box.classList.add("compact");
  box.replaceChildren(hub, list);
  scroll();
}

/**
 * Draw the hub and trains of `view.board` into `box`; `targets(end)` as for `renderBoard`.
 * @param {HTMLElement} box
 * @param {ViewOut} view
 * @param {(end: string | null) => any} targets
 */
export function renderTrains(box, view, targets) {
  const board = view.board;
  box.classList.remove("scrolling");
  box.classList.add("trains");
  box.tabIndex = 0; // its rows scroll within it: the keyboard reaches them (WCAG 2.1.1)
  const engine = board.tiles[0];
  const hub = engine
    ? el(
        "div",
        // A picture with a name: a bare div may not carry aria-label (axe, WCAG 4.1.2).
        { class: "hub", role: "img", "aria-label": `Engine ${engine.tile[0]}-${engine.tile[1]}` },
        el("div", { class: "train-tile", html: faceSvg(engine.tile[0], engine.tile[1], false) }),
      )
    : "";
  if (board.ends.length > 3 && window.matchMedia(PHONE).matches)
    drawCompact(box, hub, view, targets);
  else drawRows(box, hub, view, targets);
  // Where the board has too little room for its rows (a phone's wide rows, a long hand, a train
  // opened whole) they scroll within it: a picked tile's first glowing end is brought into the
  // board's view, so the person never has to hunt for where it goes.
  box.querySelector(".end-target.glow")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  const markers = (board.markers || []).length;
  box.setAttribute(
    "aria-label",
    `The board: engine and ${board.ends.length} trains, ${board.tiles.length - 1} tiles on them; ${markers} markers`,
  );
}
