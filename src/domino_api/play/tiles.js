// Tile faces (moon-white, navy pips: the same for everyone) and tile backs, as SVG.

// Pip positions on a 3x3 grid (0..2, 0..2) for 0..9; the nine-pip layout fills it.
const PIPS = {
  0: [],
  1: [[1, 1]],
  2: [
    [0, 0],
    [2, 2],
  ],
  3: [
    [0, 0],
    [1, 1],
    [2, 2],
  ],
  4: [
    [0, 0],
    [2, 0],
    [0, 2],
    [2, 2],
  ],
  5: [
    [0, 0],
    [2, 0],
    [1, 1],
    [0, 2],
    [2, 2],
  ],
  6: [
    [0, 0],
    [0, 1],
    [0, 2],
    [2, 0],
    [2, 1],
    [2, 2],
  ],
  7: [
    [0, 0],
    [0, 1],
    [0, 2],
    [1, 1],
    [2, 0],
    [2, 1],
    [2, 2],
  ],
  8: [
    [0, 0],
    [0, 1],
    [0, 2],
    [1, 0],
    [1, 2],
    [2, 0],
    [2, 1],
    [2, 2],
  ],
  9: [
    [0, 0],
    [0, 1],
    [0, 2],
    [1, 0],
    [1, 1],
    [1, 2],
    [2, 0],
    [2, 1],
    [2, 2],
  ],
};

// Double-twelve's 10 to 12 (Mexican Train): two side columns of four, and two, three or
// four pips down the middle, drawn smaller to fit. [x, y] inside the half's 100 x 100.
const SIDES = [16, 39, 61, 84].flatMap((y) => [
  [22, y],
  [78, y],
]);
const MIDDLES = { 10: [36, 64], 11: [22, 50, 78], 12: [16, 39, 61, 84] };

function half(pips, ox, oy) {
  if (pips > 9) {
    const dots = [...SIDES, ...MIDDLES[pips].map((y) => [50, y])];
    return dots.map(([x, y]) => `<circle cx="${ox + x}" cy="${oy + y}" r="7"/>`).join("");
  }
  return PIPS[pips]
    .map(([col, row]) => `<circle cx="${ox + 22 + col * 28}" cy="${oy + 22 + row * 28}" r="9"/>`)
    .join("");
}

/** A face: `first` is the left (or top, when vertical) half. */
export function faceSvg(first, second, vertical = false) {
  const [w, h] = vertical ? [100, 200] : [200, 100];
  const [sx, sy] = vertical ? [0, 100] : [100, 0];
  const line = vertical
    ? `<line x1="12" y1="100" x2="88" y2="100"/>`
    : `<line x1="100" y1="12" x2="100" y2="88"/>`;
  return (
    `<svg viewBox="0 0 ${w} ${h}" aria-hidden="true" class="face">` +
    `<rect x="3" y="3" width="${w - 6}" height="${h - 6}" rx="12"/>` +
    `<g class="divider">${line}</g>` +
    `<g class="pips">${half(first, 0, 0)}${half(second, sx, sy)}</g></svg>`
  );
}

export function tileLabel(tile) {
  return `${tile[0]}-${tile[1]}`;
}

const NUMBERS = [
  "blank",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
];

/** A tile as a screen reader says it: "six-three", "double-five". */
export function tileWords(tile) {
  const [a, b] = tile.map((pips) => NUMBERS[pips] ?? String(pips));
  return tile[0] === tile[1] ? `double-${a}` : `${a}-${b}`;
}

let backImages = {};

/** The catalog's images (GET /v1/tile-backs): the service draws and serves every back. */
export function setBackCatalog(backs) {
  backImages = Object.fromEntries(backs.map((b) => [b.id, b.image]));
}

export function backUrl(id) {
  return backImages[id] ?? backImages.moon ?? "/static/tile-backs/moon.svg";
}

/** A face-down tile wearing tile back `id`. */
export function backImg(id, vertical = true) {
  const img = document.createElement("img");
  img.src = backUrl(id);
  img.alt = "";
  img.className = vertical ? "back vertical" : "back";
  img.draggable = false;
  return img;
}
