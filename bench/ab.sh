#!/bin/bash
# Runs taken in turn: the same benchmark from two checkouts, alternated, N pairs.
#
#   flock /tmp/domino-bench.lock bench/ab.sh /path/to/baseline-worktree 3 load.py --clients 32 --workers 2
#
# Each checkout runs its own bench/<script> with its own .venv (so each serves its own code);
# the baseline goes first in every pair. Needs DOMINO_DATABASE_URL (or PostgreSQL on
# localhost:5432), as the benchmarks do.
set -euo pipefail
baseline=$1 pairs=$2 script=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
for i in $(seq 1 "$pairs"); do
  for side in "$baseline" "$here"; do
    cd "$side"
    echo "=== pair $i $(git rev-parse --short HEAD) $(date -u +%H:%M:%S)" \
      "load $(cut -d' ' -f1-3 /proc/loadavg)"
    .venv/bin/python "bench/$script" "$@"
  done
done
