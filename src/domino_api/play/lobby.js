// Getting to a table: create one (every preset, human and computer seats, the preset's
// options), join by game number and name, solo against Plain or Planner, or hot-seat.

import { accepts, becomePlayer, call, catalog, identity } from "./api.js";
import { presetName } from "./controls.js";
import { optionControls, seatCounts } from "./options.js";
import { ratedBox } from "./ratings.js";
import { el, field, fill, select, showError } from "./ui.js";

const SEAT_KINDS = [
  ["remote", "A player on another device"],
  ["hotseat", "A player on this device (hot-seat)"],
  ["planner", "Computer: Planner"],
  ["plain", "Computer: Plain"],
];

function nameInput() {
  return el("input", {
    id: "your-name",
    name: "name",
    required: true,
    maxlength: 32,
    autocomplete: "nickname",
    value: identity()?.name || "",
  });
}

function seatSpec(kind, name) {
  if (kind === "planner" || kind === "plain") return { type: "bot", strategy: kind };
  if (kind === "hotseat")
    return name ? { type: "human", holder: "host", name } : { type: "human", holder: "host" };
  return { type: "human" };
}

async function submit(work) {
  showError(null);
  try {
    await work();
  } catch (error) {
    showError(error);
  }
}

/** Create the match (and deal at once when nobody else has to join); `query`: POST
 * /v1/matches's query (`?rated=true`); `listed`: list it in the lobby (POST /v1/lobby/tables),
 * where anyone may join its open seats. */
async function createAndGo(name, ruleset, seats, options, cut, query = "", listed = false) {
  await becomePlayer(name);
  const named = await accepts("SeatSpec", "name");
  const body = {
    ruleset,
    seats: seats.map((s) => (named ? s : { ...s, name: undefined })),
    options,
  };
  const waitsForOthers = seats.slice(1).some((s) => s.type === "human" && !s.holder);
  const sent = JSON.parse(JSON.stringify(body));
  const view =
    listed && waitsForOthers
      ? (await call("POST", "/v1/lobby/tables", sent)).view
      : await call("POST", `/v1/matches${query}`, sent);
  if (!waitsForOthers) await call("POST", `/v1/matches/${view.id}/start`, cut ? { cut } : {});
  location.hash = `#/match/${view.id}`;
}

/** Preset picker plus its option controls, rebuilt when the preset changes. */
function presetChooser(all, onChange, solo = false) {
  const presets = all;
  const picker = select(
    "preset",
    presets.map((p) => [p.name, presetName(p.name)]),
    presets[0].name,
  );
  const holder = el("div");
  let current = null;
  const rebuild = () => {
    const preset = presets.find((p) => p.name === picker.value);
    current = optionControls(preset, solo);
    holder.replaceChildren(current.node);
    onChange(preset);
  };
  picker.addEventListener("change", rebuild);
  return {
    node: el("div", {}, field("Game", picker), holder),
    init: rebuild,
    options: () => current.read(),
    value: () => picker.value,
  };
}

export async function newTablePage(root) {
  const { rulesets } = await catalog();
  const name = nameInput();
  const seatsBox = el("fieldset", { class: "seat-list" });
  const chooser = presetChooser(rulesets, (preset) => drawSeats(preset));
  let count = null;
  const listed = el("input", { type: "checkbox", id: "public-table", name: "public" });
  function drawSeats(preset) {
    const counts = seatCounts(preset);
    count = select(
      "seat-count",
      counts.map((n) => [n, `${n} players`]),
      counts.at(-1) === 4 ? 4 : counts[0],
    );
    const rows = el("div");
    const draw = () =>
      rows.replaceChildren(
        ...Array.from({ length: Number(count.value) - 1 }, (_, i) =>
          field(`Seat ${i + 2}`, select(`seat-${i + 1}`, SEAT_KINDS, "remote")),
        ),
      );
    count.addEventListener("change", draw);
    draw();
    fill(
      seatsBox,
      el("legend", {}, "Seats (seat 1 is you)"),
      counts.length > 1 ? field("Players", count) : null,
      rows,
    );
  }
  const form = el(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        const kinds = [...seatsBox.querySelectorAll("select[id^='seat-']")]
          .filter((s) => s.id !== "seat-count")
          .map((s) => s.value);
        const seats = [
          { type: "human" },
          ...kinds.map((k, i) => seatSpec(k, k === "hotseat" ? `Player ${i + 2}` : null)),
        ];
        const chosen = [chooser.value(), seats, chooser.options(), null, "", listed.checked];
        submit(() => createAndGo(name.value.trim(), ...chosen));
      },
    },
    field("Your name", name),
    chooser.node,
    seatsBox,
    field("List it in the lobby: anyone may take an open seat", listed),
    el("button", { type: "submit", class: "primary" }, "Create the table"),
  );
  root.append(el("h2", { tabindex: "-1" }, "New table"), form);
  chooser.init();
}

