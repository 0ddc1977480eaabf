"""`domino-api plan set PLAYER_ID free|club|corporate`: plans are set only by operators."""

from __future__ import annotations

import asyncio

import typer


async def set_plan(database_url: str, player_id: str, plan: str) -> bool:
    """Set a player's plan; False when there is no such player."""
    from sqlalchemy.ext.asyncio import create_async_engine

    from domino_api.store import players_repo
    from domino_api.store.db import make_sessionmaker, to_asyncpg_url, transaction

    engine = create_async_engine(to_asyncpg_url(database_url))
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            return await players_repo.set_plan(session, player_id, plan)
    finally:
        await engine.dispose()


def register(app: typer.Typer) -> None:
    plan_app = typer.Typer(help="Player plans (free, club, corporate): operators only.")

    @plan_app.command("set")
    def set_command(
        player_id: str = typer.Argument(..., help="The player's id"),
        plan: str = typer.Argument(..., help="free, club or corporate"),
    ) -> None:
        """Set a player's plan (it caps the entrants of the tournaments they host)."""
        from domino_api.config import get_settings
        from domino_api.store.db import resolve_database_url
        from domino_api.tournaments.service import PLANS

        if plan not in PLANS:
            typer.echo(f"unknown plan {plan!r}: use one of {', '.join(PLANS)}", err=True)
            raise typer.Exit(2)
        url = resolve_database_url(get_settings())
        if not asyncio.run(set_plan(url, player_id, plan)):
            typer.echo(f"no player {player_id!r}", err=True)
            raise typer.Exit(1)
        typer.echo(f"player {player_id} is now on the {plan} plan")

    app.add_typer(plan_app, name="plan")
