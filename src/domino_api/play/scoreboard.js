// Mexican Train's scoreboard (docs/RULES.md section 13): each seat's total of the pips left in
// its hands, lowest first, over the match's rounds; the lowest total wins the match. Points
// there are charged against a seat, and the table says so wherever it shows them.

import { el, seatName } from "./ui.js";

/** @typedef {import("./api.js").ViewOut} ViewOut */

/** Whether a seat's points count against it (the lowest total wins). @param {ViewOut} view */
export function againstSeats(view) {
  return view?.ruleset?.layout === "trains";
}

/** Points a seat took: "+12", or "+60 against" where they are a penalty. @param {ViewOut} view */
export function pointsText(view, points) {
  return againstSeats(view) ? `+${points} against` : `+${points}`;
}

/** The goal as the top bar says it: "13 rounds, lowest total wins". @param {ViewOut} view */
export function roundsGoal(view) {
  const rounds = view.ruleset.rounds;
  return `${rounds === 1 ? "1 round" : `${rounds} rounds`}, lowest total wins`;
}

/** The pips the round just ended charged `seat`, or null while no round has ended. */
function roundPips(view, seat) {
  const last = view.last_hand;
  return last && last.number === view.hand_number ? last.pips[seat] : null;
}

/** The totals between rounds and at the end; null while a round is played. @param {ViewOut} view */
export function scoreboard(view) {
  if (view.ruleset.layout !== "trains" || view.status === "playing" || !view.hand_number)
    return null;
  const order = [...view.seats].sort((a, b) => a.score - b.score || a.seat - b.seat);
  const winner = view.result?.winner ?? null;
  const caption = view.result
    ? `Final totals after ${view.hand_number} of ${view.ruleset.rounds} rounds`
    : `Totals after round ${view.hand_number} of ${view.ruleset.rounds}`;
  // A round cut short charges nobody: its column then stays out.
  const counted = ["domino", "blocked"].includes(view.last_hand?.reason ?? "");
  const round = (seat) => {
    const pips = counted ? roundPips(view, seat) : null;
    return pips === null ? null : pips ? pointsText(view, pips) : "0";
  };
  const shown = order.some((seat) => round(seat.seat) !== null);
  return el(
    "table",
    { class: "scoreboard", "data-testid": "scoreboard" },
    el("caption", {}, `${caption} (pips against: lowest wins)`),
    el(
      "tr",
      {},
      el("th", { scope: "col" }, "Player"),
      shown ? el("th", { scope: "col" }, `Round ${view.hand_number}`) : null,
      el("th", { scope: "col" }, "Total pips"),
    ),
    order.map((seat) =>
      el(
        "tr",
        { class: seat.seat === winner ? "winner" : "", "data-seat": seat.seat },
        el("td", {}, seatName(seat), seat.seat === winner ? " (wins)" : ""),
        shown
          ? el(
              "td",
              { class: "round", "data-testid": `round-${seat.seat}` },
              round(seat.seat) ?? "",
            )
          : null,
        el("td", { "data-testid": `total-${seat.seat}` }, `${seat.score}`),
      ),
    ),
  );
}
