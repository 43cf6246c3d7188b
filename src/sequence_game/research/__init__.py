"""The research platform beside the environments: self-play datasets at compiled speed
(:mod:`.selfplay_data`), and the benchmark protocol that rates any agent against a fixed ladder
of the project's bots (:mod:`.agents`, :mod:`.ladder`, :mod:`.benchmark`)."""
