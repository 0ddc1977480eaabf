// The Watch page, #/watch: the tables in play the player may watch (GET /v1/watch), best rated
// first, each with its seats and their ratings and a "Watch" that opens the table as a
// spectator (the table page shows a seatless player the public view).

import { call } from "./api.js";
import { presetName } from "./controls.js";
import { el, seatName } from "./ui.js";

/** @typedef {import("./api.js").Schemas["WatchTable"]} WatchTable */

/** @param {WatchTable} table */
function seats(table) {
  return table.seats
    .map((seat) => (seat.rating === null ? seatName(seat) : `${seatName(seat)} (${seat.rating})`))
    .join(" vs ");
}

/** @param {WatchTable} table */
function row(table) {
  return el(
    "li",
    { class: "watch-table", "data-match": table.id },
    el("strong", {}, presetName(table.ruleset)),
    el("span", {}, ` ${seats(table)}`),
    table.tournament ? el("span", {}, " · tournament") : null,
    " ",
    el("a", { href: `#/match/${table.id}`, class: "button primary watch-link" }, "Watch"),
  );
}

export async function watchPage(root) {
  const { tables } = await call("GET", "/v1/watch?limit=50");
  const list = el("ul", { class: "watch-tables" }, ...tables.map(row));
  if (!tables.length) list.append(el("li", {}, "No table is being played in the open now."));
  root.append(
    el("h2", { tabindex: "-1" }, "Watch"),
    el("p", {}, "Tables in play that welcome spectators, and your tournaments' matches."),
    list,
  );
}
