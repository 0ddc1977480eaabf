"""Matches: tables, seats, moves, events and ledgers over the one write path."""
