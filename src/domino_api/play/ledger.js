// The deal ledger: every hand's sealed deal checked twice, by this page's own sha256-fy-v1
// (deal.js, itself checked against the published vectors) and by POST /v1/deals/verify.

import { call } from "./api.js";
import * as sealed from "./deal.js";
import { faceSvg, tileLabel } from "./tiles.js";
import { el, field } from "./ui.js";

let vectorsResult = null;

/** The page's implementation against the published vectors (deal-vectors.json, beside it). */
export function vectorCheck() {
  if (vectorsResult === null) {
    vectorsResult = fetch(new URL("deal-vectors.json", import.meta.url))
      .then((r) => r.json())
      .then((doc) => sealed.checkVectors(doc.vectors));
  }
  return vectorsResult;
}

function parameters(ledger, hand) {
  const players = hand.dealt.length;
  return [
    ledger.deal.secret,
    ledger.deal.cut ?? "",
    hand.number,
    hand.attempt ?? 0,
    ledger.ruleset.max_pip,
    players,
    ledger.ruleset.hand_size,
  ];
}

/** Every played tile came from the seat's hand, every draw from the front of the stock. */
export function movesFollowDeal(hand) {
  const held = hand.dealt.map((tiles) => new Set(tiles.map(tileLabel)));
  let next = 0;
  for (const move of hand.moves || []) {
    if (move.action === "play") {
      if (!held[move.seat].delete(tileLabel(move.tile)))
        return `seq ${move.seq}: ${tileLabel(move.tile)} was not in seat ${move.seat + 1}'s hand`;
    } else if (move.action === "draw") {
      const top = hand.stock[next++];
      if (!top || (move.tile && tileLabel(top) !== tileLabel(move.tile)))
        return `seq ${move.seq}: the draw is not the stock's next tile`;
      held[move.seat].add(tileLabel(top));
    }
  }
  return null;
}

/** A hand dealt again (attempt > 0) was reshuffled because no seat held a double: check that
 * every earlier attempt really dealt none. */
async function reshufflesHeld(ledger, hand) {
  const [secret, cut, number, , maxPip, players, size] = parameters(ledger, hand);
  for (let attempt = 0; attempt < (hand.attempt ?? 0); attempt++) {
    const earlier = await sealed.deal(secret, cut, number, attempt, maxPip, players, size);
    if (earlier.hands.some((tiles) => tiles.some(([a, b]) => a === b)))
      return `shuffle ${attempt + 1} held a double, yet it was dealt again`;
  }
  return null;
}

/** The page's own verdict: {ok, lines[]} */
/** @param {import("./api.js").LedgerOut} ledger */
export async function verifyInPage(ledger) {
  if (!sealed.available())
    return {
      ok: false,
      lines: ["WebCrypto is unavailable here (open the page over https or on localhost)."],
    };
  const lines = [];
  let ok = (await sealed.commitment(ledger.deal.secret)) === ledger.deal.commitment;
  lines.push(
    ok
      ? "The secret matches the commitment shown before the deal."
      : "The secret does NOT match the commitment.",
  );
  for (const hand of ledger.hands) {
    const got = await sealed.deal(...parameters(ledger, hand));
    const same = sealed.sameTiles(got.hands, hand.dealt) && sealed.sameTiles(got.stock, hand.stock);
    const moves = movesFollowDeal(hand) ?? (await reshufflesHeld(ledger, hand));
    ok = ok && same && moves === null;
    const notes = [same ? "the deal is reproduced" : "the deal does NOT match"];
    if (moves) notes.push(moves);
    else if (same) notes.push("every move follows it");
    if (!moves && hand.attempt)
      notes.push(`the ${hand.attempt} shuffle(s) before it dealt no double`);
    lines.push(`Hand ${hand.number}: ${notes.join("; ")}.`);
  }
  return { ok, lines };
}

/** @param {import("./api.js").LedgerOut} ledger */
export async function verifyOnServer(ledger) {
  let ok = true;
  for (const hand of ledger.hands) {
    const [secret, cut, hand_number, attempt, max_pip, players, hand_size] = parameters(
      ledger,
      hand,
    );
    const body = {
      secret,
      commitment: ledger.deal.commitment,
      cut,
      hand_number,
      attempt,
      max_pip,
      players,
      hand_size,
    };
    const answer = await call("POST", "/v1/deals/verify", body);
    ok =
      ok &&
      answer.commitment_ok &&
      sealed.sameTiles(answer.hands, hand.dealt) &&
      sealed.sameTiles(answer.stock, hand.stock);
  }
  return ok;
}

