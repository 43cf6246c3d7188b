"""Account names: what may be registered, and the key that makes look-alike names one name.

Why: a name is how players recognise each other, so "Ann" must not be registrable again as
"ＡＮＮ" (fullwidth), "ann", "Аnn" (a Cyrillic А) or "Ann_". Two rules, both here:

1. **Restricted scripts.** A name's letters all come from one script (Latin, Cyrillic, Greek,
   Arabic, ...; the Han, kana and Hangul of one East Asian language count as one). A name mixing
   scripts ("Аnn": Cyrillic then Latin) is refused outright. Invisible characters (format
   characters such as a zero-width joiner), control characters, symbols and emoji are refused;
   letters, combining marks, digits, spaces and ``_ - . '`` are allowed, spaces never doubled
   nor at the ends.
2. **A skeleton key, unique in the store.** The name in Unicode NFKC (fullwidth and other
   compatibility forms become the plain letters), case-folded, its separators (spaces and
   ``_ - . '``) dropped, and every character that looks like another mapped to one
   representative (:data:`CONFUSABLES`: the Cyrillic and Greek letters that look Latin, ``0``/``o``,
   ``1``/``l``/``i``, ``rn``/``m``, ``vv``/``w``). A name whose key is taken is refused, so
   "Рор" (all Cyrillic, allowed by rule 1) cannot pass for "Pop".

The name is shown as registered, in NFKC ("ＡＮＮ" is shown "ANN", were it free).

>>> name_key("Ann") == name_key("ＡＮＮ") == name_key("a n n") == name_key("ann_")
True
>>> name_key("Рор") == name_key("pop")  # Cyrillic Р, о, р
True
>>> try:
...     check_name("Аnn")  # Cyrillic А with Latin nn
... except BadName as exc:
...     print(exc)
mixed_scripts
>>> check_name("  Ann Lee ")
'Ann Lee'
"""

from __future__ import annotations

import unicodedata

MIN_NAME = 2
MAX_NAME = 24
SEPARATORS = frozenset(" _-.'")
"""Punctuation a name may hold between its letters; dropped from the key."""

#: One representative for each group of characters that look alike (after NFKC and casefold).
CONFUSABLES: dict[str, str] = {
    # Cyrillic that looks Latin
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i",
    "ј": "j", "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q", "г": "r",
    "ѕ": "s", "т": "t", "ц": "u", "ѵ": "v", "ԝ": "w", "х": "x", "у": "y", "з": "3", "ь": "b",
    # Greek that looks Latin
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ζ": "z", "μ": "u", "ω": "w",
    # digits and Latin letters that pass for each other
    "0": "o", "1": "l", "i": "l", "ı": "l", "5": "s", "|": "l",
}  # fmt: skip
#: Letter pairs that pass for one letter, replaced after :data:`CONFUSABLES`.
DIGRAPHS = (("rn", "m"), ("vv", "w"))
#: Scripts one language writes together: one name may mix these.
SCRIPT_GROUPS = {"CJK": "HAN", "HIRAGANA": "HAN", "KATAKANA": "HAN", "HANGUL": "HAN", "HALFWIDTH": "HAN"}


class BadName(ValueError):
    """A name refused; its argument is a short code (``too_short``, ``mixed_scripts``, ...)."""


def script(ch: str) -> str | None:
    """The script of a letter, from its Unicode name's first word (``LATIN``, ``CYRILLIC``,
    ``GREEK``, ...); ``None`` for anything that is not a letter."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    word = unicodedata.name(ch, "UNKNOWN").split(" ")[0]
    return SCRIPT_GROUPS.get(word, word)


def check_name(raw: str) -> str:
    """The name as it will be shown (NFKC, ends trimmed), or ``ValueError`` with a code."""
    name = unicodedata.normalize("NFKC", raw).strip()
    if len(name) < MIN_NAME:
        raise BadName("too_short")
    if len(name) > MAX_NAME:
        raise BadName("too_long")
    if "  " in name:
        raise BadName("bad_character")
    scripts: set[str] = set()
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] in "LMN":
            found = script(ch)
            if found is not None:
                scripts.add(found)
        elif ch not in SEPARATORS:  # controls, format (invisible), symbols, other punctuation
            raise BadName("bad_character")
    if not scripts:
        raise BadName("no_letter")
    if len(scripts) > 1:
        raise BadName("mixed_scripts")
    return name


def name_key(name: str) -> str:
    """The key that look-alike names share (see the module's text); what the store keeps unique."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(ch for ch in text if ch not in SEPARATORS and not ch.isspace())
    # marks that only decorate (a combining dot, an acute) stay: "Åse" and "Ase" are two names
    text = "".join(CONFUSABLES.get(ch, ch) for ch in unicodedata.normalize("NFC", text))
    for pair, one in DIGRAPHS:
        text = text.replace(pair, one)
    return text
