"""``sequence admin``: moderate a server's players from its database (``docs/server.md``).

    sequence admin reports [--all] [--json]        open reports (every report with --all)
    sequence admin show NAME [--json]              an account: its ban, reports on and by it, log
    sequence admin ban NAME --reason TEXT [--logout]
    sequence admin unban NAME [--note TEXT]
    sequence admin rename OLD NEW
    sequence admin dismiss REPORT_ID [--note TEXT]
    sequence admin log [--json]                    the newest acts of every operator

It works on the database ``sequence serve`` uses (``--db``, the same default), brought to the
newest schema first, as the server does when it starts; a running server sees every change at
once (a ban is checked on every rated request and chat line). Every act is logged with the
operator's name (``--by``, default the login name). Exit status: 0 done, 1 refused (an unknown
name or report, a name taken), 2 the database cannot be used.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
import time
from pathlib import Path
from typing import Any

from ..i18n import _
from .serve import DEFAULT_DB

OK, REFUSED, NO_DATABASE = 0, 1, 2


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "admin",
        help=_("moderate a server: reports, bans, renames (on its database)"),
        description=_(
            "Read the players' reports and act on them: ban or unban an account, rename it, dismiss "
            "a report. Every act is logged. Exit status 0 done, 1 refused, 2 no usable database."
        ),
    )
    p.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=_("the server's database: SQLite file path or SQLAlchemy URL (default %(default)s)"),
    )
    p.add_argument("--by", default=None, help=_("the operator's name in the log (default: the login name)"))
    p.set_defaults(run=run)
    acts = p.add_subparsers(dest="act", metavar="ACT", required=True)
    reports = acts.add_parser("reports", help=_("list the open reports"))
    reports.add_argument("--all", action="store_true", help=_("every report, closed ones too"))
    reports.add_argument("--json", action="store_true", help=_("print JSON"))
    show = acts.add_parser("show", help=_("an account: its ban, the reports on it and by it, its log"))
    show.add_argument("name", help=_("the account's name"))
    show.add_argument("--json", action="store_true", help=_("print JSON"))
    ban = acts.add_parser("ban", help=_("ban an account from rated games and the chat"))
    ban.add_argument("name", help=_("the account's name"))
    ban.add_argument("--reason", required=True, help=_("why, for the log and the player"))
    ban.add_argument("--logout", action="store_true", help=_("also end every session of the account"))
    unban = acts.add_parser("unban", help=_("lift an account's ban"))
    unban.add_argument("name", help=_("the account's name"))
    unban.add_argument("--note", default="", help=_("a note for the log"))
    rename = acts.add_parser("rename", help=_("give an account a new name (ratings and games stay)"))
    rename.add_argument("old", help=_("the account's name"))
    rename.add_argument("new", help=_("the new name"))
    dismiss = acts.add_parser("dismiss", help=_("close a report with nothing done"))
    dismiss.add_argument("report", type=int, help=_("the report's number"))
    dismiss.add_argument("--note", default="", help=_("a note for the log"))
    log = acts.add_parser("log", help=_("the newest acts of every operator"))
    log.add_argument("--json", action="store_true", help=_("print JSON"))


def refusal(code: str, params: dict[str, Any]) -> str:
    """A :class:`~sequence_game.server.moderation.ModerationError` in the operator's language."""
    words = {
        "no_account": _("no account is named {name}"),
        "already_banned": _("{name} is already banned"),
        "not_banned": _("{name} is not banned"),
        "bad_name": _("{name} is not an allowed name ({why})"),
        "name_taken": _("{name}, or a name that looks like it, is taken"),
        "no_report": _("there is no report {id}"),
        "report_closed": _("report {id} is already closed ({state})"),
    }
    return words.get(code, code).format(**params)


def when(at: float | None) -> str:
    return "-" if at is None else time.strftime("%Y-%m-%d %H:%M", time.gmtime(at))


