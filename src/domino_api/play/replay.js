// The replay page, #/replay/<match id>: a match's events (GET /v1/matches/{id}/events, as the
// caller may see them) applied one move at a time by the table's own reducer (reducer.js) to a
// view with nothing dealt yet, so a replay shows what the events show and nothing more. Buttons
// and the arrow keys step through every move of every hand; each hand's end shows its hands.

import { call } from "./api.js";
import { renderBoard, scrolls } from "./board.js";
import { renderTrains } from "./trains-board.js";
import { presetName } from "./controls.js";
import { applyEvent } from "./reducer.js";
import { faceSvg, tileLabel } from "./tiles.js";
import { el, seatName } from "./ui.js";

/** @typedef {import("./api.js").ViewOut} ViewOut */
/** @typedef {import("./api.js").TableEvent} TableEvent */

// The events a step ends on; the rest (scores, turns, presence) ride with the move before them.
const MOVES = new Set([
  "hand_started",
  "tile_played",
  "tile_drawn",
  "passed",
  "forfeit",
  "hand_ended",
  "match_ended",
]);
const PAGE = 5000;

/** Every event of the match, page after page. */
async function allEvents(matchId) {
  /** @type {TableEvent[]} */
  const events = [];
  for (;;) {
    const after = events.length ? events[events.length - 1].seq : 0;
    const page = await call("GET", `/v1/matches/${matchId}/events?after=${after}&limit=${PAGE}`);
    events.push(...page.events);
    if (page.events.length < PAGE) return events;
  }
}

/**
 * The view before the first event: the match's seats and preset, nothing dealt, nothing scored.
 * @param {ViewOut} view
 * @returns {ViewOut}
 */
function blank(view) {
  const start = structuredClone(view);
  Object.assign(start, {
    seq: 0,
    status: "waiting",
    hand_number: 0,
    board: { tiles: [], ends: [], ends_total: 0 },
    turn: null,
    legal: [],
    last_hand: null,
    result: null,
    stock: 0,
  });
  for (const seat of start.seats)
    Object.assign(seat, { score: 0, hands_won: 0, tiles: 0, forfeited: false });
  if (start.you) start.you.hand = [];
  return start;
}

/**
 * The view after each step, with the move that ended it.
 * @param {ViewOut} view
 * @param {TableEvent[]} events
 */
export function steps(view, events) {
  let now = blank(view);
  /** @type {{ view: ViewOut, event: TableEvent | null }[]} */
  const out = [{ view: now, event: null }];
  for (const event of events) {
    now = applyEvent(now, event);
    if (MOVES.has(event.type)) out.push({ view: now, event });
    else out[out.length - 1] = { ...out[out.length - 1], view: now };
  }
  return out;
}

// A hand's remaining tiles, drawn as the table draws them face up (seats.js).
const tile = (t) =>
  el("span", { class: "shown-tile", "aria-label": tileLabel(t), html: faceSvg(t[0], t[1], true) });

/** What the move was, in words. */
function caption(step) {
  const { event, view } = step;
  if (!event) return "Before the first hand";
  const who = (seat) => seatName(view.seats[seat]);
  switch (event.type) {
    case "hand_started":
      return `Hand ${event.data.hand_number} dealt`;
    case "tile_played":
      return `${who(event.data.seat)} plays ${tileLabel(event.data.tile)}`;
    case "tile_drawn":
      return `${who(event.data.seat)} draws`;
    case "passed":
      return `${who(event.data.seat)} passes`;
    case "forfeit":
      return `${who(event.data.seat)} forfeits`;
    case "hand_ended":
      return `Hand ${event.data.number} over`;
    default:
      return "The match is over";
  }
}

/** Each seat's name and score, and at a hand's end the tiles it still held. */
function seatsList(step) {
  const { view, event } = step;
  const shown = event?.type === "hand_ended" ? event.data.hands : null;
  return el(
    "ol",
    { class: "replay-seats" },
    ...view.seats.map((seat, n) =>
      el(
        "li",
        { "data-seat": String(n), class: view.turn?.seat === n ? "turn" : "" },
        el("strong", {}, seatName(seat)),
        " ",
        el("span", { class: "replay-score" }, String(seat.score)),
        shown ? el("div", { class: "faceup replay-hand" }, ...shown[n].map(tile)) : null,
      ),
    ),
  );
}

/** The page: fetches the view and the events, then draws step `at`. */
export async function replayPage(root, [matchId]) {
  const [view, events] = await Promise.all([
    call("GET", `/v1/matches/${matchId}`),
    allEvents(matchId),
  ]);
  const all = steps(view, events);
  let at = 0;
  const board = el("div", { class: "board replay-board", role: "group" });
  const where = el("p", { class: "replay-where", "aria-live": "polite" });
  const seats = el("div", { class: "replay-seats-box" });
  const button = (label, to) =>
    el(
      "button",
      { type: "button", class: `replay-${label.toLowerCase()}`, onclick: () => go(to()) },
      label,
    );
  const draw = () => {
    const step = all[at];
    where.textContent = `Move ${at} of ${all.length - 1}: ${caption(step)}`;
    seats.replaceChildren(seatsList(step));
    if (step.view.ruleset.layout === "trains") renderTrains(board, step.view, () => null);
    else renderBoard(board, step.view.board, () => null, scrolls(step.view.ruleset.name));
  };
  const go = (to) => {
    at = Math.max(0, Math.min(all.length - 1, to));
    draw();
  };
  const keys = (event) => {
    if (event.key === "ArrowRight") go(at + 1);
    else if (event.key === "ArrowLeft") go(at - 1);
    else return;
    event.preventDefault();
  };
  root.append(
    el("h2", { tabindex: "-1" }, `Replay: ${presetName(view.ruleset.name)}`),
    el(
      "div",
      { class: "replay-controls" },
      button("First", () => 0),
      button("Back", () => at - 1),
      button("Forward", () => at + 1),
      button("Last", () => all.length - 1),
    ),
    where,
    seats,
    board,
    el("p", {}, el("a", { href: `#/ledger/${matchId}` }, "The ledger")),
  );
  draw();
  document.addEventListener("keydown", keys);
  return () => document.removeEventListener("keydown", keys);
}
