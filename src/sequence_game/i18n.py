"""The players' languages (English, Spanish, Danish): choosing one, and text in it.

Messages are standard gettext catalogues (``locale/<lang>/LC_MESSAGES/sequence.mo``) read with the
standard library's :mod:`gettext`, so nothing here needs Babel at run time; Babel only extracts and
compiles them (``scripts/i18n_catalogs.py``). English is the source language: an English message is
its own msgid and needs no catalogue. Rule numbers (``R5.2``) are the same in every language.

The interfaces pick a language once (:func:`choose_language`, :func:`set_language`) and call
:func:`_` / :func:`ngettext`; code that serves several languages at once (a server with one seat
in Danish and one in Spanish) asks :func:`translation` for each.

>>> choose_language("da"), choose_language(None, {"LANG": "es_ES.UTF-8"}), choose_language(None, {})
('da', 'es', 'en')
>>> card_label("7h", "en"), card_label("7h", "es"), card_label("7h", "da")
('7 of hearts', '7 de corazones', 'hjerter 7')
>>> notation_label("dead ks", "da"), describe_action("Ann", "jd@e4", "es")
('død K♠', 'Ann juega J♦ en e4')
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Final

from .cards import SUIT_SYMBOLS, Card, card_name, is_one_eyed, parse_card
from .messages import CardCode, Listed, Message, message_of

DOMAIN: Final = "sequence"
LOCALE_DIR: Final = Path(__file__).with_name("locale")
#: The languages players can choose, English first: it is the default and the source language.
LANGUAGES: Final[tuple[str, ...]] = ("en", "es", "da")
DEFAULT_LANGUAGE: Final = "en"
#: Each language's name in itself, for a language switcher.
LANGUAGE_NAMES: Final[Mapping[str, str]] = {"en": "English", "es": "Español", "da": "Dansk"}
#: The locale variables that name the language of messages, strongest first (POSIX order).
LOCALE_VARIABLES: Final = ("LC_ALL", "LC_MESSAGES", "LANG")

_active: str = DEFAULT_LANGUAGE


def N_(message: str) -> str:
    """Mark a message for the catalogue without translating it yet (it is translated where shown)."""
    return message


def normalize_language(tag: str) -> str | None:
    """The supported language a locale name or language tag means, or None.

    ``"da_DK.UTF-8"``, ``"da-DK"`` and ``"DA"`` all mean ``"da"``; ``"C"``, ``"POSIX"`` and
    languages without a catalogue (``"fr_FR"``) mean none.
    """
    code = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def choose_language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``--lang`` if given, else the locale's (``LC_ALL``, then
    ``LC_MESSAGES``, then ``LANG``: the first that is set decides), else English.

    A ``--lang`` value that is not a supported language is an error (the player asked for it);
    a locale without a catalogue quietly falls back to English, as every gettext program does.
    """
    if option is not None:
        lang = normalize_language(option)
        if lang is None:
            raise ValueError(f"unknown language {option!r}: choose one of {', '.join(LANGUAGES)}")
        return lang
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name, "")
        if value:
            return normalize_language(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


@cache
def translation(lang: str) -> _gettext.NullTranslations:
    """The catalogue of ``lang`` (English: the identity). A missing catalogue is a packaging fault,
    so it raises instead of silently speaking English."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    if lang == DEFAULT_LANGUAGE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang])


def set_language(lang: str) -> None:
    """Make ``lang`` the language of :func:`_` and :func:`ngettext` (the CLI calls this once)."""
    global _active  # noqa: PLW0603 - one language per terminal session, chosen at start
    translation(lang)  # fail now, not at the first message
    _active = lang


def get_language() -> str:
    return _active


def _(message: str) -> str:
    """``message`` in the active language."""
    return translation(_active).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the active language."""
    return translation(_active).ngettext(singular, plural, n)


def gettext_in(lang: str | None, message: str) -> str:
    """``message`` in ``lang`` (None: the active language)."""
    return translation(lang or _active).gettext(message)


# ---------------------------------------------------------------------------- cards and notation

#: Rank words; the number cards are their numbers in every language.
RANK_WORDS: Final[Mapping[str, str]] = {"j": N_("Jack"), "q": N_("Queen"), "k": N_("King"), "a": N_("Ace")}
SUIT_WORDS: Final[Mapping[str, str]] = {
    "s": N_("spades"),
    "h": N_("hearts"),
    "d": N_("diamonds"),
    "c": N_("clubs"),
}


def _card_code(card: Card | str) -> str:
    return card_name(card) if isinstance(card, int) else card_name(parse_card(card))


def card_short(card: Card | str) -> str:
    """The card as printed on the board and in the hand (``10♥``, ``J♠``): the same in every language."""
    code = _card_code(card)
    return ("10" if code[0] == "t" else code[0].upper()) + SUIT_SYMBOLS[code[1]]


def rank_word(card: Card | str, lang: str | None = None) -> str:
    code = _card_code(card)
    if code[0] in RANK_WORDS:
        return gettext_in(lang, RANK_WORDS[code[0]])
    return "10" if code[0] == "t" else code[0]


def suit_word(card: Card | str, lang: str | None = None) -> str:
    return gettext_in(lang, SUIT_WORDS[_card_code(card)[1]])


def card_label(card: Card | str, lang: str | None = None) -> str:
    """The card in words, for screen readers and the rules: "7 of hearts", "7 de corazones",
    "hjerter 7" (Danish names the suit first)."""
    return gettext_in(lang, "{rank} of {suit}").format(rank=rank_word(card, lang), suit=suit_word(card, lang))


def notation_label(action: str, lang: str | None = None) -> str:
    """A move's notation (``7h@e4``, ``dead 7h``, ``discard 7h``, ``draw``) in a few characters with
    the notation's words translated: "7♥ e4", "J♠ ✕e4" (a removal), "død 7♥", "draw"."""
    text = action.strip()
    if "@" in text:
        card, cell = text.split("@", 1)
        return f"{card_short(card)} {'✕' if is_one_eyed(parse_card(card)) else ''}{cell}"
    word, _sep, card = text.partition(" ")
    if word == "dead" and card:
        return gettext_in(lang, "dead {card}").format(card=card_short(card))
    if word == "discard" and card:
        return gettext_in(lang, "discard {card}").format(card=card_short(card))
    if text == "draw":
        return gettext_in(lang, "draw")
    return text


def describe_action(who: str, action: str, lang: str | None = None) -> str:
    """A move in a sentence with the player's name: "Ann plays 7♥ on e4" (the web page's move log
    says the same, from the same catalogue)."""
    text = action.strip()
    if "@" in text:
        card, cell = text.split("@", 1)
        if is_one_eyed(parse_card(card)):
            message = gettext_in(lang, "{who} removes the chip on {cell} ({card})")
        else:
            message = gettext_in(lang, "{who} plays {card} on {cell}")
        return message.format(who=who, card=card_short(card), cell=cell)
    word, _sep, card = text.partition(" ")
    if word == "dead" and card:
        return gettext_in(lang, "{who} exchanges a dead {card}").format(who=who, card=card_short(card))
    if word == "discard" and card:
        return gettext_in(lang, "{who} discards {card}").format(who=who, card=card_short(card))
    if text == "draw":
        return gettext_in(lang, "{who} draws").format(who=who)
    return f"{who}: {text}"


def translate_rows(rows: tuple[tuple[str, str], ...], lang: str | None = None) -> tuple[tuple[str, str], ...]:
    """A table of (label, text) rows in ``lang``: the rules screen's rules, keys and marks. Rule
    numbers and bare keys are not messages and come back unchanged."""
    return tuple((gettext_in(lang, left), gettext_in(lang, right)) for left, right in rows)


def rule_book(lang: str | None = None) -> str:
    """The whole rule book (Markdown, rules R1-R7 numbered as everywhere) in ``lang``: the rules
    screen shows the rules in brief, this is the full text behind them."""
    lang = lang or _active
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return (LOCALE_DIR / "rules" / f"{lang}.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------- messages as data

_RULE_PREFIX: Final = re.compile(r"(?P<rule>R\d+(?:\.\d+)?): (?P<rest>.*)", re.DOTALL)


def split_rule(text: str) -> tuple[str, str]:
    """``"R5.2: e4 already holds a chip"`` as ``("R5.2: ", "e4 already holds a chip")``; a text with
    no rule number as ``("", text)``. Rule numbers stay as they are in every language."""
    match = _RULE_PREFIX.fullmatch(text)
    return (match["rule"] + ": ", match["rest"]) if match else ("", text)


def _shown(value: Any, lang: str | None) -> Any:
    """A message's param as people read it: a card code as its symbol, a list with commas, a
    message inside a message worded in ``lang`` in its turn."""
    if isinstance(value, Message):
        return message_text(value, lang)
    if isinstance(value, CardCode):
        return card_short(value)
    if isinstance(value, Listed):
        return ", ".join(value)
    return value


def message_text(message: str | BaseException, lang: str | None = None) -> str:
    """A message or an error in ``lang``, its rule number first as in English.

    A :class:`~sequence_game.messages.Message` (what the engine, the record reader and the fairness
    checks raise and report) is worded from its catalogue message and params, card codes shown as
    symbols (``10♥``). Plain text is the fallback, for text that carries no data (made elsewhere, or
    read back from a file): its rule number is kept and the rest goes through the catalogue as a
    whole (a message without fields, such as ``"the game is over"``, is its own msgid), else it
    comes back as it is, in English, rather than not at all.
    """
    if isinstance(message, BaseException):
        message = message_of(message)
    if isinstance(message, Message):
        rule = f"{message.rule}: " if message.rule else ""
        shown = {name: _shown(value, lang) for name, value in message.params.items()}
        return rule + gettext_in(lang, message.msgid).format_map(shown)
    rule, rest = split_rule(message)
    return rule + (gettext_in(lang, rest) if rest else rest)  # "" would be the catalogue's header


def engine_message(error: str | BaseException, lang: str | None = None) -> str:
    """An engine error (an :class:`~sequence_game.errors.IllegalActionError`, a ``ValueError`` of the
    notation's reader, or its message) in ``lang``: :func:`message_text`."""
    return message_text(error, lang)


def wire_value(value: Any) -> Any:
    """A param as the server sends it: a card code as its symbol (the same in every language), a
    list with commas, a message inside a message as its English (the page words it again where it
    has its own field, such as a check's ``reason``)."""
    if isinstance(value, CardCode):
        return card_short(value)
    if isinstance(value, Listed):
        return ", ".join(value)
    if isinstance(value, Message):
        return str(value)
    return value


def engine_parts(message: str) -> tuple[str, dict[str, str]] | None:
    """An engine error's message (without its rule number) as data: the catalogue message it is
    worded by and its params as text, card codes as symbols (``10♥``); None for plain text, which
    carries no data. The server sends these, so each page words the error in its own language."""
    if not isinstance(message, Message):
        return None
    return message.msgid, {name: str(wire_value(value)) for name, value in message.params.items()}
