"""The one body adapter (web/struct_bodies.py): each rule its docstring promises a new body,
held by decoding bodies of the contract, and over HTTP the problems a client gets."""

from __future__ import annotations

import json

import httpx
import pytest

from domino_api.accounts.schemas import PasskeySignIn
from domino_api.errors import ServiceError
from domino_api.lobby.models import SeekCreate
from domino_api.matches.ledger_models import VerifyBody
from domino_api.matches.schemas import BotSeat, HumanSeat, MatchCreate, StartBody, as_overrides
from domino_api.players.schemas import PlayerPatch
from domino_api.push.subscriptions import SubscriptionIn
from domino_api.social.models import Named
from domino_api.web.struct_bodies import decode
from tests.api.helpers import create_match, new_player

PLANNER = [{"type": "human"}, {"type": "bot", "strategy": "planner"}]


def refused(raw: object, kind: type) -> tuple[str, str]:
    """The code and detail `raw` (JSON-encoded) is refused with as `kind`."""
    with pytest.raises(ServiceError) as caught:
        decode(json.dumps(raw).encode(), kind)
    return caught.value.code, str(caught.value.detail)


def test_a_checked_field_is_named_with_its_path_and_cleaned() -> None:
    code, detail = refused(
        {"ruleset": "draw", "seats": [{"type": "human"}, {"type": "human", "name": "Bo\u202e"}]},
        MatchCreate,
    )
    assert code == "validation_error"
    assert detail.startswith("seats.1.name: Value error, a name may not hold"), detail
    made = decode(
        b'{"ruleset": "draw", "seats": [{"type": "human", "name": " A\\u0301na "}]}', MatchCreate
    )
    assert made.seats is not None and isinstance(made.seats[0], HumanSeat)
    assert made.seats[0].name == "\u00c1na"  # NFC, spaces folded


def test_faults_under_options_are_bad_options_elsewhere_validation_errors() -> None:
    assert refused({"ruleset": "draw", "options": {"target": "9"}}, MatchCreate)[0] == "bad_options"
    assert refused({"ruleset": "draw", "options": {"colour": 1}}, SeekCreate) == (
        "bad_options",
        "options.colour: Extra inputs are not permitted",
    )
    assert refused({"ruleset": "draw", "options": {"draw": "a\u0000"}}, MatchCreate) == (
        "bad_options",
        "options.draw: text may not contain the NUL character (\\u0000)",
    )
    assert refused({"ruleset": "draw", "colour": 1}, MatchCreate)[0] == "validation_error"
    assert refused({}, MatchCreate) == ("validation_error", "ruleset: Field required")
    assert (
        refused({"cut": "x" * 65}, StartBody)[1] == "cut: String should have at most 64 characters"
    )


def test_options_keep_only_what_was_sent_and_meaningful_nulls() -> None:
    body = decode(
        b'{"ruleset": "draw", "options": {"best_of": null, "target": null, "hand_size": 5.0}}',
        MatchCreate,
    )
    assert as_overrides(body.options) == {"best_of": None, "hand_size": 5}
    assert as_overrides(decode(b'{"ruleset": "draw"}', MatchCreate).options) == {}


def test_a_check_across_fields_names_the_body() -> None:
    deal = {"secret": "a" * 64, "commitment": "b" * 64, "cut": "", "hand_number": 1, "attempt": 0}
    code, detail = refused({**deal, "max_pip": 6, "players": 4, "hand_size": 8}, VerifyBody)
    assert (code, detail) == (
        "validation_error",
        "body: Value error, 4 x 8 tiles exceed the 28-tile set",
    )
    assert (
        decode(
            json.dumps({**deal, "max_pip": 6, "players": 4, "hand_size": 7}).encode(), VerifyBody
        ).players
        == 4
    )


def test_a_union_member_is_chosen_by_its_tag() -> None:
    made = decode(json.dumps({"ruleset": "draw", "seats": PLANNER}).encode(), MatchCreate)
    assert made.seats is not None and isinstance(made.seats[1], BotSeat)
    assert refused({"ruleset": "draw", "seats": [{"type": "robot"}]}, MatchCreate)[1].startswith(
        "seats.0.type:"
    )


async def test_an_optional_body_may_be_absent_but_not_wrong(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    first = await create_match(client, ana, "draw-50", PLANNER)
    url = f"/v1/matches/{first['id']}/start"
    wrong = await client.post(url, content=b"{bad", headers=ana["headers"])
    assert wrong.status_code == 400 and wrong.json()["code"] == "bad_request"
    unknown = await client.post(url, json={"cut": "moon", "fill": True}, headers=ana["headers"])
    assert (
        unknown.status_code == 422
        and unknown.json()["detail"] == "fill: Extra inputs are not permitted"
    )
    started = await client.post(url, headers=ana["headers"])  # no body: the defaults
    assert started.status_code == 200, started.text
    assert started.json()["status"] == "playing"


def test_issue_47s_bodies_keep_their_rules_and_problems() -> None:
    """A setting left out is kept as saved, a null one cleared; `Named` is one of two strings."""
    patch = decode(b'{"settings": {"target": 150, "draw": null}}', PlayerPatch)
    assert patch.settings is not None and patch.settings.given() == {"target": 150, "draw": None}
    assert refused({"settings": {"target": 0}}, PlayerPatch) == (
        "validation_error",
        "settings.target: Input should be greater than or equal to 1",
    )
    assert refused({"id": ""}, Named) == (
        "validation_error",
        "id: String should have at least 1 character",
    )
    assert refused({"id": "x", "name": "Bob"}, Named)[1] == (
        "body: Value error, name the player by `id` or by `name`: one of the two"
    )
    keys_without_auth = {"endpoint": "https://push.example.com/a", "keys": {"p256dh": "B" * 87}}
    assert refused(keys_without_auth, SubscriptionIn) == (
        "validation_error",
        "keys.auth: Field required",
    )


@pytest.mark.parametrize(
    ("method", "url"),
    [("PATCH", "/v1/players/me"), ("POST", "/v1/friends"), ("POST", "/v1/push/subscriptions")],
)
async def test_issue_47s_routes_refuse_a_body_that_is_not_json(
    client: httpx.AsyncClient, method: str, url: str
) -> None:
    ana = await new_player(client, "Ana")
    wrong = await client.request(method, url, content=b"{bad", headers=ana["headers"])
    assert (wrong.status_code, wrong.json()["code"]) == (400, "bad_request"), wrong.text


def test_a_nul_counts_where_it_is_kept() -> None:
    """A member a WebAuthn part ignores stores nothing, so its NUL is no fault (schemathesis
    sent one); an unknown member of a body is refused with its NUL named."""
    answer = {"clientDataJSON": "YQ", "authenticatorData": "YQ", "signature": "YQ", "x": "\u0000"}
    credential = {"id": "YQ", "rawId": "YQ", "type": "public-key", "response": answer}
    kept = decode(json.dumps({"ceremony": "c1", "credential": credential}).encode(), PasskeySignIn)
    assert kept.credential.response.signature == "YQ"
    code, detail = refused({"cut": "moon", "x\u0000": 1}, StartBody)
    assert (code, detail) == (
        "validation_error",
        "body: text may not contain the NUL character (\\u0000)",
    )
