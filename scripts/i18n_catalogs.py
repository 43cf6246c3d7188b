#!/usr/bin/env python3
"""Keep the translation catalogues in step with the code (Babel does the gettext work).

    python scripts/i18n_catalogs.py update    # extract every message -> sequence.pot, merge into es/da .po
    python scripts/i18n_catalogs.py compile   # .po -> .mo (Python) and static/i18n/<lang>.json (browser:
                                              # the page's messages only, not the terminal's)
    python scripts/i18n_catalogs.py check     # exit 1 if anything above is out of date

The messages come from four places, all extracted here so that the tests can extract the same way:
the Python package (``_()``, ``ngettext()``, ``N_()``), the web page's script (``_()``,
``ngettext()`` in ``static/js/*.js``), the page itself (elements marked ``data-i18n``, attributes
named in ``data-i18n-attr`` in ``static/index.html``) and the terminal's rules screen
(``tui/rules_text.py``, whose tables are translated row by row with :func:`sequence_game.i18n.translate_rows`).

The compiled ``.mo`` files and the JSON are committed: ``pip install .`` then needs no Babel and
no build hook, and ``tests/i18n`` fails when one of them no longer matches its ``.po``.
"""

from __future__ import annotations

import ast
import io
import json
import re
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "sequence_game"
LOCALE = PACKAGE / "locale"
STATIC = PACKAGE / "server" / "static"
JSON_DIR = STATIC / "i18n"
#: The page's script: the ES modules that ``static/js/main.js`` imports.
SCRIPTS = sorted((STATIC / "js").glob("*.js"))
DOMAIN = "sequence"
TRANSLATED = ("es", "da")
#: The page's script picks plural forms by this rule (true of English, Spanish and Danish alike).
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"
#: ``M_("template", **params)`` is the engine's message as data (``sequence_game.messages``).
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "M_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "gettext_in": (2,),
}
COMMENT_TAGS = ["TRANSLATORS:"]

sys.path.insert(0, str(ROOT / "src"))


# ---------------------------------------------------------------------------------- the page


def _collapse(text: str) -> str:
    """Whitespace as the page's script sees it: runs collapsed to one space, ends trimmed."""
    return re.sub(r"\s+", " ", text).strip()


