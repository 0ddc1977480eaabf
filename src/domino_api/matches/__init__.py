"""Matches: tables, seats, moves, events and ledgers.

Every write is a step of the write core (`unit.Core.run`): read the match row and its seats
(or this process's copy), apply what is due first, run the step on the table in memory
(`table`, `service`, `creation`, `forfeits`, `timeouts`, `presence`), and save it guarded by
the row version (store/matches_repo.py): one statement when only the match changes, one
transaction when more does (`ends`: records and tournament hooks). The new seq is announced
after the commit (realtime/announce.py).
"""
