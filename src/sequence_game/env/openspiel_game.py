"""Sequence as an OpenSpiel Python game, ``pyspiel.load_game("python_sequence")``.

Importing this module registers the game (as ``open_spiel.python.games`` do); it needs the
``openspiel`` extra. The rules stay in the engine: a player's action is ``GameState.apply`` with the
project's action ids, returns are ``GameState.returns`` (R7), tensors are the environments' planes
(:func:`sequence_game.features.planes.encode`). Only the randomness moves out of the engine into
chance nodes, so that search and CFR-style algorithms see it:

- **The deal** (R4.2): one chance node per card dealt, in the engine's dealing order. The dealer is
  the last seat, so seat 0 plays first (R4.3); the cut for the deal (R4.1) is not modelled.
- **Every draw** (R5.1, R5.3, R5.4): the engine plays the action and draws as the rules say
  (reshuffling the discards when the pile is empty); the drawn card goes back on the pile and a
  chance node picks which card it is, uniformly over the cards in the pile. The pile's order is
  therefore never part of a state: every card's identity is decided when it is drawn.

Manual draws (R5.3) are refused, as in every environment (several seats may act at once there).
The rules set no bound on a game's length, OpenSpiel needs one: at ``max_turns`` turns the game
stops as a draw (0 for everyone), as the environments truncate.

>>> import pyspiel
>>> game = pyspiel.load_game("python_sequence", {"players": 4})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), game.num_players()
(True, 52, 4)
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np

from ..actions import NUM_ACTIONS, action_name, action_name_for
from ..cards import DECK_SIZE, FULL_DECK, NUM_CARDS, Card, card_code
from ..config import GameConfig
from ..features.planes import DEFAULT_MAX_TURNS, OBS_SHAPE, encode
from ..notation import board_text
from ..state import GameState
from ..state.deal import deal_hands
from ..worlds import sample_world
from .table import check_max_turns, env_config

try:
    import pyspiel  # type: ignore[import-not-found]
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        "sequence_game.env.openspiel_game needs OpenSpiel: pip install 'sequence-game[openspiel]'"
    ) from exc

__all__ = ["GAME_NAME", "RolloutEvaluator", "SequenceGame", "SequenceState", "resampler"]

GAME_NAME: Final = "python_sequence"
_PARAMS: Final[dict[str, Any]] = {"players": 2, "teams": 0, "draw": "auto", "max_turns": DEFAULT_MAX_TURNS}
_GOT: Final = -1  # a log entry's action for a card received (dealt or drawn)


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python Sequence",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=12,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMS,
    )


class _Table:
    """Everything a state holds, in one object so that ``clone`` copies the engine its own
    (fast) way instead of ``deepcopy`` walking it."""

    __slots__ = ("config", "dealt", "engine", "log", "max_turns", "pending", "receivers")

    def __init__(self, config: GameConfig, max_turns: int, receivers: tuple[int, ...]) -> None:
        self.config = config
        self.max_turns = max_turns
        self.receivers = receivers  # the seat that gets the i-th card dealt
        self.dealt: list[Card] = []
        self.engine: GameState | None = None  # built once the deal is complete
        self.pending = -1  # the seat whose draw a chance node will decide
        # (seat, action, card) per action, (seat, _GOT, card) per card received: the history as
        # the seats saw it, for the information-state strings
        self.log: list[tuple[int, int, Card]] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        new = _Table(self.config, self.max_turns, self.receivers)
        new.dealt = self.dealt[:]
        new.engine = None if self.engine is None else self.engine.copy()
        new.pending = self.pending
        new.log = self.log[:]
        return new


class SequenceGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one table: ``players``, ``teams`` (0: the table's default), ``draw``
    (``"auto"`` only) and ``max_turns`` (the cut-off, a draw)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_PARAMS, **(params or {})}
        self.config = env_config(int(given["players"]), int(given["teams"]) or None, str(given["draw"]))
        self.max_turns = check_max_turns(int(given["max_turns"]))
        n, two_sides = self.config.players, self.config.sides == 2
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if two_sides else None,  # three sides: +1 for one, -1 for two (R7.1)
            max_game_length=2 * self.max_turns,  # a dead-card exchange and a play per turn (R5.1)
        )
        utility = pyspiel.GameType.Utility.ZERO_SUM if two_sides else pyspiel.GameType.Utility.GENERAL_SUM
        super().__init__(_game_type(utility), info, given)
        hands, _, first = deal_hands(range(DECK_SIZE), n - 1, n, self.config.hand_size)
        assert first == 0
        order = sorted((i, seat) for seat, hand in enumerate(hands) for i in hand)
        self.receivers = tuple(seat for _, seat in order)

    def new_initial_state(self) -> SequenceState:
        return SequenceState(self)

    def max_chance_nodes_in_history(self) -> int:
        return len(self.receivers) + 2 * self.max_turns

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if not isinstance(iig_obs_type, pyspiel.IIGObservationType):  # OpenSpiel may pass params only
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("python_sequence observes as one seat does: its own hand and the public")
        return _Observer(bool(iig_obs_type.perfect_recall), self.max_turns)


class SequenceState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's ``GameState`` plus the deal so far and a pending draw."""

    def __init__(self, game: SequenceGame) -> None:
        super().__init__(game)
        self._t = _Table(game.config, game.max_turns, game.receivers)

    @property
    def game_state(self) -> GameState | None:
        """The engine's state, hidden cards included (``None`` during the deal)."""
        return self._t.engine

    def current_player(self) -> int:
        t = self._t
        if t.engine is None or t.pending >= 0:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return t.engine.current_seat

    def is_terminal(self) -> bool:
        engine = self._t.engine
        return engine is not None and (engine.is_terminal() or engine.turn >= self._t.max_turns)

    def returns(self) -> list[float]:
        engine = self._t.engine
        if engine is None or not engine.is_terminal():
            return [0.0] * self._t.config.players  # under way, or cut off at max_turns
        return engine.returns()

    def _legal_actions(self, player: int) -> list[int]:
        assert self._t.engine is not None
        return self._t.engine.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Which card comes next: uniform over the cards left to deal, or in the draw pile."""
        t = self._t
        if t.engine is None:
            left = Counter(FULL_DECK)
            left.subtract(t.dealt)
        else:
            left = Counter(t.engine._deck)
        total = left.total()
        return [(card, count / total) for card, count in sorted(left.items()) if count > 0]

    def _apply_action(self, action: int) -> None:
        t = self._t
        if t.engine is None:
            t.log.append((t.receivers[len(t.dealt)], _GOT, action))
            t.dealt.append(action)
            if len(t.dealt) == len(t.receivers):
                rest = Counter(FULL_DECK)
                rest.subtract(t.dealt)
                deck = t.dealt + sorted(rest.elements())  # the pile's order is never used
                t.engine = GameState(t.config, deck, t.config.players - 1)
            return
        engine = t.engine
        if t.pending >= 0:  # the draw: take the chosen card out of the pile
            engine._deck.remove(action)
            engine._hands[t.pending].append(action)
            t.log.append((t.pending, _GOT, action))
            t.pending = -1
            return
        seat = engine.current_seat
        held, at = len(engine._hands[seat]), len(engine._history)
        engine.apply(action)
        t.log.append((seat, action, engine._history[at][2]))
        # Every action spends one card; a hand as long as before has drawn (auto draws, R5.3).
        if len(engine._hands[seat]) == held and not self.is_terminal():
            engine._deck.append(engine._hands[seat].pop())  # undrawn: chance picks the card
            t.pending = seat

    def _action_to_string(self, player: int, action: int) -> str:
        t = self._t
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'draw' if t.engine is not None else 'deal'} {card_code(action)}"
        if t.engine is None:
            return action_name(action)
        return action_name_for(action, t.engine.hand(player))

    def __str__(self) -> str:
        t = self._t
        if t.engine is None:
            return f"dealing: {' '.join(card_code(c) for c in t.dealt)}"
        e = t.engine
        hands = " | ".join(" ".join(card_code(c) for c in e.hand(s)) for s in range(e.players))
        piles = " | ".join(" ".join(card_code(c) for c in e.discard_pile(s)) for s in range(e.players))
        return (
            f"{board_text(e)}\nhands: {hands}\ndiscards: {piles}\npile: {e.deck_size}, "
            f"reshuffles: {e._reshuffles}, turn: {e.turn}, to act: {e.current_seat}, "
            f"draw pending: {t.pending}, sequences: {e.sequence_counts()}"
        )

    def _info_state(self, player: int) -> str:
        """Everything ``player`` has seen, in order: every action with its card (all public) and
        the cards it received; the others' draws show as ``+?``."""
        parts = [f"seat {player}"]
        log = self._t.log
        parts += [_token(s, a, c if s == player or a != _GOT else -1) for s, a, c in log]
        return " ".join(parts)

    def _observation(self, player: int) -> str:
        """What ``player`` sees now: the board, its hand and the public counts and piles."""
        t = self._t
        e = t.engine
        if e is None:
            mine = [c for i, c in enumerate(t.dealt) if t.receivers[i] == player]
            return f"seat {player}, dealing {len(t.dealt)}/{len(t.receivers)}, hand {' '.join(map(card_code, mine))}"
        piles = " | ".join(" ".join(card_code(c) for c in e.discard_pile(s)) for s in range(e.players))
        return (
            f"seat {player}\n{board_text(e)}\nhand: {' '.join(card_code(c) for c in e.hand(player))}\n"
            f"hand sizes: {e.hand_sizes()}, pile: {e.deck_size}, discards: {piles}\n"
            f"turn {e.turn}, to act: {self.current_player()}, sequences: {e.sequence_counts()}"
        )

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> SequenceState:
        """A state ``player_id`` cannot tell from this one, the others' hands and the pile dealt
        at random (``worlds.sample_world``); for ``open_spiel.python.algorithms.ismcts``.

        The others' past cards in the log are re-dealt to fit their new hands (each card played
        after it was received; reshuffles are not taken into account), and ``history()`` stays
        this state's, which OpenSpiel keeps in C++.
        """
        t = self._t
        if t.engine is None or t.pending >= 0:
            raise ValueError("resample at a decision node (after the deal, no draw pending)")
        seed = int(probability_sampler() * 2**52) if callable(probability_sampler) else None
        world = sample_world(t.engine.view(player_id), random.Random(seed))
        new = self.clone()
        new._t.engine = world
        new._t.log = _redeal(t.log, world, player_id)
        return new  # type: ignore[no-any-return]


