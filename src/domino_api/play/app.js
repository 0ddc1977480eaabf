// The page's router: #/ (choices), #/new, #/join, #/solo, #/hotseat, #/match/<id>,
// #/ledger/<id>, #/replay/<id>, #/watch, #/verify, #/records, #/tournaments, #/tournament/<id>,
// #/player/<id>, #/friends, #invite/<token>.

import { account } from "./account.js";
import { Problem, becomePlayer, catalog, identity } from "./api.js";
import { invitePage } from "./challenge-form.js";
import { friendsPage } from "./friends.js";
import { ledgerPage, verifyPage } from "./ledger.js";
import { hotseatPage, joinPage, newTablePage, soloPage } from "./lobby.js";
import { myMatches } from "./mymatches.js";
import { openTables } from "./open-tables.js";
import { profilePage } from "./profile.js";
import { recordsPage } from "./records.js";
import { settingsMenu } from "./settings.js";
import { replayPage } from "./replay.js";
import { soundSwitches } from "./sound.js";
import { tablePage } from "./table.js";
import { setBackCatalog } from "./tiles.js";
import { tournamentPage, tournamentsPage } from "./tournaments.js";
import { tutorialPage } from "./tutorial.js";
import { yourTurns } from "./turns.js";
import { watchPage } from "./watch.js";
import { el, field, showError, toggle } from "./ui.js";

async function home(root) {
  const me = identity();
  const choice = (href, title, text) =>
    el("li", {}, el("a", { href, class: "choice" }, el("strong", {}, title), el("span", {}, text)));
  const mine = el("div");
  const now = el("div");
  root.append(
    el("h2", { tabindex: "-1" }, me ? `Welcome back, ${me.name}` : "Play dominoes"),
    now,
    mine,
    el(
      "ul",
      { class: "choices" },
      choice("#/new", "New table", "Every game we play, with friends and computer players"),
      choice("#/join", "Join a game", "Enter the host's game number and your name"),
      choice("#/solo", "Solo", "Against Plain or Planner, with a sealed deal you cut"),
      choice(
        "#/hotseat",
        "One device",
        "Pass the device around; each player reveals their own hand",
      ),
      choice("#/tournaments", "Tournaments", "Brackets, round-robins and standings"),
      choice("#/records", "Records", "Your best games and the top 10"),
      choice("#/watch", "Watch", "Tables being played, best rated first"),
      choice("#/friends", "Friends", "Who is online, challenges and invitation links"),
      choice("#/tutorial", "Learn Draw to 50", "The rules in a six-step tutorial"),
      choice("#/verify", "Verify a ledger", "Check any finished match's sealed deal in this page"),
    ),
  );
  account(root, route);
  if (!me) return undefined;
  const turns = el("div");
  mine.before(turns);
  const [, , leave] = await Promise.all([myMatches(mine), yourTurns(turns), openTables(now)]);
  return () => {
    leave();
    window.dispatchEvent(new CustomEvent("your-turn-leave"));
  };
}

/** Pages that read the catalogs need a player (a name) first. */
function namePage(root) {
  const name = el("input", {
    id: "first-name",
    required: true,
    maxlength: 32,
    autocomplete: "nickname",
  });
  const form = el(
    "form",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await becomePlayer(name.value.trim());
          route();
        } catch (error) {
          showError(error);
        }
      },
    },
    field("Your name (others see it at the table)", name),
    el("button", { type: "submit", class: "primary" }, "Continue"),
  );
  root.append(el("h2", { tabindex: "-1" }, "What is your name?"), form);
}

const OPEN = new Set(["", "join", "tournaments", "tutorial"]);

const ROUTES = {
  "": home,
  new: newTablePage,
  join: joinPage,
  solo: soloPage,
  hotseat: hotseatPage,
  match: tablePage,
  ledger: ledgerPage,
  replay: replayPage,
  verify: verifyPage,
  records: recordsPage,
  tournaments: tournamentsPage,
  tournament: tournamentPage,
  tutorial: tutorialPage,
  watch: watchPage,
  player: profilePage,
  friends: friendsPage,
  invite: invitePage,
};

const SIGNED_OUT =
  "This device was signed out elsewhere: sign in again with a passkey or a link code below.";

let leave = null;
// Each navigation's number: a page whose catalog arrives after a newer navigation began draws
// nothing (two quick hash changes drew the first page twice into one root).
let navigations = 0;

async function route() {
  const turn = ++navigations;
  const [name = "", ...args] = location.hash.replace(/^#\/?/, "").split("/");
  const page = !identity() && !OPEN.has(name) ? namePage : ROUTES[name] || home;
  if (leave) leave();
  leave = null;
  showError(null);
  const root = document.getElementById("app");
  root.replaceChildren();
  document.body.dataset.page = name || "home";
  try {
    if (identity()) setBackCatalog((await catalog()).backs);
    if (turn !== navigations) return;
    const cleanup = await page(root, args);
    if (typeof cleanup === "function") {
      if (turn === navigations) leave = cleanup;
      else cleanup(); // left meanwhile: its sockets close now
    }
  } catch (error) {
    if (error instanceof Problem && error.status === 401 && !identity() && turn === navigations) {
      // This browser's token was signed out (or revoked) elsewhere and is forgotten now
      // (api.js): draw the page again as a browser that never signed in, sign-in choices
      // included, and say why.
      await route();
      showError(new Error(SIGNED_OUT));
      return;
    }
    showError(error);
  }
  root.querySelector("h2")?.focus();
}

settingsMenu(/** @type {HTMLDetailsElement} */ (document.querySelector("details.settings")));
soundSwitches(document.getElementById("sound"), document.getElementById("music"));
toggle(document.getElementById("hints"), "domino.hints", "Tile hints", () =>
  window.dispatchEvent(new Event("hints")),
);
// Enter or Space activates the focused control (seed 002). Buttons take both by themselves;
// a link takes only Enter, so Space on a link follows it.
document.addEventListener("keydown", (event) => {
  const link =
    event.target instanceof Element &&
    /** @type {HTMLAnchorElement | null} */ (event.target.closest("a[href]"));
  if (event.key !== " " || !link || event.defaultPrevented) return;
  event.preventDefault();
  link.click();
});
window.addEventListener("hashchange", route);
route();
