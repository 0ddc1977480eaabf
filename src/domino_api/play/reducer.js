// The table's reducer: a seat's view moved on by one of its event copies
// (docs/API.md, "The view" and "Events"). The page applies every event the socket brings with it instead of
// fetching the view again; only a gap (an event whose seq does not follow the view's) calls for a
// fresh view. The Python twin is the bots package's reducer;
// tests/clients/test_reducer_property.py holds both to the server's own next view. Pure: the view passed in is never changed.
//
// What no event carries stays as it was: `now`, and a connected seat's `away_deadline`, which
// moves with every sighting of its holder. A seat that goes away gets `away_since` and
// `away_deadline` from its `seat_disconnected` (then only `deadline_moved` moves it).

/**
 * @typedef {import("./api.js").ViewOut} ViewOut
 * @typedef {import("./api.js").SeatOut} SeatOut
 * @typedef {import("./api.js").LegalOut} LegalOut
 * @typedef {import("./api.js").TableEvent} TableEvent
 * @typedef {ViewOut["board"]} BoardOut
 */

const NEXT_HAND_DELAY_MS = 30_000; // a clocked match deals the next hand 30 s after one ends
/** @typedef {BoardOut["ends"][number]["end"]} EndName */
/** @type {EndName[]} */
const MAINS = ["left", "right"];
/** @type {EndName[]} */
const ALL_ENDS = ["left", "right", "up", "down"];

/**
 * Whether `event` is the one that comes next for `view` (else it is old, or events were missed).
 * @param {ViewOut} view
 * @param {{ seq: number }} event
 */
export function follows(view, event) {
  return event.seq === view.seq + 1;
}

/**
 * Whether the view after `event` follows from the two: the event is the next one, and it is
 * not the end of a match in which the viewer's seat may have forfeited (the end shows a
 * forfeited seat's holder its seats again, which a view without `you` cannot know).
 * @param {ViewOut} view
 * @param {TableEvent} event
 */
export function canApply(view, event) {
  if (!follows(view, event)) return false;
  const forfeits = view.seats.some((seat) => seat.forfeited);
  return !(event.type === "match_ended" && view.you === null && forfeits);
}

/**
 * The view after `event`, a new object; `view` is left as it was. The caller applies only an
 * event it `canApply` to the view, and reads the view again otherwise.
 * @param {ViewOut} view
 * @param {TableEvent} event
 * @returns {ViewOut}
 */
export function applyEvent(view, event) {
  /** @type {ViewOut} */
  const out = structuredClone(view);
  out.seq = event.seq;
  const me = out.you ? out.you.seat : null;
  switch (event.type) {
    case "seat_joined": {
      const { name, type, strategy } = event.data;
      Object.assign(out.seats[event.data.seat], { name, type, strategy });
      break;
    }
    case "seat_connected":
      Object.assign(out.seats[event.data.seat], { connected: true, away_since: null });
      break;
    case "seat_disconnected": {
      const { seat, away_since, away_deadline } = event.data;
      out.seats[seat].connected = false;
      // Carried since issue 47; an event recorded before leaves them as they were.
      if (away_since !== undefined) out.seats[seat].away_since = away_since;
      if (away_deadline !== undefined) out.seats[seat].away_deadline = away_deadline;
      break;
    }
    case "match_started":
      out.status = "playing";
      out.check_in_deadline = null;
      break;
    case "hand_started":
      handStarted(out, event.data);
      break;
    case "turn": {
      const { seat, deadline, must_cover } = event.data;
      // Mexican Train: the turn moving on from a seat that drew a tile that did not fit.
      if (out.ruleset.layout === "trains" && out.turn && out.turn.seat !== seat)
        mark(out.board, out.turn.seat);
      out.turn = { seat, deadline, must_cover };
      out.legal = seat === me ? options(event.data.legal) : [];
      break;
    }
    case "tile_played":
      tilePlayed(out, event.data, me);
      break;
    case "tile_drawn": {
      const { seat, stock, tile } = event.data;
      out.seats[seat].tiles += 1;
      out.stock = stock;
      if (out.you && tile) out.you.hand = [...out.you.hand, tile];
      // The drawer who keeps the turn gets what it may do now in its own copy (no `turn` event).
      out.legal = options(event.data.legal);
      break;
    }
    case "passed":
      if (out.ruleset.layout === "trains") mark(out.board, event.data.seat);
      out.turn = null;
      out.legal = [];
      break;
    case "scored":
      for (const mate of sameTeam(out, event.data.seat)) out.seats[mate].score = event.data.score;
      withTeams(out, null);
      break;
    case "hand_ended":
      handEnded(out, event.data, event.at);
      break;
    case "match_ended":
      matchEnded(out, event.data);
      break;
    case "forfeit":
      forfeit(out, event.data.seat, me);
      break;
    case "autopilot_on":
    case "autopilot_off":
      out.seats[event.data.seat].autopilot = event.type === "autopilot_on";
      break;
    case "ready":
      out.seats[event.data.seat].ready = true;
      break;
    case "rematch_created":
      out.rematch_match_id = event.data.match_id;
      break;
    case "tile_back_changed":
      out.seats[event.data.seat].tile_back = event.data.tile_back;
      break;
    case "deadline_moved":
      if (event.data.clock === "turn" && out.turn) out.turn.deadline = event.data.deadline;
      else if (event.data.clock === "away")
        out.seats[event.data.seat].away_deadline = event.data.deadline;
      break;
    case "talk_changed":
      out.talk_off = event.data.off;
      break;
    default: // message, rematch_offered: nothing the view shows
  }
  return out;
}

