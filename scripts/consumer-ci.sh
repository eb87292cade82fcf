#!/usr/bin/env bash
# The consumer-CI example as a user runs it: pack the built repo (run `npm run build` first),
# install the tarball with vitest, msw and ws into a scratch project outside the repo, copy
# examples/consumer-ci there and run its vitest test (startMockProviders + createRouter over
# loopback mocks: no network, no keys).
# Usage: bash scripts/consumer-ci.sh   (from anywhere; exits non-zero on any failure)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
[ -f dist/testing/index.js ] || { echo "consumer-ci: no dist/; run 'npm run build' first" >&2; exit 1; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/voxroute-consumer-ci.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

dev() { node -p "require('./package.json').devDependencies['$1']"; }
vitest_version=$(dev vitest)
msw_version=$(dev msw)
ws_version=$(dev ws)

tarball=$(npm pack --silent --pack-destination "$scratch" | tail -n 1)
echo "packed $tarball"

cp -R examples/consumer-ci/. "$scratch/app"
cd "$scratch/app"
mv "../$tarball" voxroute.tgz # the example's package.json depends on file:./voxroute.tgz
npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
  "vitest@$vitest_version" "msw@$msw_version" "ws@$ws_version"
# Any key the config names is absent here: the test must never need one.
env -u OPENAI_API_KEY -u DEEPGRAM_API_KEY -u CARTESIA_API_KEY -u ELEVENLABS_API_KEY npx --no-install vitest run
