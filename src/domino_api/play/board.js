// The board's geometry: the line through the pivot (the spinner, else the first tile), the
// spinner's up and down arms, and lines that bend back at the table's edge so the whole board
// fits. Units: a tile is 2 x 1; the pivot's centre is (0, 0).

import { faceSvg } from "./tiles.js";
import { el } from "./ui.js";

const other = (tile, pip) => (tile[0] === pip ? tile[1] : tile[0]);
const isDouble = (tile) => tile[0] === tile[1];

/** The whole line from the far left end to the far right end, each tile with its two sides. */
function sequence(tiles) {
  const [first, ...rest] = tiles;
  const arm = (name) => rest.filter((t) => t.end === name);
  const left = arm("left").map((t) => ({ ...t, l: t.outer, r: other(t.tile, t.outer) }));
  const right = arm("right").map((t) => ({ ...t, l: other(t.tile, t.outer), r: t.outer }));
  const centre = { ...first, l: first.tile[0], r: first.tile[1] };
  return { line: [...left.reverse(), centre, ...right], up: arm("up"), down: arm("down") };
}

class Walker {
  constructor(start, dir, bend, bounds) {
    // Plain assignments, not Object.assign: the type check (tsconfig.json) reads fields from them.
    this.p = start;
    this.d = dir;
    this.bend = bend;
    this.bounds = bounds;
    this.last = { A: 1 };
    this.justBent = false;
  }

  fits(length) {
    if (!this.bounds || this.justBent) return true;
    const { p, d, bounds } = this;
    return d[0] > 0 ? p[0] + length <= bounds.maxX : p[0] - length >= bounds.minX;
  }

  /** The rectangle a tile takes from point p in direction d, and which half comes first. */
  static rect(p, d, double, inner, outer) {
    const [L, A] = double ? [1, 2] : [2, 1];
    const horizontal = d[0] !== 0;
    const far = [p[0] + d[0] * L, p[1] + d[1] * L];
    const [x, w] = horizontal ? [Math.min(p[0], far[0]), L] : [p[0] - A / 2, A];
    const [y, h] = horizontal ? [p[1] - A / 2, A] : [Math.min(p[1], far[1]), L];
    const forward = d[0] + d[1] > 0;
    return { x, y, w, h, first: forward ? inner : outer, second: forward ? outer : inner };
  }

  /** Where the next tile goes, without placing it: {rect, next state}. */
  plan(double, inner, outer) {
    const L = double ? 1 : 2;
    // A double never turns a corner (lying across, it would crowd the rows): it goes straight,
    // at most one unit past the edge, and the tile after it turns.
    if (double || this.fits(L)) {
      const rect = Walker.rect(this.p, this.d, double, inner, outer);
      const p = [this.p[0] + this.d[0] * L, this.p[1] + this.d[1] * L];
      return { rect, state: { p, d: this.d, last: { A: double ? 2 : 1 }, justBent: false } };
    }
    // Bend: the tile turns the corner under (or over) the last tile's outer half, and the line
    // comes back the other way from the side of its far half.
    const { p, d, bend } = this;
    const A = double ? 2 : 1;
    const start = [
      p[0] - d[0] / 2 + bend[0] * (this.last.A / 2),
      p[1] - d[1] / 2 + bend[1] * (this.last.A / 2),
    ];
    const rect = Walker.rect(start, bend, double, inner, outer);
    const back = [-d[0], -d[1]];
    const farHalf = [start[0] + bend[0] * (L - 0.5), start[1] + bend[1] * (L - 0.5)];
    const next = [farHalf[0] + back[0] * (A / 2), farHalf[1] + back[1] * (A / 2)];
    return { rect, state: { p: next, d: back, last: { A }, justBent: true } };
  }

  place(double, inner, outer) {
    const { rect, state } = this.plan(double, inner, outer);
    Object.assign(this, state);
    return rect;
  }
}

