"""GET /metrics, request ids, the JSON access log, and the counters other modules feed."""

from __future__ import annotations

import io
import json
import logging
import uuid

import httpx
from fastapi import FastAPI
from prometheus_client import REGISTRY

from domino_api import metrics
from domino_api.logs import JsonFormatter
from tests.api.helpers import create_match, first_legal, new_player, view


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_metrics_route_serves_prometheus_text(client: httpx.AsyncClient) -> None:
    await client.get("/healthz")
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    for name in (
        "domino_http_requests_total",
        "domino_http_request_duration_seconds_bucket",
        "domino_move_duration_seconds",
        "domino_open_sockets",
        'domino_matches{status="playing"}',
        "domino_sweeper_passes_total",
        "domino_sweeper_forfeits_total",
    ):
        assert name in text, name
    assert 'route="/healthz"' in text


async def test_requests_are_counted_by_route_template_not_raw_path(
    client: httpx.AsyncClient,
) -> None:
    template = "/v1/matches/{match_id}"
    before = sample("domino_http_requests_total", method="GET", route=template, status="401")
    unmatched = sample(
        "domino_http_requests_total", method="GET", route=metrics.UNMATCHED, status="404"
    )
    for _ in range(3):
        await client.get(f"/v1/matches/{uuid.uuid4()}")
    await client.get(f"/no/such/{uuid.uuid4()}")
    after = sample("domino_http_requests_total", method="GET", route=template, status="401")
    assert after == before + 3
    assert (
        sample("domino_http_requests_total", method="GET", route=metrics.UNMATCHED, status="404")
        == unmatched + 1
    )


async def test_request_id_is_kept_when_plain_and_made_otherwise(
    client: httpx.AsyncClient,
) -> None:
    kept = await client.get("/healthz", headers={"X-Request-ID": "abc-123.x"})
    assert kept.headers["x-request-id"] == "abc-123.x"
    made = await client.get("/healthz")
    assert len(made.headers["x-request-id"]) == 32
    hostile = await client.get("/healthz", headers={"X-Request-ID": 'a" injected\\n{'})
    assert hostile.headers["x-request-id"] != 'a" injected\\n{'
    assert len(hostile.headers["x-request-id"]) == 32


async def test_access_log_fields(client: httpx.AsyncClient) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("domino_api.access")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        ana = await new_player(client, "Ana")
        created = await create_match(client, ana, "all-fives", [{"type": "human"}, {"type": "bot"}])
        mid = created["id"]
        await client.get(
            f"/v1/matches/{mid}",
            headers={**ana["headers"], "X-Request-ID": "req-42"},
            params={"token": ana["token"]},
        )
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    text = stream.getvalue()
    assert ana["token"] not in text
    lines = [json.loads(line) for line in text.splitlines()]
    line = next(entry for entry in lines if entry.get("request_id") == "req-42")
    assert line["method"] == "GET"
    assert line["path"] == f"/v1/matches/{mid}"
    assert line["status"] == 200
    assert line["match_id"] == mid
    assert isinstance(line["duration_ms"], float)
    created_line = next(e for e in lines if e["path"] == "/v1/players")
    assert "match_id" not in created_line and created_line["status"] == 201


async def test_move_latency_is_observed(client: httpx.AsyncClient) -> None:
    before = sample("domino_move_duration_seconds_count", transport="http")
    ana = await new_player(client, "Ana")
    created = await create_match(
        client, ana, "all-fives", [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    )
    mid = created["id"]
    started = await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    assert started.status_code == 200, started.text
    moves = 0
    for _ in range(20):
        v = await view(client, ana, mid)
        if v["status"] != "playing" or not v["legal"]:
            break
        body = {**first_legal(v), "seq": v["seq"]}
        r = await client.post(f"/v1/matches/{mid}/moves", json=body, headers=ana["headers"])
        assert r.status_code == 200, r.text
        moves += 1
    assert moves > 0
    assert sample("domino_move_duration_seconds_count", transport="http") == before + moves


async def test_matches_by_status_are_counted_at_scrape_time(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    await create_match(client, ana, "all-fives", [{"type": "human"}, {"type": "human"}])
    await create_match(client, ana, "all-fives", [{"type": "human"}, {"type": "human"}])
    metrics.CENSUS.refreshed_at = float("-inf")
    text = (await client.get("/metrics")).text
    assert 'domino_matches{status="waiting"} 2.0' in text
    assert 'domino_matches{status="finished"} 0.0' in text


async def test_socket_and_sweeper_functions_feed_their_metrics() -> None:
    sockets = sample("domino_open_sockets")
    metrics.socket_opened()
    metrics.socket_opened()
    metrics.socket_closed()
    assert sample("domino_open_sockets") == sockets + 1
    metrics.socket_closed()
    passes = sample("domino_sweeper_passes_total")
    forfeits = sample("domino_sweeper_forfeits_total")
    metrics.sweep_pass(0)
    metrics.sweep_pass(2, abandoned=1, seconds=0.01)
    assert sample("domino_sweeper_passes_total") == passes + 2
    assert sample("domino_sweeper_forfeits_total") == forfeits + 2
    before_ws = sample("domino_move_duration_seconds_count", transport="ws")
    metrics.observe_move(0.003)
    assert sample("domino_move_duration_seconds_count", transport="ws") == before_ws + 1


async def test_unexpected_error_is_a_problem_with_request_id_and_counted(app: FastAPI) -> None:
    @app.get("/boom-for-test")
    async def boom() -> None:
        raise RuntimeError("kaboom")

    app.middleware_stack = None  # rebuild with the new route
    before = sample(
        "domino_http_requests_total", method="GET", route="/boom-for-test", status="500"
    )
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        response = await http.get("/boom-for-test", headers={"X-Request-ID": "r-500"})
    assert response.status_code == 500
    assert response.headers["x-request-id"] == "r-500"
    assert response.json()["code"] == "internal_error"
    assert "kaboom" not in response.text
    after = sample("domino_http_requests_total", method="GET", route="/boom-for-test", status="500")
    assert after == before + 1
