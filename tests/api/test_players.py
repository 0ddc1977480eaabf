"""Players: tokens, profiles, settings, tile backs, and the refusals around them."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.helpers import create_match, new_player


async def test_create_player_returns_token_once_and_profile(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    assert ana["tile_back"] == "moon" and ana["plan"] == "free" and len(ana["token"]) > 20
    me = await client.get("/v1/players/me", headers=ana["headers"])
    assert me.status_code == 200
    assert "token" not in me.json() and me.json()["name"] == "Ana"


async def test_missing_and_wrong_token_are_401_problems(client: httpx.AsyncClient) -> None:
    assert (await client.get("/v1/players/me")).status_code == 401
    wrong = await client.get("/v1/players/me", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    assert wrong.headers["content-type"].startswith("application/problem+json")
    assert wrong.json()["code"] == "unauthenticated"


async def test_bad_names_are_422(client: httpx.AsyncClient) -> None:
    for body in ({"name": ""}, {"name": "x" * 33}, {"name": 5}, {}, {"name": "a", "extra": 1}):
        response = await client.post("/v1/players", json=body)
        assert response.status_code == 422, body
        assert response.json()["code"] == "validation_error"


async def test_malformed_json_is_400(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/players", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and response.json()["code"] == "bad_request"


async def test_tile_back_catalog_and_change(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    catalog = (await client.get("/v1/tile-backs", headers=ana["headers"])).json()
    ids = {entry["id"] for entry in catalog}
    assert "moon" in ids and any(e["rarity"] == "legendary" for e in catalog)
    assert all(entry["locked"] is False for entry in catalog)
    bad = await client.patch("/v1/players/me", json={"tile_back": "zzz"}, headers=ana["headers"])
    assert bad.status_code == 422 and bad.json()["code"] == "unknown_tile_back"
    good = await client.patch(
        "/v1/players/me", json={"tile_back": "galileo-io"}, headers=ana["headers"]
    )
    assert good.json()["tile_back"] == "galileo-io"


async def test_settings_apply_to_new_matches_and_explicit_options_win(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    patch = {"settings": {"target": 60, "draw": "one"}}
    response = await client.patch("/v1/players/me", json=patch, headers=ana["headers"])
    assert response.status_code == 200 and response.json()["settings"]["draw"] == "one"
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    classic = await create_match(client, ana, "classic", seats)
    assert classic["ruleset"]["target"] == 60 and classic["ruleset"]["draw"] == "one"
    explicit = await create_match(client, ana, "classic", seats, {"target": 80})
    assert explicit["ruleset"]["target"] == 80
    # `draw` is not an override of all-fives: the stored default is ignored there.
    fives = await create_match(client, ana, "all-fives", seats)
    assert fives["ruleset"]["draw"] == "until_playable" and fives["ruleset"]["target"] == 60


async def test_settings_merge_with_the_saved_ones(client: httpx.AsyncClient) -> None:
    """Issue 41: `{"settings": {"target": 60}}` erased a saved `draw: "one"`."""
    ana = await new_player(client, "Ana")
    for patch, expected in (
        ({"draw": "one"}, {"draw": "one"}),
        ({"target": 60}, {"draw": "one", "target": 60}),
        ({"next_opener": "winner_any", "target": 70}, {"draw": "one", "target": 70,
                                                        "next_opener": "winner_any"}),
        ({"draw": None}, {"target": 70, "next_opener": "winner_any"}),  # null clears one
    ):  # fmt: skip
        body = {"settings": patch}
        response = await client.patch("/v1/players/me", json=body, headers=ana["headers"])
        assert response.status_code == 200
        assert _set(response.json()["settings"]) == expected
    me = await client.get("/v1/players/me", headers=ana["headers"])
    assert _set(me.json()["settings"]) == {"target": 70, "next_opener": "winner_any"}


def _set(settings: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in settings.items() if value is not None}


async def test_a_saved_setting_a_preset_refuses_is_ignored_not_an_error(
    client: httpx.AsyncClient,
) -> None:
    """Issue 25: `next_opener` saved as alternate_any (or winner_any) broke all-fives."""
    ana = await new_player(client, "Ana")
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    for opener in ("alternate_any", "winner_any"):
        patch = {"settings": {"next_opener": opener, "target": 70}}
        response = await client.patch("/v1/players/me", json=patch, headers=ana["headers"])
        assert response.status_code == 200, response.text
        fives = await create_match(client, ana, "all-fives", seats)
        assert fives["ruleset"]["next_opener"] == "winner_any_lock_reshuffle"
        assert fives["ruleset"]["target"] == 70  # the settings it takes still apply
        classic = await create_match(client, ana, "classic", seats)
        assert classic["ruleset"]["next_opener"] == opener
    # An explicit option is still checked as given.
    body = {"ruleset": "all-fives", "seats": seats, "options": {"next_opener": "alternate_any"}}
    refused = await client.post("/v1/matches", json=body, headers=ana["headers"])
    assert refused.status_code == 422 and refused.json()["code"] == "bad_options"


async def test_every_tile_back_image_is_served_by_this_server(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    catalog = (await client.get("/v1/tile-backs", headers=ana["headers"])).json()
    assert len(catalog) >= 6
    for entry in catalog:
        # Drawings are SVG; the photographed backs are JPEG (tests/api/test_photo_backs.py).
        photo = entry["rarity"] in ("epic", "legendary")
        suffix, kind = (".jpg", "image/jpeg") if photo else (".svg", "image/svg+xml")
        assert entry["image"] == f"/static/tile-backs/{entry['id']}{suffix}"
        image = await client.get(entry["image"])
        assert image.status_code == 200, entry["id"]
        assert image.headers["content-type"].startswith(kind)
        if not photo:
            assert image.text.lstrip().startswith("<svg")
    missing = await client.get("/static/tile-backs/pluto.svg")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"
