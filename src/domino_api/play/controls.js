// Above and below the board: game number, boneyard, tile-back picker, whose turn and its clock,
// and the buttons of the moment (start, draw, pass, next hand, ledger, rematch, I'm ready).

import { call, catalog } from "./api.js";
import { backImg, backUrl } from "./tiles.js";
import { lobbySwitch } from "./lobby-switch.js";
import { restartButton } from "./restart.js";
import { hasTutorial, openTutorial } from "./tutorial.js";
import { roundsGoal } from "./scoreboard.js";
import { countdown, el, field, seatName, showError } from "./ui.js";

const OVER = new Set(["finished", "abandoned", "cancelled"]);
const PRESET_NAMES = {
  "all-fives": "All Fives",
  "house-nines": "House double-nines",
  "draw-50": "Draw to 50",
  draw: "Draw",
  block: "Block",
  classic: "Classic",
  "fives-and-threes": "Fives and Threes",
  "mexican-train": "Mexican Train",
  "partners-block": "Partners: Block",
  "partners-nines": "Partners: double-nines",
  "partners-all-fives": "Partners: All Fives",
};

export function presetName(name) {
  return PRESET_NAMES[name] || name;
}

function myTurn(view, table) {
  return (
    view.status === "playing" &&
    !table.hidden &&
    // Between a move and the next turn `turn` is null: a spectator (no seat) must not match it.
    view.turn !== null &&
    view.turn.seat === (table.viewSeat ?? view.you?.seat)
  );
}