/** Rectangles for every tile and for every open end's next place. */
export function layout(board, halfWidth) {
  if (board.tiles.length === 0)
    return { tiles: [], targets: { null: { x: -1, y: -0.5, w: 2, h: 1 } } };
  const { line, up, down } = sequence(board.tiles);
  let pivot = line.findIndex((t) => t.spinner);
  if (pivot < 0) pivot = line.findIndex((t) => t.end === null);
  const centre = line[pivot];
  const crosswise = isDouble(centre.tile);
  const [hw, hh] = crosswise ? [0.5, 1] : [1, 0.5];
  const X = Math.max(halfWidth, 6.5);
  const walkers = {
    right: new Walker([hw, 0], [1, 0], [0, 1], { minX: 1.5, maxX: X }),
    left: new Walker([-hw, 0], [-1, 0], [0, -1], { minX: -X, maxX: -1.5 }),
    up: new Walker([0, -hh], [0, -1], null, null),
    down: new Walker([0, hh], [0, 1], null, null),
  };
  const tiles = [{ x: -hw, y: -hh, w: 2 * hw, h: 2 * hh, first: centre.l, second: centre.r }];
  for (const t of line.slice(pivot + 1))
    tiles.push(walkers.right.place(isDouble(t.tile), t.l, t.r));
  for (const t of line.slice(0, pivot).reverse())
    tiles.push(walkers.left.place(isDouble(t.tile), t.r, t.l));
  for (const [name, arm] of [
    ["up", up],
    ["down", down],
  ]) {
    for (const t of arm)
      tiles.push(walkers[name].place(isDouble(t.tile), other(t.tile, t.outer), t.outer));
  }
  const targets = {};
  for (const end of board.ends)
    targets[end.end] = walkers[end.end].plan(false, end.pips, end.pips).rect;
  return { tiles, targets };
}

function bounds(rects) {
  const xs = rects.flatMap((r) => [r.x, r.x + r.w]);
  const ys = rects.flatMap((r) => [r.y, r.y + r.h]);
  return {
    x: Math.min(...xs),
    y: Math.min(...ys),
    w: Math.max(...xs) - Math.min(...xs),
    h: Math.max(...ys) - Math.min(...ys),
  };
}

const MAX_UNIT = 34;

/** The layout with the largest tiles: wider lanes bend less but may force smaller tiles. */
function fit(board, width, height) {
  let best = null;
  for (let unit = MAX_UNIT; unit >= 14; unit -= 4) {
    const shape = layout(board, Math.floor(width / unit / 2) - 1);
    const area = bounds([...shape.tiles, ...Object.values(shape.targets)]);
    const size = Math.min(MAX_UNIT, width / area.w, height / area.h);
    if (!best || size > best.unit) best = { shape, area, unit: size };
  }
  return best;
}

/** How a preset's board meets the table's edge (each seed describes its own): seed 002's Draw
 * to 50 keeps one straight chain that scrolls sideways; the others bend lines back. */
const SCROLLING = new Set(["draw-50"]);

export function scrolls(preset) {
  return SCROLLING.has(preset);
}

/** The straight chain at full tile size, however long: its box scrolls sideways. */
function straight(board, height) {
  const shape = layout(board, Infinity);
  const area = bounds([...shape.tiles, ...Object.values(shape.targets)]);
  return { shape, area, unit: Math.min(MAX_UNIT, height / area.h) };
}

function drawLayer({ shape, area, unit }, targets) {
  const place = (r) =>
    `left:${(r.x - area.x) * unit}px;top:${(r.y - area.y) * unit}px;width:${r.w * unit}px;height:${r.h * unit}px`;
  const layer = el("div", {
    class: "board-layer",
    style: `width:${area.w * unit}px;height:${area.h * unit}px`,
  });
  for (const r of shape.tiles) {
    layer.append(
      el("div", { class: "placed", style: place(r), html: faceSvg(r.first, r.second, r.h > r.w) }),
    );
  }
  for (const [end, r] of Object.entries(shape.targets)) {
    const target = targets(end === "null" ? null : end);
    if (!target) continue;
    if (target.mark) {
      layer.append(
        el("span", { class: "end-target next", style: place(r), "aria-hidden": "true" }, ""),
      );
      continue;
    }
    const attrs = {
      class: `end-target${target.glow ? " glow" : ""}`,
      style: place(r),
      "data-end": end,
    };
    // The name is the whole sentence; the drawn figure (points or pips) is for the eye.
    const said = [
      el("span", { "aria-hidden": "true" }, target.label),
      el("span", { class: "visually-hidden" }, target.aria),
    ];
    layer.append(
      target.onclick
        ? el("button", { ...attrs, type: "button", onclick: target.onclick }, said)
        : el("span", attrs, said),
    );
  }
  return layer;
}

