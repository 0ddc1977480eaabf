// The README's request bodies against the contract's generated types, under `tsc --strict`
// (make types-js): a schema a generator cannot type (issue 40: MatchCreate.seats came out a
// one-seat tuple, TS2322) fails here, and so does a `legal` entry that is not a move body with
// `seq` (issue 47), or a body field with a default that comes out required.
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

export const start: Schemas["StartBody"] = { cut: "moon" };

// `.legal[0] + {seq}`: any entry of a view's `legal`, as it is, with the view's `seq`.
export function moveOf(view: Schemas["ViewOut"], at: number): Schemas["MoveBody"] | undefined {
  const option = view.legal[at];
  return option === undefined ? undefined : { ...option, seq: view.seq };
}

// Issue 47's Structs: every field a body may leave out stays optional in the generated types.
export const renameOnly: Schemas["PlayerPatch"] = { name: "Ana" };

export const oneSetting: Schemas["PlayerPatch"] = { settings: { target: 150 } };

export const clearOne: Schemas["PlayerSettings"] = { draw: null };

export const friendByName: Schemas["Named"] = { name: "Bob" };

export const subscription: Schemas["SubscriptionIn"] = {
  endpoint: "https://push.example.com/send/abc",
  keys: { p256dh: "B".repeat(87), auth: "A".repeat(22) },
};
