// The sealed deal `sha256-fy-v1` (docs/RULES.md, section 11), computed in the browser with
// WebCrypto, so a player can check a ledger without trusting the server's verify route.

const TWO64 = 1n << 64n;

function hexToBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function available() {
  return Boolean(globalThis.crypto && crypto.subtle);
}

export async function commitment(secretHex) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", hexToBytes(secretHex)));
}

async function seedOf(secretHex, cut, handNumber, attempt) {
  const key = await crypto.subtle.importKey(
    "raw",
    hexToBytes(secretHex),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const message = new TextEncoder().encode(`${cut}|${handNumber}|${attempt}`);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
}

/** Step 2: blocks SHA-256(seed || k as 8 bytes big-endian), four 64-bit numbers each. */
function stream(seed) {
  let block = 0n;
  let numbers = [];
  return async function next() {
    if (numbers.length === 0) {
      const input = new Uint8Array(seed.length + 8);
      input.set(seed);
      new DataView(input.buffer).setBigUint64(seed.length, block, false);
      block += 1n;
      const view = new DataView(await crypto.subtle.digest("SHA-256", input));
      numbers = [0, 8, 16, 24].map((offset) => view.getBigUint64(offset, false));
    }
    return numbers.shift();
  };
}

/** Step 3: an unbiased number below n. */
async function randbelow(next, n) {
  const big = BigInt(n);
  const limit = TWO64 - (TWO64 % big);
  let x = await next();
  while (x >= limit) x = await next();
  return Number(x % big);
}

export function fullSet(maxPip) {
  const tiles = [];
  for (let a = 0; a <= maxPip; a++) for (let b = a; b <= maxPip; b++) tiles.push([a, b]);
  return tiles;
}

/** Steps 1-5: every seat's tiles in dealt order and the stock. */
export async function deal(secretHex, cut, handNumber, attempt, maxPip, players, handSize) {
  const next = stream(await seedOf(secretHex, cut, handNumber, attempt));
  const tiles = fullSet(maxPip);
  for (let i = tiles.length - 1; i >= 1; i--) {
    const j = await randbelow(next, i + 1);
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  const hands = [];
  for (let seat = 0; seat < players; seat++) {
    hands.push(tiles.slice(seat * handSize, (seat + 1) * handSize));
  }
  return { hands, stock: tiles.slice(players * handSize) };
}

export function sameTiles(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Reproduce every published vector; returns how many matched and the first failure. */
export async function checkVectors(vectors) {
  for (const [index, v] of vectors.entries()) {
    const got = await deal(
      v.secret,
      v.cut,
      v.hand_number,
      v.attempt,
      v.max_pip,
      v.players,
      v.hand_size,
    );
    const ok =
      sameTiles(got.hands, v.hands) &&
      sameTiles(got.stock, v.stock) &&
      (await commitment(v.secret)) === v.commitment;
    if (!ok) return { passed: index, total: vectors.length, failed: index };
  }
  return { passed: vectors.length, total: vectors.length, failed: null };
}