class _PageMessages(HTMLParser):
    """The messages of ``index.html``: the inner HTML of each ``data-i18n`` element and the
    attributes each ``data-i18n-attr`` names, as (line, message) pairs; and the text outside them."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=False)
        self.source = source
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self.messages: list[tuple[int, str]] = []
        self.loose_text: list[tuple[int, str]] = []
        self.loose_attrs: list[tuple[int, str, str]] = []
        self._open: list[tuple[str, int, int] | None] = []  # (tag, content start, line) of data-i18n
        self._inside = 0
        self._skip = 0  # inside <script>, <style>, <title>

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        named = (values.get("data-i18n-attr") or "").split()
        for name in named:
            self.messages.append((line, _collapse(values.get(name) or "")))
        for name in ("aria-label", "title", "placeholder", "alt"):
            if re.search(r"[a-z]{2}", values.get(name) or "") and name not in named:
                self.loose_attrs.append((line, name, values[name] or ""))
        if tag in {"br", "img", "input", "meta", "link", "hr", "source", "wbr"}:
            return
        if tag in {"script", "style", "title"}:
            self._skip += 1
        if "data-i18n" in values:
            start = self._offset() + len(self.get_starttag_text() or "")
            self._open.append((tag, start, line))
            self._inside += 1
        elif values.get("translate") == "no":  # names and brands: the same in every language
            self._open.append((tag, -1, line))
            self._inside += 1
        else:
            self._open.append(None)

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style", "title"}:
            self._skip -= 1
        if not self._open:
            return
        top = self._open.pop()
        if top is not None:
            self._inside -= 1
            if top[1] >= 0:
                self.messages.append((top[2], _collapse(self.source[top[1] : self._offset()])))

    def handle_data(self, data: str) -> None:
        if not self._inside and not self._skip and re.search(r"[A-Za-z]{2}", data):
            self.loose_text.append((self.getpos()[0], _collapse(data)))


def page_messages(path: Path = STATIC / "index.html") -> _PageMessages:
    parser = _PageMessages(path.read_text(encoding="utf-8"))
    parser.feed(parser.source)
    parser.close()
    return parser


# ---------------------------------------------------------------------------------- the script

#: String literals in the page's script that read like words but are no message: CSS classes and
#: selectors, key names, the protocol's words, names that stay the same in every language. Only
#: strings of two or more words, or one capitalised word, are checked at all.
SCRIPT_NOT_MESSAGES = frozenset(
    {
        "use strict", "tag you", "tag away", "sit primary", "#board .cell.target", "#board .cell.preview",
        "button.coord", "Arrow", "Enter", "Escape", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown",
        "Home", "End", "Sequence", "English", "Español", "Dansk", "line ahead",
    }
)  # fmt: skip


def script_strings_outside_catalogue(path: Path | None = None) -> list[tuple[int, str]]:
    """String literals of the page's script (one module, else each of :data:`SCRIPTS`) that read as
        words for a person but are not an argument of ``_()``, ``ngettext()`` or ``N_()``: each would
        reach the player in English only. A module's name after ``import``/``from``, or in ``import()``,
    is no message."""
    if path is None:
        return [found for script in SCRIPTS for found in script_strings_outside_catalogue(script)]
    import warnings

    # the tokenizer of Babel's own JavaScript extractor (public, though marked as internal)
    from babel.messages.jslexer import tokenize, unquote_string

    found: list[tuple[int, str]] = []
    calls: list[str | None] = []  # the function name of each open parenthesis
    previous = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for token in tokenize(path.read_text(encoding="utf-8"), template_string=True):
            if token.type == "operator" and token.value == "(":
                calls.append(previous.value if previous is not None and previous.type == "name" else None)
            elif token.type == "operator" and token.value == ")" and calls:
                calls.pop()
            elif token.type in {"string", "template_string"}:
                text = token.value[1:-1] if token.type == "template_string" else unquote_string(token.value)
                words = _collapse(re.sub(r"\$\{[^}]*\}", " ", text))
                wrapped = bool(calls) and calls[-1] in {"_", "ngettext", "N_", "import"}  # import("./x.js")
                wrapped = wrapped or (previous is not None and previous.value in {"import", "from"})
                if (
                    not wrapped
                    and words not in SCRIPT_NOT_MESSAGES
                    and re.search(r"[A-Za-z]{2,}[ ,:;.!?] ?[A-Za-z]{2,}|^[A-Z][a-z]+$", words)
                ):
                    found.append((token.lineno, words))
            if token.type not in {"linecomment", "multilinecomment"}:
                previous = token
    return found


# ---------------------------------------------------------------------------------- the terminal

#: The Python modules whose every string a player may read: the terminal game, the CLI and every
#: command (its help, messages and errors), and the analysis report's text.
PLAYER_MODULES = (
    *sorted((PACKAGE / "tui").glob("*.py")),
    PACKAGE / "cli.py",
    *sorted((PACKAGE / "commands").glob("*.py")),
    PACKAGE / "analysis" / "report.py",
)
#: String literals of those modules that read like words but are no message: data keys, file and
#: module names, program names that prefix a message, the app's title, Textual key lists.
PYTHON_NOT_MESSAGES = frozenset(
    {
        "Sequence", "last-game.json", "tab,space", "sequence_game.commands.", "sequence play: ",
        "sequence bench: ", "sequence tournament: ", "sequence benchmark: ", "sequence selfplay: ",  # program names
        "sequence-server.db", "random,greedy,heuristic",  # a default file name and bot list
        "missed win", "missed block",  # the analysis' label keys (shown through LABEL_WORDS)
        "internal error: ",  # the analysis child's crash report, kept as Python wrote it
        "result: result: {error}",  # a check detail's API English (verify --json); people read its msgid
    }
)  # fmt: skip
#: Rich style strings ("bold white on #2457c5"), which read like words.
_STYLE = re.compile(r"^ ?(?:(?:bold|italic|reverse|dim|strike|underline|white|red|on|#[0-9a-fA-F]{6}) ?)+$")
_WRAPPERS = frozenset({"_", "N_", "M_", "ngettext", "gettext_in"})


def python_strings_outside_catalogue(paths: tuple[Path, ...] = PLAYER_MODULES) -> list[tuple[str, int, str]]:
    """String literals of the terminal's and the CLI's modules that read as words for a person but
    are not an argument of ``_()``, ``ngettext()``, ``N_()`` or ``gettext_in()``: each would reach
    the player in English only. Docstrings, ``DEFAULT_CSS``, style strings, the rules screen's
    tables (messages read from the module, see :func:`_rules_screen_messages`) and
    :data:`PYTHON_NOT_MESSAGES` are left out."""
    rules_messages = {message for message, _comment in _rules_screen_messages()}
    found: list[tuple[str, int, str]] = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            text, parent = node.value, parents.get(node)
            if isinstance(parent, ast.Expr) or text in PYTHON_NOT_MESSAGES or _STYLE.match(text):
                continue  # a docstring, a known non-message, a style
            if path.name == "rules_text.py" and text in rules_messages:
                continue
            if not re.search(r"[A-Za-z]{2,}[ ,:;.!?] ?[A-Za-z]{2,}|^[A-Z][a-z]+$", text):
                continue
            ancestor, wrapped = node, False
            while ancestor in parents and not wrapped:
                ancestor = parents[ancestor]
                wrapped = (
                    isinstance(ancestor, ast.Call)
                    and isinstance(ancestor.func, ast.Name)
                    and ancestor.func.id in _WRAPPERS
                ) or (
                    isinstance(ancestor, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "DEFAULT_CSS" for t in ancestor.targets)
                )
            if not wrapped:
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                found.append((str(shown), node.lineno, text))
    return found


# ---------------------------------------------------------------------------------- extraction


def _rules_screen_messages() -> Iterator[tuple[str, str]]:
    """(message, comment) of the terminal's rules screen: its title, headings and every row."""
    from sequence_game.tui import rules_text

    yield rules_text.TITLE, "rules screen title"
    yield "KEYS", "rules screen heading"
    yield "MARKS", "rules screen heading"
    for number, text in rules_text.RULES:
        yield text, f"rules screen, rule {number} (keep rule numbers such as R5.1 as they are)"
    for table, name in ((rules_text.KEYS, "keys"), (rules_text.MARKS, "marks")):
        for left, right in table:
            if re.search(r"[a-z]{3}", left):
                yield left, f"rules screen, {name} table, left column"
            yield right, f"rules screen, {name} table: {left}"


