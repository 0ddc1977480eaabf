"""Mexican Train (docs/RULES.md, "Mexican Train"): the hub and its trains, the round's deal and
the end of a round, kept apart from the line and the spinner but played by the same reducer
(engine/hand.py), legal-move generator (engine/legal.py) and events."""
