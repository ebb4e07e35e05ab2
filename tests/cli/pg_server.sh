#!/usr/bin/env bash
# A throwaway PostgreSQL server for the results-store tests (a CTest fixture): initdb into a fresh temporary
# directory, listening on a Unix socket there only (no TCP port to collide with), trust authentication, no fsync.
#   pg_server.sh start STATE_DIR   writes STATE_DIR/pg.env (PGBIN, PGHOST, PGUSER) for the tests
#   pg_server.sh stop STATE_DIR    stops the server and removes its directory
# As root, the server runs as the postgres user (Debian's postgresql package creates it): initdb refuses root.
set -euo pipefail
unset LD_PRELOAD  # the sanitized suite preloads a helper into dmltool's tests; PostgreSQL is not one of them
action="$1" state="$2"
mkdir -p "$state"
env_file="$state/pg.env"
stop() {
  [ -f "$env_file" ] || return 0
  # shellcheck disable=SC1090
  . "$env_file"
  as_owner "$PGBIN/pg_ctl" -D "$PGHOST/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PGHOST" "$env_file"
}
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$action" in
  start)
    stop  # a server left by an interrupted run
    bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    [ -x "$bin/initdb" ] || { echo "pg_server.sh: no PostgreSQL server (scripts/install_deps.sh installs postgresql)" >&2; exit 1; }
    dir="$(mktemp -d /tmp/dmltool-pg.XXXXXX)"
    [ "$(id -u)" -ne 0 ] || chown postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses='' -k $dir -c fsync=off -c max_connections=50" start >/dev/null ||
      { cat "$dir/server.log" >&2; exit 1; }
    printf 'PGBIN=%s\nPGHOST=%s\nPGUSER=postgres\n' "$bin" "$dir" >"$env_file"
    echo "pg_server.sh: PostgreSQL running on socket directory $dir"
    ;;
  stop) stop ;;
  *) echo "usage: pg_server.sh start|stop STATE_DIR" >&2; exit 2 ;;
esac
