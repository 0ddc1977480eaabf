"""Whose turn it is (issue 50): the caller's turns (`GET /v1/turns`) and, at correspondence
tables, the player told when the turn passes to it (`notices`: a lobby `your_turn` and a Web
Push notice)."""
