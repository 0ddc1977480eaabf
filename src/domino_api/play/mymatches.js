// "Your matches" on the first page: the caller's live and finished matches, newest first
// (GET /v1/matches), a "Continue" on each live one; each finished one's result ("Won 150-85"),
// its replay and its ledger; "More"
// follows the server's opaque cursor to the next, older page.

import { call } from "./api.js";
import { presetName } from "./controls.js";
import { profileLink } from "./profile.js";
import { el } from "./ui.js";

/** @typedef {import("./api.js").Schemas["MatchSummary"]} MatchSummary */

const STATUS = {
  waiting: "Not dealt yet",
  playing: "Playing",
  hand_over: "Between hands",
  finished: "Finished",
  abandoned: "Abandoned",
  cancelled: "Cancelled",
};
const PAGE = 8;

/** @param {MatchSummary} match */
function opponents(match) {
  const others = match.seats
    .filter((s) => !s.yours)
    .map((s) => profileLink(s.player_id, s.name || "an open seat"));
  if (!others.length) return ["on this device"];
  return ["with ", ...others.flatMap((name, i) => (i ? [", ", name] : [name]))];
}

/** "Won 150-85", "Lost 85-150", "Tied", "Abandoned": the result as the caller lived it. */
/** @param {MatchSummary} match */
export function outcome(match) {
  const result = match.result;
  if (!result) return match.status === "abandoned" ? "Abandoned" : null;
  if (result.reason === "abandoned" || result.reason === "cancelled") return "Abandoned";
  const mine = match.seats.find((s) => s.yours)?.seat ?? 0;
  const best = Math.max(0, ...result.scores.filter((_, n) => n !== mine));
  const score = `${result.scores[mine]}-${best}`;
  if (result.winner === null) return `Tied ${score}`;
  return result.winner === mine ? `Won ${score}` : `Lost ${score}`;
}

/** @param {MatchSummary} match */
function row(match) {
  const when = new Date(match.updated_at).toLocaleString();
  const action = match.live
    ? el("a", { href: `#/match/${match.id}`, class: "primary continue" }, "Continue")
    : [
        el("a", { href: `#/replay/${match.id}`, class: "replay-link" }, "Replay"),
        " ",
        el("a", { href: `#/ledger/${match.id}` }, "Ledger"),
      ];
  const result = outcome(match);
  return el(
    "li",
    { class: "my-match", "data-match": match.id, "data-live": String(match.live) },
    el("strong", {}, presetName(match.ruleset)),
    el("span", {}, " ", ...opponents(match), ` · ${STATUS[match.status]}`),
    result ? el("span", { class: "outcome" }, ` · ${result}`) : null,
    match.code ? el("span", {}, ` · game ${match.code}`) : null,
    el("small", {}, ` · ${when} `),
    ...[action].flat(),
  );
}

/** Append the section to `root`; fills it from the API, one page now, more on request. */
export async function myMatches(root) {
  const list = el("ul", { class: "my-matches" });
  const more = el("button", { type: "button", class: "my-more", hidden: true }, "More");
  const section = el(
    "section",
    { "aria-labelledby": "my-matches-title" },
    el("h3", { id: "my-matches-title" }, "Your matches"),
    list,
    more,
  );
  root.append(section);
  let cursor = null;
  const load = async () => {
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (cursor) query.set("cursor", cursor);
    const page = await call("GET", `/v1/matches?${query}`);
    list.append(...page.matches.map(row));
    cursor = page.next_cursor;
    more.hidden = !cursor;
    if (!list.children.length) list.append(el("li", {}, "No matches yet: start one below."));
  };
  more.addEventListener("click", () => load());
  await load();
}
