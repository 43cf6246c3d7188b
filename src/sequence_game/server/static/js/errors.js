// The server's refusals and errors in the page's language, by their catalogue message or their code.

import { N_, _, i18n } from "./i18n.js";

/** The server's error codes in words; an unknown code shows the server's own (English) message. */
const ERRORS = {
  bad_request: N_("The server could not read that request."),
  unknown_room: N_("There is no such room."),
  too_large: N_("That is too large."),
  bad_json: N_("The server could not read that message."),
  bad_message: N_("The server could not do that."),
  no_hello: N_("The connection was not set up in time; reconnecting."),
  server_error: N_("The server could not do that; nothing changed."),
  chat_full: N_("This room keeps no more chat lines."),
  rate_limited: N_("Too fast: wait a moment."),
  bad_seat: N_("There is no such seat."),
  bad_config: N_("These settings are not allowed."),
  seat_taken: N_("That seat is taken."),
  bad_token: N_("This link holds no seat in this room any more."),
  not_seated: N_("Spectators may only watch."),
  not_host: N_("Only the host may do that."),
  started: N_("That is only possible before the game starts."),
  not_playing: N_("The game is not being played."),
  wrong_seat: N_("This connection plays another seat."),
  bad_version: N_("The page was out of date; try again."),
  stale: N_("The table changed meanwhile; try again."),
  not_your_turn: N_("It is not your turn."),
  away: N_("A bot plays for this seat; reload the page to take it back."),
  illegal: N_("The rules do not allow that move."),
  no_call: N_("No table-talk call is waiting for a ruling."),
  bad_bot: N_("There is no such bot."),
  not_allowed: N_("That is not allowed."),
  in_progress: N_("The record is ready when the game is over."),
  seats_empty: N_("Every seat needs a player or a bot first."),
  hints_off: N_("Hints are not allowed in this room."),
  hint_not_ready: N_("The hint is not ready yet: ask again in a moment."),
  csrf: N_("Refused for safety: reload the page and try again."),
  not_logged_in: N_("Log in first."),
  bad_login: N_("Wrong name or password."),
  name_taken: N_("That name, or one that looks like it, is taken."),
  bad_name: N_("That name is not allowed."),
  bad_password: N_("That password is not allowed."),
  claimed: N_("That seat already belongs to an account."),
  bad_passkey: N_("That passkey could not be checked."),
};
/** An error in the page's language, with the rule it breaks: the server sends the catalogue message
 * it is worded by (`msgid`) and its `params`; a message from elsewhere (the JSON reader, a record's
 * error) has none, and is shown by its `code`, or in English where the page is. */
export function errorText(msg) {
  const rule = msg.rule ? ` (${msg.rule})` : "";
  if (msg.msgid && (i18n.lang === "en" || typeof i18n.messages[msg.msgid] === "string")) return _(msg.msgid, msg.params) + rule;
  if (i18n.lang === "en" || !ERRORS[msg.code]) return (msg.message || "") + rule;
  return _(ERRORS[msg.code]) + rule;
}