/** An end of the chain as drawn on the chain itself: a tile picked, its glowing ends are the
 * pinned buttons at the table's sides (always in view), and the chain marks only the place. */
function onChain(targets) {
  return (end) => {
    const target = targets(end);
    return target?.glow && end !== null ? { label: target.label, aria: "", mark: true } : target;
  };
}

/** The scrolling chain, with each open end's value pinned at its side of the table; a picked
 * tile's playable ends are glowing buttons there. */
function scrollingChain(box, board, layer, targets) {
  const previous = box.querySelector(".chain-scroll");
  const scroller = el("div", { class: "chain-scroll" }, layer);
  const arrow = (end, text) =>
    `${end.end === "left" ? "◀ " : ""}${text}${end.end === "right" ? " ▶" : ""}`;
  const label = (end) => {
    const target = targets(end.end);
    if (!target?.glow)
      return el(
        "p",
        { class: `end-label ${end.end}`, "data-end": end.end, "aria-hidden": "true" },
        arrow(end, end.pips),
      );
    return el(
      "button",
      {
        type: "button",
        class: `end-label end-target glow ${end.end}`,
        "data-end": end.end,
        onclick: target.onclick,
      },
      el("span", { "aria-hidden": "true" }, arrow(end, target.label)),
      el("span", { class: "visually-hidden" }, target.aria),
    );
  };
  box.replaceChildren(scroller, ...board.ends.map(label));
  // The chain stays where the player left it; a new hand starts in the middle.
  const centre = (scroller.scrollWidth - scroller.clientWidth) / 2;
  scroller.scrollLeft = previous && board.tiles.length > 1 ? previous.scrollLeft : centre;
  // A picked tile that fits one end only: the chain shows where it will go.
  const marks = layer.querySelectorAll(".end-target.next");
  if (marks.length === 1) marks[0].scrollIntoView({ block: "nearest", inline: "nearest" });
}

/** The drawing's room inside `box`. A box the page sizes (the phone's table, whose board takes
 * what the bar, seats and hand leave: `--board-fit: box` in style.css) gives its own inner size,
 * so the whole layout is scaled into it; elsewhere the board grows with half the window. */
function room(box, scroll) {
  const style = getComputedStyle(box);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const width = (box.clientWidth || 800) - padX - 8;
  if (style.getPropertyValue("--board-fit").trim() !== "box" || !box.clientHeight)
    return { width, height: Math.max(260, window.innerHeight * 0.5) };
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  // The scrolling chain keeps its end labels above the tiles.
  return { width, height: Math.max(40, box.clientHeight - padY - (scroll ? 60 : 4)) };
}

/**
 * Draw `board` into `box`. `targets(end)` returns null (no target) or
 * {label, aria, onclick, glow}: a button at that end's next place. `scroll`: the chain scrolls
 * sideways (see `scrolls`) instead of bending.
 */
/** @param {HTMLElement} box @param {import("./api.js").ViewOut["board"]} board */
export function renderBoard(box, board, targets, scroll = false) {
  const { width, height } = room(box, scroll);
  const fitted = scroll ? straight(board, height) : fit(board, width, height);
  const layer = drawLayer(fitted, scroll ? onChain(targets) : targets);
  box.classList.toggle("scrolling", scroll);
  if (scroll) scrollingChain(box, board, layer, targets);
  else box.replaceChildren(layer);
  const open = board.ends.map((e) => `${e.end} ${e.pips}`).join(", ");
  box.setAttribute(
    "aria-label",
    board.tiles.length
      ? `The board: ${board.tiles.length} tiles; open ends ${open}`
      : "The board is empty",
  );
}
