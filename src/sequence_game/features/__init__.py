"""How a position becomes numbers: the observation planes that the environments, the policy bot
and the batched compiled engine share (:mod:`.planes`).

This layer sits just above the rules engine and needs only numpy; it never imports a bot, an
environment framework or the compiled engine.
"""
