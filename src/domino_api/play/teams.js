// Partnership tables (docs/RULES.md 14): seats 0 and 2 against 1 and 3. Partners sit opposite:
// the seat you view from at the bottom, your partner at the top, the opponents left and right;
// the teams' shared scores above the seats.

import { el, seatName } from "./ui.js";

const PLACES = ["bottom", "left", "top", "right"]; // by seats after yours, in turn order

/** Where `seat` sits seen from `mine` (seat 0 for a spectator). */
export function placeOf(seat, mine) {
  return PLACES[(seat - (mine ?? 0) + 4) % 4];
}

/** The teams' scores, yours first: null at a table that is not played in partnership.
 * @param {import("./api.js").ViewOut} view */
export function teamScores(view, mine) {
  if (!view.teams) return null;
  const ours = (mine ?? 0) % 2;
  const ordered = [view.teams[ours], view.teams[1 - ours]];
  return el(
    "p",
    { class: "team-scores", "aria-label": "Team scores" },
    ordered.map((team) =>
      el(
        "span",
        { class: `team${team.won ? " won" : ""}`, "data-testid": `team-score-${team.team}` },
        el("strong", {}, team.team === ours && mine !== null ? "Your team" : "Their team"),
        ` (${team.seats.map((s) => seatName(view.seats[s])).join(" & ")}): `,
        el("span", { class: "score" }, `${team.score}`),
        team.won ? " · won" : null,
      ),
    ),
  );
}
