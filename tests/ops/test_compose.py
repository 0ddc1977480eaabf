"""docker-compose.yml and the Dockerfile agree with the command line and the settings.

Docker cannot run here, so the files are read as data: every command a service runs must be
a registered `domino-api` command with options it really has, and every DOMINO_ variable must
be a field of `config.Settings`.
"""

from __future__ import annotations

import configparser
import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer.main
import yaml

from domino_api import cli
from domino_api.config import Settings

ROOT = Path(__file__).resolve().parents[2]
NATS_NODES = ("nats-1", "nats-2", "nats-3")
PG_NODES = ("pg-1", "pg-2")
BOUNCERS = {"pg-1": "pgbouncer-1", "pg-2": "pgbouncer-2"}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


@pytest.fixture(scope="module")
def commands() -> dict[str, Any]:
    cli._register_optional()
    group: Any = typer.main.get_command(cli.app)  # typer ships its own click: duck-typed here
    return dict(group.commands)


def check_command(argv: list[str], commands: dict[str, Any]) -> None:
    """`domino-api NAME --opt value ...`: NAME is registered and each option belongs to it."""
    assert argv[0] == "domino-api", argv
    name, *rest = argv[1:]
    assert name in commands, f"{name!r} is not a domino-api command: {sorted(commands)}"
    options = {opt for param in commands[name].params for opt in param.opts + param.secondary_opts}
    flags = {
        opt
        for param in commands[name].params
        if getattr(param, "is_flag", False) or getattr(param, "count", False)
        for opt in param.opts + param.secondary_opts
    }
    args = iter(rest)
    for arg in args:
        assert arg.startswith("--"), f"unexpected argument {arg!r} in {argv}"
        assert arg in options, f"{name} has no option {arg}: {sorted(options)}"
        if arg not in flags:
            value = next(args, None)
            assert value is not None and not value.startswith("--"), f"{arg} needs a value"


