"""Compact JSON text for the server's messages and stored events, one encoder for both.

Why: a move's event is encoded for the store and its state messages for every socket; ``orjson``
(the ``server`` extra) does it several times faster than the standard library, which stays the
fallback (without orjson, and for a lone surrogate in a name, which orjson refuses).
"""

from __future__ import annotations

import json
from typing import Any

try:  # the server extra brings orjson; the standard library's encoder is the fallback
    import orjson
except ImportError:  # pragma: no cover - the server extra installs it
    orjson = None  # type: ignore[assignment]


def encode(value: Any) -> str:
    """Compact JSON text; ``orjson`` when it can (a lone surrogate in a name falls back)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # not UTF-8 encodable (a lone surrogate) or an unusual type
            pass
    return json.dumps(value, separators=(",", ":"))


def decode(text: str) -> Any:
    """The value of JSON text (``orjson`` when installed)."""
    return orjson.loads(text) if orjson is not None else json.loads(text)


def parse(text: str | bytes) -> Any:
    """The value of JSON text from outside (a player's frame): ``orjson`` parses it several times
    faster; anything it refuses (bad JSON, but also what the standard parser accepts: NaN, huge
    numbers, a lone surrogate escape) goes to the standard parser, so what is accepted and every
    refusal's reason (:class:`json.JSONDecodeError`, :class:`RecursionError`) are the standard
    library's."""
    if orjson is not None:
        try:
            return orjson.loads(text)
        except ValueError:
            pass
    return json.loads(text)


def encode_bytes(value: Any) -> bytes:
    """:func:`encode` as UTF-8 bytes (what libpq takes as a parameter's text)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:  # a lone surrogate or an unusual type: the standard library's text
            pass
    return json.dumps(value, separators=(",", ":")).encode()
