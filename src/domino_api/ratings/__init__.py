"""Ratings per player and preset (docs/API.md, "Ratings"): the model, the rules, the service."""
