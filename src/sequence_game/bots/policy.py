"""A small trained policy network as a bot: numpy inference, no torch needed to play.

The network is the one ``examples/train_masked_policy.py`` trains: the observation planes
(:mod:`sequence_game.features.planes`) plus :func:`line_features` and the mask's three per-cell legality planes
(:func:`policy_input`), a few 3x3 convolutions, then per-cell logits for
the 300 board actions (place, two-eyed jack, one-eyed jack) and a linear head on the board's
mean features for the 105 card actions; illegal actions are masked out and the bot plays the most
likely legal action. The weights are a ``.npz`` file of the trained PyTorch ``state_dict``
(``POLICY_WEIGHTS`` ships one trained for two players by DAgger with the ``heuristic`` bot as
teacher, 54% against ``greedy`` in ``docs/environment.md``; it plays any table, with less skill).

>>> from sequence_game import GameConfig, new_game
>>> state = new_game(GameConfig(players=2), seed=4)
>>> bot = PolicyBot()
>>> bot.select_action(state.view(state.current_seat)) in state.legal_actions()
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import numpy as np

from ..actions import DRAW, NUM_ACTIONS
from ..board import NUM_CELLS, SIZE, WINDOW_CELLS
from ..features.planes import NUM_PLANES, PLANES, encode_view
from ..views import PlayerView
from .base import Limit

#: The weights shipped with the package (trained by ``examples/train_masked_policy.py``).
POLICY_WEIGHTS: Final = Path(__file__).with_name("policy_weights.npz")

LINE_LEVELS: Final = 5  # open windows holding 0..4 of a side's chips (5 is a sequence)
LINE_PLANES: Final = tuple(f"{who}_open_{k}" for who in ("own", "other") for k in range(LINE_LEVELS))
MASK_PLANES: Final = ("can_place", "can_place_wild", "can_remove")  # the mask's cell actions
INPUT_PLANES: Final = NUM_PLANES + len(LINE_PLANES) + len(MASK_PLANES)
WITHOUT_MASK_PLANES: Final = NUM_PLANES + len(LINE_PLANES)  # the input of earlier weights
CELL_ACTIONS: Final = 3 * NUM_CELLS  # ids 0-299, kind-major then cell (see ``actions``)

_WINDOWS: Final = np.array(WINDOW_CELLS, dtype=np.intp)  # (192, 5)
_THROUGH: Final = np.zeros((len(WINDOW_CELLS), NUM_CELLS), dtype=np.float32)
_THROUGH[np.arange(len(WINDOW_CELLS)).repeat(5), _WINDOWS.reshape(-1)] = 1.0
_OWN, _NEXT, _THIRD, _CORNERS = (
    PLANES.index(p) for p in ("own_chips", "next_side_chips", "third_side_chips", "corners")
)


def line_features(obs: np.ndarray) -> np.ndarray:
    """``(N, 10, 10, NUM_PLANES)`` planes -> ``(N, 10, 10, 10)`` line planes, the heart of the
    game (R3.4: five in a row, a free corner counting for every side).

    Plane ``own_open_k`` counts the windows of five through the cell that hold no other side's
    chip and ``k`` of the observer's side's chips or corners, / 4; ``other_open_k`` the same for
    the other sides taken together (chips of any other side, no chip of the observer's side).
    A convolution sees only its neighbourhood; these give every cell the whole of its lines.
    """
    n = obs.shape[0]
    flat = obs.reshape(n, NUM_CELLS, NUM_PLANES)
    corners = flat[:, :, _CORNERS]
    mine = flat[:, :, _OWN]
    theirs = flat[:, :, _NEXT] + flat[:, :, _THIRD]
    out = np.empty((n, 2 * LINE_LEVELS, NUM_CELLS), dtype=np.float32)
    for who, (side, blockers) in enumerate(((mine, theirs), (theirs, mine))):
        held = (side + corners)[:, _WINDOWS].sum(axis=2)  # (N, windows)
        open_ = blockers[:, _WINDOWS].sum(axis=2) == 0
        counts = np.arange(LINE_LEVELS, dtype=np.float32)[None, :, None]
        levels = (held[:, None, :] == counts) & open_[:, None]
        out[:, who * LINE_LEVELS : (who + 1) * LINE_LEVELS] = levels.astype(np.float32) @ _THROUGH
    out *= 0.25
    return out.transpose(0, 2, 1).reshape(n, SIZE, SIZE, 2 * LINE_LEVELS)


def policy_input(obs: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The network's input: the planes, the line planes, then (given ``mask``) the mask's cell
    actions as three planes (``INPUT_PLANES`` channels; ``WITHOUT_MASK_PLANES`` without it).

    A convolution cannot read the flat mask; as planes, each cell sees whether this seat can
    place a chip there (a card of the hand, or a two-eyed jack) or remove one (R5.2)."""
    parts = [obs, line_features(obs)]
    if mask is not None:
        n = obs.shape[0]
        cells = np.asarray(mask[:, :CELL_ACTIONS], dtype=np.float32).reshape(n, 3, SIZE, SIZE)
        parts.append(cells.transpose(0, 2, 3, 1))
    return np.concatenate([np.asarray(p, dtype=np.float32) for p in parts], axis=3)


def _conv3x3(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """A 'same' 3x3 convolution, channels last, with PyTorch's ``(out, in, 3, 3)`` weights."""
    n, h, w, c = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    patches = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))  # (n,h,w,c,3,3)
    out = patches.reshape(n * h * w, c * 9) @ weight.reshape(weight.shape[0], c * 9).T
    result: np.ndarray = (out + bias).reshape(n, h, w, weight.shape[0])
    return result


