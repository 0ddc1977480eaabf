// The README's request bodies against the contract's generated types, under `tsc --strict`
// (make types-js): a schema a generator cannot type (issue 40: MatchCreate.seats came out a
// one-seat tuple, TS2322) fails here.
import type { components } from "contract/openapi";

type Schemas = components["schemas"];

export const readmeMatch: Schemas["MatchCreate"] = {
  ruleset: "all-fives",
  seats: [{ type: "human" }, { type: "bot", strategy: "planner" }],
};

export const fourSeats: Schemas["MatchCreate"] = {
  ruleset: "house-nines",
  seats: [
    { type: "human" },
    { type: "bot", strategy: "plain" },
    { type: "human" },
    { type: "bot" },
  ],
};

export const play: Schemas["MoveBody"] = { action: "play", tile: [3, 5], end: "right", seq: 42 };
