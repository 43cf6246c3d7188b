"""Messages as data: an English text that keeps the catalogue template and params it was made from.

Why: the engine, the record reader and the fairness checks speak English, and that English is API
(``str(exc)``, ``--json`` output, records' ``error`` fields, the server's ``message``). People read
it in their own language, so an interface needs the message's data, not its words. A
:class:`Message` is both: it *is* the English text (a ``str``, so everything that stored, printed,
compared or serialised the text before does so unchanged), and it carries its ``template`` (the
catalogue's msgid, ``"seat {seat} holds no {card}"``), its ``params`` and, for an error, its
``rule``. :mod:`sequence_game.i18n` words it again from the catalogue; nothing here knows gettext,
so the engine stays pure and light.

>>> m = M_("seat {seat} holds no {card}", seat=0, card=CardCode("7h"))
>>> m, m.template, m.params
('seat 0 holds no 7h', 'seat {seat} holds no {card}', {'seat': 0, 'card': '7h'})
>>> with_rule("R5.2", m), with_rule("R5.2", m).rule
('R5.2: seat 0 holds no 7h', 'R5.2')
>>> kinds = M_("{where}: an action has one kind, this one has {kinds}", where="x", kinds=Listed(("a", "b")))
>>> str(kinds)
'x: an action has one kind, this one has a and b'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self


def N_(message: str) -> str:
    """Mark a message for the catalogue without translating it yet (it is translated where shown)."""
    return message


class CardCode(str):
    """A card code param (``"7h"``): English shows the code, every interface its symbol (``7♥``)."""

    __slots__ = ()


class Listed(tuple[str, ...]):
    """A list of words as a param: English joins them with "and", an interface with commas (the
    words are the record's field names, the same in every language)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return format(" and ".join(self), spec)


class Message(str):
    """An English message that remembers what it was formatted from.

    ``template`` is the English with ``{field}`` placeholders and ``params`` their values (a param
    may be a :class:`CardCode`, a :class:`Listed` or another :class:`Message`, worded again in its
    turn). ``msgid`` is the catalogue message people read it by: the template itself, except where
    the API's English and the catalogue's wording were made different (a few record and fairness
    details). ``rule`` (``"R5.2"``), when given, comes first: ``"R5.2: e4 already holds a chip"``.

    Pass the message itself where it is to be worded: ``str(message)``, slicing or concatenating
    gives plain English, without the data.
    """

    template: str
    params: Mapping[str, Any]
    msgid: str
    rule: str | None

    def __new__(
        cls,
        template: str,
        params: Mapping[str, Any] | None = None,
        msgid: str | None = None,
        rule: str | None = None,
    ) -> Self:
        params = {} if params is None else params  # not copied: M_'s keywords are a dict of its own
        text = template.format_map(params)
        self = str.__new__(cls, f"{rule}: {text}" if rule else text)
        self.template, self.params, self.msgid, self.rule = template, params, msgid or template, rule
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Message, (self.template, dict(self.params), self.msgid, self.rule))


def M_(template: str, /, **params: Any) -> Message:
    """The message ``template`` with ``params``; its English is ``template.format(**params)``.
    ``scripts/i18n_catalogs.py`` extracts every ``M_("...")`` template into the catalogue."""
    return Message(template, params)


def outside(text: str, msgid: str | None = None) -> Message:
    """Text from outside this program (the JSON decoder's or the operating system's reason) as a
    message: its English as it is, worded by ``msgid`` where the catalogue has one."""
    escaped = text.replace("{", "{{").replace("}", "}}")
    return Message(escaped, msgid=msgid or escaped)


def with_rule(rule: str | None, message: str) -> Message | str:
    """``message`` with the rule it breaks first (``"R5.2: ..."``); a plain string stays one."""
    if not rule:
        return message
    if isinstance(message, Message):
        return Message(message.template, message.params, message.msgid, rule)
    return f"{rule}: {message}"


def message_of(error: BaseException) -> str:
    """The text an error was raised with: its :class:`Message` (its ``rule`` first, when the error
    has one) when it has one, else its English."""
    message = getattr(error, "message", None)
    if isinstance(message, Message):
        rule = getattr(error, "rule", None)
        return with_rule(rule, message) if rule and not message.rule else message
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Message) else str(error)
