// Tournaments: create one, enter it, the bracket by round, the standings, and each match's
// "I'm ready" (on the match's own table page). Changes come from the tournament's events feed.

import { becomePlayer, call, identity } from "./api.js";
import { bracket } from "./bracket.js";
import { presetName } from "./controls.js";
import { entrantItems, friendsOf, partnerChoice, waitingLine } from "./tournament-pairs.js";
import { el, field, fill, select, showError } from "./ui.js";

/**
 * @typedef {import("./api.js").TournamentOut} TournamentOut
 * @typedef {import("./api.js").Schemas["FriendOut"]} FriendOut
 * @typedef {TournamentOut["preset"]} TournamentPreset
 */

// The presets a tournament of pairs plays (POST /v1/tournaments `preset`; classic is one on one).
/** @type {TournamentPreset[]} */
const PAIR_PRESETS = ["partners-block", "partners-nines", "partners-all-fives"];

export function tournamentsPage(root) {
  const name = el("input", { id: "t-name", required: true, maxlength: 64, value: "Friday cup" });
  const you = el("input", {
    id: "your-name",
    required: true,
    maxlength: 32,
    value: identity()?.name || "",
  });
  const format = select(
    "t-format",
    [
      ["single_elimination", "Winner advances"],
      ["round_robin", "Round-robin"],
    ],
    "single_elimination",
  );
  const preset = select(
    "t-preset",
    [
      ["classic", "Classic: one against one"],
      ...PAIR_PRESETS.map((p) => [p, `${presetName(p)}: pairs, two against two`]),
    ],
    "classic",
  );
  const size = el("input", { id: "t-size", type: "number", min: 2, max: 10000, value: 8 });
  const goal = select(
    "t-goal",
    [
      ["target", "First to a points target"],
      ...[1, 2, 3, 4, 5].map((n) => [`best_of:${n}`, `Best of ${n} hand${n > 1 ? "s" : ""}`]),
    ],
    "target",
  );
  const target = el("input", { id: "t-target", type: "number", min: 1, max: 10000, value: 100 });
  const goalChanged = () => {
    target.disabled = goal.value !== "target";
  };
  goal.addEventListener("change", goalChanged);
  const opener = select(
    "t-opener",
    [
      ["winner_any", "The winner of a hand leads the next"],
      ["alternate_any", "Players take turns leading (alternating starters)"],
    ],
    "winner_any",
  );
  const number = (id, min, max, value) => el("input", { id, type: "number", min, max, value });
  const allowance = number("t-allowance", 1, 86400, 180);
  const grace = number("t-grace", 1, 86400, 120);
  const checkIn = number("t-check-in", 30, 3600, 300);
  // A tournament of pairs plays its matches to a target, the hands led as its preset says.
  preset.addEventListener("change", () => {
    const pairs = preset.value !== "classic";
    if (pairs) goal.value = "target";
    goal.disabled = opener.disabled = pairs;
    goalChanged();
  });
  const create = el(
    "form",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await becomePlayer(you.value.trim());
          const pairs = preset.value !== "classic";
          const body = {
            name: name.value,
            format: format.value,
            preset: preset.value,
            max_entrants: Number(size.value),
            match:
              goal.value === "target"
                ? { target: Number(target.value) }
                : { best_of: Number(goal.value.split(":")[1]) },
            ...(pairs ? {} : { next_opener: opener.value }),
            clock: { allowance_s: Number(allowance.value), grace_s: Number(grace.value) },
            check_in_s: Number(checkIn.value),
          };
          const view = await call("POST", "/v1/tournaments", body);
          location.hash = `#/tournament/${view.id}`;
        } catch (error) {
          showError(error);
        }
      },
    },
    field("Your name", you),
    field("Tournament name", name),
    field("Format", format),
    field("Game", preset),
    field("Most entrants", size, "In a tournament of pairs: most pairs"),
    field("Matches", goal, EVEN_BEST_OF),
    field("Points target", target, "Matches to a target end when a player reaches it"),
    field("Who leads each hand", opener),
    field("Seconds per turn", allowance),
    field("Extra seconds once per turn", grace),
    field("Seconds to say you are ready for a match", checkIn),
    el("button", { type: "submit", class: "primary" }, "Create the tournament"),
  );
  const id = el("input", { id: "t-id", required: true, placeholder: "tournament id" });
  const open = el(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        location.hash = `#/tournament/${id.value.trim()}`;
      },
    },
    field("Tournament id (from its link)", id),
    el("button", { type: "submit" }, "Open"),
  );
  const yours = el("ul", { class: "tournament-list", id: "my-tournaments" });
  const taking = el("ul", { class: "tournament-list", id: "open-tournaments" });
  root.append(
    el("h2", { tabindex: "-1" }, "Tournaments"),
    el("h3", {}, "Yours"),
    yours,
    el("h3", {}, "Taking entrants"),
    taking,
    el("h3", {}, "Create a tournament"),
    create,
    el("h3", {}, "Open a tournament"),
    open,
  );
  if (identity()) listInto(yours, "mine=true", "None yet: create one or enter one below.");
  if (identity()) listInto(taking, "status=open", "None is taking entrants now.");
}