def test_services_and_their_order(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {
        "etcd",
        *PG_NODES,
        *BOUNCERS.values(),
        *NATS_NODES,
        "redis",
        "migrate",
        "api",
        "sockets",
        "proxy",
        "worker",
    }
    for node in PG_NODES:
        assert "healthcheck" in services[node]
        assert services["migrate"]["depends_on"][node]["condition"] == "service_healthy"
    assert services["migrate"]["restart"] == "no"
    for name in ("api", "sockets", "worker"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        for bouncer in BOUNCERS.values():
            assert depends[bouncer]["condition"] == "service_healthy"
    assert services["api"]["deploy"]["replicas"] == 2
    for name in ("api", "sockets", "worker"):  # all announce; the API and sockets listen
        for node in NATS_NODES:
            assert services[name]["depends_on"][node]["condition"] == "service_healthy"


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_nats_is_a_three_node_cluster(compose: dict[str, Any]) -> None:
    """Each node names itself, joins one cluster and routes to the other two on the port
    they listen on for routes."""
    services = compose["services"]
    commands = {node: services[node]["command"] for node in NATS_NODES}
    route_ports = {node: option(c, "--cluster").rsplit(":", 1)[1] for node, c in commands.items()}
    assert len({option(c, "--cluster_name") for c in commands.values()}) == 1
    for node, command in commands.items():
        assert services[node]["image"].startswith("nats:")
        assert option(command, "-n") == node
        assert option(command, "--cluster").startswith("nats://0.0.0.0:")
        routes = set(option(command, "--routes").split(","))
        assert routes == {f"nats://{n}:{route_ports[n]}" for n in NATS_NODES if n != node}
        assert "-js" not in command  # core subjects only: nothing to store
        monitor = option(command, "-m")
        assert f"127.0.0.1:{monitor}/healthz" in json.dumps(services[node]["healthcheck"]["test"])


def test_processes_know_every_nats_node(compose: dict[str, Any]) -> None:
    services = compose["services"]
    ports = {node: option(services[node]["command"], "-p") for node in NATS_NODES}
    for name in ("api", "sockets", "worker"):
        env = services[name]["environment"]
        assert env["DOMINO_ANNOUNCE_BACKEND"] == "nats"
        settings = Settings(announce_backend="nats", nats_url=env["DOMINO_NATS_URL"])
        assert settings.nats_servers == [f"nats://{node}:{ports[node]}" for node in NATS_NODES]
    assert "readyz" in json.dumps(services["api"]["healthcheck"]["test"])


def test_api_replicas_share_their_rate_limits_in_redis(compose: dict[str, Any]) -> None:
    """Every replica counts in the one Redis (docs/OPERATING.md): a client's budget is the
    deployment's, not one per replica."""
    services = compose["services"]
    redis = services["redis"]
    assert redis["image"].startswith("redis:")
    port = option(redis["command"], "--port")
    assert option(redis["command"], "--save") == ""  # budgets live minutes: nothing persisted
    assert (
        port in json.dumps(redis["healthcheck"]["test"]) and "ping" in redis["healthcheck"]["test"]
    )
    api = services["api"]
    assert api["deploy"]["replicas"] > 1
    settings = Settings(rate_limit_storage=api["environment"]["DOMINO_RATE_LIMIT_STORAGE"])
    assert settings.rate_limit_storage == f"redis://redis:{port}/0"
    assert api["depends_on"]["redis"]["condition"] == "service_healthy"


def test_api_and_worker_reach_the_leader_through_pgbouncer(compose: dict[str, Any]) -> None:
    """Transaction pooling in front of each node; the service's multi-host URL names every
    node's PgBouncer and asks for the one that takes writes; migrations go straight to the
    nodes, the same way."""
    services = compose["services"]
    ini = configparser.ConfigParser()
    ini.read(ROOT / "deploy" / "pgbouncer" / "pgbouncer.ini")
    assert ini["pgbouncer"]["pool_mode"] == "transaction"
    port = ini["pgbouncer"]["listen_port"]
    for node, bouncer in BOUNCERS.items():
        assert services[bouncer]["build"]["args"]["NODE"] == node
        assert services[bouncer]["depends_on"][node]["condition"] == "service_healthy"
    bouncers = ",".join(f"{bouncer}:{port}" for bouncer in BOUNCERS.values())
    pools = 0
    for name in ("api", "sockets", "worker"):
        env = services[name]["environment"]
        assert f"@{bouncers}/" in env["DOMINO_DATABASE_URL"]
        assert env["DOMINO_DATABASE_URL"].endswith("?target_session_attrs=read-write")
        settings = Settings(**{key[len("DOMINO_") :].lower(): v for key, v in env.items()})
        assert settings.db_transaction_pooler
        replicas = services[name].get("deploy", {}).get("replicas", 1)
        pools += replicas * (settings.db_pool_size + settings.db_max_overflow)
    nodes = ",".join(f"{node}:5432" for node in PG_NODES)
    migrate_url = services["migrate"]["environment"]["DOMINO_DATABASE_URL"]
    assert f"@{nodes}/" in migrate_url and "target_session_attrs=read-write" in migrate_url
    # docs/ARCHITECTURE.md, "Connections": every client connection fits a PgBouncer (after a
    # failover all go through one), and PostgreSQL keeps room within its max_connections.
    assert pools <= int(ini["pgbouncer"]["max_client_conn"])
    assert int(ini["pgbouncer"]["max_db_connections"]) < 100


def patroni_config() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "deploy/patroni/patroni.yml").read_text())
    return loaded


def test_two_patroni_nodes_with_a_synchronous_standby(compose: dict[str, Any]) -> None:
    """The topology docs/OPERATING.md ("Failover") describes: etcd, two Patroni-managed nodes
    of one cluster in synchronous mode, each named for itself, and the URL it gives."""
    services = compose["services"]
    config = patroni_config()
    dcs = config["bootstrap"]["dcs"]
    assert dcs["synchronous_mode"] is True and dcs["synchronous_mode_strict"] is False
    assert dcs["loop_wait"] + 2 * dcs["retry_timeout"] <= dcs["ttl"]  # Patroni's own rule
    assert config["etcd3"]["hosts"] == "etcd:2379"
    assert "etcd:2379" in " ".join(services["etcd"]["command"])
    for node in PG_NODES:
        service = services[node]
        assert service["build"] == "deploy/patroni"
        assert service["depends_on"]["etcd"]["condition"] == "service_healthy"
        env = service["environment"]
        assert env["PATRONI_NAME"] == node
        assert env["PATRONI_POSTGRESQL_CONNECT_ADDRESS"] == f"{node}:5432"
        assert "8008/health" in json.dumps(service["healthcheck"]["test"])
    operating = (ROOT / "docs/OPERATING.md").read_text()
    url = services["api"]["environment"]["DOMINO_DATABASE_URL"]
    assert url in operating, "docs/OPERATING.md shows the URL compose gives the service"
    for words in ("synchronous_mode: true", f"ttl: {dcs['ttl']}", "etcd", "pgbouncer-1"):
        assert words in operating, words


