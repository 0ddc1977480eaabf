// Your records (best final score and widest margin per game and opponent) and the top 10.

import { call, catalog, identity } from "./api.js";
import { presetName } from "./controls.js";
import { myRatings, ratingsBoard } from "./ratings.js";
import { profileLink } from "./profile.js";
import { el, field, select } from "./ui.js";

function table(caption, heads, rows) {
  return el(
    "table",
    {},
    el("caption", {}, caption),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        heads.map((h) => el("th", { scope: "col" }, h)),
      ),
    ),
    el(
      "tbody",
      {},
      rows.length
        ? rows.map((r) =>
            el(
              "tr",
              {},
              r.map((c) => el("td", {}, c)),
            ),
          )
        : el("tr", {}, el("td", { colspan: heads.length }, "Nothing yet.")),
    ),
  );
}

export async function recordsPage(root) {
  root.append(el("h2", { tabindex: "-1" }, "Records"));
  if (identity()) {
    const { records, ratings } = await call("GET", "/v1/players/me/records");
    root.append(el("h3", {}, "Your ratings"), myRatings(ratings));
    root.append(
      table(
        "Your records",
        ["Game", "Opponent", "Best score", "Widest margin"],
        records.map((r) => [presetName(r.ruleset), r.opponent, r.best_score, r.best_margin ?? "–"]),
      ),
    );
  } else {
    root.append(el("p", {}, "Play a game first: records and the top 10 need a player."));
    return;
  }
  const { rulesets } = await catalog();
  const game = select(
    "board-game",
    rulesets.map((r) => [r.name, presetName(r.name)]),
    "all-fives",
  );
  const opponent = select(
    "board-opponent",
    [
      ["planner", "Planner"],
      ["plain", "Plain"],
      ["human", "People"],
    ],
    "planner",
  );
  const out = el("div", { "aria-live": "polite" });
  let asked = 0;
  const show = async () => {
    const mine = ++asked;
    const board = await call("GET", `/v1/leaderboards/${game.value}?opponent=${opponent.value}`);
    if (mine !== asked) return; // two choices in a row: only the last one's answer is drawn
    out.replaceChildren(
      table(
        `Top 10: ${presetName(game.value)} against ${opponent.selectedOptions[0].text}`,
        ["Rank", "Player", "Score", "Margin"],
        board.entries.map((e) => [e.rank, profileLink(e.player_id, e.name), e.score, e.margin]),
      ),
    );
  };
  game.addEventListener("change", show);
  opponent.addEventListener("change", show);
  root.append(el("div", { class: "row" }, field("Game", game), field("Against", opponent)), out);
  await show();
  await ratingsBoard(
    root,
    rulesets.map((r) => r.name),
  );
}
