"""The partnership presets (docs/RULES.md sections 3 and 14), made from the plain Draw game
that engine/rulesets.py passes in (this module does not import it: rulesets imports this)."""

from __future__ import annotations

from typing import TypeVar

from msgspec import Struct
from msgspec.structs import replace

# The ruleset type, named without importing engine/rulesets.py (which imports this module).
Ruleset = TypeVar("Ruleset", bound=Struct)

PARTNER_PRESETS = ("partners-block", "partners-nines", "partners-all-fives")


def partner_presets(draw: Ruleset) -> dict[str, Ruleset]:
    """Four seats, 0 and 2 against 1 and 3, made from the plain Draw game `draw`."""
    # The Latin American block game: the whole double-six dealt; the team that dominoes (or
    # holds fewer pips when blocked) counts every hand left, its partner's too; to 200.
    block = replace(
        draw,
        name="partners-block",
        players=4,
        draw="none",
        domino_scoring="all_pips",
        block_scoring="lowest_takes_all",
        first_opener="highest_double_else_heaviest",
        next_opener="winner_any",
        target=200,
        partnership=True,
    )
    # All Fives by two teams: five tiles each, eight to draw; the team scores its fives and
    # the opponents' pips (rounded to 5), to 150.
    all_fives = replace(
        block,
        name="partners-all-fives",
        hand_size=5,
        draw="until_playable",
        layout="spinner_first_double",
        play_scoring="fives",
        domino_scoring="opponents_pips_round5",
        block_scoring="lowest_takes_others_round5",
        first_opener="highest_double_else_reshuffle",
        next_opener="winner_any_lock_reshuffle",
        target=150,
        end_mid_hand=True,
    )
    return {
        "partners-block": block,
        # Double-nine, ten tiles each, the fifteen left out of play: the Cuban game.
        "partners-nines": replace(block, name="partners-nines", max_pip=9, hand_size=10),
        "partners-all-fives": all_fives,
    }
