#!/bin/sh
# Patroni's post_bootstrap: run once, on the first primary, with a superuser's URL as $1. The
# service's role and database (docker-compose.yml's DOMINO_DATABASE_URL).
set -eu
psql "$1" -v ON_ERROR_STOP=1 -c "CREATE ROLE domino LOGIN PASSWORD 'domino'" \
  -c "CREATE DATABASE domino OWNER domino"
