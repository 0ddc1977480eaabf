// Ratings (docs/API.md, "Ratings"): each seat's rating beside its name at the table, and the
// leaderboard by rating on the records page, a page at a time.

import { call } from "./api.js";
import { presetName } from "./controls.js";
import { profileLink } from "./profile.js";
import { el, field, select } from "./ui.js";

/** @typedef {import("./api.js").Schemas["MatchRatings"]} MatchRatings */

/** Each table's seat ratings, read once per match and its seated players, and once more at
 * its end (ratings move): a joiner's rating shows as its seat is taken, without a reload.
 * @type {Map<string, {status: string, ratings: Promise<MatchRatings | null>}>} */
const read = new Map();

/** @param {{rating: number, deviation: number}} r */
const label = (r) => `${r.rating} ± ${r.deviation}`;

/** @param {string} matchId @param {string} status @param {string} seated */
function ratingsOf(matchId, status, seated) {
  const over = ["finished", "abandoned", "cancelled"].includes(status) ? "over" : seated;
  const known = read.get(matchId);
  if (known && known.status === over) return known.ratings;
  const ratings = call("GET", `/v1/matches/${matchId}/ratings`).catch(() => null);
  read.set(matchId, { status: over, ratings });
  return ratings;
}

/** Put each seat's rating beside its name in the seats list drawn by seats.js.
 * @param {HTMLElement} list @param {string} matchId @param {string} status */
export async function showSeatRatings(list, matchId, status) {
  // The names of the seats drawn: a seat taken (seat_joined) reads the ratings again.
  const seated = [...list.querySelectorAll(".seat-name")].map((n) => n.textContent).join("|");
  const found = await ratingsOf(matchId, status, `live:${seated}`);
  if (!found) return;
  for (const seat of found.seats) {
    const head = list.querySelector(`[data-seat="${seat.seat}"] .seat-head`);
    if (!head || head.querySelector(".rating")) continue;
    const title = seat.computer ? "fixed computer rating" : `${seat.games} rated matches`;
    const tag = el(
      "span",
      { class: "tag rating", title, "data-testid": `rating-${seat.seat}` },
      label(seat),
    );
    const name = head.querySelector(".seat-name");
    name?.after(tag);
    if (seat.player_id && name && !name.querySelector("a")) {
      name.replaceChildren(profileLink(seat.player_id, name.textContent || ""));
    }
  }
  const seats = list.querySelector("ul.seats");
  seats?.setAttribute("aria-description", found.rated ? "a rated match" : "not rated");
}

/** The solo form's "Rated match" box: a match against the computer is rated only when asked.
 * @returns {{node: HTMLElement, query: () => string}} */
export function ratedBox() {
  const box = el("input", { type: "checkbox", id: "rated", name: "rated" });
  const node = el("label", { class: "row" }, box, " Rated match (moves your rating)");
  return { node, query: () => (box.checked ? "?rated=true" : "") };
}

/** The records page's board by rating: a preset to choose, 20 players a page.
 * @param {HTMLElement} root @param {string[]} presets */
export function ratingsBoard(root, presets) {
  const game = select(
    "rating-game",
    presets.map((name) => [name, presetName(name)]),
    "all-fives",
  );
  const rows = el("tbody", {});
  const more = el("button", { type: "button", class: "small" }, "More");
  let cursor = null;
  let asked = 0;
  const load = async (fresh) => {
    const mine = ++asked;
    const after = fresh || !cursor ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const page = await call("GET", `/v1/ratings/leaderboard?preset=${game.value}${after}`);
    if (mine !== asked) return; // a newer choice's answer is the one drawn
    if (fresh) rows.replaceChildren();
    for (const e of page.entries) {
      const cells = [e.rank, profileLink(e.player_id, e.name), e.rating, e.deviation, e.games];
      rows.append(
        el(
          "tr",
          { "data-testid": "rating-row" },
          cells.map((c) => el("td", {}, c instanceof Node ? c : `${c}`)),
        ),
      );
    }
    if (!rows.children.length)
      rows.append(el("tr", {}, el("td", { colspan: 5 }, "No rated matches yet.")));
    cursor = page.next_cursor;
    more.style.display = cursor ? "" : "none"; // `hidden` loses to the buttons' display rule
  };
  game.addEventListener("change", () => load(true));
  more.addEventListener("click", () => load(false));
  const heads = ["Rank", "Player", "Rating", "±", "Rated matches"];
  root.append(
    el("h3", {}, "Ratings"),
    el("div", { class: "row" }, field("Game", game)),
    el(
      "table",
      { "data-testid": "ratings-board" },
      el("caption", {}, "Leaderboard by rating (rating minus three deviations)"),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          heads.map((h) => el("th", { scope: "col" }, h)),
        ),
      ),
      rows,
    ),
    more,
  );
  return load(true);
}

/** The caller's own ratings, one line per preset.
 * @param {import("./api.js").Schemas["RatingOut"][]} ratings */
export function myRatings(ratings) {
  const items = ratings.map((r) =>
    el("li", {}, `${presetName(r.preset)}: ${label(r)} (${r.games} rated matches)`),
  );
  return el(
    "ul",
    { "aria-label": "Your ratings", "data-testid": "my-ratings" },
    items.length ? items : el("li", {}, "No rated matches yet."),
  );
}
