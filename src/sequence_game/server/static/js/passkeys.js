// Passkeys (WebAuthn): add one to the account, log in with one. The server makes the options and
// checks the answers (server/passkeys.py); the browser and its authenticator do the rest.

import { _ } from "./i18n.js";
import { api } from "./api.js";

export const passkeysSupported = () => typeof window.PublicKeyCredential === "function";

const toBytes = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(s.length / 4) * 4, "=")), (c) => c.charCodeAt(0));
const toText = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The options as the API takes them (the JSON parsers of newer browsers, else by hand). */
function creationOptions(o) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(o);
  return { ...o, challenge: toBytes(o.challenge), user: { ...o.user, id: toBytes(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })) };
}

function requestOptions(o) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(o);
  return { ...o, challenge: toBytes(o.challenge), allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })) };
}

/** A credential as JSON (its own toJSON where the browser has it). */
function credentialJSON(cred) {
  if (typeof cred.toJSON === "function") return cred.toJSON();
  const r = cred.response, response = { clientDataJSON: toText(r.clientDataJSON) };
  if (r.attestationObject) Object.assign(response, { attestationObject: toText(r.attestationObject), transports: r.getTransports ? r.getTransports() : [] });
  else Object.assign(response, { authenticatorData: toText(r.authenticatorData), signature: toText(r.signature), userHandle: r.userHandle ? toText(r.userHandle) : null });
  return { id: cred.id, rawId: toText(cred.rawId), type: cred.type, response, clientExtensionResults: {} };
}

/** The browser's refusal (cancelled, timed out, no authenticator) in the page's words. */
async function ask(run) {
  try { return await run(); } catch (e) {
    if (e instanceof DOMException) throw new Error(_("The passkey request was cancelled or timed out."));
    throw e;
  }
}

export async function addPasskey() {
  const options = await api("POST", "/api/account/passkeys/options");
  const cred = await ask(() => navigator.credentials.create({ publicKey: creationOptions(options) }));
  await api("POST", "/api/account/passkeys", { credential: credentialJSON(cred) });
}

export async function loginWithPasskey() {
  const options = await api("POST", "/api/account/passkey-login/options");
  const cred = await ask(() => navigator.credentials.get({ publicKey: requestOptions(options) }));
  await api("POST", "/api/account/passkey-login", { credential: credentialJSON(cred) });
}