export function joinPage(root) {
  const code = el("input", {
    id: "join-code",
    name: "code",
    required: true,
    inputmode: "numeric",
    pattern: "[0-9]{4,6}",
    maxlength: 6,
    autocomplete: "off",
  });
  const name = nameInput();
  const form = el(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        submit(async () => {
          const me = await becomePlayer(name.value.trim());
          const body = { code: code.value.trim() };
          if (await accepts("JoinBody", "name")) body.name = me.name;
          const view = await call("POST", "/v1/matches/join", body);
          location.hash = `#/match/${view.id}`;
        });
      },
    },
    field("Game number", code, "The host's game number"),
    field("Your name", name, "Use the same name to get your seat back"),
    el("button", { type: "submit", class: "primary" }, "Join the game"),
  );
  root.append(el("h2", { tabindex: "-1" }, "Join a game"), form);
}

export async function soloPage(root) {
  const { rulesets } = await catalog();
  const name = nameInput();
  const chooser = presetChooser(rulesets, () => {}, true);
  const opponent = select(
    "opponent",
    [
      ["planner", "Planner"],
      ["plain", "Plain"],
    ],
    "planner",
  );
  const cut = el("input", { id: "cut", name: "cut", maxlength: 64, required: true });
  const rated = ratedBox();
  const randomize = el(
    "button",
    { type: "button", onclick: () => (cut.value = Math.random().toString(36).slice(2, 10)) },
    "Randomize",
  );
  const form = el(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        const seats = [{ type: "human" }, { type: "bot", strategy: opponent.value }];
        const chosen = [chooser.value(), seats, chooser.options(), cut.value, rated.query()];
        submit(() => createAndGo(name.value.trim(), ...chosen));
      },
    },
    field("Your name", name),
    chooser.node,
    field("Opponent", opponent),
    rated.node,
    el(
      "div",
      { class: "row" },
      field("Cut (sealed into the deal before it is made)", cut),
      randomize,
    ),
    el("button", { type: "submit", class: "primary" }, "Deal"),
  );
  root.append(el("h2", { tabindex: "-1" }, "Solo against the computer"), form);
  chooser.init();
}

export async function hotseatPage(root) {
  const { rulesets } = await catalog();
  const named = await accepts("SeatSpec", "name"); // names for the other seats, when taken
  const name = nameInput();
  const countBox = el("div");
  const namesBox = el("div");
  const count = () => Number(countBox.querySelector("select")?.value || countBox.dataset.count);
  const drawNames = () =>
    named &&
    namesBox.replaceChildren(
      ...Array.from({ length: count() - 1 }, (_, i) =>
        field(
          `Seat ${i + 2}: name`,
          el("input", { id: `hot-name-${i + 1}`, maxlength: 32, value: `Player ${i + 2}` }),
        ),
      ),
    );
  const chooser = presetChooser(
    rulesets,
    (preset) => {
      const counts = seatCounts(preset);
      countBox.dataset.count = counts[0];
      const picker = select("hot-count", counts, counts[0]);
      picker.addEventListener("change", drawNames);
      countBox.replaceChildren(
        counts.length > 1 ? field("Players", picker) : el("p", {}, `${counts[0]} players`),
      );
      drawNames();
    },
    true,
  );
  const form = el(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        const names = [...namesBox.querySelectorAll("input")].map((input) => input.value.trim());
        const others = Array.from({ length: count() - 1 }, (_, i) =>
          seatSpec("hotseat", names[i] || `Player ${i + 2}`),
        );
        const seats = [{ type: "human" }, ...others];
        submit(() =>
          createAndGo(name.value.trim(), chooser.value(), seats, chooser.options(), null),
        );
      },
    },
    field("Your name", name),
    chooser.node,
    countBox,
    namesBox,
    el("button", { type: "submit", class: "primary" }, "Deal"),
  );
  root.append(el("h2", { tabindex: "-1" }, "One device, passed around"), form);
  chooser.init();
}
