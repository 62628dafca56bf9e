#!/usr/bin/env bash
# A throwaway PostgreSQL from the installed binaries, for tests, the load test and the README: no
# container, no service. initdb in a folder of its own, the server on a free loopback port with
# fsync on (the default, stated), trust authentication for the one user `receipt` on loopback only.
#
#   Scripts/postgres.sh start DIR     initdb DIR (when new) and start; prints the URL
#   Scripts/postgres.sh stop DIR      stop (fast: connections are cut, data kept)
#   Scripts/postgres.sh restart DIR   start again on the same port
#   Scripts/postgres.sh url DIR       print the URL
#   Scripts/postgres.sh createdb DIR NAME   a new empty database NAME; prints its URL
#   Scripts/postgres.sh destroy DIR   stop and remove DIR
#
# initdb and postgres refuse to run as root: as root, they run as the `postgres` user.
set -euo pipefail

bin="${PG_BIN:-}"
if [[ -z "$bin" ]]; then
    for candidate in /usr/lib/postgresql/*/bin; do
        [[ -x "$candidate/initdb" ]] && bin="$candidate"
    done
fi
if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
    echo "postgres.sh: initdb not found (apt-get install postgresql, or set PG_BIN)" >&2
    exit 69
fi

command="${1:-}"
dir="${2:-}"
if [[ -z "$command" || -z "$dir" ]]; then
    sed -n '5,11p' "$0" >&2
    exit 64
fi

as_owner() {
    if [[ "$(id -u)" == 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

url() {
    printf 'postgres://receipt@127.0.0.1:%s/receipt\n' "$(cat "$dir/port")"
}

start() {
    # The server must not keep the caller's descriptors (a pipe, or the socket by which Foundation's
    # Process learns that its child exited): close every one above stderr first.
    local fd
    for fd in $(ls /proc/$$/fd 2>/dev/null); do
        if [[ "$fd" -gt 2 ]]; then eval "exec $fd>&-" 2>/dev/null || true; fi
    done
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-p $(cat "$dir/port") -k $dir/socket -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on -c max_connections=200" \
        start >/dev/null
}

case "$command" in
    start)
        if [[ ! -d "$dir/data" ]]; then
            mkdir -p "$dir/socket"
            if [[ "$(id -u)" == 0 ]]; then
                chown -R postgres "$dir"
                # The postgres user must be able to reach DIR: a private temporary parent (mktemp -d)
                # is opened for traversal only.
                parent="$(dirname "$(realpath "$dir")")"
                [[ "$(stat -c %U "$parent")" == root ]] && chmod o+x "$parent"
            fi
            as_owner "$bin/initdb" -D "$dir/data" -U receipt --auth=trust -E UTF8 --no-instructions >"$dir/initdb.log" 2>&1 \
                || { cat "$dir/initdb.log" >&2; exit 1; }
            free_port >"$dir/port"
            start
            as_owner "$bin/createdb" -h 127.0.0.1 -p "$(cat "$dir/port")" -U receipt receipt
        else
            start
        fi
        url
        ;;
    restart)
        start
        url
        ;;
    stop)
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null
        ;;
    url)
        url
        ;;
    createdb)
        [[ "${3:-}" =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "postgres.sh: createdb needs a lowercase name" >&2; exit 64; }
        as_owner "$bin/createdb" -h 127.0.0.1 -p "$(cat "$dir/port")" -U receipt "$3"
        printf 'postgres://receipt@127.0.0.1:%s/%s\n' "$(cat "$dir/port")" "$3"
        ;;
    destroy)
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 || true
        rm -rf "$dir"
        ;;
    *)
        echo "postgres.sh: unknown command '$command' (start, stop, restart, url, destroy)" >&2
        exit 64
        ;;
esac
