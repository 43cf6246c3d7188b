"""The language layer (issue 21): choosing a language, the catalogues it reads, and cards, moves and
rules in English, Spanish and Danish, in the seeds' own words."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from sequence_game import i18n
from sequence_game.cards import CARD_NAMES
from sequence_game.i18n import (
    LANGUAGES,
    card_label,
    choose_language,
    describe_action,
    notation_label,
    translate_rows,
    translation,
)


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


# ---------------------------------------------------------------------------------- choosing


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "da_DK.UTF-8"}, "da"),
        ({"LANG": "es_ES.UTF-8", "LC_MESSAGES": "da_DK.UTF-8"}, "da"),
        ({"LANG": "da_DK.UTF-8", "LC_MESSAGES": "da_DK.UTF-8", "LC_ALL": "es_MX.UTF-8"}, "es"),
        ({"LC_ALL": "", "LANG": "es_AR"}, "es"),  # an empty variable is not set
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),  # no French catalogue: English, as gettext programs do
        ({"LC_ALL": "fr_FR.UTF-8", "LANG": "da_DK.UTF-8"}, "en"),  # the first set variable decides
        ({"LANG": "da"}, "da"),
    ],
)
def test_the_locale_chooses_the_language(environ: dict[str, str], expected: str) -> None:
    assert choose_language(None, environ) == expected


def test_lang_option_overrides_the_locale() -> None:
    assert choose_language("es", {"LC_ALL": "da_DK.UTF-8"}) == "es"
    assert choose_language("DA", {}) == "da"
    assert choose_language("en", {"LANG": "es_ES.UTF-8"}) == "en"
    assert choose_language("da-DK", {}) == "da"


def test_an_unknown_lang_option_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"unknown language 'fr': choose one of en, es, da"):
        choose_language("fr", {})
    with pytest.raises(ValueError, match="unknown language"):
        i18n.set_language("klingon")


def test_the_active_language_translates_and_counts(english_after: None) -> None:
    assert i18n._("Your turn") == "Your turn"
    i18n.set_language("da")
    assert i18n.get_language() == "da"
    assert i18n._("Your turn") == "Din tur"
    assert i18n.ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 kort"
    i18n.set_language("es")
    assert i18n._("Your turn") == "Su turno"
    assert i18n.ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 carta"
    assert i18n.ngettext("{n} card", "{n} cards", 3).format(n=3) == "3 cartas"
    assert i18n._("not a message of the game") == "not a message of the game"


def test_each_catalogue_is_a_compiled_gettext_file() -> None:
    for lang in ("es", "da"):
        catalogue = translation(lang)
        assert catalogue.info()["language"] == lang
        assert catalogue.info()["plural-forms"] == "nplurals=2; plural=(n != 1);"


# ---------------------------------------------------------------------------------- cards and moves


def test_cards_in_words_follow_each_languages_order() -> None:
    assert [card_label("7h", lang) for lang in LANGUAGES] == ["7 of hearts", "7 de corazones", "hjerter 7"]
    assert [card_label("th", lang) for lang in LANGUAGES] == ["10 of hearts", "10 de corazones", "hjerter 10"]
    assert card_label("js", "es") == "jota de picas" and card_label("js", "da") == "spar knægt"
    assert card_label("qd", "da") == "ruder dame" and card_label("kc", "da") == "klør konge"
    assert card_label("as", "es") == "as de picas" and card_label("ac", "es") == "as de tréboles"
    assert card_label("ad", "en") == "Ace of diamonds"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_has_its_own_name(lang: str) -> None:
    labels = {card_label(name, lang) for name in CARD_NAMES}
    assert len(labels) == 52


def test_the_notations_words_are_translated_and_the_cells_are_not() -> None:
    assert notation_label("7h@e4", "da") == "7♥ e4"
    assert notation_label("js@e4", "es") == "J♠ ✕e4"  # a one-eyed jack removes
    assert [notation_label("dead ks", lang) for lang in LANGUAGES] == ["dead K♠", "muerta K♠", "død K♠"]
    assert [notation_label("discard 2c", lang) for lang in LANGUAGES] == [
        "discard 2♣",
        "descarta 2♣",
        "kasser 2♣",
    ]
    assert [notation_label("draw", lang) for lang in LANGUAGES] == ["draw", "roba", "træk"]


def test_moves_in_sentences() -> None:
    assert describe_action("Ann", "7h@e4", "en") == "Ann plays 7♥ on e4"
    assert describe_action("Ann", "7h@e4", "da") == "Ann spiller 7♥ på e4"
    assert describe_action("Bea", "jh@c3", "es") == "Bea quita la ficha de c3 (J♥)"
    assert describe_action("Bea", "dead 9s", "da") == "Bea bytter et dødt kort 9♠"
    assert describe_action("Bea", "dead 9s", "es") == "Bea cambia una carta muerta 9♠"
    assert describe_action("Bea", "draw", "es") == "Bea roba"


# ---------------------------------------------------------------------------------- the rules


def _catalogue_pairs(lang: str) -> Iterator[tuple[str, str]]:
    catalogue = translation(lang)
    for msgid, msgstr in catalogue._catalog.items():  # type: ignore[attr-defined]
        if not msgid:
            continue
        singular = msgid[0] if isinstance(msgid, tuple) else msgid
        yield singular, msgstr


@pytest.mark.parametrize("lang", ["es", "da"])
def test_translations_keep_rule_numbers_placeholders_and_markup(lang: str) -> None:
    for msgid, msgstr in _catalogue_pairs(lang):
        for pattern in (r"R\d(?:\.\d)?", r"\{\w+\}", r"</?\w+>"):
            assert sorted(re.findall(pattern, msgid)) == sorted(re.findall(pattern, msgstr)), (msgid, msgstr)


def test_the_rules_screen_is_complete_in_every_language() -> None:
    rules_text = pytest.importorskip("sequence_game.tui.rules_text")
    for lang in ("es", "da"):
        for table in (rules_text.RULES, rules_text.KEYS, rules_text.MARKS):
            translated = translate_rows(table, lang)
            assert [left for left, _ in translated if left.startswith("R")] == [
                left for left, _ in table if left.startswith("R")
            ]
            for (_, english), (_, words) in zip(table, translated, strict=True):
                assert words != english, (lang, english)
        assert i18n.gettext_in(lang, rules_text.TITLE) != rules_text.TITLE


@pytest.mark.parametrize(
    ("lang", "terms"),
    [
        ("es", ["secuencia", "jota de dos ojos", "jota de un ojo", "carta muerta"]),
        ("da", ["sekvens", "toøjet knægt", "enøjet knægt", "dødt kort"]),
    ],
)
def test_the_rules_use_the_seeds_own_terms(lang: str, terms: list[str]) -> None:
    rules_text = pytest.importorskip("sequence_game.tui.rules_text")
    text = " ".join(words for _, words in translate_rows(rules_text.RULES + rules_text.MARKS, lang)).lower()
    for term in terms:
        assert term in text, term


def _rule_numbers(text: str) -> list[str]:
    return re.findall(r"^(?:## |- )(R\d(?:\.\d)?) ", text, flags=re.MULTILINE)


def test_the_full_rule_book_says_the_same_rules_in_every_language() -> None:
    english = _rule_numbers(i18n.rule_book("en"))
    assert len(english) == 32 and english[0] == "R1" and english[-1] == "R7.2"
    for lang in ("es", "da"):
        book = i18n.rule_book(lang)
        assert _rule_numbers(book) == english, lang
        # every rule cited inside a rule is cited in the translation too
        assert sorted(re.findall(r"R\d(?:\.\d)?", book)) == sorted(
            re.findall(r"R\d(?:\.\d)?", i18n.rule_book("en"))
        )


@pytest.mark.parametrize(
    ("lang", "terms"),
    [
        ("es", ["secuencia", "jota de dos ojos", "jota de un ojo", "carta muerta", "pila de descarte"]),
        ("da", ["sekvens", "toøjet knægt", "enøjet knægt", "dødt kort", "afkastbunke", "trækbunke"]),
    ],
)
def test_the_rule_book_uses_the_seeds_own_terms(lang: str, terms: list[str]) -> None:
    book = i18n.rule_book(lang).lower()
    for term in terms:
        assert term in book, term


# ---------------------------------------------------------------------------------- engine errors


def _engine_errors() -> list[ValueError]:
    """Real errors of the engine (``state.py``, ``config.py``, the notation's reader), as raised."""
    from sequence_game import GameConfig, new_game
    from sequence_game.actions import DEAD, DISCARD, DRAW, Action

    state = new_game(GameConfig(players=2), seed=1)
    seat = state.current_seat
    other = 1 - seat
    errors: list[ValueError] = []
    attempts = [
        lambda: state.apply(DRAW, seat),
        lambda: state.apply(0, seat),  # a corner
        lambda: state.apply(DEAD + next(c for c in state.hand(seat) if c < 44), seat),
        lambda: state.apply(DISCARD + state.hand(seat)[0], seat),
        lambda: state.apply(state.legal_actions(seat)[0], other),
        lambda: state.call_table_talk(0),
        lambda: GameConfig(players=5),
        lambda: GameConfig(players=4, teams=3),
        lambda: Action.parse("xx@e4"),
        lambda: Action.parse("7h@z9"),
        lambda: Action.parse("7h"),
    ]
    for attempt in attempts:
        with pytest.raises(ValueError) as caught:
            attempt()
        errors.append(caught.value)
    return errors


@pytest.mark.parametrize("lang", ["es", "da"])
def test_engine_errors_are_worded_again_in_each_language_with_their_rule(lang: str) -> None:
    for error in _engine_errors():
        english = str(error)
        translated = i18n.engine_message(error, lang)
        assert translated != english, english
        assert re.findall(r"R\d\.\d", translated) == re.findall(r"R\d\.\d", english)


def test_engine_errors_in_english_are_unchanged_and_unknown_ones_pass_through() -> None:
    from sequence_game.errors import IllegalActionError
    from sequence_game.messages import M_, CardCode

    for error in _engine_errors():  # the same words; card codes become the cards' symbols
        english = str(error)
        symbols = re.sub(r"(?<!')\b([2-9tjqka][shdc])\b(?!')", lambda m: i18n.card_short(m[1]), english)
        assert i18n.engine_message(error, "en") == symbols
    taken = IllegalActionError("R5.2", M_("{cell} already holds a chip", cell="e4"))
    assert i18n.engine_message(taken, "da") == "R5.2: e4 har allerede en chip"
    held = IllegalActionError("R5.2", M_("seat {seat} holds no {card}", seat=0, card=CardCode("th")))
    assert str(held) == "R5.2: seat 0 holds no th"
    assert i18n.engine_message(held, "es") == "R5.2: el asiento 0 no tiene 10♥"
    # plain text carries no data: its rule stays, the rest goes through the catalogue as a whole
    assert i18n.engine_message("R9.9: something new", "es") == "R9.9: something new"
    assert i18n.engine_message("R7.1: the game is over", "es") == "R7.1: " + i18n.gettext_in(
        "es", "the game is over"
    )