function moveLine(names, move) {
  const parts = [names[move.seat], move.action];
  if (move.tile) parts.push(tileLabel(move.tile));
  if (move.end) parts.push(`on ${move.end}`);
  if (move.points) parts.push(`+${move.points}`);
  return parts.join(" ") + (move.reason ? ` — ${move.reason}` : "");
}

function tiles(list) {
  return el(
    "span",
    { class: "mini-tiles" },
    list.map((t) => el("span", { class: "mini", title: tileLabel(t), html: faceSvg(t[0], t[1]) })),
  );
}

function verdict(id, ok, good, bad) {
  return el(
    "p",
    { id, class: ok ? "verdict ok" : "verdict bad", role: "status" },
    ok ? `✓ ${good}` : `✗ ${bad}`,
  );
}

async function renderChecks(box, ledger) {
  const [page, vectors] = await Promise.all([verifyInPage(ledger), vectorCheck()]);
  const server = await verifyOnServer(ledger).catch(() => false);
  box.replaceChildren(
    verdict(
      "vectors-verdict",
      vectors.failed === null,
      `This page reproduces all ${vectors.total} published deal vectors.`,
      `This page failed published vector ${vectors.failed + 1}.`,
    ),
    verdict(
      "page-verdict",
      page.ok,
      "Verified in this page.",
      "Refused by this page: the ledger does not match its sealed deal.",
    ),
    el(
      "ul",
      {},
      page.lines.map((line) => el("li", {}, line)),
    ),
    verdict(
      "server-verdict",
      server,
      "Verified by the server's verify route.",
      "The server's verify route does not confirm this ledger.",
    ),
  );
}

/** @param {import("./api.js").LedgerOut} ledger */
export function renderLedger(ledger) {
  const names = ledger.seats.map((s) => s.name || `Seat ${s.seat + 1}`);
  const checks = el("div", { class: "checks", "aria-live": "polite" }, el("p", {}, "Checking…"));
  const hands = ledger.hands.map((hand) =>
    el(
      "section",
      { class: "ledger-hand" },
      el("h3", {}, `Hand ${hand.number}${hand.attempt ? ` (shuffle ${hand.attempt + 1})` : ""}`),
      hand.dealt.map((dealt, seat) => el("p", {}, `${names[seat]}: `, tiles(dealt))),
      el("p", {}, "Stock: ", tiles(hand.stock)),
      el(
        "ol",
        { class: "moves" },
        (hand.moves || []).map((m) => el("li", {}, moveLine(names, m))),
      ),
    ),
  );
  renderChecks(checks, ledger);
  return el(
    "div",
    { class: "ledger" },
    el(
      "p",
      {},
      `Cut “${ledger.deal.cut ?? ""}”, commitment `,
      el("code", {}, ledger.deal.commitment),
    ),
    checks,
    ...hands,
  );
}

export async function ledgerPage(root, [matchId]) {
  root.append(el("h2", { tabindex: "-1" }, "Deal ledger"));
  const ledger = await call("GET", `/v1/matches/${matchId}/ledger`);
  root.append(renderLedger(ledger));
}

/** Paste any ledger (from this page, the API or a friend) and check it. */
export function verifyPage(root) {
  const text = el("textarea", { id: "ledger-json", rows: 8, spellcheck: "false" });
  const out = el("div", { id: "verify-out" });
  const form = el(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        let ledger;
        try {
          ledger = JSON.parse(text.value);
        } catch {
          out.replaceChildren(
            el("p", { class: "verdict bad", role: "status" }, "✗ That is not JSON."),
          );
          return;
        }
        out.replaceChildren(renderLedger(ledger));
      },
    },
    field("Ledger (JSON from GET /v1/matches/{id}/ledger)", text),
    el("button", { type: "submit" }, "Verify"),
  );
  root.append(el("h2", { tabindex: "-1" }, "Verify a ledger"), form, out);
}
