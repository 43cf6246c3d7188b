"""Bot specifications: a bot name or difficulty level, optionally with constructor options, as
written on a command line. Options make a variant of a bot comparable in a tournament without
writing code (``docs/bots.md`` measures variants this way).

>>> parse_bot_spec("mcts(width=8, confidence=1.5)")
BotSpec(name='mcts', options={'width': 8, 'confidence': 1.5})
>>> parse_bot_spec("hard").label, parse_bot_spec("hard").spec
('hard', 'heuristic')
>>> split_bot_list("greedy, heuristic(jack_costs=(300, 400)),mcts")
['greedy', 'heuristic(jack_costs=(300, 400))', 'mcts']
>>> parse_bot_spec("greedy(width=8)")
Traceback (most recent call last):
...
ValueError: greedy has no option 'width'; its options: weights

Only options with a plain default (a number, a flag, a tuple of numbers, or an evaluation's
``weights``) can be set; values are Python literals, checked against the default's type.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from .evaluation import Weights

if TYPE_CHECKING:
    from .base import Bot

_SPEC: re.Pattern[str] = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$", re.DOTALL)


@dataclass(frozen=True)
class BotSpec:
    """A bot name (levels resolved) and the options passed to its constructor."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    label: str = field(default="", compare=False, repr=False)
    """The name a table shows, as canonical text: the bot or level named, alone or with the
    options written after it (``expert``, ``mcts(width=8)``); it parses back to this spec."""
    spec: str = field(default="", compare=False, repr=False)
    """Everything it plays with, a level's options included (``heuristic`` for ``hard``)."""

    def __post_init__(self) -> None:
        if not self.spec:
            object.__setattr__(self, "spec", self.label or self.name)
        if not self.label:
            object.__setattr__(self, "label", self.spec)

    @property
    def oracle(self) -> bool:
        """Whether the bot sees the true state (``oracle=True``): a measurement tool only."""
        return bool(self.options.get("oracle"))

    def build(self, seed: int | None = None) -> Bot:
        """The bot, seeded; its constructor refuses out-of-range options (``mcts(width=0)``)."""
        from . import BOTS

        return BOTS[self.name](seed=seed, **self.options)


def split_bot_list(text: str) -> list[str]:
    """Split a comma-separated list of bot specs at the commas outside parentheses."""
    out: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced parentheses in {text!r}")
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    if depth:
        raise ValueError(f"unbalanced parentheses in {text!r}")
    out.append(text[start:].strip())
    return [s for s in out if s]


def spec_name(text: str) -> str:
    """The name a well-formed spec starts with, its options unread (cheap: no evaluation).

    >>> spec_name("pimc(reading=8)")
    'pimc'
    """
    match = _SPEC.match(text)
    if match is None:
        raise ValueError(f"not a bot spec: {_quote(text)} (write a name, or name(option=value, ...))")
    return match.group(1)


def parse_bot_spec(text: str, *, allow_oracle: bool = False) -> BotSpec:
    """Parse ``name`` or ``name(key=value, ...)``; the name may be a difficulty level, which
    stands for the spec this installation plays at that level
    (:func:`~sequence_game.bots.level_spec`), its options overridden by those written after it.
    Raises :class:`ValueError` naming what is wrong (unknown bot, unknown option, a bad value).

    ``oracle=True`` (a search that is given the true state, for measurement) is refused unless
    the caller opts in with ``allow_oracle``: only the tournament and tests do, so a table with
    people or an environment cannot seat a bot that sees the hidden cards.
    """
    from . import BOTS, LEVELS, level_spec

    match = _SPEC.match(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"not a bot spec: {_quote(text)} (write a name, or name(option=value, ...))")
    key = match.group(1).lower()
    typed = _keywords(key, match.group(2), text)
    label = _text(key, typed)
    written: list[tuple[str, ast.expr]] = []
    if key in LEVELS:
        level = _SPEC.match(level_spec(key))
        assert level is not None
        key = level.group(1)
        written = _keywords(key, level.group(2), text)
    if key not in BOTS:
        raise ValueError(
            f"unknown bot or level {match.group(1)!r}; choose from {', '.join([*BOTS, *LEVELS])}"
        )
    for option, value in typed:  # the level's options, overridden
        names = [o for o, _ in written]
        at = names.index(option) if option in names else len(written)
        written[at : at + 1] = [(option, value)]
    if not written:
        return BotSpec(key, label=label, spec=_text(key, written))
    params = _settable(BOTS[key])
    options: dict[str, Any] = {}
    for option, node in written:
        if not params:
            raise ValueError(f"{key} takes no options")
        if option not in params:
            raise ValueError(f"{key} has no option {option!r}; its options: {', '.join(params)}")
        try:
            value = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            raise ValueError(f"{key}: {option} must be a literal value (a number, a tuple, ...)") from None
        options[option] = _check(key, option, value, params[option])
    if options.get("oracle") and not allow_oracle:
        raise ValueError(
            f"{key}(oracle=True) sees every hand and the draw order: it is a measurement tool for "
            "`sequence tournament` only, refused here"
        )
    return BotSpec(key, options, label, _text(key, written))


