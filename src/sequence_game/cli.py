"""The ``sequence`` command: one subcommand per module of ``sequence_game.commands``.

Command modules stay light to import (heavy libraries load inside ``run``), so ``sequence --help``
answers at once.

The language (``--lang``, else ``LC_ALL``/``LC_MESSAGES``/``LANG``) is read before the parser is
built, so that the help texts, which are messages, are already in it (``docs/i18n.md``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from . import __version__, i18n
from .i18n import N_, _

#: Subcommands in the order ``--help`` lists them.
COMMANDS = (
    "play",
    "serve",
    "admin",
    "tournament",
    "validate",
    "verify",
    "analyze",
    "bench",
    "benchmark",
    "selfplay",
)

#: argparse's own words that a player meets (``usage:``, the section titles, its errors). argparse
#: looks them up with gettext's global domain, which follows ``LANGUAGE`` rather than ``--lang``;
#: :func:`speak_argparse` points its lookup at this project's catalogue, where these are messages.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("can't open '%(filename)s': %(error)s"),
)


LANG_HELP = N_("language of the messages: en, es or da (default: from LC_ALL, LC_MESSAGES or LANG, else en)")


def speak_argparse() -> None:
    """Make argparse say its own words (``usage:``, ``options``, its errors) in the active language.

    argparse calls the module-level ``_`` and ``ngettext`` it imported from :mod:`gettext`; they are
    pointed at :mod:`sequence_game.i18n`, which answers in the language chosen for this run (English:
    the words unchanged). Words not in the catalogue stay English.
    """
    setattr(argparse, "_", i18n._)  # noqa: B010 - a module global of argparse, not an attribute mypy knows
    setattr(argparse, "ngettext", i18n.ngettext)  # noqa: B010


def early_language(argv: Sequence[str]) -> str:
    """The language of this run, read before the parser exists: ``--lang`` wherever it stands,
    else the locale. Raises ``ValueError`` for a language without a catalogue."""
    pre = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    pre.add_argument("--lang")
    try:
        known, _rest = pre.parse_known_args(list(argv))
    except argparse.ArgumentError:  # ``--lang`` without a value: the real parser will say so
        return i18n.choose_language(None)
    return i18n.choose_language(known.lang)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sequence",
        description=_("Sequence, the board-and-card game: play, serve, pit bots, check records."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help=_("show the program's version number and exit"),
    )
    parser.add_argument("--lang", choices=i18n.LANGUAGES, help=_(LANG_HELP))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"sequence_game.commands.{name}")
        module.add_parser(sub)
        # users put options after the command (``sequence play --lang es``): the language, read
        # early by :func:`early_language`, is accepted there too
        sub.choices[name].add_argument(
            "--lang", choices=i18n.LANGUAGES, default=argparse.SUPPRESS, help=_(LANG_HELP)
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    try:
        lang = early_language(arguments)
    except ValueError as exc:
        print(f"sequence: {exc}", file=sys.stderr)
        return 2
    i18n.set_language(lang)
    speak_argparse()
    parser = build_parser()
    args = parser.parse_args(arguments)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (``sequence play --plain | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
