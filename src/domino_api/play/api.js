// The public REST API, as any frontend would call it: bearer token, JSON, problem documents.

// The contract's types, generated from openapi/openapi.json and openapi/asyncapi.yaml into
// build/contract/ by `make types-js` (tools/contract-types.mjs); tsconfig.json checks /play
// against them, so a renamed field fails `make test`. The other modules import them from here.
/**
 * @typedef {import("contract/openapi").components["schemas"]} Schemas
 * @typedef {Schemas["ViewOut"]} ViewOut
 * @typedef {Schemas["SeatOut"]} SeatOut
 * @typedef {ViewOut["legal"][number]} LegalOut
 * @typedef {Schemas["LedgerOut"]} LedgerOut
 * @typedef {Schemas["VerifyOut"]} VerifyOut
 * @typedef {Schemas["RulesetOut"]} RulesetOut
 * @typedef {Schemas["TileBack"]} TileBack
 * @typedef {Schemas["PlayerCreated"]} PlayerCreated
 * @typedef {Schemas["TournamentOut"]} TournamentOut
 * @typedef {Schemas["Problem"]} ProblemBody
 * @typedef {import("contract/asyncapi").Event} TableEvent
 */
// Code that branches on an event's `type` through sets reads `data` without narrowing it: there
// `data` has every event type's fields, each optional, so each field read must exist somewhere.
/**
 * @typedef {TableEvent["data"]} EventData
 * @typedef {EventData extends infer T ? (T extends unknown ? keyof T : never) : never} DataKey
 * @typedef {{ [K in DataKey]?: EventData extends infer T
 *   ? (T extends unknown ? (K extends keyof T ? T[K] : never) : never) : never }} AnyEventData
 * @typedef {Omit<TableEvent, "data"> & { data: AnyEventData }} AnyEvent
 */

const KEY = "domino.identity";

export class Problem extends Error {
  /**
   * @param {number} status
   * @param {Partial<ProblemBody>} body
   */
  constructor(status, body) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.code = body.code;
    this.body = body;
  }
}

export function identity() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || null;
  } catch {
    return null;
  }
}

/** This browser becomes (a device of) the player: `{id, name, token}`. */
export function remember(player) {
  localStorage.setItem(KEY, JSON.stringify(player));
}

export async function call(method, path, body) {
  const headers = { accept: "application/json" };
  const me = identity();
  if (me) headers.authorization = `Bearer ${me.token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: `The server answered ${response.status} without JSON.` }; // a proxy's page
  }
  // A refused token was signed out (or revoked) from another device: this browser forgets it.
  if (response.status === 401 && me) forgetPlayer();
  if (!response.ok) throw new Problem(response.status, data || {});
  return data;
}

/** Be `name`: reuse this browser's player (renamed if needed) or create one. */
export async function becomePlayer(name) {
  const me = identity();
  if (me && me.name === name) return me;
  if (me) {
    const profile = await call("PATCH", "/v1/players/me", { name });
    remember({ ...me, name: profile.name });
    return identity();
  }
  const created = await call("POST", "/v1/players", { name });
  remember({ id: created.id, name: created.name, token: created.token });
  return identity();
}

export function forgetPlayer() {
  localStorage.removeItem(KEY);
}

// What the published contract accepts, read from /openapi.json once: the page sends newer
// fields (a name when joining, names of hot-seat seats) only to a server that takes them.
let contract = null;

export async function accepts(schema, property) {
  if (contract === null) {
    contract = fetch("/openapi.json")
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}));
  }
  const doc = await contract;
  const found = doc?.components?.schemas?.[schema]?.properties;
  return Boolean(found && property in found);
}

let catalogs = null;

/**
 * Rulesets and tile backs, fetched once per page load.
 * @returns {Promise<{ rulesets: RulesetOut[], backs: TileBack[] }>}
 */
export async function catalog() {
  if (catalogs === null) {
    catalogs = Promise.all([call("GET", "/v1/rulesets"), call("GET", "/v1/tile-backs")]).then(
      ([rulesets, backs]) => ({ rulesets: rulesets.rulesets, backs }),
    );
    catalogs.catch(() => (catalogs = null));
  }
  return catalogs;
}