/** GET /v1/tournaments (newest first) into `list`: each a link to its page. */
async function listInto(list, query, none) {
  try {
    /** @type {import("./api.js").Schemas["TournamentsPage"]} */
    const page = await call("GET", `/v1/tournaments?${query}&limit=20`);
    fill(
      list,
      page.tournaments.length
        ? page.tournaments.map((t) =>
            el(
              "li",
              {},
              el("a", { href: `#/tournament/${t.id}` }, t.name),
              ` (${FORMATS[t.format]}, ${goalText(t.match)}, ${t.status}, ` +
                `${t.entrants}/${t.max_entrants} entrants)`,
            ),
          )
        : [el("li", { class: "none" }, none)],
    );
  } catch (error) {
    showError(error);
  }
}

function standings(view, names) {
  if (!view.standings.length) return null;
  return el(
    "table",
    { class: "standings" },
    el("caption", {}, "Standings"),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ["Rank", "Player", "Match wins", "Hand diff", "Point diff"].map((h) =>
          el("th", { scope: "col" }, h),
        ),
      ),
    ),
    el(
      "tbody",
      {},
      view.standings.map((s) =>
        el(
          "tr",
          {},
          el("td", {}, s.rank),
          el("td", {}, names[s.player_id]),
          el("td", {}, s.match_wins),
          el("td", {}, s.hand_diff),
          el("td", {}, s.point_diff),
        ),
      ),
    ),
  );
}

const EVEN_BEST_OF =
  "Best of 2 or 4: hands level at the end, the higher points total wins; points level too, " +
  "one more hand decides";
const OPENERS = { winner_any: "the winner of a hand", alternate_any: "players in turn" };

const FORMATS = { round_robin: "Round-robin", single_elimination: "Winner advances" };

/** 90 -> "1 min 30 s", 600 -> "10 min", 45 -> "45 s" */
function duration(seconds) {
  const [min, s] = [Math.floor(seconds / 60), seconds % 60];
  return [min ? `${min} min` : "", s || !min ? `${s} s` : ""].filter(Boolean).join(" ");
}

/** "Best of 2 hands" or "First to 75 points" */
function goalText(match) {
  if ("best_of" in match) return `Best of ${match.best_of} hand${match.best_of > 1 ? "s" : ""}`;
  return `First to ${match.target} points`;
}

/** What every match of the tournament is: its goal, clock, check-in window and openers. */
function terms(view) {
  const bestOf = view.match.best_of;
  const evenRule =
    bestOf && bestOf % 2 === 0 ? " (level on hands: the higher points total wins)" : "";
  const rows = [
    ["Matches", goalText(view.match) + evenRule],
    [
      "Turn clock",
      `${duration(view.clock.allowance_s)} a turn + ${duration(view.clock.grace_s)} grace`,
    ],
    ["Check-in", `${duration(view.check_in_s)} to say you are ready`],
    ["Who leads each hand", OPENERS[view.next_opener] ?? "the winner of a hand"],
  ];
  if (view.preset !== "classic") rows.unshift(["Game", `${presetName(view.preset)}, in pairs`]);
  return el(
    "dl",
    { class: "terms", id: "t-terms" },
    rows.flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, value)]),
  );
}