class PolicyNetwork:
    """The trained network's forward pass in numpy (the layout of ``MaskedPolicy`` in the example)."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.layers = sum(1 for k in weights if k.startswith("trunk.") and k.endswith(".weight"))
        expected = {f"trunk.{2 * i}.{p}" for i in range(max(self.layers, 1)) for p in ("weight", "bias")}
        expected |= {f"{head}.{p}" for head in ("cell_head", "card_head") for p in ("weight", "bias")}
        missing = expected - set(weights)
        if missing:
            raise ValueError(f"policy weights lack {sorted(missing)}")
        self.weights = {k: np.asarray(v, dtype=np.float32) for k, v in weights.items()}
        channels = self.weights[f"trunk.{2 * self.layers - 2}.weight"].shape[0]
        if self.weights["card_head.weight"].shape != (NUM_ACTIONS - CELL_ACTIONS, channels):
            raise ValueError(
                f"policy weights: card_head.weight is {self.weights['card_head.weight'].shape}, "
                f"expected {(NUM_ACTIONS - CELL_ACTIONS, channels)} (a head on the board's mean features)"
            )
        planes = self.weights["trunk.0.weight"].shape[1]
        if planes not in (INPUT_PLANES, WITHOUT_MASK_PLANES):
            raise ValueError(
                f"policy weights take {planes} input planes, "
                f"this version's input has {INPUT_PLANES} (or {WITHOUT_MASK_PLANES} without the mask planes)"
            )
        self.mask_planes = planes == INPUT_PLANES

    @classmethod
    def load(cls, path: str | Path = POLICY_WEIGHTS) -> PolicyNetwork:
        """Weights from an ``.npz`` file (keys as in the PyTorch ``state_dict``)."""
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``(N, 10, 10, NUM_PLANES)`` planes and ``(N, 405)`` masks -> masked logits ``(N, 405)``."""
        w = self.weights
        h = policy_input(obs, mask if self.mask_planes else None)
        for i in range(self.layers):
            h = np.maximum(_conv3x3(h, w[f"trunk.{2 * i}.weight"], w[f"trunk.{2 * i}.bias"]), 0.0)
        n = h.shape[0]
        cell_w = w["cell_head.weight"].reshape(3, -1)
        cells = (h.reshape(n * NUM_CELLS, -1) @ cell_w.T + w["cell_head.bias"]).reshape(n, NUM_CELLS, 3)
        cards = h.mean(axis=(1, 2)) @ w["card_head.weight"].T + w["card_head.bias"]
        logits = np.concatenate([cells.transpose(0, 2, 1).reshape(n, CELL_ACTIONS), cards], axis=1)
        return np.where(mask != 0, logits, np.float32(-1e9))


class PolicyBot:
    """Plays the network's most likely legal action (deterministic; ``seed`` is accepted for the
    bots' common constructor and unused)."""

    name = "policy"

    def __init__(self, seed: int | None = None, weights: str | Path = POLICY_WEIGHTS) -> None:
        self.network = PolicyNetwork.load(weights)

    def select_action(self, view: PlayerView, limit: Limit | None = None) -> int:
        if not view.legal_actions:
            why = "the game is over" if view.is_over else f"it is not seat {view.seat}'s turn to act"
            raise ValueError(f"R4.3: seat {view.seat} has no action to take: {why}")
        if DRAW in view.legal_actions:
            return DRAW  # R5.3: draw when owed (manual-draw mode), as every bot does
        obs, mask = encode_view(view)
        return int(np.argmax(self.network.logits(obs[None], mask[None])[0]))
