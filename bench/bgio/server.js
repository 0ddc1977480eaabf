// boardgame.io 0.50 with bgio-postgres, the peer that bench/versus_bgio.py measures the service
// against: a two-seat draw game of double-six dominoes scored as All Fives to 150, whose G holds
// a domino match's worth of state (hands, the stock, a board line of up to 28 tiles, scores and
// the match's event log, like the service's snapshot).
//
//     node server.js PORT DATABASE_URL
//
// boardgame.io's Master sends a move's update before it saves the state (master.js onUpdate:
// sendAll, then setState). The service acknowledges a move only after its commit, so here the
// broadcast of a match's update waits for that match's pending write: every move is persisted
// before its acknowledgement, on both sides.
"use strict";

const { Server, SocketIO } = require("boardgame.io/server");
const { PostgresStore } = require("bgio-postgres");
const { Domino } = require("./game");

// The store remembers each match's latest write, so an update can wait for it.
class WaitedStore extends PostgresStore {
  constructor(...args) {
    super(...args);
    this.pending = new Map();
  }

  setState(id, state, deltalog) {
    const write = super.setState(id, state, deltalog);
    this.pending.set(id, write);
    const forget = () => this.pending.get(id) === write && this.pending.delete(id);
    write.then(forget, forget);
    return write;
  }
}

// boardgame.io's in-memory pub-sub, but a match's update leaves after that match's write:
// Master.onUpdate calls setState in the same tick as sendAll, so it is pending by the next
// microtask.
class AfterWritePubSub {
  constructor(store) {
    this.store = store;
    this.callbacks = new Map();
  }

  publish(channelId, payload) {
    const matchID = payload.args[0];
    if (payload.type !== "update") {
      (this.callbacks.get(channelId) || []).forEach((callback) => callback(payload));
      return;
    }
    Promise.resolve()
      .then(() => {
        const write = this.store.pending.get(matchID);
        // bench/versus_bgio.py fails on this line: an update that no write of its match preceded.
        if (write === undefined) console.error(`unguarded update of ${matchID}`);
        return write;
      })
      .then(() => (this.callbacks.get(channelId) || []).forEach((callback) => callback(payload)))
      .catch((error) => console.error(`update of ${matchID} not sent: ${error}`));
  }

  subscribe(channelId, callback) {
    if (!this.callbacks.has(channelId)) this.callbacks.set(channelId, []);
    this.callbacks.get(channelId).push(callback);
  }

  unsubscribeAll(channelId) {
    this.callbacks.delete(channelId);
  }
}

const [port, url] = process.argv.slice(2);
const db = new WaitedStore(url, { logging: false });
const server = Server({
  games: [Domino],
  db,
  transport: new SocketIO({ pubSub: new AfterWritePubSub(db) }),
  origins: ["http://127.0.0.1"],
});
server.run({ port: Number(port) }, () => console.log(`ready ${port}`));
