// Mexican Train's scoreboard (docs/RULES.md section 13): each seat's total of the pips left in
// its hands, lowest first, over the match's rounds; the lowest total wins the match.

import { el, seatName } from "./ui.js";

/** @typedef {import("./api.js").ViewOut} ViewOut */

/** The goal as the top bar says it: "13 rounds, lowest total wins". @param {ViewOut} view */
export function roundsGoal(view) {
  const rounds = view.ruleset.rounds;
  return `${rounds === 1 ? "1 round" : `${rounds} rounds`}, lowest total wins`;
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
  return el(
    "table",
    { class: "scoreboard", "data-testid": "scoreboard" },
    el("caption", {}, caption),
    el("tr", {}, el("th", { scope: "col" }, "Player"), el("th", { scope: "col" }, "Total")),
    order.map((seat) =>
      el(
        "tr",
        { class: seat.seat === winner ? "winner" : "", "data-seat": seat.seat },
        el("td", {}, seatName(seat), seat.seat === winner ? " (wins)" : ""),
        el("td", { "data-testid": `total-${seat.seat}` }, `${seat.score}`),
      ),
    ),
  );
}