async function chooseBack(table) {
  const { backs } = await catalog();
  const view = table.view;
  const current = view?.you ? view.seats[table.viewSeat ?? view.you.seat]?.tile_back : null;
  const dialog = el("dialog", { class: "backs", "aria-label": "Choose your tile back" });
  const pick = async (id) => {
    dialog.close();
    try {
      await call("PATCH", "/v1/players/me", { tile_back: id });
      await table.refresh();
    } catch (error) {
      showError(error);
    }
  };
  dialog.append(
    el("h2", {}, "Your tile back"),
    el(
      "div",
      { class: "back-grid" },
      backs.map((b) =>
        el(
          "button",
          {
            type: "button",
            disabled: b.locked,
            onclick: () => pick(b.id),
            "data-back": b.id,
            class: b.id === current ? "current" : null,
            "aria-current": b.id === current ? "true" : null,
          },
          el("img", { src: backUrl(b.id), alt: "" }),
          el("span", {}, `${b.name} (${b.rarity})`),
          b.id === current ? el("strong", { class: "yours" }, "Your back") : null,
          el("small", { class: "credit" }, b.credit),
        ),
      ),
    ),
    el("button", { type: "button", onclick: () => dialog.close() }, "Close"),
  );
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

/** What the top row shows: it is redrawn only when this changes, so a control there keeps
 * its focus (and a Space press its click) while the rest of the table follows the game. */
function topKey(view, table) {
  const mine = view.you ? view.seats[table.viewSeat ?? view.you.seat] : null;
  const { name, target, best_of } = view.ruleset;
  const shown = [name, target, best_of, view.code, view.hand_number, view.stock, view.stock_back];
  return JSON.stringify([...shown, mine?.tile_back]);
}

function top(view, table) {
  const mine = view.you ? view.seats[table.viewSeat ?? view.you.seat] : null;
  const trains = view.ruleset.layout === "trains";
  const goal = trains
    ? roundsGoal(view)
    : view.ruleset.best_of
      ? `best of ${view.ruleset.best_of}`
      : `to ${view.ruleset.target}`;
  const name = presetName(view.ruleset.name);
  // One compact bar: the game and its facts on the left, the tutorial and one's back on the right.
  const title = el(
    "div",
    { class: "table-title" },
    el("h2", { tabindex: "-1" }, name.endsWith(goal) ? name : `${name} ${goal}`),
    el(
      "div",
      { class: "table-facts" },
      view.code
        ? el(
            "p",
            { class: "code" },
            "Game number ",
            el("strong", { "data-testid": "code" }, view.code),
          )
        : null,
      view.hand_number
        ? el("p", {}, trains ? `Round ${view.hand_number}` : `Hand ${view.hand_number}`)
        : null,
      el(
        "p",
        { class: "boneyard", "aria-label": `Boneyard: ${view.stock} tiles` },
        "Boneyard ",
        backImg(view.stock_back || "moon", false),
        ` ${view.stock}`,
      ),
    ),
  );
  return [
    title,
    hasTutorial(view.ruleset.name)
      ? el(
          "button",
          { type: "button", class: "small", onclick: () => openTutorial(view.ruleset.name) },
          "How to play",
        )
      : null,
    mine
      ? el(
          "p",
          { class: "my-back" },
          el("span", { class: "my-back-label" }, "Your tile back "),
          backImg(mine.tile_back, true),
          el(
            "button",
            {
              type: "button",
              class: "small",
              "aria-label": "Change your tile back",
              onclick: () => chooseBack(table),
            },
            "Change",
          ),
        )
      : null,
  ];
}

function handSummary(view) {
  const last = view.last_hand;
  if (!last || last.number !== view.hand_number) return "";
  if (last.tied) return `Hand ${last.number} is tied: nobody scores.`;
  if (last.winner === null) return `Hand ${last.number} ends (${last.reason}).`;
  const who = seatName(view.seats[last.winner]);
  // A hand that ends as a play reaches the target scores nothing more: no "+0".
  const points = last.points ? `, +${last.points}` : "";
  return `Hand ${last.number}: ${who} wins (${last.reason})${points}.`;
}

function resultSummary(view) {
  const result = view.result;
  if (!result) return `The match is ${view.status}.`;
  if (result.winner === null) return `The match ended without a winner (${result.reason}).`;
  if (view.teams) {
    // Partnership: the team wins, its two partners named; one score per team.
    const [won, lost] = [result.winner % 2, 1 - (result.winner % 2)].map((t) => view.teams[t]);
    const names = won.seats.map((s) => seatName(view.seats[s])).join(" and ");
    return `${names} win the match (${result.reason}), ${won.score} – ${lost.score}.`;
  }
  return `${seatName(view.seats[result.winner])} wins the match (${result.reason}), ${result.scores.join(" – ")}.`;
}

/** Whether the caller holds the host's seat. @param {import("./api.js").ViewOut} view */
function hosting(view) {
  return view.host_seat !== null && Boolean(view.you?.seats.includes(view.host_seat));
}

/** @param {import("./api.js").ViewOut} view */
export function statusLine(view, table) {
  const box = el("p", { class: "status", id: "status", role: "status" });
  if (view.status === "waiting" && view.tournament)
    box.append("Check-in: the match starts when both players are ready.");
  else if (view.status === "waiting" && hosting(view))
    box.append("Waiting for players to join: start the game when everyone is here.");
  else if (view.status === "waiting") box.append("Waiting for the host to deal.");
  else if (view.status === "hand_over") box.append(handSummary(view));
  else if (OVER.has(view.status))
    box.append([handSummary(view), resultSummary(view)].filter(Boolean).join(" "));
  else if (table.hidden) box.append("Hand-over: the next player reveals their hand.");
  else if (myTurn(view, table)) {
    const cover = view.turn.must_cover;
    box.append("Your turn", cover ? `: cover the double ${cover.tile.join("-")}` : "", ".");
  } else if (view.turn) box.append(`${seatName(view.seats[view.turn.seat])} to play.`);
  if (view.turn?.deadline) {
    box.append(
      " Turn clock: ",
      el(
        "span",
        { class: "countdown", "data-deadline": view.turn.deadline },
        countdown(view.turn.deadline, table.offset),
      ),
    );
  }
  if (view.check_in_deadline && view.status === "waiting") {
    box.append(
      " Check-in closes in ",
      el(
        "span",
        { class: "countdown", "data-deadline": view.check_in_deadline },
        countdown(view.check_in_deadline, table.offset),
      ),
    );
  }
  return box;
}

function waiting(view, table) {
  const host = view.you && view.host_seat !== null && view.you.seats.includes(view.host_seat);
  if (view.tournament) {
    const me = view.seats[view.you?.seat];
    return [
      me && !me.ready
        ? el(
            "button",
            { type: "button", class: "primary", onclick: () => table.post("ready", {}) },
            "I'm ready",
          )
        : el("p", {}, "You are ready; waiting for your opponent."),
    ];
  }
  if (!host) return [el("p", {}, "The host starts the game once everyone has joined.")];
  const cut = el("input", { id: "start-cut", name: "cut", maxlength: 64, placeholder: "random" });
  const fill = el("input", { type: "checkbox", id: "start-fill", name: "fill" });
  const open = view.seats.filter((s) => s.type === "human" && !s.name).length;
  const form = el(
    "form",
    {
      class: "start-form",
      onsubmit: (event) => {
        event.preventDefault();
        const body = { fill_with_bots: fill.checked };
        if (cut.value) body.cut = cut.value;
        table.post("start", body);
      },
    },
    field("Cut (any text, sealed into the deal)", cut),
    open
      ? el(
          "label",
          { class: "check" },
          fill,
          ` Fill the ${open} open seat(s) with computer players`,
        )
      : null,
    el("button", { type: "submit", class: "primary" }, "Start the game"),
  );
  return open ? [form, lobbySwitch(table.matchId)] : [form];
}

function playing(view, table) {
  const legal = myTurn(view, table) ? view.legal : [];
  const draw = legal.find((o) => o.action === "draw");
  const pass = legal.find((o) => o.action === "pass");
  return [
    el(
      "button",
      { type: "button", disabled: !draw, onclick: () => table.send(draw) },
      `Draw (${view.stock} left)`,
    ),
    el("button", { type: "button", disabled: !pass, onclick: () => table.send(pass) }, "Pass"),
    el(
      "button",
      {
        type: "button",
        class: "quiet",
        onclick: () => confirm("Resign this match?") && table.post("resign", table.seatField()),
      },
      "Resign",
    ),
    restartButton(view),
  ];
}

function over(view, table) {
  return [
    el("a", { class: "button primary", href: `#/ledger/${view.id}` }, "Open the deal ledger"),
    el("a", { class: "button", href: `#/replay/${view.id}` }, "Replay"),
    view.rematch_match_id
      ? el("a", { class: "button", href: `#/match/${view.rematch_match_id}` }, "Go to the rematch")
      : !view.you
        ? null
        : el(
            "button",
            { type: "button", onclick: () => table.post("rematch", table.seatField()) },
            "Rematch",
          ),
    el("a", { class: "button", href: "#/" }, "New game"),
  ];
}

function actions(view, table) {
  if (view.status === "waiting") return waiting(view, table);
  // A spectator (no seat: `you` null) watches: nothing to press while the match is played.
  if (view.status === "playing") return view.you ? playing(view, table) : [];
  if (view.status === "hand_over") {
    const next = view.you != null; // any seat may start the next hand once one is over
    const at = view.next_hand_at;
    return [
      next
        ? el(
            "button",
            {
              type: "button",
              class: "primary",
              onclick: () => table.post("hands", table.seatField()),
            },
            view.ruleset.layout === "trains" ? "Next round" : "Next hand",
          )
        : null,
      restartButton(view),
      at
        ? el(
            "p",
            {},
            "Next hand deals itself in ",
            el("span", { class: "countdown", "data-deadline": at }, countdown(at, table.offset)),
          )
        : null,
    ];
  }
  return over(view, table);
}

export const controls = { top, topKey, actions };