def extract_catalog() -> Catalog:
    """Every message of the game, from the Python package, the page, its script and the rules screen."""
    catalog = Catalog(project="sequence-game", domain=DOMAIN, charset="utf-8", fuzzy=False)
    method_map = [("**/locale/**", "ignore"), ("**/static/**", "ignore"), ("**.py", "python")]
    for filename, lineno, message, comments, context in extract_from_dir(
        PACKAGE, method_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
    ):
        catalog.add(
            message,
            None,
            [(f"src/sequence_game/{filename}", lineno)],
            auto_comments=comments,
            context=context,
        )
    for script in SCRIPTS:
        with script.open("rb") as f:
            for lineno, message, comments, _context in extract(
                "javascript", f, keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
            ):
                where = f"src/sequence_game/server/static/js/{script.name}"
                catalog.add(message, None, [(where, lineno)], auto_comments=comments)
    for lineno, message in page_messages().messages:
        catalog.add(message, None, [("src/sequence_game/server/static/index.html", lineno)])
    for message, comment in _rules_screen_messages():
        catalog.add(message, None, [("src/sequence_game/tui/rules_text.py", 0)], auto_comments=[comment])
    return catalog


def message_ids(catalog: Catalog) -> set[str]:
    """The catalogue's messages by singular id (the header entry left out)."""
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def _po_bytes(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, include_lineno=False, ignore_obsolete=True)
    return buf.getvalue()


def update() -> None:
    """Extract the template and merge it into each language (new messages empty, gone ones dropped)."""
    template = extract_catalog()
    (LOCALE / f"{DOMAIN}.pot").write_bytes(_po_bytes(template))
    for lang in TRANSLATED:
        path = po_path(lang)
        if path.exists():
            catalog = read_catalog(lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, domain=DOMAIN, project="sequence-game", fuzzy=False)
            catalog.mime_headers = [*catalog.mime_headers, ("Plural-Forms", PLURAL_FORMS)]
        catalog.update(template, no_fuzzy_matching=True)
        path.write_bytes(_po_bytes(catalog))


# ---------------------------------------------------------------------------------- compiled forms


def mo_bytes(lang: str) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, read_catalog(lang), use_fuzzy=False)
    return buf.getvalue()


