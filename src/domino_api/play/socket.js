// The live table socket (openapi/asyncapi.yaml): auth message first, then a snapshot and every
// event. On a drop it reconnects without `after`, so the server sends a fresh snapshot.

import { identity, Problem } from "./api.js";

const FINAL = new Set([4401, 4403, 4404, 4422]); // refusals a retry cannot fix

/**
 * What the table page does with the socket's frames (openapi/asyncapi.yaml, receiveUpdates).
 * @typedef {object} Handlers
 * @property {(view: import("contract/asyncapi").ViewOut) => void} snapshot
 * @property {(event: import("contract/asyncapi").Event) => void} event
 * @property {(up: boolean) => void} [connection]
 */

export class TableSocket {
  /**
   * @param {string} matchId
   * @param {number | null} seat
   * @param {Handlers} handlers
   */
  constructor(matchId, seat, handlers) {
    this.matchId = matchId;
    this.seat = seat;
    this.handlers = handlers;
    this.pending = new Map();
    this.nextId = 1;
    this.closed = false;
    this.retry = 500;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.seat === null || this.seat === undefined ? "" : `?seat=${this.seat}`;
    const ws = new WebSocket(`${scheme}://${location.host}/v1/matches/${this.matchId}/ws${query}`);
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: identity().token }));
    ws.onmessage = (message) => this.receive(JSON.parse(message.data));
    ws.onclose = (event) => this.dropped(event);
    ws.onerror = () => {}; // onclose follows and decides
  }

  /** @param {import("contract/asyncapi").ServerFrame} frame */
  receive(frame) {
    if (frame.type === "snapshot") {
      this.retry = 500;
      this.handlers.connection?.(true);
      this.handlers.snapshot(frame.view);
    } else if (frame.type === "event") {
      this.handlers.event(frame.event);
    } else if (frame.type === "ack" || frame.type === "error") {
      const waiting = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      if (!waiting) return;
      if (frame.type === "ack") waiting.resolve(frame);
      else waiting.reject(new Problem(frame.error.status, frame.error));
    }
  }

  dropped(event) {
    this.handlers.connection?.(false);
    for (const waiting of this.pending.values())
      waiting.reject(new Error("The connection dropped."));
    this.pending.clear();
    if (this.closed || FINAL.has(event.code)) return;
    setTimeout(() => !this.closed && this.open(), this.retry);
    this.retry = Math.min(this.retry * 2, 8000);
  }

  /**
   * Send a request (move, next_hand, message, ready...); resolves on its ack.
   * @param {import("contract/asyncapi").ClientFrame["type"]} type
   * @param {Record<string, unknown>} [fields]
   * @returns {Promise<import("contract/asyncapi").AckFrame>}
   */
  request(type, fields = {}) {
    const id = `c${this.nextId++}`;
    /** @type {Record<string, unknown>} */
    const frame = { type, id, ...fields };
    if (this.seat !== null && this.seat !== undefined && frame.seat === undefined)
      frame.seat = this.seat;
    return new Promise((resolve, reject) => {
      if (this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error("Not connected yet; try again in a moment."));
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify(frame));
    });
  }

  close() {
    this.closed = true;
    this.ws.close(1000);
  }
}
