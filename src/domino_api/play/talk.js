// Table talk (everyone at the table sees it) and the table log of plays, draws and points.

import { mannersBox, messageLine } from "./civil.js";
import { pointsText } from "./scoreboard.js";
import { tileLabel } from "./tiles.js";
import { el } from "./ui.js";

function name(view, seat) {
  const found = view?.seats?.[seat];
  return found?.name || `Seat ${seat + 1}`;
}

/** A seat taken (a claim: by name, from a holder gone for the lease), freed, or joined. */
function joinedLine(d, view) {
  const who = d.name || name(view, d.seat);
  if (d.released) return `The host freed seat ${d.seat + 1} for the next join`;
  if (d.claimed) return `${who} claimed seat ${d.seat + 1}`;
  return `${who} joined`;
}

/** A short sentence for the log, or null for events the log leaves out. */
/** @param {import("./api.js").AnyEvent} event @param {import("./api.js").ViewOut} view */
export function logLine(event, view) {
  const d = event.data;
  switch (event.type) {
    case "tile_played":
      return `${name(view, d.seat)} played ${tileLabel(d.tile)}${d.end ? ` on ${d.end}` : ""}`;
    case "tile_drawn":
      return `${name(view, d.seat)} drew a tile`;
    case "passed":
      return `${name(view, d.seat)} passed`;
    case "scored":
      return `${name(view, d.seat)} ${pointsText(view, d.points)} (${d.score})`;
    case "hand_started":
      return "A new hand is dealt";
    case "match_ended":
      return "The match is over";
    case "seat_joined":
      return joinedLine(d, view);
    case "autopilot_on":
      return `Autopilot on: the computer plays for ${name(view, d.seat)}`;
    case "autopilot_off":
      return `Autopilot off: ${name(view, d.seat)} plays again`;
    case "talk_changed":
      return d.off ? "The host turned table talk off" : "The host turned table talk on";
    default:
      return null;
  }
}

/** @param {(text: string) => unknown} send @param {import("./civil.js").Table} [table] */
export function chatPanel(send, table) {
  const messages = el("ol", {
    class: "messages",
    "aria-live": "polite",
    "aria-label": "Table talk",
  });
  const log = el("ol", { class: "log", "aria-label": "Table log" });
  const input = el("input", {
    id: "talk-input",
    name: "talk",
    maxlength: 500,
    autocomplete: "off",
  });
  const state = el("span", { class: "link-state" }, "connecting…");
  const sendButton = el("button", { type: "submit" }, "Send");
  const form = el(
    "form",
    {
      class: "talk-form",
      onsubmit: async (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        input.value = "";
        await send(text);
      },
    },
    el("label", { for: "talk-input" }, "Say something"),
    input,
    sendButton,
  );
  const node = el(
    "aside",
    { class: "talk" },
    el("h2", {}, "Table talk ", state),
    messages,
    form,
    table ? mannersBox(table, messages) : null,
    el("h2", {}, "Table log"),
    log,
  );
  return {
    node,
    add(data, seq) {
      messages.append(messageLine(data, seq, table));
      messages.scrollTop = messages.scrollHeight;
    },
    log(line) {
      log.prepend(el("li", {}, line));
      while (log.children.length > 12) log.lastChild.remove();
    },
    connected(up) {
      state.textContent = up ? "" : "reconnecting…";
    },
    /** The host turned talk off (or on), or partnership etiquette holds while a hand is in
     * play: nothing can be said meanwhile, and the form says why. */
    talkOff(off, etiquette = false) {
      input.disabled = off || etiquette;
      sendButton.disabled = off || etiquette;
      input.placeholder = off
        ? "The host turned table talk off"
        : etiquette
          ? "Partnership etiquette: no talk while a hand is in play"
          : "";
    },
  };
}
