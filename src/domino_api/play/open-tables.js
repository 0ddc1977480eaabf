// "Play now" on the first page (docs/API.md, "The lobby"): "Play anyone now" pairs the player
// with another seeker of the chosen game, and the open public tables of that game are listed,
// kept current by the lobby socket (GET /v1/lobby/ws), each with a "Join" by its public id.

import { call, catalog, identity } from "./api.js";
import { presetName } from "./controls.js";
import { el, field, select, showError } from "./ui.js";

// One shape of a listing (lobby/events.py), as openapi.json and asyncapi.yaml each publish it.
/** @typedef {import("./api.js").Schemas["LobbyTable"]} LobbyTable */
/** @typedef {import("./api.js").Schemas["SeekOut"]} SeekOut */
/** @typedef {import("contract/asyncapi").LobbyEvent} LobbyEvent */

const PRESET_KEY = "domino.lobby.preset";
// A seek's clock, where the preset lets a table choose one (classic): its own, fast, or none.
const FAST_CLOCK = { allowance_s: 30, grace_s: 15 };
const POLL_MS = 1000; // well inside a seek's lease (`lease_s`, 10 s by default)
const FINAL = new Set([4401, 4404, 4422]); // refusals a retry cannot fix

/** @param {LobbyTable | import("contract/asyncapi").LobbyTable} table */
function tableRow(table, join) {
  const free = table.free_seats === 1 ? "1 seat free" : `${table.free_seats} seats free`;
  return el(
    "li",
    { class: "open-table", "data-table": table.id },
    // The host's presence as the lobby has it (a table whose host went silent leaves the list).
    el("span", {
      class: `dot${table.host_connected ? " on" : ""}`,
      role: "img",
      "aria-label": table.host_connected ? "host here" : "host away",
      title: table.host_connected ? "host here" : "host away",
    }),
    " ",
    el("strong", {}, `${table.host}'s table`),
    table.host_rating === null
      ? null
      : el("span", { class: "tag rating", title: "The host's rating" }, String(table.host_rating)),
    el("span", {}, ` · ${table.seats} players · ${free} `),
    el("button", { type: "button", class: "primary", onclick: () => join(table.id) }, "Join"),
  );
}

/**
 * What a seeker asks for beside the game (POST /v1/lobby/seeks): a rated game or not, the
 * turn clock where the preset lets a table choose one, and Mexican Train's rounds. Only
 * seekers who ask alike are paired.
 * @param {any} preset the catalog's entry
 * @returns {{node: HTMLElement, read: () => {options: Record<string, unknown>, rated: boolean}}}
 */
function seekChoices(preset) {
  const rated = el("input", { type: "checkbox", id: "seek-rated", checked: true });
  const parts = [el("label", { class: "row" }, rated, " Rated (moves your rating)")];
  let clock = null;
  if (preset.overrides && "turn_clock" in preset.overrides && preset.turn_clock) {
    const own = preset.turn_clock;
    clock = select(
      "seek-clock",
      [
        ["preset", `${own.allowance_s} s a turn`],
        ["fast", `${FAST_CLOCK.allowance_s} s a turn`],
        ["none", "No clock"],
      ],
      "preset",
    );
    parts.push(field("Clock", clock));
  }
  // Mexican Train: a seeker may ask for a shorter match (only seekers of as many rounds pair).
  const rounds = Array.isArray(preset.overrides?.rounds)
    ? select(
        "seek-rounds",
        preset.overrides.rounds.map((n) => [n, n === 1 ? "1 round" : `${n} rounds`]),
        preset.rounds,
      )
    : null;
  if (rounds) parts.push(field("Rounds", rounds));
  const read = () => {
    /** @type {Record<string, unknown>} */
    const options = {};
    if (clock?.value === "fast") options.turn_clock = FAST_CLOCK;
    if (clock?.value === "none") options.turn_clock = null;
    if (rounds && Number(rounds.value) !== preset.rounds) options.rounds = Number(rounds.value);
    return { options, rated: rated.checked };
  };
  return { node: el("div", { class: "seek-choices" }, parts), read };
}

/** The lobby socket of one preset; `seek`: a seek it holds while open. */
function lobbySocket(preset, seek, onEvent) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams({ preset });
  if (seek) query.set("seek", seek);
  let ws = null;
  let closed = false;
  const open = () => {
    ws = new WebSocket(`${scheme}://${location.host}/v1/lobby/ws?${query}`);
    ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: identity().token }));
    ws.onmessage = (message) => onEvent(JSON.parse(message.data));
    ws.onclose = (event) => {
      if (!closed && !FINAL.has(event.code)) setTimeout(open, 1000);
    };
  };
  open();
  return () => {
    closed = true;
    ws?.close();
  };
}