// max_entrants counts pairs in a tournament of pairs: a whole pair's two entries are one.
/** @param {import("./api.js").TournamentOut} view */
function entrantsHeading(view) {
  const pairs = view.preset !== "classic";
  const whole = view.entrants.filter((e) => e.paired).length / 2;
  const count = pairs ? view.entrants.length - whole : view.entrants.length;
  return `${pairs ? "Pairs" : "Entrants"} (${count}/${view.max_entrants})`;
}

/**
 * @param {HTMLElement} box @param {TournamentOut} view
 * @param {(method: string, path: string) => Promise<void>} act
 * @param {{ friends: FriendOut[], chosen: { partner: string, other: string } }} page
 */
function render(box, view, act, page) {
  const me = identity()?.id;
  const names = Object.fromEntries(view.entrants.map((e) => [e.player_id, e.name]));
  const entered = view.entrants.some((e) => e.player_id === me);
  const champion = view.champion ? `champion: ${names[view.champion]}` : null;
  const pairs = view.preset !== "classic";
  const picker =
    pairs && !entered && view.status === "open"
      ? partnerChoice(view, me, page.friends, page.chosen)
      : null;
  const enter = () => {
    if (!picker) return act("POST", "entrants");
    const partner = picker.read();
    if (!partner) return Promise.resolve(showError(new Error("Choose your partner first.")));
    return act("POST", `entrants?partner=${encodeURIComponent(partner)}`);
  };
  const buttons =
    view.status !== "open"
      ? []
      : [
          entered
            ? el("button", { type: "button", onclick: () => act("DELETE", "entrants/me") }, "Leave")
            : el("button", { type: "button", class: "primary", onclick: enter }, "Enter"),
          view.host === me
            ? el(
                "button",
                { type: "button", onclick: () => act("POST", "start") },
                "Start the tournament",
              )
            : null,
        ];
  fill(
    box,
    el("h2", { tabindex: "-1" }, view.name),
    el("p", {}, [FORMATS[view.format], view.status, champion].filter(Boolean).join(" · ")),
    terms(view),
    el("p", { class: "small" }, "Share this page's address to invite players."),
    picker?.node ?? null,
    el("div", { class: "row" }, buttons),
    view.status === "open" && pairs ? waitingLine(view, me, page.friends) : null,
    el("h3", {}, entrantsHeading(view)),
    el("ul", { class: "entrants" }, entrantItems(view)),
    bracket(view, names),
    standings(view, names),
  );
}

export async function tournamentPage(root, [id]) {
  const box = el("div");
  root.append(box);
  let seq = 0;
  const page = { friends: await friendsOf(), chosen: { partner: "", other: "" } };
  const load = async () => render(box, await call("GET", `/v1/tournaments/${id}`), act, page);
  /** @param {string} method @param {string} path */
  const act = async (method, path) => {
    try {
      await becomePlayer(identity()?.name || "Player");
      render(box, await call(method, `/v1/tournaments/${id}/${path}`), act, page);
      showError(null); // done: a problem shown before is answered
    } catch (error) {
      showError(error);
    }
  };
  await load();
  const poll = setInterval(async () => {
    const { events } = await call("GET", `/v1/tournaments/${id}/events?after=${seq}`).catch(() => ({
      events: [],
    }));
    if (events.length) seq = events.at(-1).seq;
    // A match in play changes its score without a tournament event: its card reads it anew.
    if (events.length || box.querySelector(".slot.playing")) await load().catch(showError);
  }, 2000);
  return () => clearInterval(poll);
}
