// The server's JSON API over fetch: a refusal is thrown as an Error worded in the page's language.

import { errorText } from "./errors.js";
import { app } from "./state.js";

/** A request; when logged in, the session's CSRF token goes with it (the server refuses a
 * state-changing request of a session without it: server/sessions.py). */
export async function api(method, path, body) {
  const headers = body ? { "Content-Type": "application/json" } : {};
  if (app.csrf) headers["X-CSRF-Token"] = app.csrf;
  const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
    throw new Error((data.code && errorText(data)) || detail || res.statusText);
  }
  return data;
}
