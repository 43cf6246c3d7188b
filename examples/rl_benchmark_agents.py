"""The trained examples as benchmark agents (docs/benchmark.md, "The leaderboard").

    SEQUENCE_SB3_MODEL=out/sb3/model.zip sequence benchmark python:examples.rl_benchmark_agents:sb3
    SEQUENCE_RLLIB_CHECKPOINT=out/rllib/checkpoint sequence benchmark python:examples.rl_benchmark_agents:rllib

Each seat's view is encoded as the environments encode it (``encode_view``: the planes from the
seat's side and its legal-action mask, turns scaled by 1,000 as in training), and the network's
most likely legal action is played. The model is loaded once a process.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from sequence_game.features.planes import encode_view

sys.path.insert(0, os.path.dirname(__file__))  # the example scripts beside this one
from sequence_game.views import PlayerView

Policy = Callable[[PlayerView, Sequence[int]], int]


def _path(variable: str) -> str:
    path = os.environ.get(variable)
    if not path:
        raise ValueError(f"set {variable} to the trained model's path")
    return path


@cache
def _sb3() -> Any:
    from sb3_maskable_ppo import load_policy  # type: ignore[import-not-found]

    return load_policy(_path("SEQUENCE_SB3_MODEL"))


@cache
def _rllib() -> Any:
    from rllib_selfplay import load_policy  # type: ignore[import-not-found]

    return load_policy(_path("SEQUENCE_RLLIB_CHECKPOINT"))


def _observation(view: PlayerView) -> dict[str, Any]:
    planes, mask = encode_view(view, max_turns=1000)
    return {"observation": planes, "action_mask": mask}


def sb3(seat: int, seed: int) -> Policy:
    """MaskablePPO from ``examples/sb3_maskable_ppo.py``."""
    from sb3_maskable_ppo import greedy_action

    model = _sb3()
    return lambda view, legal: greedy_action(model, _observation(view))


def rllib(seat: int, seed: int) -> Policy:
    """The shared self-play module from ``examples/rllib_selfplay.py``."""
    from rllib_selfplay import greedy_action

    module = _rllib()
    return lambda view, legal: greedy_action(module, _observation(view))
