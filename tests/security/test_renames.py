"""A seat keeps the name it was taken under. Bob, seated beside Ana, renamed himself "Ana": both
seats then read "Ana" and his table talk came as "Ana", while his `seat_joined` still said Bob
(an attack run). A profile rename now shows at tables taken after it."""

from __future__ import annotations

import httpx

from tests.api.helpers import create_match, new_player

TWO = [{"type": "human"}, {"type": "human"}]


async def test_a_rename_does_not_change_a_seat_already_taken(client: httpx.AsyncClient) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    made = await create_match(client, ana, "house-nines", TWO)
    mid = made["id"]
    joined = await client.post(
        "/v1/matches/join", json={"code": made["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200, joined.text
    for who, name in ((bob, "Ana"), (ana, "Zed")):
        renamed = await client.patch("/v1/players/me", json={"name": name}, headers=who["headers"])
        assert renamed.status_code == 200 and renamed.json()["name"] == name
    view = (await client.get(f"/v1/matches/{mid}", headers=ana["headers"])).json()
    assert [seat["name"] for seat in view["seats"]] == ["Ana", "Bob"]
    said = await client.post(
        f"/v1/matches/{mid}/messages", json={"text": "hi"}, headers=bob["headers"]
    )
    assert said.status_code == 201 and said.json()["data"]["name"] == "Bob", said.text
    # A table taken after the rename goes by the new name.
    later = await create_match(client, bob, "house-nines", TWO)
    assert later["seats"][0]["name"] == "Ana"
