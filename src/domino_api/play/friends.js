// #/friends (docs/API.md, "Friends and challenges"): friends with who is online, requests,
// challenges sent and received, and invitation links; kept current by the lobby socket
// (GET /v1/lobby/ws with no preset: only the player's own events).

import { call, identity } from "./api.js";
import { challengeChoices, describe, inviteUrl } from "./challenge-form.js";
import { el, field, showError, announce } from "./ui.js";

/** @typedef {import("./api.js").Schemas["FriendsOut"]} FriendsOut */
/** @typedef {import("./api.js").Schemas["ChallengesOut"]} ChallengesOut */
/** @typedef {import("./api.js").Schemas["ChallengeOut"]} ChallengeOut */
/** @typedef {import("contract/asyncapi").SocialEvent} SocialEvent */

const FINAL = new Set([4401, 4422]); // refusals a retry cannot fix
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller's own events, on a lobby socket that watches no preset. */
function ownEvents(onEvent) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let ws = null;
  let closed = false;
  const open = () => {
    ws = new WebSocket(`${scheme}://${location.host}/v1/lobby/ws`);
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

const button = (text, onclick, cls = "") =>
  el("button", { type: "button", class: cls, onclick }, text);

async function act(method, path, body) {
  showError(null);
  try {
    return await call(method, path, body);
  } catch (error) {
    showError(error);
    return null;
  }
}

export async function friendsPage(root) {
  const friends = el("ul", { class: "friends", "aria-live": "polite" });
  const requests = el("ul", { class: "friend-requests" });
  const incoming = el("ul", { class: "challenges-in", "aria-live": "polite" });
  const outgoing = el("ul", { class: "challenges-out" });
  const who = el("input", { id: "friend-name", required: true, maxlength: 36 });
  const form = el("form", { class: "add-friend" }, field("Name or player id", who));
  form.append(el("button", { type: "submit", class: "primary" }, "Add friend"));
  const choices = await challengeChoices("challenge");
  const challenging = el("p", { class: "challenging", role: "status" });
  const link = el("input", { id: "invite-link", readonly: true, "aria-label": "Invitation link" });
  const copy = button("Copy the link", () => navigator.clipboard?.writeText(link.value));
  const ready = el("span", { class: "invite-ready", style: "display: none" }, link, " ", copy);
  const makeLink = button("Make an invitation link", () => invite(), "make-invite");
  root.append(
    el("h2", { tabindex: "-1" }, "Friends"),
    form,
    requests,
    friends,
    el("h3", {}, "Challenges"),
    incoming,
    outgoing,
    el("section", { class: "challenge-form" }, el("h4", {}, "Challenge options"), choices.node),
    challenging,
    el("p", {}, makeLink, " ", ready),
  );

  async function showFriends() {
    /** @type {FriendsOut} */
    const got = await call("GET", "/v1/friends");
    friends.replaceChildren(
      ...got.friends.map((f) =>
        el(
          "li",
          { class: "friend", "data-player": f.id, "data-online": String(f.online) },
          el("span", {
            class: `dot ${f.online ? "online" : "offline"}`,
            title: f.online ? "Online" : "Offline",
          }),
          el("a", { href: `#/player/${f.id}` }, f.name),
          el("span", { class: "visually-hidden" }, f.online ? " online" : " offline"),
          " ",
          button("Challenge", () => challenge(f), "challenge"),
          " ",
          button("Remove", () => act("DELETE", `/v1/friends/${f.id}`).then(showFriends)),
        ),
      ),
    );
    if (!got.friends.length)
      friends.append(el("li", { class: "none" }, "No friends yet: add one."));
    requests.replaceChildren(
      ...got.incoming.map((p) =>
        el(
          "li",
          { class: "friend-request", "data-player": p.id },
          `${p.name} asks to be friends `,
          button(
            "Accept",
            () => act("POST", "/v1/friends", { id: p.id }).then(showFriends),
            "primary",
          ),
          " ",
          button("Decline", () => act("DELETE", `/v1/friends/${p.id}`).then(showFriends)),
        ),
      ),
      ...got.outgoing.map((p) => el("li", { class: "asked" }, `Asked ${p.name}: waiting`)),
    );
  }

  /** @param {ChallengeOut} c */
  const incomingRow = (c) =>
    el(
      "li",
      { class: "challenge-in", "data-challenge": c.id },
      `${c.challenger.name} challenges you: ${describe(c)} `,
      button("Accept", () => answer(c.id, "accept"), "primary accept"),
      " ",
      button("Decline", () => answer(c.id, "decline"), "decline"),
    );
  /** @param {ChallengeOut} c */
  const outgoingRow = (c) =>
    el(
      "li",
      { class: "challenge-out", "data-challenge": c.id },
      `You challenged ${c.challenged?.name ?? "whoever opens the link"}: ${describe(c)} `,
      button("Cancel", () => act("DELETE", `/v1/challenges/${c.id}`).then(showChallenges)),
    );

  async function showChallenges() {
    /** @type {ChallengesOut} */
    const got = await call("GET", "/v1/challenges");
    incoming.replaceChildren(...got.incoming.map(incomingRow));
    outgoing.replaceChildren(...got.outgoing.map(outgoingRow));
  }

  async function answer(id, how) {
    const answered = await act("POST", `/v1/challenges/${id}/${how}`);
    if (answered?.match) location.hash = `#/match/${answered.match}`;
    else await showChallenges();
  }

  async function challenge(friend) {
    const made = await act("POST", "/v1/challenges", { to: { id: friend.id }, ...choices.read() });
    if (!made) return;
    challenging.textContent = `Challenge sent to ${friend.name}: waiting for an answer…`;
    await showChallenges();
  }

  async function invite() {
    const made = await act("POST", "/v1/challenges", choices.read());
    if (!made) return;
    link.value = inviteUrl(made.invite);
    ready.style.display = "";
    await showChallenges();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = who.value.trim();
    const added = await act("POST", "/v1/friends", ID.test(text) ? { id: text } : { name: text });
    if (!added) return;
    who.value = "";
    announce(
      added.status === "friends"
        ? `${added.player.name} is your friend`
        : `Asked ${added.player.name}`,
    );
    await showFriends();
  });

  /** @param {SocialEvent} event */
  const onEvent = (event) => {
    if (event.type === "challenge_closed" && event.status === "accepted" && event.match) {
      location.hash = `#/match/${event.match}`;
    } else if (event.type === "challenge_received" || event.type === "challenge_closed") {
      if (event.type === "challenge_closed")
        challenging.textContent = `Your challenge was ${event.status}.`;
      showChallenges().catch(showError);
    } else if (event.type?.startsWith("friend_")) {
      if (event.type === "friend_online") announce(`${event.player.name} is online`);
      showFriends().catch(showError);
    }
  };
  const stop = ownEvents(onEvent);
  await Promise.all([showFriends(), showChallenges()]);
  return stop;
}
