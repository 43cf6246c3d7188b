"""The catalogues stay complete and in step (issue 21): every player-facing string of the page and
its script is a message, every message is translated (no empty, no fuzzy) into Spanish and Danish,
and the compiled .mo files and the page's JSON match their .po files."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("babel")
pytest.importorskip("rich")  # the rules screen's messages come from sequence_game.tui.rules_text

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_catalogs", ROOT / "scripts" / "i18n_catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["i18n_catalogs"] = module
    spec.loader.exec_module(module)
    return module


catalogs = _load()


def test_every_message_is_translated_and_every_compiled_file_is_current() -> None:
    assert catalogs.problems() == []


def test_no_player_facing_string_of_the_script_bypasses_the_catalogue() -> None:
    assert catalogs.script_strings_outside_catalogue() == []


def test_no_text_of_the_page_bypasses_the_catalogue() -> None:
    page = catalogs.page_messages()
    assert page.loose_text == []
    assert page.loose_attrs == []


def test_the_checks_catch_a_string_left_in_english(tmp_path: Path) -> None:
    script = tmp_path / "app.js"
    script.write_text(
        'const a = _("Your turn"), b = el("span", {class: "tag you"}, "Your hand is empty");\n'
        "toast(`Fill ${n} seats`);\n",
        encoding="utf-8",
    )
    assert catalogs.script_strings_outside_catalogue(script) == [(1, "Your hand is empty"), (2, "Fill seats")]
    page = tmp_path / "index.html"
    page.write_text(
        '<h2 data-i18n>Moves</h2><p>Loose words</p><input placeholder="Say something">'
        '<a translate="no">Sequence</a><b data-i18n-attr="title" title="Turn timer">x</b>',
        encoding="utf-8",
    )
    parsed = catalogs.page_messages(page)
    assert [m for _, m in parsed.messages] == ["Moves", "Turn timer"]
    assert parsed.loose_text == [(1, "Loose words")]
    assert parsed.loose_attrs == [(1, "placeholder", "Say something")]


def test_a_missing_or_fuzzy_translation_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from babel.messages.pofile import read_po, write_po

    for lang in catalogs.TRANSLATED:
        source = catalogs.po_path(lang)
        copy = tmp_path / lang / "LC_MESSAGES" / source.name
        copy.parent.mkdir(parents=True)
        with source.open("rb") as f:
            catalogue = read_po(f, locale=lang)
        if lang == "da":
            catalogue["Your turn"].string = ""
            catalogue["Moves"].flags.add("fuzzy")
            catalogue.delete("Table")
        with copy.open("wb") as f:
            write_po(f, catalogue)
    monkeypatch.setattr(catalogs, "LOCALE", tmp_path)
    found = catalogs.problems()
    assert "da: missing 'Table'" in found
    assert "da: untranslated or fuzzy 'Your turn'" in found
    assert "da: untranslated or fuzzy 'Moves'" in found
    assert not [p for p in found if p.startswith("es:")]


def test_the_page_gets_the_same_catalogue_as_python() -> None:
    from sequence_game.i18n import translation

    for lang in catalogs.TRANSLATED:
        page = json.loads((catalogs.JSON_DIR / f"{lang}.json").read_text(encoding="utf-8"))
        assert page["lang"] == lang and page["plural_forms"] == catalogs.PLURAL_FORMS
        python = translation(lang)
        for msgid, msgstr in page["messages"].items():
            if isinstance(msgstr, list):
                assert [python.ngettext(msgid, msgid + "s", n) for n in (1, 2)] == msgstr
            else:
                assert python.gettext(msgid) == msgstr


def test_the_locale_files_ship_in_the_package() -> None:
    """Hatch puts every file under src/sequence_game in the wheel unless git ignores it."""
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8")
    for pattern in ("*.mo", "*.po", "*.json", "locale", "i18n"):
        assert pattern not in ignored.split(), pattern


def test_no_player_facing_string_of_the_terminal_or_the_cli_bypasses_the_catalogue() -> None:
    assert catalogs.python_strings_outside_catalogue() == []


def test_the_python_check_catches_a_string_left_in_english(tmp_path: Path) -> None:
    module = tmp_path / "screen.py"
    module.write_text(
        '"""A docstring is no message."""\n'
        "from sequence_game.i18n import N_, _\n"
        'BINDINGS = [("q", "quit", N_("Quit"))]\n'
        'STYLE = "bold white on #2457c5"\n'
        "def show(who: str) -> str:\n"
        '    notice = _("Your hand")\n'
        '    return f"Pass the keyboard to {who}." + notice\n',
        encoding="utf-8",
    )
    assert catalogs.python_strings_outside_catalogue((module,)) == [(str(module), 7, "Pass the keyboard to ")]
