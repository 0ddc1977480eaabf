// The load generator of bench/versus_bgio.py's boardgame.io side: MATCHES two-player matches,
// each seat on a socket.io connection of its own (boardgame.io's transport), one move after
// another, each timed from its emit to the mover's update (sent once the move is saved).
//
//     node load.js PORT MATCHES
//
// It sets the matches up (the Lobby API, then a `sync` per seat) and prints "ready"; then for
// each line "go SECONDS" on stdin it plays on for SECONDS (a match that ends is replaced: its
// setup counts) and prints one JSON line: latencies (ms), matches finished, errors, its own CPU
// seconds. It ends with its stdin.
"use strict";

const readline = require("node:readline");
const { io } = require("socket.io-client");
const { fits } = require("./game");

const [port, matches] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}`;
const STALL_MS = 60000; // a loaded machine answers slowly; a lost update never

async function post(path, body) {
  const response = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

// One seat's connection: the latest state it was sent, and waiters for a newer one.
class Seat {
  constructor(matchID, seat, credentials) {
    this.matchID = matchID;
    this.playerID = String(seat);
    this.credentials = credentials;
    this.state = null;
    this.waiters = [];
    this.socket = io(`${base}/domino`, { transports: ["websocket"], forceNew: true });
    const take = (id, state) => {
      if (id !== matchID || (this.state && state._stateID <= this.state._stateID)) return;
      this.state = state;
      this.waiters = this.waiters.filter(([stateID, resolve]) => {
        if (state._stateID < stateID) return true;
        resolve();
        return false;
      });
    };
    this.socket.on("sync", (id, info) => take(id, info.state));
    this.socket.on("update", (id, state) => take(id, state));
    this.socket.emit("sync", matchID, this.playerID, credentials, 2);
  }

  reached(stateID) {
    if (this.state && this.state._stateID >= stateID) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push([stateID, resolve]);
      setTimeout(() => reject(new Error(`stalled at ${stateID}`)), STALL_MS).unref();
    });
  }

  close() {
    this.socket.close();
  }
}

async function newMatch() {
  const { matchID } = await post("/games/domino/create", { numPlayers: 2 });
  const credentials = [];
  for (const seat of [0, 1]) {
    const joined = await post(`/games/domino/${matchID}/join`, {
      playerID: String(seat),
      playerName: `p${seat}`,
    });
    credentials.push(joined.playerCredentials);
  }
  // Sockets only once both seats have joined: a sync rewrites the match's metadata as it read
  // it, and one read before the second join would drop that seat's credentials.
  const seats = [0, 1].map((seat) => new Seat(matchID, seat, credentials[seat]));
  await Promise.all(seats.map((s) => s.reached(0)));
  return seats;
}

// The mover's choice from its own view: the first tile that fits, else draw, else pass.
function choose(G, seat) {
  const index = G.hands[seat].findIndex((tile) => fits(G, tile) !== null);
  if (index >= 0) return ["play", [index]];
  return G.stock > 0 ? ["draw", []] : ["pass", []];
}

async function play(seats, until, result) {
  while (Date.now() < until) {
    const { ctx, _stateID } = seats[0].state;
    if (ctx.gameover) {
      seats.forEach((s) => s.close());
      result.matches += 1;
      seats = await newMatch();
      continue;
    }
    const mover = seats[Number(ctx.currentPlayer)];
    const [type, args] = choose(mover.state.G, Number(mover.playerID));
    const payload = { type, args, playerID: mover.playerID, credentials: mover.credentials };
    const began = process.hrtime.bigint();
    mover.socket.emit(
      "update",
      { type: "MAKE_MOVE", payload },
      _stateID,
      mover.matchID,
      mover.playerID,
    );
    await mover.reached(_stateID + 1);
    result.latencies.push(Number(process.hrtime.bigint() - began) / 1e6);
    await Promise.all(seats.map((s) => s.reached(_stateID + 1)));
  }
  return seats;
}

async function level(tables, seconds) {
  const result = { latencies: [], matches: 0, errors: [] };
  const cpu = process.cpuUsage();
  const until = Date.now() + 1000 * seconds;
  const left = await Promise.all(
    tables.map((seats) =>
      play(seats, until, result).catch((e) => {
        result.errors.push(String(e));
        return seats;
      }),
    ),
  );
  const used = process.cpuUsage(cpu);
  const latencies = result.latencies.map((ms) => Math.round(ms * 100) / 100);
  const out = { latencies_ms: latencies, matches_finished: result.matches, errors: result.errors };
  console.log(JSON.stringify({ ...out, cpu_s: (used.user + used.system) / 1e6 }));
  return left;
}

async function main() {
  let tables = [];
  for (let n = 0; n < matches; n++) tables.push(await newMatch());
  console.log("ready");
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const [command, seconds] = line.trim().split(" ");
    if (command === "go") tables = await level(tables, Number(seconds));
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
