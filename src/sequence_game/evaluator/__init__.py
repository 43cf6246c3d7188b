"""The evaluator: the chance that a side wins, from one seat's view."""
