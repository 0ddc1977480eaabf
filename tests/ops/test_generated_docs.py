"""The docs written from the code are current: docs/OPERATING.md's settings table (from
config.Settings) and docs/API.md's event and problem lists, as `domino-api openapi` writes them;
`domino-api openapi --check` (make openapi-check, in make test) refuses a stale page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domino_api import cli
from domino_api.config import Settings
from domino_api.documents import contract_docs
from tests.support.servers import ROOT

OPERATING = contract_docs.OPERATING_MD_PATH


def test_every_generated_page_is_current() -> None:
    rendered = contract_docs.rendered(ROOT)
    assert set(rendered) == {contract_docs.API_MD_PATH, OPERATING}
    for path, text in rendered.items():
        assert (ROOT / path).read_text(encoding="utf-8") == text, f"{path} is stale"


def test_the_settings_table_has_every_field_with_its_default() -> None:
    table = contract_docs.settings_markdown()
    rows = table.splitlines()[2:]
    assert len(rows) == len(Settings.model_fields)
    assert "| `DOMINO_DB_POOL_SIZE` | integer | `6` |" in table
    assert "| `DOMINO_DATABASE_URL` | text, optional | unset |" in table
    assert "| `DOMINO_ANNOUNCE_BACKEND` | `postgres` or `nats` | `postgres` |" in table
    assert "| `DOMINO_COMPUTER_WORKERS` | integer, at least 0, at most 64 | `0` |" in table
    assert "| `DOMINO_SWEEP_IN_PROCESS` | boolean | `true` |" in table
    for name, info in Settings.model_fields.items():
        assert info.description, f"{name} has no description for the table"


def test_a_stale_settings_table_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for folder in ("docs", "openapi"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    page = tmp_path / OPERATING
    committed = page.read_text(encoding="utf-8")
    stale = committed.replace(
        "| `DOMINO_DB_POOL_SIZE` | integer | `6` |", "| `DOMINO_DB_POOL_SIZE` | integer | `5` |"
    )
    assert stale != committed
    page.write_text(stale, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    checked = CliRunner().invoke(cli.app, ["openapi", "--check"])
    assert checked.exit_code == 1
    assert f"{OPERATING} is out of date" in checked.output
    assert CliRunner().invoke(cli.app, ["openapi"]).exit_code == 0  # rewrites it
    assert page.read_text(encoding="utf-8") == committed


def test_a_page_without_its_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="no '<!-- generated: settings"):
        contract_docs.render("# no table here\n", contract_docs.DOCUMENTS[OPERATING], OPERATING)
