// The account panel on the first page (docs/API.md, "Accounts"): sign this device in with a
// passkey or a link code; once signed in, add passkeys, show a link code for another device,
// see and sign out devices, and make or revoke API keys for bots.

import { call, forgetPlayer, identity, remember } from "./api.js";
import { el, field, showError } from "./ui.js";

/**
 * @typedef {import("./api.js").Schemas} Schemas
 * @typedef {Schemas["SignedIn"]} SignedIn
 * @typedef {Schemas["PasskeyOut"]} PasskeyOut
 * @typedef {Schemas["SessionOut"]} SessionOut
 * @typedef {Schemas["TokenOut"]} TokenOut
 */

/** @param {string} text base64url */
function bytes(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

/** @param {ArrayBuffer} buffer */
function text(buffer) {
  const plain = String.fromCharCode(...new Uint8Array(buffer));
  return btoa(plain).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @param {Schemas["CreationOptions"]} options */
async function createPasskey(options) {
  const publicKey = {
    ...options,
    challenge: bytes(options.challenge),
    user: { ...options.user, id: bytes(options.user.id) },
    excludeCredentials: options.excludeCredentials.map((c) => ({ ...c, id: bytes(c.id) })),
  };
  const made = /** @type {PublicKeyCredential} */ (
    await navigator.credentials.create({ publicKey: /** @type {any} */ (publicKey) })
  );
  const response = /** @type {AuthenticatorAttestationResponse} */ (made.response);
  return {
    id: made.id,
    rawId: text(made.rawId),
    type: "public-key",
    response: {
      clientDataJSON: text(response.clientDataJSON),
      attestationObject: text(response.attestationObject),
      transports: response.getTransports ? response.getTransports() : [],
    },
  };
}

/** @param {Schemas["RequestOptions"]} options */
async function usePasskey(options) {
  const publicKey = { ...options, challenge: bytes(options.challenge), allowCredentials: [] };
  const used = /** @type {PublicKeyCredential} */ (
    await navigator.credentials.get({ publicKey: /** @type {any} */ (publicKey) })
  );
  const response = /** @type {AuthenticatorAssertionResponse} */ (used.response);
  return {
    id: used.id,
    rawId: text(used.rawId),
    type: "public-key",
    response: {
      clientDataJSON: text(response.clientDataJSON),
      authenticatorData: text(response.authenticatorData),
      signature: text(response.signature),
      userHandle: response.userHandle ? text(response.userHandle) : null,
    },
  };
}

/** Run `work`, showing its failure (a problem, or the browser's refusal of a passkey). */
async function attempt(work) {
  showError(null);
  try {
    await work();
  } catch (error) {
    showError(error);
  }
}

/** @param {SignedIn} signed */
function signedIn(signed, done) {
  remember({ id: signed.player.id, name: signed.player.name, token: signed.token });
  done();
}

function signInPanel(done) {
  const code = el("input", { id: "link-code", maxlength: 32, autocomplete: "one-time-code" });
  const withPasskey = () =>
    attempt(async () => {
      const start = await call("POST", "/v1/sign-in/passkey/options", {});
      const credential = await usePasskey(start.publicKey);
      const body = { ceremony: start.ceremony, credential };
      signedIn(await call("POST", "/v1/sign-in/passkey", body), done);
    });
  const withCode = (event) => {
    event.preventDefault();
    attempt(async () =>
      signedIn(await call("POST", "/v1/sign-in/link", { code: code.value }), done),
    );
  };
  return el(
    "section",
    { class: "account", "aria-labelledby": "account-title" },
    el("h3", { id: "account-title" }, "Played on another device?"),
    el(
      "button",
      { type: "button", class: "primary", onclick: withPasskey },
      "Sign in with a passkey",
    ),
    el(
      "form",
      { onsubmit: withCode },
      field("Link code from your other device", code),
      el("button", { type: "submit" }, "Link this device"),
    ),
  );
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "never";
}

/** A list of rows, each with its remove button, reloaded after a removal. */
function rows(list, items, describe, remove, label) {
  list.replaceChildren(
    ...items.map((item) =>
      el(
        "li",
        { "data-id": item.id },
        el("span", {}, describe(item)),
        el("button", { type: "button", onclick: () => attempt(() => remove(item)) }, label),
      ),
    ),
  );
  if (!items.length) list.append(el("li", {}, "None yet."));
}

function accountPanel(done) {
  const passkeys = el("ul", { class: "passkeys" });
  const devices = el("ul", { class: "devices" });
  const keys = el("ul", { class: "api-keys" });
  const shown = el("p", { class: "shown-once", role: "status" });
  const keyName = el("input", { id: "api-key-name", maxlength: 32, required: true });
  const load = async () => {
    /** @type {PasskeyOut[]} */
    const held = await call("GET", "/v1/players/me/passkeys");
    rows(
      passkeys,
      held,
      (p) => `${p.name} · added ${when(p.created_at)} · used ${when(p.last_used_at)}`,
      async (p) => {
        await call("DELETE", `/v1/players/me/passkeys/${p.id}`);
        await load();
      },
      "Remove",
    );
    /** @type {SessionOut[]} */
    const sessions = await call("GET", "/v1/players/me/sessions");
    rows(
      devices,
      sessions,
      (s) => `${s.name}${s.current ? " (this device)" : ""} · used ${when(s.last_used_at)}`,
      async (s) => {
        await call("DELETE", `/v1/players/me/sessions/${s.id}`);
        if (s.current) {
          forgetPlayer();
          done();
        } else await load();
      },
      "Sign out",
    );
    /** @type {TokenOut[]} */
    const bots = await call("GET", "/v1/players/me/api-keys");
    rows(
      keys,
      bots,
      (k) => `${k.name} · made ${when(k.created_at)} · used ${when(k.last_used_at)}`,
      async (k) => {
        await call("DELETE", `/v1/players/me/api-keys/${k.id}`);
        await load();
      },
      "Revoke",
    );
  };
  const addPasskey = () =>
    attempt(async () => {
      const start = await call("POST", "/v1/players/me/passkeys/options", {});
      const credential = await createPasskey(start.publicKey);
      await call("POST", "/v1/players/me/passkeys", { ceremony: start.ceremony, credential });
      shown.textContent = "Passkey added: sign in with it on any device.";
      await load();
    });
  const linkDevice = () =>
    attempt(async () => {
      const made = await call("POST", "/v1/players/me/link-codes", {});
      shown.replaceChildren(
        "Enter ",
        el("strong", { class: "link-code" }, made.code),
        ` on your other device before ${new Date(made.expires_at).toLocaleTimeString()}.`,
      );
    });
  const newKey = (event) => {
    event.preventDefault();
    attempt(async () => {
      const made = await call("POST", "/v1/players/me/api-keys", { name: keyName.value.trim() });
      shown.replaceChildren(
        `Key "${made.name}" (shown once): `,
        el("code", { class: "api-key" }, made.token),
      );
      await load();
    });
  };
  const panel = el(
    "details",
    { class: "account" },
    el("summary", {}, "Your account: passkeys, devices, API keys"),
    shown,
    el("h4", {}, "Passkeys"),
    passkeys,
    el("button", { type: "button", onclick: addPasskey }, "Add a passkey"),
    el("h4", {}, "Devices"),
    devices,
    el("button", { type: "button", onclick: linkDevice }, "Link a device"),
    el("h4", {}, "API keys (for bots)"),
    keys,
    el(
      "form",
      { onsubmit: newKey },
      field("Key name", keyName),
      el("button", { type: "submit" }, "Create key"),
    ),
  );
  panel.addEventListener("toggle", () => panel.open && attempt(load));
  return panel;
}

/**
 * Append the account panel to `root`: sign-in when this browser has no player, else the
 * player's passkeys, devices and keys. `done` redraws the page after a sign-in or sign-out.
 */
export function account(root, done) {
  root.append(identity() ? accountPanel(done) : signInPanel(done));
}
