"""The published deal vectors have one copy, in the package (play/deal-vectors.json), and /play
serves that copy: the page, the engine's tests and `domino-api deal-vectors` all read one file."""

from __future__ import annotations

import json
import subprocess

import httpx

from domino_api.documents import deal_vectors
from tests.support.servers import ROOT


def test_the_repository_holds_one_copy() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    stored = deal_vectors.PATH.read_bytes()
    copies = [p for p in tracked if p.endswith(".json") and (ROOT / p).read_bytes() == stored]
    named = [path for path in tracked if path.endswith("deal-vectors.json")]
    assert copies == named == ["src/domino_api/play/deal-vectors.json"]
    assert ROOT / copies[0] == deal_vectors.PATH


async def test_play_serves_that_copy(client: httpx.AsyncClient) -> None:
    served = await client.get("/play/deal-vectors.json")
    assert served.status_code == 200
    assert served.headers["content-type"].startswith("application/json")
    assert served.content == deal_vectors.PATH.read_bytes()
    assert len(json.loads(served.content)["vectors"]) >= 17