def _text(name: str, options: list[tuple[str, ast.expr]]) -> str:
    """A spec as canonical text: the name alone, or ``name(key=value, ...)``."""
    if not options:
        return name
    return f"{name}({', '.join(f'{option}={ast.unparse(node)}' for option, node in options)})"


def _keywords(name: str, inner: str | None, text: str) -> list[tuple[str, ast.expr]]:
    """The ``key=value`` options inside a spec's parentheses, in order, values unevaluated."""
    if inner is None or not inner.strip():
        return []
    try:
        call = ast.parse(f"f({inner})", mode="eval").body
    except (SyntaxError, RecursionError, MemoryError):
        raise ValueError(f"cannot read the options of {_quote(text)}") from None
    if not isinstance(call, ast.Call) or call.args or any(k.arg is None for k in call.keywords):
        raise ValueError(f"options are written key=value: {_quote(text)}")
    out: list[tuple[str, ast.expr]] = []
    for keyword in call.keywords:
        assert keyword.arg is not None
        if any(option == keyword.arg for option, _ in out):
            raise ValueError(f"{name}: {keyword.arg} is given twice")
        out.append((keyword.arg, keyword.value))
    return out


def _settable(factory: Callable[..., Any]) -> dict[str, inspect.Parameter]:
    """The constructor's keyword options a spec may set, in their declared order."""
    out: dict[str, inspect.Parameter] = {}
    for p in inspect.signature(factory).parameters.values():
        if p.name == "seed" or p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            continue
        d = p.default
        if isinstance(d, (bool, int, float, str, Weights)) or (isinstance(d, tuple) and _numbers(d)):
            out[p.name] = p
    return out


def _numbers(value: object) -> bool:
    return isinstance(value, (tuple, list)) and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in value
    )


def _check(name: str, option: str, value: Any, param: inspect.Parameter) -> Any:
    """``value`` converted to the default's type, or a ValueError saying what was expected (a
    spec is text from a command line, so a wrong type is a wrong value, as in ``argparse``)."""
    default = param.default
    where = f"{name}: {option}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{where} must be True or False, not {value!r}")  # noqa: TRY004
        return value
    if isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{where} must be a whole number, not {value!r}")  # noqa: TRY004
        return value
    if isinstance(default, float):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ValueError(f"{where} must be a number, not {value!r}")  # noqa: TRY004
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise ValueError(f"{where} must be a quoted word, not {value!r}")  # noqa: TRY004
        return value
    if isinstance(default, tuple):
        if value is None and "None" in str(param.annotation):
            return None
        if not _numbers(value) or len(value) != len(default):
            raise ValueError(f"{where} must be {len(default)} numbers, like {default!r}, not {value!r}")
        return tuple(float(x) for x in value)
    assert isinstance(default, Weights)
    names = [f.name for f in fields(Weights)]
    if not isinstance(value, dict) or any(k not in names for k in value):
        raise ValueError(f"{where} must be a dict with some of the keys {', '.join(names)}, not {value!r}")
    changes: dict[str, Any] = {}
    for key, v in value.items():
        current = getattr(default, key)
        if isinstance(current, tuple):
            if not _numbers(v) or len(v) != len(current):
                raise ValueError(f"{where}: {key} must be {len(current)} numbers, like {current!r}")
            changes[key] = tuple(float(x) for x in v)
        else:
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                raise ValueError(f"{where}: {key} must be a number, not {v!r}")  # noqa: TRY004
            changes[key] = float(v)
    return replace(default, **changes)


def _quote(text: object) -> str:
    """A spec as quoted in an error message, cut short when long."""
    shown = repr(text.strip() if isinstance(text, str) else text)
    return shown if len(shown) <= 80 else shown[:77] + "..."
