// Restart at a solo table (seed 003): ask first, then abandon the match (the player resigns;
// at a two-seat table the other seat, the computer, wins) and deal a new one with the same
// game, opponent and settings (a rematch) and a fresh cut.

import { call } from "./api.js";
import { el, showError } from "./ui.js";

/** Solo: the page's player holds the only human seat, the others are computers. */
function solo(view) {
  const humans = view.seats.filter((s) => s.type === "human");
  return humans.length === 1 && (view.you?.seats || []).includes(humans[0].seat);
}

async function restart(view) {
  const base = `/v1/matches/${view.id}`;
  await call("POST", `${base}/resign`, {});
  const over = await call("POST", `${base}/rematch`, {});
  const cut = crypto.getRandomValues(new Uint32Array(2)).join("-");
  await call("POST", `/v1/matches/${over.rematch_match_id}/start`, { cut });
  location.hash = `#/match/${over.rematch_match_id}`;
}

function ask(view) {
  const dialog = el(
    "dialog",
    { class: "confirm", "aria-labelledby": "restart-title" },
    el("h2", { id: "restart-title" }, "Restart?"),
    el(
      "p",
      {},
      "This abandons the match in play: you resign it, so the computer wins it. " +
        "Then a new one is dealt with a fresh cut.",
    ),
  );
  const yes = el("button", { type: "button", class: "primary" }, "Abandon and deal again");
  const no = el("button", { type: "button", onclick: () => dialog.close() }, "Keep playing");
  yes.addEventListener("click", async () => {
    yes.disabled = true;
    try {
      await restart(view);
    } catch (error) {
      showError(error);
    }
    dialog.close();
  });
  dialog.append(el("div", { class: "row" }, yes, no));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  no.focus(); // the safe choice has the focus
}

/** The Restart button of a solo match in play, else null. */
export function restartButton(view) {
  if (!solo(view) || !["playing", "hand_over"].includes(view.status)) return null;
  return el("button", { type: "button", class: "quiet", onclick: () => ask(view) }, "Restart");
}
