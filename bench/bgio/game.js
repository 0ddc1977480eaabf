// The game of bench/versus_bgio.py's boardgame.io side: a two-seat draw game of double-six
// dominoes scored as All Fives to 150 (as the service's "all-fives" preset), whose G holds a
// domino match's worth of state: both hands, the stock, a board line of up to 28 tiles, the
// scores and the match's event log, as the service's snapshot does.
"use strict";

const TARGET = 150;
const TILES = [];
for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) TILES.push([a, b]);

function deal(G, random) {
  const tiles = random.Shuffle(TILES);
  G.hands = [tiles.slice(0, 7), tiles.slice(7, 14)];
  G.stock = tiles.slice(14);
  G.line = [];
  G.passes = 0;
  G.hand += 1;
  log(G, "hand_started", { hand_number: G.hand, stock: G.stock.length });
}

function log(G, type, data) {
  G.seq += 1;
  // No timestamp: the service's snapshot keeps its moves without one (its events table has them,
  // as bgio-postgres's own log column has boardgame.io's).
  G.events.push({ seq: G.seq, type, data });
}

function ends(G) {
  if (G.line.length === 0) return null;
  return [G.line[0][0], G.line[G.line.length - 1][1]];
}

function fits(G, tile) {
  const e = ends(G);
  if (e === null) return "right";
  if (tile[0] === e[1] || tile[1] === e[1]) return "right";
  if (tile[0] === e[0] || tile[1] === e[0]) return "left";
  return null;
}

function endsTotal(G) {
  const first = G.line[0];
  const last = G.line[G.line.length - 1];
  if (G.line.length === 1) return first[0] + first[1];
  const left = first[0] === first[1] ? 2 * first[0] : first[0];
  const right = last[0] === last[1] ? 2 * last[1] : last[1];
  return left + right;
}

function pips(hand) {
  return hand.reduce((sum, t) => sum + t[0] + t[1], 0);
}

function score(G, seat, points, cause) {
  if (points <= 0) return;
  G.scores[seat] += points;
  log(G, "scored", { seat, points, score: G.scores[seat], cause });
}

function endHand(G, random, winner, reason) {
  const other = 1 - winner;
  const points = Math.round(pips(G.hands[other]) / 5) * 5;
  log(G, "hand_ended", { reason, winner, pips: G.hands.map(pips), points, hands: G.hands });
  score(G, winner, points, reason);
  if (G.scores[winner] < TARGET) deal(G, random);
}

// The moves each change G and log what happened, as the service's events do.
function play({ G, ctx, events, random }, index) {
  const seat = Number(ctx.currentPlayer);
  const tile = G.hands[seat][index];
  const end = tile === undefined ? null : fits(G, tile);
  if (end === null) return "INVALID_MOVE";
  G.hands[seat].splice(index, 1);
  const e = ends(G);
  let placed = tile;
  if (e !== null && end === "right") placed = tile[0] === e[1] ? tile : [tile[1], tile[0]];
  if (e !== null && end === "left") placed = tile[1] === e[0] ? tile : [tile[1], tile[0]];
  if (end === "right") G.line.push(placed);
  else G.line.unshift(placed);
  const total = endsTotal(G);
  const points = total % 5 === 0 ? total : 0;
  log(G, "tile_played", { seat, tile, end, points, ends_total: total });
  score(G, seat, points, "play");
  G.passes = 0;
  if (G.hands[seat].length === 0) endHand(G, random, seat, "domino");
  events.endTurn();
}

function draw({ G, ctx }) {
  const seat = Number(ctx.currentPlayer);
  if (G.stock.length === 0) return "INVALID_MOVE";
  const tile = G.stock.pop();
  G.hands[seat].push(tile);
  log(G, "tile_drawn", { seat, stock: G.stock.length });
}

function pass({ G, ctx, events, random }) {
  const seat = Number(ctx.currentPlayer);
  if (G.stock.length > 0 || G.hands[seat].some((t) => fits(G, t) !== null)) return "INVALID_MOVE";
  G.passes += 1;
  log(G, "passed", { seat });
  if (G.passes === 2) {
    const winner = pips(G.hands[0]) <= pips(G.hands[1]) ? 0 : 1;
    endHand(G, random, winner, "blocked");
  }
  events.endTurn();
}

const Domino = {
  name: "domino",
  disableUndo: true, // the service keeps no undo either
  setup: ({ random }) => {
    const G = { hand: 0, seq: 0, scores: [0, 0], events: [], hands: [], stock: [], line: [] };
    deal(G, random);
    return G;
  },
  moves: { play, draw, pass },
  // Each seat sees its own hand; the other's and the stock are hidden, as in the service.
  playerView: ({ G, playerID }) => ({
    ...G,
    hands: G.hands.map((h, seat) => (String(seat) === playerID ? h : h.length)),
    stock: G.stock.length,
  }),
  endIf: ({ G }) => {
    const winner = G.scores.findIndex((s) => s >= TARGET);
    return winner >= 0 ? { winner: String(winner) } : undefined;
  },
};

module.exports = { Domino, fits };
