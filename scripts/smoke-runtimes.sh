#!/usr/bin/env bash
# Runs test/package/runtime-smoke.mjs (one tts, one HTTP stt, one WebSocket stt and one chat call
# through createRouter with default options, against the loopback mocks) under Bun 1.x and
# Deno 2.x, both fetched from npm with npx. Run `npm run build` first (it imports dist/).
# A runtime that npx cannot fetch is skipped with a message (exit 0 for it); a smoke failure
# exits non-zero.
# Usage: bash scripts/smoke-runtimes.sh   (from anywhere)
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
[ -f dist/index.js ] && [ -f dist/testing/index.js ] || {
  echo "smoke-runtimes: no dist/; run 'npm run build' first" >&2
  exit 1
}

status=0
# run_under LABEL PACKAGE RUN-ARGS...: fetches PACKAGE with npx, then runs the smoke file with it.
run_under() {
  local label=$1 package=$2
  shift 2
  local version
  if ! version=$(timeout 180 npx -y "$package" --version 2>/dev/null | head -n 1) || [ -z "$version" ]; then
    echo "SKIPPED $label: 'npx -y $package' could not fetch or start it (no npm registry access?)"
    return
  fi
  echo "--- $label: $version"
  if ! timeout 60 npx -y "$package" "$@" test/package/runtime-smoke.mjs; then
    echo "FAILED $label"
    status=1
  fi
}

run_under bun 'bun@1'
run_under deno 'deno@2' run -A
exit $status