#: Where the messages of the terminal and the command line come from: the page never shows them, so
#: its catalogue leaves out a message found only there (issue 41: the page's weight).
TERMINAL_SOURCES = (
    "src/sequence_game/tui/",
    "src/sequence_game/cli.py",
    "src/sequence_game/commands/",
    "src/sequence_game/analysis/report.py",
    "src/sequence_game/bots/tournament.py",  # the tournament's table
)


#: Catalogue parts that the page loads with a screen it loads on use (``loadPart`` in
#: ``static/js/i18n.js``): a message found only in a part's files is left out of ``<lang>.json``
#: (the first load's weight, issue 41) and written to ``<lang>.<part>.json``.
LAZY_PARTS = {
    "report": (
        "src/sequence_game/server/static/js/report.js",
        "src/sequence_game/server/report_routes.py",
        "src/sequence_game/server/moderation.py",
    )
}


def part_of(locations: list[tuple[str, int | None]]) -> str | None:
    """The lazy part a message belongs to (every place it is found is the part's), or ``None``."""
    for part, files in LAZY_PARTS.items():
        if locations and all(filename in files for filename, _line in locations):
            return part
    return None


def for_the_page(locations: list[tuple[str, int | None]]) -> bool:
    """Whether a message may reach the page: it is the page's own (its script or ``index.html``),
    or the server's or the engine's (refusals and checks the page words by their msgid), i.e. it
    is found somewhere other than the terminal and the command line."""
    return any(not filename.startswith(TERMINAL_SOURCES) for filename, _line in locations)


def browser_catalog(lang: str, part: str | None = None) -> dict[str, Any]:
    """The page's form of a catalogue: message id -> translation (a list for plural forms), only
    the messages the page may show (:func:`for_the_page`) of one part (:data:`LAZY_PARTS`; ``None``:
    the first load's)."""
    messages: dict[str, Any] = {}
    plural = PLURAL_FORMS
    if lang != "en":
        catalog = read_catalog(lang)
        plural = catalog.plural_forms
        for m in catalog:
            if not m.id or m.fuzzy or not for_the_page(m.locations) or part_of(m.locations) != part:
                continue
            if isinstance(m.id, str):
                messages[m.id] = m.string
            else:
                messages[m.id[0]] = list(m.string)
    return {"lang": lang, "plural_forms": plural, "messages": dict(sorted(messages.items()))}


def json_text(lang: str, part: str | None = None) -> str:
    return json.dumps(browser_catalog(lang, part), ensure_ascii=False, separators=(",", ":")) + "\n"


def compiled_files() -> dict[Path, bytes]:
    """Every compiled file and the bytes it should hold."""
    out: dict[Path, bytes] = {}
    for lang in TRANSLATED:
        out[po_path(lang).with_suffix(".mo")] = mo_bytes(lang)
    for lang in ("en", *TRANSLATED):
        out[JSON_DIR / f"{lang}.json"] = json_text(lang).encode()
    for lang in TRANSLATED:
        for part in LAZY_PARTS:
            out[JSON_DIR / f"{lang}.{part}.json"] = json_text(lang, part).encode()
    return out


def compile_all() -> None:
    for path, data in compiled_files().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def problems() -> list[str]:
    """Everything out of step: messages missing from a catalogue, untranslated or fuzzy, stale files."""
    found: list[str] = []
    wanted = message_ids(extract_catalog())
    for lang in TRANSLATED:
        catalog = read_catalog(lang)
        have = message_ids(catalog)
        if catalog.plural_forms != PLURAL_FORMS:
            found.append(f"{lang}: Plural-Forms must be {PLURAL_FORMS!r} (the page's script assumes it)")
        found += [f"{lang}: missing {m!r}" for m in sorted(wanted - have)]
        found += [f"{lang}: no longer used {m!r}" for m in sorted(have - wanted)]
        for m in catalog:
            if not m.id:
                continue
            strings = [m.string] if isinstance(m.string, str) else list(m.string)
            if m.fuzzy or not all(strings):
                found.append(f"{lang}: untranslated or fuzzy {m.id!r}")
    found += [
        f"{file}:{line}: {text!r} reaches players but is not a message (wrap it in _())"
        for file, line, text in python_strings_outside_catalogue()
    ]
    for path, data in compiled_files().items():
        if not path.exists() or path.read_bytes() != data:
            shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            found.append(f"{shown} is out of date: run scripts/i18n_catalogs.py compile")
    return found


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = problems()
        print("\n".join(found) or "catalogues up to date")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
