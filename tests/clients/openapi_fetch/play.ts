// A whole match against the Planner, played with openapi-fetch over the types openapi-typescript
// generates from openapi/openapi.json (default options): every move is an entry of the view's
// `legal`, sent back as it is with the view's `seq`. tests/clients/test_generated_clients.py
// generates the types, checks this file with `tsc --strict` and runs it.
import createClient from "openapi-fetch";
import type { components, paths } from "./api";

type View = components["schemas"]["ViewOut"];

function ok<T>(answer: { data?: T; error?: unknown }): T {
  if (answer.data === undefined) throw new Error(JSON.stringify(answer.error));
  return answer.data;
}

async function main(baseUrl: string): Promise<void> {
  const client = createClient<paths>({ baseUrl });
  const player = ok(await client.POST("/v1/players", { body: { name: "Ana" } }));
  const headers = { Authorization: `Bearer ${player.token}` };
  const created = ok(
    await client.POST("/v1/matches", {
      headers,
      body: {
        ruleset: "all-fives",
        options: { target: 50 },
        seats: [{ type: "human" }, { type: "bot", strategy: "planner" }],
      },
    }),
  );
  const path = { match_id: created.id };
  let view: View = ok(
    await client.POST("/v1/matches/{match_id}/start", {
      headers,
      params: { path },
      body: { cut: "moon" },
    }),
  );
  let moves = 0;
  while (view.status === "playing" || view.status === "hand_over") {
    if (view.status === "hand_over") {
      view = ok(await client.POST("/v1/matches/{match_id}/hands", { headers, params: { path } }));
      continue;
    }
    const option = view.legal[0];
    if (option === undefined) throw new Error(`nothing to play at seq ${view.seq}`);
    const body = { ...option, seq: view.seq };
    view = ok(await client.POST("/v1/matches/{match_id}/moves", { headers, params: { path }, body })).view;
    moves += 1;
  }
  console.log(JSON.stringify({ match: view.id, status: view.status, moves, winner: view.result?.winner ?? null }));
}

main(process.argv[2] ?? "").catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