def report_line(r: dict[str, Any]) -> str:
    head = _("#{id} {at} {reporter} reports {reported} in room {room}, game {game}: {reason} ({state})")
    line = head.format(**(r | {"at": when(r["created_at"]), "game": r["game"] + 1}))
    if r["text"]:
        line += "\n    " + json.dumps(r["text"], ensure_ascii=False)
    if r["state"] != "open":
        line += "\n    " + _("closed by {by} at {at}: {note}").format(
            by=r["resolved_by"], at=when(r["resolved_at"]), note=r["note"] or "-"
        )
    return line


def log_line(e: dict[str, Any]) -> str:
    report = f" #{e['report']}" if e.get("report") else ""
    who = e.get("account", "")
    return f"{when(e['at'])} {e['actor']}: {e['action']}{report} {who} {e['detail']}".rstrip()


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.moderation import Moderation, ModerationError
    from ..server.store import Store, database_url

    if "://" not in args.db and not Path(args.db).expanduser().exists():
        print(
            _("sequence admin: no database at {path}: give the server's --db").format(path=args.db),
            file=sys.stderr,
        )
        return NO_DATABASE
    actor = args.by or _login_name()
    try:
        store = Store(database_url(args.db))
        try:
            store.migrate()  # the schema the server of this version uses, as `sequence serve` does
            return _act(args, Moderation(store), actor)
        finally:
            store.close()
    except ModerationError as exc:
        print(_("sequence admin: {error}").format(error=refusal(exc.code, exc.params)), file=sys.stderr)
        return REFUSED
    except SQLAlchemyError as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        print(_("sequence admin: the database cannot be used: {error}").format(error=first), file=sys.stderr)
        return NO_DATABASE


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in a bare container
        return "operator"


def _act(args: argparse.Namespace, db: Any, actor: str) -> int:
    act = args.act
    if act == "reports":
        found = db.reports(everything=args.all)
        if args.json:
            print(json.dumps(found, ensure_ascii=False))
        elif not found:
            print(_("no reports") if args.all else _("no open reports"))
        for r in [] if args.json else found:
            print(report_line(r))
    elif act == "show":
        shown = db.show(args.name)
        if args.json:
            print(json.dumps(shown, ensure_ascii=False))
            return OK
        print(
            _("{name} (account {id}, since {at})").format(
                name=shown["name"], id=shown["id"], at=when(shown["created_at"])
            )
        )
        ban = shown["ban"]
        if ban is None:
            print(_("not banned"))
        else:
            print(
                _("banned at {at} by {by}: {reason}").format(
                    at=when(ban["at"]), by=ban["by"], reason=ban["reason"]
                )
            )
        print(_("reports on this account: {n}").format(n=len(shown["reports_on"])))
        for r in shown["reports_on"]:
            print("  " + report_line(r))
        print(_("reports by this account: {n}").format(n=len(shown["reports_by"])))
        for r in shown["reports_by"]:
            print("  " + report_line(r))
        for e in shown["log"]:
            print("  " + log_line(e | {"account": ""}))
    elif act == "ban":
        account, closed = db.ban(args.name, args.reason, actor, logout=args.logout)
        print(_("banned {name}; {n} open reports on it closed").format(name=account.name, n=closed))
    elif act == "unban":
        account = db.unban(args.name, actor, args.note)
        print(_("{name} is no longer banned").format(name=account.name))
    elif act == "rename":
        old, account = db.rename(args.old, args.new, actor)
        print(_("renamed {old} to {new}").format(old=old, new=account.name))
    elif act == "dismiss":
        db.dismiss(args.report, actor, args.note)
        print(_("report {id} dismissed").format(id=args.report))
    elif act == "log":
        entries = db.log()
        if args.json:
            print(json.dumps(entries, ensure_ascii=False))
        for e in [] if args.json else entries:
            print(log_line(e))
    return OK
