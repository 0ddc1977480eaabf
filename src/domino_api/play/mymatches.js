// "Your matches" on the first page: the caller's live and finished matches, newest first
// (GET /v1/matches), a "Continue" on each live one and the ledger of each finished one; "More"
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

/** @param {MatchSummary} match */
function row(match) {
  const when = new Date(match.updated_at).toLocaleString();
  const action = match.live
    ? el("a", { href: `#/match/${match.id}`, class: "primary continue" }, "Continue")
    : el("a", { href: `#/ledger/${match.id}` }, "Ledger");
  return el(
    "li",
    { class: "my-match", "data-match": match.id, "data-live": String(match.live) },
    el("strong", {}, presetName(match.ruleset)),
    el("span", {}, " ", ...opponents(match), ` · ${STATUS[match.status]}`),
    match.code ? el("span", {}, ` · game ${match.code}`) : null,
    el("small", {}, ` · ${when} `),
    action,
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
