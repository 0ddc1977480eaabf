// A player's profile, #/player/<id> (GET /v1/players/{id}/profile): their ratings per game
// with a small chart of each one's history (and the same points as a table), their recent
// matches and their records. Names elsewhere link here through `profileLink`.

import { call } from "./api.js";
import { presetName } from "./controls.js";
import { el } from "./ui.js";

/** @typedef {import("./api.js").Schemas["ProfileOut"]} ProfileOut */
/** @typedef {import("./api.js").Schemas["PresetRating"]} PresetRating */
/** @typedef {import("./api.js").Schemas["RecentMatch"]} RecentMatch */

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 120;
const PAD = 12;
const LEFT = 36; // room for the axis labels
const BOTTOM = 26; // room for the dates under the line
const OPPONENT = { human: "People", planner: "Planner", plain: "Plain" };
const OUTCOME = { won: "Won", lost: "Lost", drawn: "No winner", abandoned: "Abandoned" };

/** A player's name as a link to their profile (a computer's or an open seat's: plain text).
 * @param {string | null | undefined} playerId @param {string} name */
export function profileLink(playerId, name) {
  if (!playerId) return el("span", {}, name);
  return el("a", { href: `#/player/${encodeURIComponent(playerId)}`, class: "player-link" }, name);
}

/** @param {string} tag @param {Record<string, string | number>} attrs */
function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

const day = (at) => new Date(at).toLocaleDateString();

/** The history as a line (a single point as a dot), scaled to its own range.
 * @param {PresetRating} r */
function chart(r) {
  const points = r.history;
  const titleId = `chart-title-${r.preset}`;
  const box = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "rating-chart",
    role: "img",
    "aria-labelledby": titleId,
    "data-testid": `chart-${r.preset}`,
  });
  const title = svg("title", { id: titleId });
  const ratings = points.map((p) => p.rating);
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  title.textContent = points.length
    ? `${presetName(r.preset)} rating over ${points.length} rated matches: from ${ratings[0]}` +
      ` to ${ratings[ratings.length - 1]}, lowest ${low}, highest ${high}`
    : `${presetName(r.preset)}: no history yet`;
  box.append(title);
  const span = high - low;
  const inner = WIDTH - LEFT - PAD;
  // One point, or a flat line: in the middle; else the lowest at the bottom, the highest on top.
  const x = (i) => LEFT + (points.length > 1 ? (i * inner) / (points.length - 1) : inner / 2);
  const floor = HEIGHT - BOTTOM;
  const y = (v) => (span ? floor - ((v - low) * (floor - PAD)) / span : (floor + PAD) / 2);
  const coords = ratings.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
  if (coords.length > 1) box.append(svg("polyline", { points: coords.join(" "), class: "line" }));
  ratings.forEach((v, i) => box.append(svg("circle", { cx: x(i), cy: y(v), r: 3, class: "dot" })));
  for (const [value, at] of span
    ? [
        [high, PAD + 4],
        [low, floor + 4],
      ]
    : []) {
    const label = svg("text", { x: 2, y: at, class: "axis" });
    label.textContent = `${value}`;
    box.append(label);
  }
  // Over time: the first match's date under its point, the last's under its own.
  const ends = points.length > 1 ? [0, points.length - 1] : points.length ? [0] : [];
  for (const i of ends) {
    const anchor = points.length === 1 ? "middle" : i === 0 ? "start" : "end";
    const label = svg("text", {
      x: x(i),
      y: HEIGHT - 6,
      class: "axis date",
      "text-anchor": anchor,
    });
    label.textContent = day(points[i].at);
    box.append(label);
  }
  return box;
}

/** The chart's points as a table, for whoever cannot see the chart. @param {PresetRating} r */
function pointsTable(r) {
  return el(
    "details",
    {},
    el("summary", {}, "Rating history as a table"),
    el(
      "table",
      {},
      el(
        "thead",
        {},
        el("tr", {}, el("th", { scope: "col" }, "Date"), el("th", { scope: "col" }, "Rating")),
      ),
      el(
        "tbody",
        {},
        r.history.map((p) => el("tr", {}, el("td", {}, day(p.at)), el("td", {}, `${p.rating}`))),
      ),
    ),
  );
}

/** @param {PresetRating} r */
function ratingBlock(r) {
  return el(
    "section",
    { class: "profile-rating", "data-testid": `profile-rating-${r.preset}` },
    el("h4", {}, presetName(r.preset)),
    el("p", {}, `${r.rating} ± ${r.deviation} · ${r.games} rated matches`),
    chart(r),
    pointsTable(r),
  );
}

/** @param {RecentMatch} m */
function recentRow(m) {
  const seats = m.seats.map((s) => `${s.name || "an open seat"} ${s.score}`).join(", ");
  const when = m.finished_at ? ` · ${day(m.finished_at)}` : "";
  return el(
    "li",
    { "data-testid": "profile-match", "data-outcome": m.outcome },
    el("strong", {}, OUTCOME[m.outcome]),
    ` ${presetName(m.preset)}${m.rated ? " (rated)" : ""}: ${seats}${when}`,
  );
}

/** @param {ProfileOut} p */
function recordsTable(p) {
  const heads = ["Game", "Opponent", "Wins", "Losses", "Best score", "Widest margin"];
  const rows = p.records.map((r) =>
    el(
      "tr",
      {},
      [
        presetName(r.preset),
        OPPONENT[r.opponent],
        r.wins,
        r.losses,
        r.best_score ?? "–",
        r.best_margin ?? "–",
      ].map((c) => el("td", {}, `${c}`)),
    ),
  );
  return el(
    "table",
    { "data-testid": "profile-records" },
    el("caption", {}, "Records"),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        heads.map((h) => el("th", { scope: "col" }, h)),
      ),
    ),
    el(
      "tbody",
      {},
      rows.length ? rows : el("tr", {}, el("td", { colspan: heads.length }, "Nothing yet.")),
    ),
  );
}

/** #/player/<id> @param {HTMLElement} root @param {string[]} args */
export async function profilePage(root, [id = ""]) {
  /** @type {ProfileOut} */
  const p = await call("GET", `/v1/players/${encodeURIComponent(id)}/profile`);
  const ratings = p.ratings.map(ratingBlock);
  const recent = p.recent.map(recentRow);
  root.append(
    el("h2", { tabindex: "-1" }, p.name),
    el("p", {}, `Playing since ${day(p.joined_at)}`),
    el("h3", {}, "Ratings"),
    el(
      "div",
      { class: "profile-ratings" },
      ratings.length ? ratings : el("p", {}, "No rated matches yet."),
    ),
    el("h3", {}, "Recent matches"),
    el(
      "ul",
      { class: "profile-matches" },
      recent.length ? recent : el("li", {}, "No matches yet."),
    ),
    recordsTable(p),
  );
}
