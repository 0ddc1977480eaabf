"""What the docs list matches what the code has (issue 50): docs/API.md's command list names
every `domino-api` command (it once left out `reports`), and docs/PLAY.md describes the tile
backs as the catalogue has them (it once called the photographed backs drawings)."""

from __future__ import annotations

import re

import typer

from domino_api import cli
from domino_api.players.tile_backs import CATALOG
from tests.support.servers import ROOT


def documented_commands() -> set[str]:
    api = (ROOT / "docs/API.md").read_text(encoding="utf-8")
    listed = re.search(r"`domino-api --help` lists every command \(([^)]*)\)", api)
    assert listed is not None, "docs/API.md lost its command list"
    return set(re.findall(r"`([a-z-]+)`", listed.group(1)))


def test_the_command_list_names_every_command() -> None:
    cli._register_optional()  # as main() does before it runs
    group = typer.main.get_group(cli.app)
    commands = set(group.list_commands(typer.Context(group)))
    assert {"serve", "reports", "plan"} <= commands  # the walk sees registered ones too
    assert documented_commands() == commands


def test_play_md_says_which_backs_are_photographs_and_which_drawn() -> None:
    photographed = {b.rarity for b in CATALOG if b.image.endswith((".jpg", ".jpeg", ".png"))}
    drawn = {b.rarity for b in CATALOG if b.image.endswith(".svg") and b.rarity != "common"}
    assert (photographed, drawn) == ({"epic", "legendary"}, {"rare"})
    play = " ".join((ROOT / "docs/PLAY.md").read_text(encoding="utf-8").split())
    assert "The Epic and Legendary backs are NASA photographs" in play
    assert "the Rare ones drawn scenes" in play
