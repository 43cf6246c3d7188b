"""The compiled engine (``pip install 'sequence-game[fast]'``, Numba): the same rules as
:mod:`sequence_game.state`, the reference, for playouts, search rollouts and batched environments.

- :mod:`.engine`: :class:`~.engine.FastGame`, one game with the pure engine's action ids.
- :mod:`.rollout`: playouts from a pure-engine state for search (``rollout_outcomes``,
  ``FastRolloutEvaluator``).
- :mod:`.vector`: batched stepping kernels (the environments on them live in
  :mod:`sequence_game.env.fast_vector`).
- :mod:`.differential`: lock-step play against the pure engine (tests and benchmarks).

docs/fast.md has the design, the measured speed and why Numba.
"""
