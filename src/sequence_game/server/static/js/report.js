// Reporting a player (issue 43): a modal dialog with a reason, optional words, send and cancel.
// Loaded on use (the first "Report" click), with its catalogue part: a first visit never needs it.

import { el, toast } from "./dom.js";
import { _, loadPart } from "./i18n.js";
import { app } from "./state.js";
import { api } from "./api.js";

/** The server's reasons (server/moderation.py REASONS), each in words. */
const REASONS = {
  chat: () => _("Abuse in the chat"),
  cheating: () => _("Cheating or bot use"),
  stalling: () => _("Leaving or stalling"),
  name: () => _("Offensive name"),
  other: () => _("Something else"),
};
const MAX_TEXT = 500;

/** Open the dialog to report the account at `seat` (named `name`); focus returns to `opener`. */
export async function openReport(seat, name, opener) {
  await loadPart("report");
  const select = el("select", { id: "report-reason", name: "reason", "aria-required": "true" },
    el("option", { value: "" }, _("Choose a reason")),
    ...Object.entries(REASONS).map(([value, words]) => el("option", { value }, words())));
  const text = el("textarea", { id: "report-text", name: "text", rows: 3, maxlength: MAX_TEXT,
    "aria-describedby": "report-help" });
  const error = el("p", { class: "report-error", role: "alert" });
  const send = el("button", { type: "submit", class: "primary" }, _("Send report"));
  const cancel = el("button", { type: "button", value: "cancel" }, _("Cancel"));
  const form = el("form", { method: "dialog" },
    el("h2", { id: "report-title" }, _("Report {who}", { who: name })),
    el("label", { for: "report-reason" }, _("Reason")), select,
    el("label", { for: "report-text" }, _("What happened (optional)")), text,
    el("p", { id: "report-help", class: "muted" }, _("At most {n} characters. The server's operators read reports; {who} is not told who sent it.", { n: MAX_TEXT, who: name })),
    error, el("p", { class: "report-buttons" }, send, cancel));
  const dialog = el("dialog", { id: "report-dialog", "aria-labelledby": "report-title" }, form);
  const close = () => { dialog.close(); dialog.remove(); opener?.focus(); };
  cancel.addEventListener("click", close);
  dialog.addEventListener("cancel", (ev) => { ev.preventDefault(); close(); }); // Escape
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!select.value) { error.textContent = _("Choose a reason first."); select.focus(); return; }
    send.disabled = true;
    try {
      await api("POST", "/api/reports", { code: app.code, seat, reason: select.value, text: text.value });
      close();
      toast(_("Thank you: your report on {who} was sent to the server's operators.", { who: name }), "info");
    } catch (err) {
      error.textContent = err.message;
      send.disabled = false;
    }
  });
  document.body.append(dialog);
  dialog.showModal();
  select.focus();
}
