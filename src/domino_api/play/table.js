// The table page: the view from the socket's snapshot (or REST), moved on by each event the
// socket brings (reducer.js), and every action a seat can take. The view is read again only
// after a gap in the events or a reconnect (a snapshot). The page is drawn by table-screen.js
// (its parts by seats.js, hand.js, board.js).

import { call } from "./api.js";
import { applyEvent, canApply } from "./reducer.js";
import { chatPanel, logLine } from "./talk.js";
import { wireEnds } from "./hand.js";
import { TableSocket } from "./socket.js";
import { drawBoard, drawHand, drawSeats, drawTable, flash, focusedPart } from "./table-screen.js";
import { chime } from "./sound.js";
import { announce, countdown, el, showError } from "./ui.js";

// Events that change only the seats (or nothing shown): the hand and a tile being picked stay.
const OTHERS_MOVES = new Set(["tile_played", "tile_drawn", "passed"]);
const SEATS_ONLY = new Set([
  "message",
  "tile_back_changed",
  "rematch_offered",
  "seat_connected",
  "seat_disconnected",
]);

/** Seats held by one person (hot-seat) share a name: tell them apart by their number. */
function nameSeats(view) {
  const names = view.seats.map((s) => s.name);
  for (const seat of view.seats) {
    if (seat.name && names.filter((n) => n === seat.name).length > 1)
      seat.name = `${seat.name} (seat ${seat.seat + 1})`;
  }
}

class Table {
  constructor(root, matchId) {
    this.root = root;
    this.matchId = matchId;
    this.view = null;
    this.viewSeat = null;
    this.selected = null;
    this.lastFocus = null;
    this.hidden = false;
    this.offset = 0;
    this.flashes = new Map();
    this.seen = new Set();
    this.chimed = 0;
    this.parts = {
      top: el("div", { class: "table-top" }),
      seats: el("div", { class: "seats-box" }),
      board: el("div", { class: "board", "aria-label": "The board", role: "group" }),
      status: el("div", { class: "status-box" }),
      hand: el("div", { class: "hand-box" }),
      controls: el("div", { class: "controls-box" }),
    };
    const page = this;
    this.talk = chatPanel((text) => this.say(text), {
      matchId,
      mine: () => this.mySeats(),
      get view() {
        return page.view;
      },
    });
    wireEnds(this.parts.board, this);
    const table = el(
      "div",
      { class: "table-main" },
      this.parts.top,
      this.parts.seats,
      this.parts.board,
      this.parts.status,
      this.parts.hand,
      this.parts.controls,
    );
    root.append(el("div", { class: "table-page" }, table, this.talk.node));
    this.timer = setInterval(() => this.tick(), 1000);
    this.onResize = () => this.view && drawBoard(this);
    this.onHints = () => this.view && drawTable(this);
    window.addEventListener("resize", this.onResize);
    window.addEventListener("hints", this.onHints);
  }

  async start() {
    this.setView(await call("GET", `/v1/matches/${this.matchId}`));
    this.connect();
  }

  /** The socket of the seat this page sees from: its events are that seat's copies, which the
   * reducer applies to this seat's view (a hot-seat page opens another one on a hand-over). */
  connect() {
    this.socket?.close();
    const seat = this.hotseat() ? this.viewSeat : null;
    /** @type {import("./socket.js").Handlers} */
    const handlers = {
      snapshot: (view) => {
        this.catchUp(view.seq);
        this.takeSeats(view);
      },
      event: (event) => this.onEvent(event),
      connection: (up) => this.talk.connected(up),
    };
    this.socket = new TableSocket(this.matchId, seat, handlers);
  }

  leave() {
    clearInterval(this.timer);
    window.removeEventListener("resize", this.onResize);
    window.removeEventListener("hints", this.onHints);
    this.socket?.close();
  }

  /** A view of the same seq changes only the seats (presence, away deadlines): the hand, and
   * any tile being picked or dragged, stays as it is. */
  takeSeats(view) {
    if (view.seq !== this.view.seq || view.you?.seat !== this.view.you?.seat)
      return this.setView(view);
    this.view = { ...this.view, seats: view.seats };
    this.offset = Date.parse(view.now) - Date.now();
    nameSeats(this.view);
    drawSeats(this);
  }

  hotseat() {
    return (this.view?.you?.seats || []).length > 1;
  }

  mySeats() {
    return this.view?.you?.seats || [];
  }

  /** @param {import("./api.js").ViewOut} view */
  setView(view) {
    if (this.view && view.seq < this.view.seq && view.you?.seat === this.view.you?.seat) return;
    this.view = view;
    nameSeats(view);
    this.offset = Date.parse(view.now) - Date.now();
    if (this.viewSeat === null) this.viewSeat = view.you?.seat ?? null;
    const turn = view.turn?.seat;
    if (
      this.hotseat() &&
      view.status === "playing" &&
      this.mySeats().includes(turn) &&
      turn !== this.viewSeat
    ) {
      this.hidden = true;
      this.handoverTo = turn;
    }
    if (
      this.selected &&
      !view.legal.some(
        (o) =>
          o.action === "play" && o.tile[0] === this.selected[0] && o.tile[1] === this.selected[1],
      )
    )
      this.selected = null;
    drawTable(this);
  }

