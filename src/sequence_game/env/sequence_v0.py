"""``sequence_v0``: the PettingZoo AEC environment under its versioned name, as PettingZoo's own
games are published (``pettingzoo.classic.chess_v6``): import the module of the version you
want, so that code written against ``sequence_v0`` keeps its rules and observation when a
later version changes them.

>>> from sequence_game.env import sequence_v0
>>> aec = sequence_v0.env(players=2, render_mode="rgb_array")
>>> aec.reset(seed=7)
>>> aec.metadata["name"], aec.render().shape
('sequence_v0', (336, 320, 3))
"""

from __future__ import annotations

from .pettingzoo import env, raw_env

__all__ = ["env", "raw_env"]
