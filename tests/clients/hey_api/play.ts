// A whole match against the Planner, played with the SDK @hey-api/openapi-ts generates from
// openapi/openapi.json (default options, its fetch client): every move is an entry of the view's
// `legal`, sent back as it is with the view's `seq`. tests/clients/test_generated_clients.py
// generates the SDK, checks this file with `tsc --strict` and runs it.
import { client } from "./client/client.gen";
import {
  createMatchV1MatchesPost,
  createPlayerV1PlayersPost,
  moveV1MatchesMatchIdMovesPost,
  nextHandV1MatchesMatchIdHandsPost,
  startV1MatchesMatchIdStartPost,
  type ViewOut,
} from "./client";

function ok<T>(answer: { data?: T; error?: unknown }): T {
  if (answer.data === undefined) throw new Error(JSON.stringify(answer.error));
  return answer.data;
}

async function main(baseUrl: string): Promise<void> {
  client.setConfig({ baseUrl });
  const player = ok(await createPlayerV1PlayersPost({ body: { name: "Ana" } }));
  const headers = { Authorization: `Bearer ${player.token}` };
  const created = ok(
    await createMatchV1MatchesPost({
      headers,
      body: {
        ruleset: "all-fives",
        options: { target: 50 },
        seats: [{ type: "human" }, { type: "bot", strategy: "planner" }],
      },
    }),
  );
  const path = { match_id: created.id };
  let view: ViewOut = ok(await startV1MatchesMatchIdStartPost({ headers, path, body: { cut: "moon" } }));
  let moves = 0;
  while (view.status === "playing" || view.status === "hand_over") {
    if (view.status === "hand_over") {
      view = ok(await nextHandV1MatchesMatchIdHandsPost({ headers, path }));
      continue;
    }
    const option = view.legal[0];
    if (option === undefined) throw new Error(`nothing to play at seq ${view.seq}`);
    const body = { ...option, seq: view.seq };
    view = ok(await moveV1MatchesMatchIdMovesPost({ headers, path, body })).view;
    moves += 1;
  }
  console.log(JSON.stringify({ match: view.id, status: view.status, moves, winner: view.result?.winner ?? null }));
}

main(process.argv[2] ?? "").catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
