// A challenge's choices (docs/API.md, "Friends and challenges"): the game, its target, its
// turn clock where the preset lets a table choose one, and whether it is rated; and the page an
// invitation link opens (#invite/<token>), where anyone signed in takes its seat.

import { call, catalog } from "./api.js";
import { presetName } from "./controls.js";
import { el, field, select, showError } from "./ui.js";

/** @typedef {import("./api.js").Schemas["ChallengeOut"]} ChallengeOut */

const CLOCKS = { fast: { allowance_s: 30, grace_s: 15 }, none: null };

/**
 * The form's controls and what they ask for (POST /v1/challenges without `to`).
 * @returns {Promise<{node: HTMLElement, read: () => Record<string, unknown>}>}
 */
export async function challengeChoices(prefix) {
  const { rulesets } = await catalog();
  const game = select(
    `${prefix}-game`,
    rulesets.map((p) => [p.name, presetName(p.name)]),
    rulesets[0].name,
  );
  const target = el("input", { id: `${prefix}-target`, type: "number", min: 1, max: 10000 });
  const clock = select(
    `${prefix}-clock`,
    [
      ["preset", "The game's own clock"],
      ["fast", "30 s a turn"],
      ["none", "No clock"],
    ],
    "preset",
  );
  const clockField = field("Clock", clock);
  const rated = el("input", { type: "checkbox", id: `${prefix}-rated` });
  let clocked = false;
  const shown = () => {
    const preset = rulesets.find((p) => p.name === game.value);
    clocked = Boolean(preset?.overrides && "turn_clock" in preset.overrides);
    clockField.style.display = clocked ? "" : "none"; // a field's own display beats `hidden`
    target.placeholder = String(preset?.target ?? "");
  };
  game.addEventListener("change", shown);
  shown();
  const read = () => {
    /** @type {Record<string, unknown>} */
    const options = {};
    if (target.value) options.target = Number(target.value);
    if (clocked && clock.value in CLOCKS) options.turn_clock = CLOCKS[clock.value];
    return { ruleset: game.value, options, rated: rated.checked };
  };
  const node = el(
    "div",
    { class: "challenge-choices" },
    field("Game", game),
    field("Points to win", target, "Empty: the game's own"),
    clockField,
    el("label", { class: "row" }, rated, " Rated (moves both ratings)"),
  );
  return { node, read };
}

/** @param {ChallengeOut} challenge */
export function describe(challenge) {
  const target = challenge.options.target ? `, to ${challenge.options.target}` : "";
  const rated = challenge.rated ? ", rated" : "";
  return `${presetName(challenge.ruleset)}${target}${rated}`;
}

/** The invitation link as a full URL. */
export function inviteUrl(path) {
  return `${location.origin}${path}`;
}

/** #invite/<token>: whose invitation it is, and "Take the seat". */
export async function invitePage(root, [token = ""]) {
  root.append(el("h2", { tabindex: "-1" }, "An invitation"));
  /** @type {ChallengeOut} */
  const challenge = await call("GET", `/v1/invites/${encodeURIComponent(token)}`);
  const take = el("button", { type: "button", class: "primary", id: "take-seat" }, "Take the seat");
  take.addEventListener("click", async () => {
    take.disabled = true;
    try {
      const taken = await call("POST", `/v1/invites/${encodeURIComponent(token)}/accept`);
      location.hash = `#/match/${taken.match}`;
    } catch (error) {
      take.disabled = false;
      showError(error);
    }
  });
  const open = challenge.status === "open";
  root.append(
    el("p", {}, `${challenge.challenger.name} invites you to play ${describe(challenge)}.`),
    open ? el("p", {}, take) : el("p", {}, `This invitation is ${challenge.status}.`),
  );
}
