"""The research environment: PettingZoo, Gymnasium and a batch stepper over the rules engine.

Needs the ``env`` extra (numpy, gymnasium, pettingzoo). Everything here is an adapter: the rules
live in the engine (``GameState``), the observation planes in ``observation``.

- ``sequence_game.env.pettingzoo``: ``env()``/``raw_env`` (AEC, ``sequence_v0``), every table of R2.
- ``sequence_game.env.gymnasium``: ``SequenceEnv``, one seat against bots (``Sequence-v0``).
- ``sequence_game.env.vector``: ``SequenceVectorEnv``, many games stepped with numpy arrays.

>>> from sequence_game.env import env
>>> env(players=3).metadata["name"]
'sequence_v0'
"""

from __future__ import annotations

from .gymnasium import ENV_ID, SequenceEnv
from .observation import NUM_PLANES, OBS_SHAPE, PLANES, encode, encode_batch, encode_view
from .pettingzoo import env, raw_env
from .table import DEFAULT_MAX_TURNS
from .vector import Batch, SequenceVectorEnv

__all__ = [
    "DEFAULT_MAX_TURNS",
    "ENV_ID",
    "NUM_PLANES",
    "OBS_SHAPE",
    "PLANES",
    "Batch",
    "SequenceEnv",
    "SequenceVectorEnv",
    "encode",
    "encode_batch",
    "encode_view",
    "env",
    "raw_env",
]