  /** Table talk and the log from the events feed: what was said before this page opened, or
   * while its socket was down (a snapshot carries the table, not the talk). Only up to the
   * snapshot: later events come on the socket, which acts on them. */
  async catchUp(upTo) {
    const after = this.seen.size ? Math.max(...this.seen) : 0;
    const query = this.viewSeat === null ? "" : `&seat=${this.viewSeat}`;
    try {
      const { events } = await call(
        "GET",
        `/v1/matches/${this.matchId}/events?after=${after}&limit=5000${query}`,
      );
      for (const event of events) {
        if (this.seen.has(event.seq) || event.seq > upTo) continue;
        this.seen.add(event.seq);
        if (event.type === "message") this.talk.add(event.data, event.seq);
        const line = logLine(event, this.view);
        if (line) this.talk.log(line);
      }
    } catch (error) {
      showError(error);
    }
  }

  async refresh() {
    if (this.loading) {
      this.again = true;
      return;
    }
    this.loading = true;
    try {
      const query = this.viewSeat === null ? "" : `?seat=${this.viewSeat}`;
      this.setView(await call("GET", `/v1/matches/${this.matchId}${query}`));
    } catch (error) {
      showError(error);
    } finally {
      this.loading = false;
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    }
  }

  /** An event from the socket: told (log, talk, chime), then applied to the view when it is
   * the next one; one already in the view is skipped, and a gap (or an end the view cannot
   * know: `canApply`) means a fresh read.
   * @param {import("contract/asyncapi").Event} event */
  onEvent(event) {
    this.tell(event);
    if (event.seq <= this.view.seq) return;
    if (!canApply(this.view, event)) return this.refresh();
    const view = applyEvent(this.view, event);
    if (!SEATS_ONLY.has(event.type)) return this.setView(view);
    // Presence too: a seat that goes away gets its away moments from the event itself.
    this.view = view;
    nameSeats(view);
    drawSeats(this);
  }

  /** What an event says to the people at the table, once per event.
   * @param {import("./api.js").AnyEvent} event */
  tell(event) {
    if (this.seen.has(event.seq)) return;
    this.seen.add(event.seq);
    const data = event.data;
    if (event.type === "message") return this.talk.add(data, event.seq);
    if (event.type === "scored") flash(this, data.seat, data.points);
    if (event.type === "turn" && this.mySeats().includes(data.seat) && event.seq > this.chimed) {
      this.chimed = event.seq;
      if (!this.view?.seats[data.seat]?.autopilot) chime();
    }
    const line = logLine(event, this.view);
    if (line) this.talk.log(line);
    // What the others do is said aloud (a polite live region), one's own moves are not.
    if (line && OTHERS_MOVES.has(event.type) && !this.mySeats().includes(data.seat)) announce(line);
  }

  tick() {
    for (const node of this.root.querySelectorAll(".countdown[data-deadline]")) {
      node.textContent = countdown(node.dataset.deadline, this.offset);
    }
  }

  // ------------------------------------------------------------ actions

  async act(work) {
    showError(null);
    try {
      return await work();
    } catch (error) {
      showError(error);
      if (error.code === "stale_seq" || error.code === "not_your_turn") this.refresh();
      return null;
    }
  }

  seatField() {
    return this.hotseat() ? { seat: this.viewSeat } : {};
  }

  async send(option) {
    // A `legal` entry is sent back as it is, with the view's seq.
    const body = { ...option, seq: this.view.seq, ...this.seatField() };
    this.selected = null;
    this.setBusy(true);
    const answer = await this.act(() => call("POST", `/v1/matches/${this.matchId}/moves`, body));
    this.setBusy(false);
    if (!answer) return drawTable(this);
    // The answer's view already holds its events: they are told, not applied.
    for (const event of answer.events) this.tell(event);
    // The socket may already have brought later events (the computers answer at once): the
    // view stays, and the page is drawn again, no longer busy.
    const behind = answer.view.seq < this.view.seq;
    if (behind && answer.view.you?.seat === this.view.you?.seat) return drawTable(this);
    this.setView(answer.view);
  }

  /** While a request is out, nothing else can be sent (its answer brings the next view). */
  setBusy(busy) {
    if (busy && !this.busy) this.refocus = focusedPart(this);
    this.busy = busy;
    this.root.querySelector(".table-page")?.setAttribute("aria-busy", String(busy));
    if (!busy) return;
    for (const button of this.root.querySelectorAll(".table-main button")) {
      if (!button.closest(".table-top, .seats-box")) button.disabled = true;
    }
  }

  play(option) {
    return this.send(option);
  }

  pick(tile, dragging = false) {
    this.selected = tile;
    if (tile) this.lastFocus = tile;
    drawBoard(this);
    if (dragging) return;
    drawHand(this);
    const glow = this.parts.board.querySelector(".end-target.glow");
    if (tile && glow) glow.focus();
    if (!tile) this.parts.hand.querySelector(".tile[tabindex='0']")?.focus();
  }

  async viewAs(seat) {
    this.viewSeat = seat;
    this.hidden = false;
    await this.refresh();
    this.connect();
    this.parts.hand.querySelector(".tile[tabindex='0']")?.focus();
  }

  say(text) {
    const body = { text, ...this.seatField() };
    return this.act(() =>
      this.socket?.ws.readyState === WebSocket.OPEN
        ? this.socket.request("message", body)
        : call("POST", `/v1/matches/${this.matchId}/messages`, body),
    );
  }

  autopilot(method, seat) {
    return this.act(async () =>
      this.setView(await call(method, `/v1/matches/${this.matchId}/seats/${seat}/autopilot`)),
    );
  }

  async post(path, body) {
    this.setBusy(true);
    await this.act(async () =>
      this.setView(await call("POST", `/v1/matches/${this.matchId}/${path}`, body)),
    );
    this.setBusy(false);
    drawTable(this);
  }
}

export async function tablePage(root, [matchId]) {
  const table = new Table(root, matchId);
  await table.start();
  return () => table.leave();
}