/**
 * Append "Play now" to `root`: the game picker, "Play anyone now" and the open tables.
 * @returns {Promise<() => void>} what leaving the page calls (closes the sockets)
 */
export async function openTables(root) {
  const { rulesets } = await catalog();
  const names = rulesets.map((p) => p.name);
  const saved = /** @type {(typeof names)[number] | null} */ (localStorage.getItem(PRESET_KEY));
  const picker = select(
    "lobby-preset",
    names.map((n) => [n, presetName(n)]),
    saved && names.includes(saved) ? saved : names[0],
  );
  const list = el("ul", { class: "open-tables", "aria-live": "polite" });
  const status = el("p", { class: "seek-status", role: "status" });
  const choicesOf = () => seekChoices(rulesets.find((p) => p.name === picker.value));
  let choices = choicesOf();
  const choicesSlot = el("div", {}, choices.node);
  const anyone = el("button", { type: "button", class: "primary play-anyone" }, "Play anyone now");
  root.append(
    el(
      "section",
      { "aria-labelledby": "play-now-title", class: "play-now" },
      el("h3", { id: "play-now-title" }, "Play now"),
      field("Game", picker),
      choicesSlot,
      el("p", {}, anyone, " ", status),
      el("h4", {}, "Open tables"),
      list,
    ),
  );

  let stopFeed = () => {};
  let stopSeek = () => {};
  let cancel = null; // while looking: leave the queue
  const rows = new Map();
  const empty = () => {
    if (!rows.size) list.replaceChildren(el("li", { class: "none" }, "No open table: start one."));
  };
  const put = (table) => {
    const row = tableRow(table, join);
    const old = rows.get(table.id);
    rows.set(table.id, row);
    if (old) old.replaceWith(row);
    else {
      list.querySelector(".none")?.remove();
      list.prepend(row);
    }
  };
  const drop = (id) => {
    rows.get(id)?.remove();
    rows.delete(id);
    empty();
  };

  async function join(id) {
    showError(null);
    try {
      const view = await call("POST", `/v1/lobby/tables/${id}/join`, {});
      location.hash = `#/match/${view.id}`;
    } catch (error) {
      showError(error);
      drop(id);
    }
  }

  /** @param {LobbyEvent} event */
  const onLobby = (event) => {
    if (event.type === "table_opened" || event.type === "seats_changed") put(event.table);
    else if (event.type === "table_closed") drop(event.id);
    // The caller's turn at a correspondence table: "Your turn" (turns.js) reads its list again.
    else if (event.type === "your_turn") window.dispatchEvent(new CustomEvent("your-turn"));
  };

  async function follow() {
    stopFeed();
    localStorage.setItem(PRESET_KEY, picker.value);
    rows.clear();
    list.replaceChildren();
    stopFeed = lobbySocket(picker.value, null, onLobby);
    const page = await call("GET", `/v1/lobby?${new URLSearchParams({ preset: picker.value })}`);
    for (const table of page.tables.reverse()) put(table);
    empty();
  }

  /** @param {SeekOut} seek */
  const seated = (seek) => {
    stopSeek();
    location.hash = `#/match/${seek.match}`;
  };

  async function seek() {
    showError(null);
    try {
      /** @type {SeekOut} */
      const made = await call("POST", "/v1/lobby/seeks", {
        ruleset: picker.value,
        ...choices.read(),
      });
      if (made.status === "paired") return seated(made);
      status.textContent = `Looking for someone to play ${presetName(picker.value)}…`;
      anyone.textContent = "Stop looking";
      const poll = setInterval(async () => {
        const now = await call("GET", `/v1/lobby/seeks/${made.id}`).catch(() => null);
        if (now?.status === "paired") seated(now);
        else if (now && now.status !== "open") stopSeek();
      }, POLL_MS);
      const closeSocket = lobbySocket(picker.value, made.id, (event) => {
        if (event.type === "seek_paired" && event.seek === made.id) seated({ ...made, ...event });
      });
      stopSeek = () => {
        clearInterval(poll);
        closeSocket();
        status.textContent = "";
        anyone.textContent = "Play anyone now";
        stopSeek = () => {};
        cancel = null;
      };
      cancel = async () => {
        stopSeek();
        await call("DELETE", `/v1/lobby/seeks/${made.id}`).catch(() => null);
      };
    } catch (error) {
      showError(error);
    }
  }

  anyone.addEventListener("click", () => (cancel ? cancel() : seek()));
  picker.addEventListener("change", () => {
    stopSeek();
    choices = choicesOf();
    choicesSlot.replaceChildren(choices.node);
    follow().catch(showError);
  });
  await follow();
  return () => {
    stopSeek();
    stopFeed();
  };
}
