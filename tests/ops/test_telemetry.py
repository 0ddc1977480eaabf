"""docs/OPERATING.md, "Metrics": the service reports through its own metrics and access lines;
FastAPI's OpenTelemetry bridge is off, so an SDK installed in the process adds nothing of
FastAPI's (and a request does not look up the global providers)."""

from __future__ import annotations

from opentelemetry.trace import NoOpTracerProvider

from domino_api.app.api import create_app


class _InstalledProvider(NoOpTracerProvider):
    """A provider FastAPI takes for a configured SDK (not one of its known placeholders)."""


def test_fastapis_opentelemetry_bridge_stays_off_even_with_a_provider_at_hand() -> None:
    app = create_app()
    telemetry = app._native_telemetry  # FastAPI keeps it private
    assert telemetry.enabled() is False
    # With the same settings but a provider given, tracing would be on: what keeps it off is
    # the setting, not the absence of an SDK.
    telemetry.config = {**telemetry.config, "tracer_provider": _InstalledProvider()}
    assert telemetry.enabled() is False
    telemetry.config = {**telemetry.config, "tracing": True}
    assert telemetry.enabled() is True
