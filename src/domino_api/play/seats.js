// The seats around the table: presence dot, name, score with its +points, face-down hand in
// the seat's tile back, turn marker, autopilot controls and the away deadline.

import { againstSeats } from "./scoreboard.js";
import { backImg, faceSvg, tileLabel } from "./tiles.js";
import { placeOf, teamScores } from "./teams.js";
import { countdown, el, seatName } from "./ui.js";

/** When an away seat forfeits: the view's own `away_deadline`, shown only while the seat's
 * holder is away (the view gives every human seat the deadline it would have if it left now).
 * @param {import("./api.js").SeatOut} seat */
export function awayDeadline(seat) {
  return seat.type === "human" && !seat.connected && !seat.forfeited ? seat.away_deadline : null;
}

function autopilotButton(view, seat, me, act) {
  if (seat.type !== "human" || seat.forfeited || !["playing", "hand_over"].includes(view.status))
    return null;
  const mine = me.includes(seat.seat);
  const host = view.host_seat !== null && me.includes(view.host_seat);
  if (seat.autopilot && (mine || host)) {
    return el(
      "button",
      { type: "button", class: "small", onclick: () => act("DELETE", seat.seat) },
      mine ? "Take my seat back" : `Give ${seatName(seat)} the seat back`,
    );
  }
  // The host may hand a seat to the computer only while its holder is away (not connected).
  if (!seat.autopilot && host && !mine && !seat.connected) {
    return el(
      "button",
      { type: "button", class: "small", onclick: () => act("PUT", seat.seat) },
      `Let the computer play for ${seatName(seat)}`,
    );
  }
  return null;
}

/** At a hand's end every other seat's remaining tiles lie face up (the view reveals them). */
function revealed(view, seat) {
  const last = view.last_hand;
  if (!last || last.number !== view.hand_number || view.status === "playing") return null;
  const tiles = last.hands[seat] || [];
  return el(
    "div",
    {
      class: "faceup",
      role: "img",
      "aria-label": `${tiles.length ? tiles.map(tileLabel).join(", ") : "no tiles"} left, ${last.pips[seat]} pips`,
      "data-testid": `faceup-${seat}`,
    },
    tiles.map((tile) => el("span", { class: "shown-tile", html: faceSvg(tile[0], tile[1], true) })),
    el("span", { class: "pip-count" }, tiles.length ? `${last.pips[seat]} pips` : "no tiles left"),
  );
}

/** @param {import("./api.js").ViewOut} view */
export function renderSeats(view, ctx) {
  const me = view.you?.seats || [];
  const mine = view.you ? (ctx.viewSeat ?? view.you.seat) : null;
  const seats = el(
    "ul",
    {
      class: `seats${view.teams ? " partnership" : ""}${view.seats.length > 4 ? " many" : ""}`,
      "aria-label": "Players",
    },
    view.seats.map((seat) => {
      const onTurn = view.turn?.seat === seat.seat;
      const away = awayDeadline(seat);
      const own = me.includes(seat.seat) && seat.seat === ctx.viewSeat && !ctx.hidden;
      const shown = own ? null : revealed(view, seat.seat);
      const facedown =
        own || shown ? [] : Array.from({ length: seat.tiles }, () => backImg(seat.tile_back));
      const flash = ctx.flashes.get(seat.seat);
      const state = seat.connected ? "connected" : "not connected";
      return el(
        "li",
        {
          class: `seat${onTurn ? " on-turn" : ""}`,
          "data-seat": seat.seat,
          "data-place": view.teams ? placeOf(seat.seat, mine) : null,
        },
        el(
          "div",
          { class: "seat-head" },
          el("span", {
            class: `dot${seat.connected ? " on" : ""}`,
            role: "img",
            "aria-label": state,
            title: state,
            "data-testid": `dot-${seat.seat}`,
          }),
          el("strong", { class: "seat-name" }, seatName(seat)),
          seat.type === "bot" ? el("span", { class: "tag" }, "computer") : null,
          seat.type === "human" && !seat.name ? el("span", { class: "tag" }, "open seat") : null,
          seat.autopilot ? el("span", { class: "tag" }, "autopilot") : null,
          seat.forfeited ? el("span", { class: "tag" }, "forfeited") : null,
          onTurn ? el("span", { class: "tag turn-tag" }, "to play") : null,
        ),
        el(
          "div",
          { class: "seat-score" },
          el("span", { class: "score", "data-testid": `score-${seat.seat}` }, `${seat.score}`),
          view.ruleset.best_of ? el("span", {}, ` · ${seat.hands_won} hands`) : null,
          flash
            ? el(
                "span",
                {
                  class: `plus${againstSeats(view) ? " against" : ""}`,
                  "data-testid": `plus-${seat.seat}`,
                },
                `+${flash}`,
                // Eight seats on a phone leave no room for the word: it stays for the ear.
                againstSeats(view) ? el("span", { class: "against-word" }, " against") : null,
              )
            : null,
        ),
        shown ||
          (own
            ? null
            : el(
                "div",
                { class: "facedown", role: "img", "aria-label": `${seat.tiles} tiles` },
                facedown,
                el("span", { class: "tile-count" }, `${seat.tiles}`),
              )),
        away
          ? el(
              "p",
              { class: "away" },
              "Away: forfeits in ",
              el(
                "span",
                { class: "countdown", "data-deadline": away },
                countdown(away, ctx.offset),
              ),
            )
          : null,
        autopilotButton(view, seat, me, (method, number) => ctx.autopilot(method, number)),
      );
    }),
  );
  const teams = teamScores(view, mine);
  return teams ? el("div", { class: "partners" }, teams, seats) : seats;
}
