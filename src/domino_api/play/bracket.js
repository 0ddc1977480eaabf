// The tournament's bracket, drawn from the view's slots: single elimination as columns of
// rounds, each slot at its (round, index) and every winner's path drawn to the slot `next`
// names; round-robin as its rounds. Each card shows its match's score, live while it is played.

import { identity } from "./api.js";
import { el } from "./ui.js";

/** "35 – 20": the live score of a match in play, else the decided one (none at check-in). */
function score(m) {
  const points = m.live?.points ?? (m.winner || m.reason ? m.points : null);
  if (!points) return null;
  return el(
    "p",
    { class: `score-line${m.live ? " live" : ""}`, "data-testid": `score-${m.id}` },
    points.join(" – "),
    m.live ? " (live)" : "",
  );
}

/**
 * Who leads the pairing: by hands won in a best-of match, by points to a target; live while
 * played, final once decided. "Ana leads 2–1 in hands", "Level at 1–1 in hands", "Bo won 75–40".
 */
function leads(m, goal) {
  const played = m.live || (m.winner && m.reason === "played");
  if (!played) return null;
  const unit = goal.best_of ? "hands" : "points";
  const counts = goal.best_of ? (m.live?.hands_won ?? m.hands_won) : (m.live?.points ?? m.points);
  const first = m.winner ? m.players.indexOf(m.winner) : counts[0] >= counts[1] ? 0 : 1;
  const [a, b] = [counts[first], counts[1 - first]];
  const text = m.winner
    ? `${m.names[first]} won ${a}–${b} in ${unit}`
    : a === b
      ? `Level at ${a}–${b} in ${unit}`
      : `${m.names[first]} leads ${a}–${b} in ${unit}`;
  return el("p", { class: "leads", "data-testid": `leads-${m.id}` }, text);
}

function matchCard(m, goal) {
  const me = identity()?.id;
  const mine = m.players.includes(me) && ["check_in", "playing"].includes(m.status);
  return el(
    "div",
    { class: `slot ${m.status}`, "data-slot": `${m.round}-${m.index}` },
    el(
      "p",
      { class: "players" },
      m.names
        .map((name, side) =>
          el("span", { class: m.players[side] === m.winner ? "winner" : "" }, name || "?"),
        )
        .reduce((a, b) => [a, " vs ", b]),
    ),
    score(m),
    leads(m, goal),
    el("p", { class: "small" }, m.status.replace("_", "-"), m.reason ? ` (${m.reason})` : ""),
    mine
      ? el(
          "a",
          { class: "button primary", href: `#/match/${m.id}` },
          m.status === "check_in" ? "Go to my match: I'm ready" : "Go to my match",
        )
      : null,
  );
}

/**
 * Who holds each first-round bye, by slot: round 1's slots without a match are its byes, in
 * slot order, and the view's round-1 `byes` names their entrants in the same order.
 * @returns {Map<number, string>}
 */
function byeHolders(view, slots, count) {
  const names = new Map(view.entrants.map((e) => [e.player_id, e.name]));
  const free = [...Array(count).keys()].filter((index) => !slots.has(`1-${index}`));
  const byes = view.rounds[0]?.byes ?? [];
  return new Map(free.map((index, k) => [index, names.get(byes[k]) ?? "a player with a bye"]));
}

/** Who comes into a slot from (round, index): a decided match's winner, a bye's player. */
function fromSlot(slots, byes, round, index) {
  const m = slots.get(`${round}-${index}`);
  if (m?.winner) return m.names[m.players.indexOf(m.winner)];
  if (!m && round === 1) return byes.get(index) ?? null;
  return null;
}

/** A slot the view has no match for: a first-round bye (named), else who is known to come in
 * and who it waits for. */
function openCard(slots, byes, round, index) {
  let text;
  if (round === 1) {
    const holder = byes.get(index);
    text = holder ? `${holder}: bye` : "Bye";
  } else {
    const sides = [0, 1].map((side) => fromSlot(slots, byes, round - 1, 2 * index + side));
    text = sides.map((who) => who ?? "to be decided").join(" vs ");
  }
  return el(
    "div",
    { class: "slot pending", "data-slot": `${round}-${index}` },
    el("p", { class: "players" }, text),
  );
}

function elimination(view) {
  const slots = new Map(
    view.rounds.flatMap((r) => r.matches).map((m) => [`${m.round}-${m.index}`, m]),
  );
  const rounds = Math.max(1, Math.ceil(Math.log2(Math.max(2, view.entrants.length))));
  const byes = byeHolders(view, slots, 2 ** (rounds - 1));
  const columns = [];
  for (let round = 1; round <= rounds; round += 1) {
    const count = 2 ** (rounds - round);
    const cells = [];
    for (let index = 0; index < count; index += 1) {
      const m = slots.get(`${round}-${index}`);
      const span = 2 ** (round - 1);
      cells.push(
        el(
          "div",
          {
            class: `cell${round > 1 ? " joined" : ""}`,
            style: `grid-row:${index * span + 1} / span ${span}`,
          },
          m ? matchCard(m, view.match) : openCard(slots, byes, round, index),
        ),
      );
    }
    columns.push(
      el(
        "section",
        { class: "column" },
        el("h3", {}, round === rounds ? "Final" : `Round ${round}`),
        el(
          "div",
          { class: "cells", style: `grid-template-rows:repeat(${2 ** (rounds - 1)}, 1fr)` },
          cells,
        ),
      ),
    );
  }
  return el("div", { class: "bracket elimination", "aria-label": "Bracket" }, columns);
}

function roundRobin(view, names) {
  return el(
    "div",
    { class: "bracket", "aria-label": "Rounds" },
    view.rounds.map((round) =>
      el(
        "section",
        { class: "round" },
        el("h3", {}, `Round ${round.number}${round.status === "complete" ? " (complete)" : ""}`),
        round.matches.map((m) => matchCard(m, view.match)),
        round.rests.map((p) => el("p", { class: "small" }, `${names[p]}: rests`)),
      ),
    ),
  );
}

export function bracket(view, names) {
  if (!view.rounds.length) return null;
  return view.format === "single_elimination" ? elimination(view) : roundRobin(view, names);
}