@functools.cache
def _token(seat: int, action: int, card: Card) -> str:
    """A log entry as text (cached: information-state strings are asked for at every search node)."""
    if action == _GOT:
        return f"{seat}+{card_code(card) if card >= 0 else '?'}"
    return f"{seat}:{action_name_for(action, (card,)).replace(' ', '-')}"


def _redeal(log: Sequence[tuple[int, int, Card]], world: GameState, keep: int) -> list[tuple[int, int, Card]]:
    """``log`` with the cards the other seats received replaced, so that each card they played
    was received earlier and the ones left are ``world``'s hands."""
    out = list(log)
    slots: dict[int, list[int]] = {}
    for i, (seat, action, card) in enumerate(log):
        if seat == keep:
            continue
        if action == _GOT:
            slots.setdefault(seat, []).append(i)
        else:
            out[slots[seat].pop(0)] = (seat, _GOT, card)
    for seat, open_slots in slots.items():
        for i, card in zip(open_slots, world.hand(seat), strict=True):
            out[i] = (seat, _GOT, card)
    return out


class _Observer:
    """OpenSpiel's PyObserver: the tensor is the environments' planes for the seat (the same for
    the information state and the observation: the planes hold what the seat knows now, with a
    short public history); the strings differ (the information state is the whole history)."""

    def __init__(self, perfect_recall: bool, max_turns: int) -> None:
        self.perfect_recall = perfect_recall
        self.max_turns = max_turns
        self.tensor = np.zeros(int(np.prod(OBS_SHAPE)), np.float32)
        self.dict = {"planes": self.tensor.reshape(OBS_SHAPE)}

    def set_from(self, state: SequenceState, player: int) -> None:
        engine = state._t.engine
        if engine is None:
            self.tensor.fill(0.0)  # nothing to see before the deal ends (no one acts then)
        else:
            self.dict["planes"][...] = encode(engine, player, self.max_turns)[0]

    def string_from(self, state: SequenceState, player: int) -> str:
        return state._info_state(player) if self.perfect_recall else state._observation(player)


class RolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS: the engine's own random playouts (dead
    cards exchanged), the draw pile shuffled first; uniform priors. OpenSpiel's
    ``RandomRolloutEvaluator`` does the same through the Python game API, about 30 times slower
    (9.7 ms against 0.33 ms a two-player rollout from the first move, on the development machine)."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self.rng = random.Random(seed)

    def evaluate(self, state: SequenceState) -> np.ndarray:
        if state.is_chance_node():  # ISMCTS asks at decision nodes; anyone else: finish the draw
            state = state.clone()
            while state.is_chance_node():
                cards, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(self.rng.choices(cards, probs)[0])
        engine, t = state._t.engine, state._t
        assert engine is not None
        total = np.zeros(t.config.players)
        for _ in range(self.n_rollouts):
            world = engine.copy()
            self.rng.shuffle(world._deck)
            if world.playout(self.rng, t.max_turns) is not None:
                total += world.returns()
        return total / self.n_rollouts

    def prior(self, state: SequenceState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def resampler(seed: int | None = None) -> Callable[[SequenceState, int], SequenceState]:
    """A seeded ``ISMCTSBot.set_resampler`` callback (the default sampler is seeded by the clock)."""
    rng = random.Random(seed)
    return lambda state, player: state.resample_from_infostate(player, rng.random)


pyspiel.register_game(_game_type(pyspiel.GameType.Utility.GENERAL_SUM), SequenceGame)