def test_commands_exist_in_the_cli(compose: dict[str, Any], commands: dict[str, Any]) -> None:
    services = compose["services"]
    assert services["migrate"]["command"] == ["domino-api", "migrate"]
    assert services["api"]["command"][:2] == ["domino-api", "serve"]
    assert "--no-migrate" in services["api"]["command"]
    assert services["worker"]["command"][:4] == ["domino-api", "worker", "--interval", "5"]
    assert "--metrics-port" in services["worker"]["command"]  # its counters must be scraped
    for name in ("migrate", "api", "worker"):
        check_command(services[name]["command"], commands)


def test_environment_keys_are_settings(compose: dict[str, Any]) -> None:
    fields = set(Settings.model_fields)
    prefix = Settings.model_config.get("env_prefix", "")
    seen = 0
    for name in ("migrate", "api", "worker"):
        env = compose["services"][name]["environment"]
        assert env["DOMINO_DATABASE_URL"].startswith("postgresql://")
        for key in env:
            assert key.startswith(prefix), key
            assert key[len(prefix) :].lower() in fields, f"{key} is not a Settings field"
            seen += 1
    assert seen >= 3


def test_dockerfile_serves_without_migrating(commands: dict[str, Any]) -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", text, re.M)
    cmd = re.search(r"^CMD (\[.*\])$", text, re.M)
    assert cmd is not None
    argv = json.loads(cmd.group(1))
    assert argv[:2] == ["domino-api", "serve"]
    assert argv[argv.index("--host") + 1] == "0.0.0.0"
    assert "--no-migrate" in argv
    check_command(argv, commands)


def test_socket_processes_serve_the_watch_and_lobby_sockets_behind_the_proxy(
    compose: dict[str, Any], commands: dict[str, Any]
) -> None:
    """docs/OPERATING.md, "Socket processes": `sockets` runs `serve --role sockets` on the
    NATS cluster, and the proxy sends the watch and lobby sockets there, the rest to `api`."""
    from domino_api.app.api import create_app

    services = compose["services"]
    sockets = services["sockets"]
    check_command(sockets["command"], commands)
    assert option(sockets["command"], "--role") == "sockets"
    assert sockets["deploy"]["replicas"] >= 2
    assert "readyz" in json.dumps(sockets["healthcheck"]["test"])
    env = sockets["environment"]
    settings = Settings(**{key[len("DOMINO_") :].lower(): v for key, v in env.items()})
    assert settings.announce_backend == "nats"
    # What a socket process serves: the sockets the proxy sends it, and the probes.
    served = {
        getattr(r, "path", "")
        for r in create_app(settings.model_copy(update={"role": "sockets"})).routes
    }
    assert {"/v1/matches/{match_id}/watch/ws", "/v1/lobby/ws", "/healthz", "/metrics"} <= served
    assert not any(path.startswith("/v1/") and path.endswith("}") for path in served)
    assert "/v1/matches/{match_id}/ws" not in served and "/v1/players" not in served

    proxy = services["proxy"]
    conf = (ROOT / "deploy/nginx/nginx.conf").read_text()
    assert "./deploy/nginx/nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
    locations = dict(re.findall(r"location ([^{]+?) \{\s*proxy_pass http://(\w+);", conf))
    assert locations == {
        "= /v1/lobby/ws": "sockets",
        "~ ^/v1/matches/[^/]+/watch/ws$": "sockets",
        "/": "api",
    }
    watch = re.compile(r"^/v1/matches/[^/]+/watch/ws$")
    assert watch.match("/v1/matches/3f2c/watch/ws") and not watch.match("/v1/matches/3f2c/ws")
    assert "server sockets:8000;" in conf and "server api:8000;" in conf
    address = proxy["networks"]["default"]["ipv4_address"]
    assert Settings(trusted_proxies=env["DOMINO_TRUSTED_PROXIES"]).trusted_proxies == address
    for name in ("api", "sockets"):
        assert proxy["depends_on"][name]["condition"] == "service_healthy"