/**
 * Options as the view lists them: an event carries them in the view's own form.
 * @param {LegalOut[] | null | undefined} items
 * @returns {LegalOut[]}
 */
function options(items) {
  return structuredClone(items || []);
}

/**
 * @param {ViewOut} view
 * @param {Extract<TableEvent, { type: "hand_started" }>["data"]} data
 */
function handStarted(view, data) {
  view.status = "playing";
  view.hand_number = data.hand_number;
  view.next_hand_at = null;
  data.tiles.forEach((count, seat) => (view.seats[seat].tiles = count));
  view.stock = data.stock;
  view.board = view.ruleset.layout === "trains" ? hub(view.ruleset, data.hand_number) : EMPTY();
  view.turn = null;
  view.legal = [];
  if (view.you) view.you.hand = data.hand ? data.hand.map((t) => [t[0], t[1]]) : [];
}

/**
 * @param {ViewOut} view
 * @param {Extract<TableEvent, { type: "tile_played" }>["data"]} data
 * @param {number | null} me
 */
function tilePlayed(view, data, me) {
  const { seat, tile, end, outer, spinner } = data;
  view.seats[seat].tiles -= 1;
  if (view.you && seat === me)
    view.you.hand = view.you.hand.filter((t) => t[0] !== tile[0] || t[1] !== tile[1]);
  const board = view.board;
  board.tiles = [...board.tiles, { tile, end, outer, spinner }];
  if (view.ruleset.layout === "trains") {
    board.ends = board.ends.map((e) => (e.end === end ? { end, pips: outer } : e));
    // Playing on its own train takes the seat's marker off (engine/trains/layout.py `played`).
    if (end === `train${seat}`) board.markers = (board.markers || []).filter((s) => s !== seat);
  } else board.ends = openEnds(board, view.ruleset.layout);
  board.ends_total = data.ends_total;
  view.turn = null;
  view.legal = [];
}

const EMPTY = () => ({ tiles: [], ends: [], ends_total: 0 });

/**
 * Mexican Train's board before a round's first play (engine/trains/layout.py `hub`): the
 * round's engine double, then one train per seat and the Mexican train, all at its pip.
 * @param {ViewOut["ruleset"]} ruleset
 * @param {number} number the round
 * @returns {BoardOut}
 */
function hub(ruleset, number) {
  const { max_pip, players } = ruleset;
  const pip = max_pip - ((number - 1) % (max_pip + 1));
  /** @type {EndName[]} */
  const names = [];
  for (let seat = 0; seat < players; seat += 1) names.push(/** @type {EndName} */ (`train${seat}`));
  names.push("mexican");
  return {
    tiles: [{ tile: [pip, pip], end: null, outer: null, spinner: true }],
    ends: names.map((end) => ({ end, pips: pip })),
    ends_total: 0,
    markers: [],
  };
}

/**
 * A marker on `seat`'s train: it could not play (the view lists marked seats lowest first).
 * @param {BoardOut} board
 * @param {number} seat
 */
function mark(board, seat) {
  const markers = new Set([...(board.markers || []), seat]);
  board.markers = [...markers].sort((a, b) => a - b);
}

/**
 * The open ends once the last of `board.tiles` lies (RULES section 4, engine/layout.py): the
 * first tile opens left and right (and the arms under spinner_opening_double when it is a
 * double); a later tile moves the end it joined to its outer pip; under spinner_first_double the
 * arms open once the spinner exposes neither main side.
 * @param {BoardOut} board
 * @param {string} layout
 * @returns {BoardOut["ends"]}
 */
