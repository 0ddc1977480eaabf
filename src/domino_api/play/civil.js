// A civil table beside the talk: fold a muted seat's messages (the server marks them on every
// device of the player's), report a message, mute or block a seat, and the host's talk switch.
// The table page hands in its match id and a getter of the caller's seats; nothing else.

import { call } from "./api.js";
import { announce, el, showError } from "./ui.js";

/** The table page as these boxes use it: its held view (moved on by the socket's events, the
 * manners box reads it rather than fetching another).
 * @typedef {{ matchId: string, mine: () => number[], view: import("./api.js").ViewOut | null }} Table */

async function attempt(work) {
  try {
    await work();
  } catch (error) {
    showError(error);
  }
}

/** One message's line: a muted seat's folded behind "Show", others with "Report". */
export function messageLine(data, seq, table) {
  const who = el("strong", {}, `${data.name || `Seat ${data.seat + 1}`}: `);
  const text = el("span", { class: "said" }, data.text);
  const line = el("li", { "data-seat": String(data.seat) }, who, text);
  if (data.muted) fold(line);
  if (seq && table && !table.mine().includes(data.seat)) {
    // Labelled by aria-label and drawn by CSS: the line's text stays what was said.
    const report = el("button", {
      type: "button",
      class: "link report",
      "aria-label": "Report this message",
      title: "Report this message to the operators",
    });
    report.addEventListener("click", () =>
      attempt(async () => {
        await call("POST", `/v1/matches/${table.matchId}/messages/${seq}/report`, {});
        report.remove();
        line.classList.add("reported");
        announce("Reported to the operators");
      }),
    );
    line.append(report);
  }
  return line;
}

function fold(line) {
  if (line.classList.contains("muted")) return;
  line.classList.add("muted");
  const show = el("button", { type: "button", class: "link unfold" }, "muted · show");
  show.addEventListener("click", () => {
    line.classList.remove("muted");
    show.remove();
  });
  line.querySelector(".said")?.after(show);
}

/** The "Table manners" box: mute/unmute and block each other seat, and (host) talk off/on. */
export function mannersBox(table, messages) {
  const body = el("div", { class: "manners-body" });
  const box = el("details", { class: "manners" }, el("summary", {}, "Table manners"), body);
  /** @param {boolean} [talkOff] the talk switch's answer, ahead of its `talk_changed` event */
  const draw = async (talkOff) => {
    const view = table.view;
    if (!view) return;
    const mutes = await call("GET", `/v1/matches/${table.matchId}/mutes`);
    const mine = table.mine();
    const rows = view.seats
      .filter((seat) => !mine.includes(seat.seat) && seat.type === "human" && seat.name)
      .map((seat) => seatRow(table, seat, mutes.seats.includes(seat.seat), messages, draw));
    const host = view.host_seat !== null && mine.includes(view.host_seat);
    if (!rows.length) rows.push(el("p", {}, "Nobody else is seated."));
    if (host) rows.push(talkSwitch(table, talkOff ?? view.talk_off, draw));
    body.replaceChildren(...rows);
  };
  box.addEventListener("toggle", () => box.open && attempt(draw));
  return box;
}

function seatRow(table, seat, muted, messages, redraw) {
  const base = `/v1/matches/${table.matchId}/seats/${seat.seat}`;
  const mute = el("button", { type: "button" }, muted ? "Unmute" : "Mute");
  mute.addEventListener("click", () =>
    attempt(async () => {
      await call(muted ? "DELETE" : "PUT", `${base}/mute`);
      if (!muted) messages.querySelectorAll(`li[data-seat='${seat.seat}']`).forEach(fold);
      announce(`${seat.name} ${muted ? "unmuted" : "muted"}`);
      await redraw();
    }),
  );
  const block = el("button", { type: "button" }, "Block from my tables");
  block.addEventListener("click", () =>
    attempt(async () => {
      await call("PUT", `${base}/block`);
      block.replaceWith(el("small", {}, "blocked from your tables"));
    }),
  );
  return el("p", { class: "manner-seat" }, el("strong", {}, seat.name), " ", mute, " ", block);
}

function talkSwitch(table, off, redraw) {
  const button = el("button", { type: "button" }, off ? "Turn talk on" : "Turn talk off");
  button.addEventListener("click", () =>
    attempt(async () => {
      const view = await call(off ? "DELETE" : "PUT", `/v1/matches/${table.matchId}/talk-off`);
      await redraw(view.talk_off);
    }),
  );
  return el("p", {}, button);
}
