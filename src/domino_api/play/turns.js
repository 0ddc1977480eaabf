// "Your turn" on the first page: the caller's seats that are to move now (GET /v1/turns), the
// nearest deadline first, each with "Play"; read again when the lobby socket says `your_turn`
// (open-tables.js). "Notify this device" subscribes the browser to Web Push (GET /v1/push/key,
// POST /v1/push/subscriptions) through the service worker sw.js, which shows each turn as a
// notification (docs/PLAY.md).

import { call } from "./api.js";
import { el, showError } from "./ui.js";

/** "in 23 h", "in 2 days", "in 40 min": how long the seat has to move. */
function left(deadline) {
  if (!deadline) return "no clock";
  const minutes = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 60000));
  if (minutes >= 48 * 60) return `${Math.round(minutes / 1440)} days left`;
  if (minutes >= 60) return `${Math.round(minutes / 60)} h left`;
  return `${minutes} min left`;
}

function row(turn) {
  return el(
    "li",
    { class: "your-turn", "data-match": turn.match },
    el("strong", {}, turn.title),
    el("span", {}, turn.per_move_s ? " · correspondence" : " · live"),
    el("small", { class: "deadline" }, ` · ${left(turn.deadline)} `),
    el("a", { href: `#/match/${turn.match}`, class: "primary continue" }, "Play"),
  );
}

function base64url(text) {
  const raw = atob(
    text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4),
  );
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** Subscribe this browser to its player's turns; resolves to what to show. */
async function notifyThisDevice() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    return "This browser has no Web Push.";
  }
  if ((await Notification.requestPermission()) !== "granted") {
    return "Notifications are blocked for this page.";
  }
  const registration = await navigator.serviceWorker.register("sw.js");
  const { public_key: key } = await call("GET", "/v1/push/key");
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: base64url(key),
  });
  await call("POST", "/v1/push/subscriptions", subscription.toJSON());
  return "This device is told when it is your turn.";
}

/** Append the section to `root` and fill it. */
export async function yourTurns(root) {
  const list = el("ul", { class: "your-turns", "aria-live": "polite" });
  const status = el("span", { class: "push-status", role: "status" });
  const notify = el("button", { type: "button", class: "notify" }, "Notify this device");
  notify.addEventListener("click", async () => {
    showError(null);
    try {
      status.textContent = await notifyThisDevice();
    } catch (error) {
      showError(error);
    }
  });
  root.append(
    el(
      "section",
      { "aria-labelledby": "your-turn-title", class: "your-turns-section" },
      el("h3", { id: "your-turn-title" }, "Your turn"),
      list,
      el("p", {}, notify, " ", status),
    ),
  );
  const load = async () => {
    const { turns } = await call("GET", "/v1/turns");
    list.replaceChildren(
      ...(turns.length
        ? turns.map(row)
        : [el("li", { class: "none" }, "Nobody is waiting for you.")]),
    );
  };
  const again = () => load().catch(showError);
  window.addEventListener("your-turn", again);
  window.addEventListener("your-turn-leave", () => window.removeEventListener("your-turn", again), {
    once: true,
  });
  await load();
}