function openEnds(board, layout) {
  const last = board.tiles[board.tiles.length - 1];
  if (board.tiles.length === 1) {
    const [low, high] = last.tile;
    if (last.spinner && layout === "spinner_opening_double")
      return ALL_ENDS.map((end) => ({ end, pips: low }));
    return [
      { end: "left", pips: low },
      { end: "right", pips: high },
    ];
  }
  const ends = board.ends.map((e) => (e.end === last.end ? { end: e.end, pips: last.outer } : e));
  const at = board.tiles.findIndex((t) => t.spinner);
  if (layout !== "spinner_first_double" || at < 0 || ends.some((e) => e.end === "up")) return ends;
  const exposed = at === 0 ? MAINS : [board.tiles[at].end];
  const covered = new Set(board.tiles.slice(at + 1).map((t) => t.end));
  if (exposed.some((side) => !covered.has(side))) return ends;
  const pips = board.tiles[at].tile[0];
  return [...ends, { end: "up", pips }, { end: "down", pips }];
}

/**
 * @param {ViewOut} view
 * @param {Extract<TableEvent, { type: "hand_ended" }>["data"]} data
 * @param {string} at
 */
function handEnded(view, data, at) {
  view.status = "hand_over";
  view.turn = null;
  view.legal = []; // moves only: a seat starts the next hand from `status` (POST .../hands)
  view.last_hand = structuredClone(data);
  const { winner, reason } = data;
  if (winner !== null && reason !== "forfeit" && reason !== "abandoned") {
    for (const mate of sameTeam(view, winner)) view.seats[mate].hands_won += 1;
    withTeams(view, null);
  }
  if (view.ruleset.turn_clock != null) view.next_hand_at = later(at, NEXT_HAND_DELAY_MS);
}

/**
 * `moment` (ISO 8601, UTC) plus `ms`, written as the server writes it: its fraction of a second
 * (microseconds, which a Date cannot hold) kept as it was.
 * @param {string} moment
 * @param {number} ms
 */
function later(moment, ms) {
  const [whole, fraction] = moment.replace(/Z$/, "").split(".");
  const moved = new Date(Date.parse(`${whole}Z`) + ms).toISOString().slice(0, 19);
  return `${moved}${fraction ? `.${fraction}` : ""}Z`;
}

/**
 * @param {ViewOut} view
 * @param {Extract<TableEvent, { type: "match_ended" }>["data"]} data
 */
function matchEnded(view, data) {
  const { reason } = data;
  view.status = reason === "abandoned" || reason === "cancelled" ? reason : "finished";
  view.turn = null;
  view.legal = [];
  // `team` is there in partnership only, as in the server's view.
  view.result = /** @type {ViewOut["result"]} */ (structuredClone(data));
  view.code = null; // nobody joins a table that is over: its number is freed
  view.next_hand_at = null;
  view.seats.forEach((seat, n) => {
    seat.score = data.scores[n];
    seat.hands_won = data.hands_won[n];
  });
  withTeams(view, data.winner);
}

/** The seats a seat's points count for: itself, and in partnership its partner too
 * (docs/RULES.md 14: seats 0 and 2 against 1 and 3).
 * @param {ViewOut} view
 * @param {number} seat */
function sameTeam(view, seat) {
  return view.ruleset.partnership ? [seat % 2, (seat % 2) + 2] : [seat];
}

/** The teams' standing from the seats, as the engine's view gives it (partnership only).
 * @param {ViewOut} view
 * @param {number | null} winner */
function withTeams(view, winner) {
  if (!view.ruleset.partnership) return;
  view.teams = [0, 1].map((team) => ({
    team,
    seats: [team, team + 2],
    score: view.seats[team].score,
    hands_won: view.seats[team].hands_won,
    won: winner !== null && winner % 2 === team,
  }));
}

/**
 * @param {ViewOut} view
 * @param {number} seat
 * @param {number | null} me
 */
function forfeit(view, seat, me) {
  view.seats[seat].forfeited = true;
  if (seat === me) {
    // A forfeited seat shows its holder nothing private while the match runs (docs/API.md).
    view.you = null;
    view.legal = [];
  }
  if (view.code !== null && !joinable(view)) view.code = null;
}

/**
 * Whether a guest can still join or rejoin by number: a human seat in play that is not the
 * host's (the seats this page knows to be the host's: seat 0, and its own when it holds seat 0).
 * @param {ViewOut} view
 */
function joinable(view) {
  const host = view.host_seat;
  const mine = view.you && view.you.seats.includes(host) ? view.you.seats : [];
  return view.seats.some(
    (s) => s.type === "human" && !s.forfeited && s.seat !== host && !mine.includes(s.seat),
  );
}
