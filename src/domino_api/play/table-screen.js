// The table's screen: the page drawn from the table's view (its seats, board, hand, status and
// controls), the focus kept where keyboard play left it, and a seat's score flashed. The table
// (table.js) keeps the view current; these draw it.

import { renderBoard, scrolls } from "./board.js";
import { againstSeats, scoreboard } from "./scoreboard.js";
import { renderTrains } from "./trains-board.js";
import { controls, statusLine } from "./controls.js";
import { endTarget, renderHand, revealScreen } from "./hand.js";
import { showSeatRatings } from "./ratings.js";
import { renderSeats } from "./seats.js";
import { announce, clear, fill } from "./ui.js";

export function flash(table, seat, points) {
  table.flashes.set(seat, points);
  const who = table.view?.seats[seat]?.name || `Seat ${seat + 1}`;
  announce(againstSeats(table.view) ? `${who}: ${points} pips against` : `${who} scores ${points}`);
  drawSeats(table);
  clearTimeout(table.flashTimers?.[seat]);
  table.flashTimers = {
    ...table.flashTimers,
    [seat]: setTimeout(() => {
      table.flashes.delete(seat);
      drawSeats(table);
    }, 4000),
  };
}

export function focusedPart(table) {
  table.focusLabel = document.activeElement?.textContent;
  // A redrawn hand gives the focus back to the tile that had it.
  const tile = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.tile;
  if (tile && table.parts.hand.contains(document.activeElement))
    table.lastFocus = tile.split("-").map(Number);
  return ["hand", "board", "controls"].find((k) => table.parts[k].contains(document.activeElement));
}

export function drawTable(table) {
  const focusIn = focusedPart(table) || table.refocus;
  const topKey = controls.topKey(table.view, table);
  if (topKey !== table.topKey) fill(table.parts.top, controls.top(table.view, table));
  table.topKey = topKey;
  // More than four seats (Mexican Train's): a phone packs the top, seats and buttons closer.
  table.parts.board.parentElement?.classList.toggle("crowded", table.view.seats.length > 4);
  drawSeats(table);
  drawBoard(table);
  const totals = scoreboard(table.view);
  table.parts.status.replaceChildren(statusLine(table.view, table), ...(totals ? [totals] : []));
  // A phone scrolls a long scoreboard within the status box: the keyboard must reach it.
  if (totals) table.parts.status.tabIndex = 0;
  else table.parts.status.removeAttribute("tabindex");
  drawHand(table);
  fill(table.parts.controls, controls.actions(table.view, table));
  const etiquette = Boolean(table.view.talk_etiquette) && table.view.status === "playing";
  table.talk.talkOff(Boolean(table.view.talk_off), etiquette);
  if (table.busy) table.setBusy(true);
  else if (focusIn) restoreFocus(table, focusIn);
}

/** After a re-render, focus goes back to the same kind of place (keyboard play goes on). */
export function restoreFocus(table, where) {
  table.refocus = null;
  const hand =
    table.parts.hand.querySelector(".tile[tabindex='0']") ||
    table.parts.hand.querySelector("button");
  const enabled = [...table.parts.controls.querySelectorAll("button:not([disabled]), a")];
  const same = enabled.find((b) => b.textContent === table.focusLabel);
  const glow = table.selected && table.parts.board.querySelector(".end-target.glow");
  const target = { board: glow || hand, hand, controls: same || hand || enabled[0] }[where];
  (target || enabled[0])?.focus();
}

export function drawSeats(table) {
  table.parts.seats.replaceChildren(renderSeats(table.view, table));
  // Hot-seat play is never rated, and every seat there is the same player's rating.
  if (!table.hotseat()) showSeatRatings(table.parts.seats, table.matchId, table.view.status);
}

export function drawBoard(table) {
  const targets = (end) => (table.hidden ? null : endTarget(table.view, table, end));
  if (table.view.ruleset.layout === "trains") {
    renderTrains(table.parts.board, table.view, targets);
    return;
  }
  table.parts.board.classList.remove("trains");
  table.parts.board.removeAttribute("tabindex");
  renderBoard(
    table.parts.board,
    table.view.board,
    (end) => (table.hidden ? null : endTarget(table.view, table, end)),
    scrolls(table.view.ruleset.name),
  );
}

export function drawHand(table) {
  clear(table.parts.hand);
  if (table.hidden) {
    const seat = table.view.seats[table.handoverTo];
    table.parts.hand.append(revealScreen(seat, () => table.viewAs(table.handoverTo)));
    return;
  }
  if (table.view.you) table.parts.hand.append(renderHand(table.view, table));
}
