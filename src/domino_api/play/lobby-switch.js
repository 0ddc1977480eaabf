// The host's switch at a waiting table (docs/API.md, "The lobby"): list it in the lobby, or
// take it out again (PUT/DELETE /v1/matches/{id}/public).

import { call } from "./api.js";
import { el, showError } from "./ui.js";

/**
 * The host's switch at a waiting table: list it in the lobby, or take it out again.
 * @param {string} matchId
 */
export function lobbySwitch(matchId) {
  const path = `/v1/matches/${matchId}/public`;
  const button = el("button", { type: "button", class: "lobby-switch", disabled: true }, "…");
  let listed = false;
  const show = () => {
    button.textContent = listed ? "Take it out of the lobby" : "List it in the lobby";
    button.disabled = false;
  };
  call("GET", path).then(
    (state) => ((listed = state.listed), show()),
    () => show(),
  );
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await call(listed ? "DELETE" : "PUT", path);
      listed = !listed;
    } catch (error) {
      showError(error);
    }
    show();
  });
  return el("p", {}, button);
}
