"""Bot tournaments: every pair of bots plays paired deals with the seats rotated.

For a pair (A, B) each side of the table is played by one bot (every seat of a side by its own
instance, which sees only its own seat's view: team mates share nothing but the board, R6.1).
A *group* of games replays one deal (same deck, seat 0 starts) under every assignment of the two
bots to the sides: with two sides A-B and B-A; with three sides the cyclic shifts of A-B-A and
B-A-B. So each bot plays every seat and every side equally often on the same cards.

Games run in worker processes (standard library ``multiprocessing``), or on Ray. Each game is
seeded from the tournament seed, so the results do not depend on the number of workers, except
for bots limited by time rather than simulations.

>>> specs = schedule(["random", "greedy"], GameConfig(players=2), games_per_pair=2, seed=1)
>>> [spec.bots for spec in specs]
[('random', 'greedy'), ('greedy', 'random')]
>>> summary = summarize(specs, [play_game(s) for s in specs], ["random", "greedy"])
>>> summary["pairs"][0]["games"]
2
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from ..actions import DRAW
from ..config import GameConfig
from ..i18n import _
from .base import Limit, reveal_truth
from .ratings import bradley_terry, wilson_interval

if TYPE_CHECKING:
    from .specs import BotSpec


@dataclass(frozen=True)
class GameSpec:
    """One game of a tournament: who sits where, which deal, what budget."""

    index: int
    config: GameConfig
    bots: tuple[str, ...]
    """The bot of each seat."""
    pair: tuple[str, str]
    deal_seed: int
    bot_seeds: tuple[int, ...]
    seconds: float | None = None
    simulations: int | None = None
    max_turns: int = 2000
    record: bool = False


@dataclass(frozen=True)
class GameResult:
    """What a game came to; ``winner`` is a bot name, ``None`` for a drawn or truncated game."""

    index: int
    winner: str | None
    winner_side: int | None
    turns: int
    truncated: bool
    move_times: dict[str, tuple[int, float]]
    """Per bot: moves chosen and seconds spent choosing them."""
    record: str | None = None


def side_patterns(sides: int) -> list[tuple[int, ...]]:
    """Which bot of a pair (0 or 1) plays each side, for every game of a deal group."""
    out: list[tuple[int, ...]] = []
    for first in (0, 1):
        base = tuple((first + k) % 2 for k in range(sides))
        for shift in range(sides):
            pattern = base[shift:] + base[:shift]
            if pattern not in out:
                out.append(pattern)
    return out


def seat_labels(bots: Sequence[str]) -> list[str]:
    """The names a tournament reports: a bot named more than once (a mirror match, the baseline
    for seat and luck effects) is told apart by a number, ``hard#1`` and ``hard#2``.

    >>> seat_labels(["hard", "greedy", "hard"])
    ['hard#1', 'greedy', 'hard#2']
    """
    counts = {name: bots.count(name) for name in bots}
    seen: dict[str, int] = {}
    labels = []
    for name in bots:
        seen[name] = seen.get(name, 0) + 1
        labels.append(f"{name}#{seen[name]}" if counts[name] > 1 else name)
    return labels


def bot_of_label(label: str) -> str:
    """The bot a :func:`seat_labels` label names (``hard#2`` -> ``hard``)."""
    base, mark, number = label.rpartition("#")
    return base if mark and number.isdigit() else label


def schedule(
    bots: Sequence[str],
    config: GameConfig,
    games_per_pair: int,
    *,
    seed: int = 0,
    seconds: float | None = None,
    simulations: int | None = None,
    max_turns: int = 2000,
    record: bool = False,
) -> list[GameSpec]:
    """Every pair of ``bots`` plays ``games_per_pair`` games (rounded up to whole deal groups)."""
    if len(bots) < 2:
        raise ValueError(_("a tournament needs at least two bots"))
    bots = seat_labels(bots)
    if games_per_pair < 1:
        raise ValueError(_("--games must be at least 1"))
    patterns = side_patterns(config.sides)
    groups = -(-games_per_pair // len(patterns))
    specs: list[GameSpec] = []
    for i, a in enumerate(bots):
        for b in bots[i + 1 :]:
            pair = (a, b)
            for g in range(groups):
                for pattern in patterns:
                    index = len(specs)
                    seats = tuple(pair[pattern[seat % config.sides]] for seat in range(config.players))
                    specs.append(
                        GameSpec(
                            index=index,
                            config=config,
                            bots=seats,
                            pair=pair,
                            deal_seed=seed * 1_000_003 + g,
                            bot_seeds=tuple(seed * 7_919 + index * 101 + s for s in range(config.players)),
                            seconds=seconds,
                            simulations=simulations,
                            max_turns=max_turns,
                            record=record,
                        )
                    )
    return specs


def next_actor(state: Any) -> int:
    """The seat the table asks next: a seat owing a draw (R5.3) before the seat to play."""
    seats = state.seats_to_act()
    for seat in seats[1:]:
        if state.owes_draw(seat):
            return int(seat)
    return int(seats[0])


def play_game(spec: GameSpec) -> GameResult:
    """Play one game between bots that see only their own views."""
    from ..records import dumps
    from ..state import new_game
    from . import make_bot

    players = spec.config.players
    state = new_game(spec.config, seed=spec.deal_seed, dealer=players - 1)
    seat_bots = [
        make_bot(bot_of_label(name), seed, allow_oracle=True)
        for name, seed in zip(spec.bots, spec.bot_seeds, strict=True)
    ]
    limit = Limit(seconds=spec.seconds, simulations=spec.simulations)
    times: dict[str, list[float]] = {name: [0, 0.0] for name in spec.pair}
    while not state.is_terminal() and state.turn < spec.max_turns:
        seat = next_actor(state)
        view = state.view(seat)
        reveal_truth(seat_bots[seat], state)  # oracle mode only: a measurement tool (docs/bots.md)
        start = time.perf_counter()
        action = seat_bots[seat].select_action(view, limit)
        spent = time.perf_counter() - start
        if action != DRAW:
            entry = times[spec.bots[seat]]
            entry[0] += 1
            entry[1] += spent
        state.apply(action, seat)
    outcome = state.outcome()
    side = outcome.winner if outcome is not None else None
    return GameResult(
        index=spec.index,
        winner=None if side is None else spec.bots[side],
        winner_side=side,
        turns=state.turn,
        truncated=outcome is None,
        move_times={k: (int(v[0]), v[1]) for k, v in times.items()},
        record=dumps(state) if spec.record else None,
    )


def run_games(
    specs: Sequence[GameSpec],
    workers: int = 1,
    backend: str = "process",
    progress: Callable[[int, int], None] | None = None,
) -> list[GameResult]:
    """Play every game, in order of ``index`` in the answer, whatever order they finish in."""
    results: list[GameResult] = []
    for done, result in enumerate(iter_results(specs, workers, backend), start=1):
        results.append(result)
        if progress is not None:
            progress(done, len(specs))
    return sorted(results, key=lambda r: r.index)


def iter_results(
    specs: Sequence[GameSpec], workers: int = 1, backend: str = "process"
) -> Generator[GameResult, None, None]:
    """The games' results as they finish, so a caller can save each one at once and stop early
    (closing the iterator stops the workers)."""
    if backend == "ray":
        yield from _ray_results(specs)
    elif workers <= 1 or len(specs) <= 1:
        for spec in specs:
            yield play_game(spec)
    else:
        import multiprocessing

        context = multiprocessing.get_context()
        with context.Pool(min(workers, len(specs)), initializer=_ignore_interrupts) as pool:
            yield from pool.imap_unordered(play_game, specs, chunksize=1)


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them and keeps the finished games."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ray_results(specs: Sequence[GameSpec]) -> Iterator[GameResult]:
    try:
        import ray  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise RuntimeError(
            _("--backend ray needs Ray: pip install 'sequence-game[ray]' (or use the default backend)")
        ) from None
    ray.init(ignore_reinit_error=True, log_to_driver=False)
    remote = ray.remote(play_game)
    pending = [remote.remote(spec) for spec in specs]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            yield ray.get(ref)


def summarize(
    specs: Sequence[GameSpec], results: Iterable[GameResult], bots: Sequence[str]
) -> dict[str, Any]:
    """Per pair: games, wins, draws, win rates with 95% Wilson intervals; ratings; time per move."""
    by_index = {spec.index: spec for spec in specs}
    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    moves: dict[str, list[float]] = {name: [0, 0.0] for name in bots}
    turns = 0
    truncated = 0
    count = 0
    for result in results:
        spec = by_index[result.index]
        a, b = spec.pair
        entry = pairs.setdefault(spec.pair, {"games": 0, "wins": {a: 0, b: 0}, "draws": 0})
        entry["games"] += 1
        if result.winner is None:
            entry["draws"] += 1
        else:
            entry["wins"][result.winner] += 1
        for name, (n, seconds) in result.move_times.items():
            moves[name][0] += n
            moves[name][1] += seconds
        turns += result.turns
        truncated += result.truncated
        count += 1
    out_pairs = []
    scores: dict[tuple[str, str], tuple[float, float]] = {}
    for (a, b), entry in pairs.items():
        games = entry["games"]
        wins = entry["wins"]
        draws = entry["draws"]
        entry["bots"] = [a, b]
        entry["win_rate"] = {name: wins[name] / games for name in (a, b)}
        entry["ci95"] = {name: list(wilson_interval(wins[name], games)) for name in (a, b)}
        out_pairs.append({k: entry[k] for k in ("bots", "games", "wins", "draws", "win_rate", "ci95")})
        scores[(a, b)] = (wins[a] + draws / 2, wins[b] + draws / 2)
    return {
        "games": count,
        "pairs": out_pairs,
        "ratings": bradley_terry(list(bots), scores),
        "ms_per_move": {name: (1000 * s / n if n else 0.0) for name, (n, s) in moves.items()},
        "oracle": [name for name in bots if _is_oracle(name)],
        "specs": {name: _plays(name) for name in bots},
        "turns_per_game": turns / count if count else 0.0,
        "truncated": truncated,
    }


def _parsed(label: str) -> BotSpec | None:
    """The spec a tournament's bot label names, or ``None`` if it does not parse."""
    from .specs import parse_bot_spec

    try:
        return parse_bot_spec(bot_of_label(label), allow_oracle=True)
    except ValueError:
        return None


def _plays(label: str) -> str:
    """The whole spec a tournament's bot label plays (a level's options included), so that a
    table naming ``expert`` still says exactly which bot that was on this installation."""
    spec = _parsed(label)
    return spec.spec if spec is not None else bot_of_label(label)


def _is_oracle(label: str) -> bool:
    """Whether a tournament's bot label names a bot in oracle mode (it sees the true state)."""
    spec = _parsed(label)
    return spec is not None and spec.oracle


def _score_text(score: dict[str, Any]) -> str:
    """A score in percent with its 95% interval where it has one."""
    interval = score["ci95"]
    return f"{100 * score['mean']:5.1f}%" + (
        f" [{100 * interval[0]:5.1f}, {100 * interval[1]:5.1f}]" if interval else ""
    )


def format_table(summary: dict[str, Any]) -> str:
    """The human-readable table of ``sequence tournament``, in the chosen language (docs/i18n.md):
    the words are messages, the numbers the same in every language; columns widen to the words."""
    heads = [_("pair"), _("games"), _("wins"), _("draws"), _("win rate (95% CI) of the first")]
    rows = []
    for p in summary["pairs"]:
        a, b = p["bots"]
        lo, hi = p["ci95"][a]
        wins = f"{p['wins'][a]}-{p['wins'][b]}"
        rate = f"{100 * p['win_rate'][a]:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]"
        rows.append([_("{a} vs {b}").format(a=a, b=b), str(p["games"]), wins, str(p["draws"]), rate])
    least = (24, 6, 11, 6, 32)
    widths = [max(least[i], *(len(row[i]) for row in [heads, *rows])) for i in range(len(heads))]
    lines = [
        " ".join(row[i].ljust(w) if i == 0 else row[i].rjust(w) for i, w in enumerate(widths))
        for row in [heads, *rows]
    ]
    adjusted = [p for p in summary["pairs"] if "luck_adjusted" in p]
    if adjusted:
        lines.append("")
        lines.append(_("luck-adjusted score of the first (95% CI): the result less the luck of the draws"))
        weighted = any(p["luck_adjusted"].get("weighted") for p in adjusted)
        if weighted:
            lines.append(
                _(
                    "(2 players, second figure: each game weighed by how surely the analysis judged it, "
                    "the sharper test of who is stronger)"
                )
            )
        for p in adjusted:
            a, b = p["bots"]
            scores = [p["luck_adjusted"], p["luck_adjusted"].get("weighted")]
            shown = "   ".join(_score_text(score) for score in scores if score)
            lines.append(f"  {_('{a} vs {b}').format(a=a, b=b):<{widths[0]}} {shown}")
    lines.append("")
    rating_head, time_head = _("rating (Bradley-Terry, Elo scale, mean 1500)"), _("time per move")
    name_width = max(14, *(len(name) for name in summary["ratings"]))
    heading = f"{rating_head:<{max(46, name_width + 10)}} {time_head}"
    lines.append(heading)
    for name, rating in sorted(summary["ratings"].items(), key=lambda kv: -kv[1]):
        ms = _("{ms} ms").format(ms=f"{summary['ms_per_move'][name]:8.2f}")
        lines.append(f"  {name:<{name_width}} {rating:7.0f}{ms:>{len(heading) - 11 - name_width}}")
    lines.append(
        _("{games} games, {turns} turns a game, {truncated} stopped at the turn limit").format(
            games=summary["games"], turns=f"{summary['turns_per_game']:.1f}", truncated=summary["truncated"]
        )
    )
    lines.extend(
        _("ORACLE: {name} saw the true state (every hand, the draw order): a measurement only").format(
            name=name
        )
        for name in summary.get("oracle", [])
    )
    plays = {bot_of_label(name): spec for name, spec in summary.get("specs", {}).items()}
    lines.extend(
        _("{name} plays {spec}").format(name=name, spec=spec) for name, spec in plays.items() if spec != name
    )
    return "\n".join(lines)


class ProgressBar:
    """A one-line progress bar on a stream (stderr); only whole-percent steps when not a terminal."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.start = time.perf_counter()
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        tty = getattr(self.stream, "isatty", lambda: False)()
        step = done * 10 // total
        if not tty and step == self.shown and done != total:
            return
        self.shown = step
        filled = self.width * done // total
        elapsed = time.perf_counter() - self.start
        eta = elapsed / done * (total - done)
        bar = "#" * filled + "." * (self.width - filled)
        text = f"[{bar}] " + _("{done}/{total} games, {elapsed} s, {eta} s to go").format(
            done=done, total=total, elapsed=f"{elapsed:.0f}", eta=f"{eta:.0f}"
        )
        self.stream.write(("\r" + text) if tty else text + "\n")
        if tty and done == total:
            self.stream.write("\n")
        self.stream.flush()
