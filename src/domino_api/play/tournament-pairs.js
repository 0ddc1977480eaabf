// A tournament of pairs on its page (docs/API.md, "Tournaments"): each player enters naming
// a partner (whoever named them, a friend, or anyone by player id), a half pair waits for its
// partner to name it back, and the entrants show as pairs.

import { call, identity } from "./api.js";
import { el, field, select } from "./ui.js";

/**
 * @typedef {import("./api.js").TournamentOut} TournamentOut
 * @typedef {import("./api.js").Schemas["FriendOut"]} FriendOut
 */

/**
 * The partner to enter with (a tournament of pairs): whoever entered naming you, a friend, or
 * anyone by player id. `chosen` keeps the choice across the page's reloads.
 * @param {TournamentOut} view @param {string | undefined} me @param {FriendOut[]} friends
 * @param {{ partner: string, other: string }} chosen
 */
export function partnerChoice(view, me, friends, chosen) {
  const askers = view.entrants.filter((e) => e.partner === me && !e.paired);
  const taken = new Set(view.entrants.filter((e) => e.paired).map((e) => e.player_id));
  const asked = new Set(askers.map((e) => e.player_id));
  const options = [
    ["", "Choose your partner…"],
    ...askers.map((e) => [e.player_id, `${e.name} (named you)`]),
    ...friends
      .filter((f) => !taken.has(f.id) && !asked.has(f.id))
      .map((f) => [f.id, `${f.name} (friend)`]),
    ["other", "Someone else, by player id"],
  ];
  // Kept across reloads once chosen; until then whoever named you is offered first.
  const known = chosen.partner && options.some(([value]) => value === chosen.partner);
  const choice = select("t-partner", options, known ? chosen.partner : askers[0]?.player_id);
  const other = el("input", { id: "t-partner-id", maxlength: 36, value: chosen.other });
  const otherField = field("Your partner's player id", other);
  const shown = () => {
    chosen.partner = choice.value;
    otherField.style.display = choice.value === "other" ? "" : "none";
  };
  choice.addEventListener("change", shown);
  other.addEventListener("input", () => (chosen.other = other.value));
  shown();
  const read = () => (choice.value === "other" ? other.value.trim() : choice.value);
  const node = el(
    "div",
    { class: "partner-choice" },
    field("Your partner", choice, "Your partner enters too, naming you"),
    otherField,
    me ? el("p", { class: "small", id: "t-my-id" }, `Your player id: ${me}`) : null,
  );
  return { node, read };
}

/** A half pair's line: whom the caller named, who has not named them back yet.
 * @param {TournamentOut} view @param {string | undefined} me @param {FriendOut[]} friends */
export function waitingLine(view, me, friends) {
  const mine = view.entrants.find((e) => e.player_id === me);
  if (!mine?.partner || mine.paired) return null;
  const named = mine.partner;
  const known = [
    ...view.entrants.map((e) => [e.player_id, e.name]),
    ...friends.map((f) => [f.id, f.name]),
  ];
  const partner = known.find(([id]) => id === named)?.[1];
  const who = partner ? `your partner, ${partner},` : "your partner";
  return el("p", { id: "t-waiting", role: "status" }, `Waiting for ${who} to enter naming you.`);
}

/** Each entry: a whole pair as "Ana & Bo", a half pair as waiting. @param {TournamentOut} view */
export function entrantItems(view) {
  if (view.preset === "classic") return view.entrants.map((e) => el("li", {}, e.name));
  const names = Object.fromEntries(view.entrants.map((e) => [e.player_id, e.name]));
  const shown = new Set();
  const items = [];
  for (const e of view.entrants) {
    if (shown.has(e.player_id)) continue;
    shown.add(e.player_id);
    if (e.paired && e.partner) {
      shown.add(e.partner);
      items.push(el("li", { class: "pair" }, `${e.name} & ${names[e.partner] ?? ""}`));
    } else {
      items.push(el("li", { class: "half-pair" }, `${e.name} (waiting for a partner)`));
    }
  }
  return items;
}

/** The caller's friends, the partners the page offers first (none before signing up).
 * @returns {Promise<FriendOut[]>} */
export async function friendsOf() {
  if (!identity()) return [];
  /** @type {import("./api.js").Schemas["FriendsOut"]} */
  const got = await call("GET", "/v1/friends").catch(() => ({ friends: [], incoming: [] }));
  return [...got.friends];
}
