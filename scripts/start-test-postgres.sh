#!/usr/bin/env bash
# Installs PostgreSQL 15 with pgvector and starts a throwaway cluster on loopback
# for the PostgreSQL store's tests. Idempotent: each step is skipped when its
# result is already there (a second run only checks). Needs root (apt-get).
#
#   CTX_TEST_PG_DIR   where the cluster lives (default /tmp/ctx-pg)
#   CTX_TEST_PG_PORT  its port on 127.0.0.1 (default 55432)
#
# Tests then reach it at postgres://postgres:ctx-test@127.0.0.1:$CTX_TEST_PG_PORT/postgres
# (CTX_TEST_DATABASE_URL overrides that): TCP logins need a password, so the
# tests can try a wrong one.
set -euo pipefail

PG_BIN=/usr/lib/postgresql/15/bin
PG_CONFIG=$PG_BIN/pg_config
DIR=${CTX_TEST_PG_DIR:-/tmp/ctx-pg}
PORT=${CTX_TEST_PG_PORT:-55432}
EXTENSION_DIR=/usr/share/postgresql/15/extension
export DEBIAN_FRONTEND=noninteractive

# Another install (of another tool) may hold dpkg's lock for a while: wait for it.
APT=(apt-get -o DPkg::Lock::Timeout=600)
apt_updated=0
apt_update() {
  if [ "$apt_updated" = 0 ]; then "${APT[@]}" update -qq; apt_updated=1; fi
}
apt_install() {
  apt_update
  "${APT[@]}" install -y -qq "$@" >/dev/null
}

# 1. The server (Debian 12's PostgreSQL 15).
if [ ! -x "$PG_BIN/postgres" ]; then
  apt_install postgresql-15
fi

# 2. pgvector: Debian 12 has no package; Debian 13's source builds against PG 15.
if [ ! -f "$EXTENSION_DIR/vector.control" ]; then
  sources=/etc/apt/sources.list.d/ctx-trixie-src.sources
  if [ ! -f "$sources" ]; then
    # Same URIs and key as the machine's own Debian entry, for source packages of trixie only.
    uris=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    key=$(awk '/^Signed-By:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: %s\n' \
      "${uris:-http://deb.debian.org/debian}" "${key:-/usr/share/keyrings/debian-archive-keyring.gpg}" >"$sources"
    apt_updated=0
  fi
  if [ ! -x "$PG_CONFIG" ] || [ ! -d /usr/include/postgresql/15/server ]; then
    apt_install postgresql-server-dev-15 build-essential
  fi
  build=$(mktemp -d)
  (
    cd "$build"
    apt_update
    "${APT[@]}" source --download-only pgvector >/dev/null
    tar xzf pgvector_*.orig.tar.gz
    make -s -C pgvector-*/ PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >/dev/null
    make -s -C pgvector-*/ PG_CONFIG="$PG_CONFIG" OPTFLAGS="" install >/dev/null
  )
  rm -rf "$build"
fi

# 3. The cluster: on loopback only, owned by the postgres user; passwords over TCP.
if [ ! -f "$DIR/data/PG_VERSION" ]; then
  rm -rf "$DIR"
  mkdir -p "$DIR"
  chown postgres:postgres "$DIR"
  echo "ctx-test" >"$DIR/password"
  chown postgres:postgres "$DIR/password"
  su postgres -s /bin/bash -c "$PG_BIN/initdb -D '$DIR/data' -U postgres --auth-local=trust --auth-host=scram-sha-256 --pwfile='$DIR/password' --no-sync >/dev/null"
fi

# 4. Started unless it answers already.
if ! su postgres -s /bin/bash -c "$PG_BIN/pg_ctl -D '$DIR/data' status" >/dev/null 2>&1; then
  su postgres -s /bin/bash -c "$PG_BIN/pg_ctl -D '$DIR/data' -o \"-p $PORT -k '$DIR' -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off\" -l '$DIR/log' -w start >/dev/null"
fi

echo "PostgreSQL $($PG_BIN/postgres --version | awk '{print $3}') with pgvector on 127.0.0.1:$PORT (data in $DIR/data)"
