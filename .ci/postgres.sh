#!/usr/bin/env bash
# Starts or stops a throwaway PostgreSQL 15 cluster on a free 127.0.0.1 port.
#   eval "$(.ci/postgres.sh start)"   prints the SQLQUEUE_PG_* exports (and PG_CI_DIR)
#   .ci/postgres.sh stop DIR          stops it and removes DIR
# The tests' cluster does not sync to disk (fsync=off); PG_DURABLE=1 starts one that does, with the
# server's defaults, for benchmarks whose figures must include the commits' disk writes.
# The server refuses to run as root, so it runs as the postgres user, in a mktemp directory that
# user can reach (a checkout under /root may not be).
set -euo pipefail

PG_BIN=/usr/lib/postgresql/15/bin

install_postgres() {
  if [ ! -x "$PG_BIN/initdb" ]; then
    echo "installing postgresql-15" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql-15 >&2
  fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' 2>/dev/null \
    || shuf -i 20000-60000 -n 1
}

case "${1:-}" in
  start)
    install_postgres
    dir=$(mktemp -d /tmp/sqlqueue-pg.XXXXXX)
    chmod 755 "$dir"
    chown postgres:postgres "$dir"
    port=$(free_port)
    password=ci-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
    printf '%s\n' "$password" > "$dir/pwfile"
    chown postgres:postgres "$dir/pwfile"
    runuser -u postgres -- "$PG_BIN/initdb" -D "$dir/data" -U sqlqueue --pwfile="$dir/pwfile" \
      --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    if [ "${PG_DURABLE:-0}" = 1 ]; then durability=""; fi
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_prepared_transactions=64 -c max_connections=200 $durability" >&2 \
      || { cat "$dir/server.log" >&2; exit 1; }
    PGPASSWORD="$password" "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U sqlqueue sqlqueue >&2
    echo "export PG_CI_DIR=$dir"
    echo "export SQLQUEUE_PG_URL=jdbc:postgresql://127.0.0.1:$port/sqlqueue"
    echo "export SQLQUEUE_PG_USER=sqlqueue"
    echo "export SQLQUEUE_PG_PASSWORD=$password"
    ;;
  stop)
    dir=${2:?usage: postgres.sh stop DIR}
    if [ -d "$dir/data" ]; then
      runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start | stop DIR" >&2
    exit 2
    ;;
esac
