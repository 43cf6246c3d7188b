// The server's JSON API over fetch: a refusal is thrown as an Error worded in the page's language.

import { errorText } from "./errors.js";

export async function api(method, path, body) {
  const res = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
    throw new Error((data.code && errorText(data)) || detail || res.statusText);
  }
  return data;
}
