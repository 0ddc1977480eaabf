// The options each preset allows (from GET /v1/rulesets `overrides`), as form controls, and
// back to the `options` object of POST /v1/matches (only what differs from the preset).

import { el, field, select } from "./ui.js";

const LABELS = {
  until_playable: "Draw until you can play",
  one: "Single draw",
  winner_any: "The winner opens",
  alternate_any: "Openers alternate",
};

const PER_MOVE = [
  ["", "Live: everyone at the table"],
  ["3600", "1 hour per move (correspondence)"],
  ["86400", "1 day per move (correspondence)"],
  ["259200", "3 days per move (correspondence)"],
];

/** Controls for `preset`; returns {node, read(): options}. A table of one person (solo or
 * hot-seat) runs no clocks, so `solo` leaves their settings out. */
export function optionControls(preset, solo = false) {
  const allowed = preset.overrides || {};
  const controls = [];
  const read = [];
  if ("target" in allowed) {
    const input = el("input", {
      type: "number",
      id: "opt-target",
      name: "target",
      min: 1,
      value: preset.target ?? "",
    });
    controls.push(field("Points to win", input));
    read.push(
      (o) =>
        Number(input.value) !== preset.target && input.value && (o.target = Number(input.value)),
    );
  }
  if (Array.isArray(allowed.hand_size)) {
    const input = select(
      "opt-hand-size",
      allowed.hand_size.map((n) => [n, `${n} tiles each`]),
      preset.hand_size,
    );
    controls.push(field("Hand size", input));
    read.push(
      (o) => Number(input.value) !== preset.hand_size && (o.hand_size = Number(input.value)),
    );
  }
  if (Array.isArray(allowed.first_opener) && allowed.first_opener.includes("seat_zero_any")) {
    // docs/RULES.md section 3: these two go together (seed 003's All Fives).
    const input = select(
      "opt-opening",
      [
        ["standard", "Highest double opens"],
        ["any", "Any tile opens, openers alternate"],
      ],
      "standard",
    );
    controls.push(field("Opening", input));
    read.push(
      (o) =>
        input.value === "any" &&
        Object.assign(o, { first_opener: "seat_zero_any", next_opener: "alternate_any" }),
    );
  }
  for (const key of ["draw", "next_opener"]) {
    if (!Array.isArray(allowed[key])) continue;
    if (key === "next_opener" && allowed.first_opener) continue; // part of "Opening" above
    const input = select(
      `opt-${key}`,
      allowed[key].map((v) => [v, LABELS[v] || v]),
      preset[key],
    );
    controls.push(field(key === "draw" ? "Drawing" : "Later hands", input));
    read.push((o) => input.value !== preset[key] && (o[key] = input.value));
  }
  if ("best_of" in allowed) {
    const input = select(
      "opt-best-of",
      [["", "A points target"], 1, 2, 3, 4, 5].map((v) =>
        Array.isArray(v) ? v : [v, `Best of ${v} hands`],
      ),
      "",
    );
    controls.push(field("Format", input));
    read.push((o) => input.value && (o.best_of = Number(input.value)));
  }
  if (Array.isArray(allowed.rounds)) {
    // Mexican Train (docs/RULES.md section 13): fewer rounds make a short match.
    const input = select(
      "opt-rounds",
      allowed.rounds.map((n) => [n, n === 1 ? "1 round" : `${n} rounds`]),
      preset.rounds,
    );
    controls.push(field("Rounds", input));
    read.push((o) => Number(input.value) !== preset.rounds && (o.rounds = Number(input.value)));
  }
  if ("away_forfeit_s" in allowed && !solo) {
    const input = el("input", {
      type: "number",
      id: "opt-away",
      name: "away",
      min: 1,
      value: preset.away_forfeit_s ?? "",
    });
    controls.push(field("Seconds away before a forfeit", input));
    read.push(
      (o) =>
        input.value &&
        Number(input.value) !== preset.away_forfeit_s &&
        (o.away_forfeit_s = Number(input.value)),
    );
  }
  if ("turn_clock" in allowed && preset.turn_clock && !solo) {
    const allowance = el("input", {
      type: "number",
      id: "opt-allowance",
      min: 1,
      value: preset.turn_clock.allowance_s,
    });
    const grace = el("input", {
      type: "number",
      id: "opt-grace",
      min: 1,
      value: preset.turn_clock.grace_s,
    });
    controls.push(field("Seconds per turn", allowance), field("Reconnection grace (s)", grace));
    read.push((o) => {
      const clock = { allowance_s: Number(allowance.value), grace_s: Number(grace.value) };
      if (
        clock.allowance_s !== preset.turn_clock.allowance_s ||
        clock.grace_s !== preset.turn_clock.grace_s
      )
        o.turn_clock = clock;
    });
  }
  if (preset.partnership && !solo) {
    // Not a preset parameter but the table's (`options.talk`, docs/RULES.md 14): etiquette
    // keeps partners from talking while a hand is in play.
    const input = select(
      "opt-talk",
      [
        ["free", "Table talk at any time"],
        ["etiquette", "Partnership etiquette: no talk while a hand is in play"],
      ],
      "free",
    );
    controls.push(field("Table talk", input));
    read.push((o) => input.value === "etiquette" && (o.talk = "etiquette"));
  }
  if (!solo) {
    // A correspondence table (docs/API.md): hours or days per move, no away rule, the turn
    // told on the lobby socket and by Web Push. It replaces the live clocks above.
    const input = select("opt-per-move", PER_MOVE, "");
    controls.push(field("Time per move", input));
    read.push((o) => {
      if (!input.value) return;
      delete o.turn_clock;
      delete o.away_forfeit_s;
      o.per_move_s = Number(input.value);
    });
  }
  return {
    node: el("fieldset", { class: "options" }, el("legend", {}, "Options"), controls),
    read() {
      const options = {};
      for (const step of read) step(options);
      return options;
    },
  };
}

/** How many seats a preset seats: a choice where it allows one (overrides.players), else fixed. */
export function seatCounts(preset) {
  const allowed = preset.overrides?.players;
  return Array.isArray(allowed) ? allowed : [preset.players];
}
