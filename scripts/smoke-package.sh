#!/usr/bin/env bash
# Smoke test of the package as users get it: pack the built repo (run `npm run build` first),
# install the tarball into a scratch project outside the repo, then
#   1. import() and require() `voxroute` with the optional peers msw and ws absent (the main
#      entry must not need them), read `voxroute/schema.json`, and run the installed `voxroute` bin;
#   2. install msw and ws (the versions of our devDependencies), import() and require()
#      `voxroute/testing`, and run `voxroute demo` (the bin on the installed package);
#   3. import() and require() `voxroute/ai-sdk` (types only: it needs no AI SDK package at run
#      time), then install @livekit/agents and @livekit/rtc-node and do the same for
#      `voxroute/livekit`.
# Usage: bash scripts/smoke-package.sh   (from anywhere; exits non-zero on any failure)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
[ -f dist/index.js ] || { echo "smoke-package: no dist/; run 'npm run build' first" >&2; exit 1; }
# The CommonJS files load none of the package's own files with import(): sandboxes such as Jest
# (without --experimental-vm-modules) refuse a dynamic import() in CommonJS, and every call of a
# router would fail there. (import() of an optional package stays: it is caught and reported.)
if grep -nE "import\\(['\"]\\.{1,2}/" dist/*.cjs dist/*/*.cjs; then
  echo "smoke-package: a CommonJS file of dist/ loads a file of the package with import()" >&2
  exit 1
fi
echo "ok: no CommonJS file of dist/ loads a file of the package with import()"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/voxroute-smoke.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

version=$(node -p "require('./package.json').version")
msw_version=$(node -p "require('./package.json').devDependencies.msw")
ws_version=$(node -p "require('./package.json').devDependencies.ws")
agents_version=$(node -p "require('./package.json').devDependencies['@livekit/agents']")
rtc_version=$(node -p "require('./package.json').devDependencies['@livekit/rtc-node']")

tarball=$(npm pack --silent --pack-destination "$scratch" | tail -n 1)
echo "packed $tarball"

cd "$scratch"
# A package.json of its own, so that npm installs here and not into some parent folder.
printf '{ "name": "voxroute-smoke", "private": true }\n' >package.json
npm_install() { npm install --no-save --no-audit --no-fund --ignore-scripts --loglevel=error "$@"; }

npm_install "./$tarball"
for peer in msw ws ai @ai-sdk/provider @livekit/agents @livekit/rtc-node; do
  if [ -d "node_modules/$peer" ]; then
    echo "smoke-package: $peer got installed with voxroute; it must stay an optional peer" >&2
    exit 1
  fi
done
node "$repo/test/package/smoke.mjs" voxroute
node "$repo/test/package/smoke.cjs" voxroute
title=$(node -p "require('voxroute/schema.json').title")
[ "$title" = "voxroute router config" ] || { echo "smoke-package: voxroute/schema.json has title '$title'" >&2; exit 1; }
echo "ok: require('voxroute/schema.json') is the config's JSON Schema"

got=$(npx --no-install voxroute --version)
[ "$got" = "$version" ] || { echo "smoke-package: 'voxroute --version' printed '$got', want '$version'" >&2; exit 1; }
echo "ok: npx voxroute --version prints $got"
set +e
npx --no-install voxroute no-such-command 2>/dev/null
code=$?
set -e
[ "$code" -eq 2 ] || { echo "smoke-package: unknown command exited $code, want 2" >&2; exit 1; }
echo "ok: npx voxroute no-such-command exits 2"

npm_install "./$tarball" "msw@$msw_version" "ws@$ws_version"
node "$repo/test/package/smoke.mjs" voxroute/testing
node "$repo/test/package/smoke.cjs" voxroute/testing
# The bin reaches the library through the package's self-reference: check it from an install.
demo=$(npx --no-install voxroute demo)
grep -q '^tts: .* via mock-b after mock-a failed' <<<"$demo" || { echo "smoke-package: 'voxroute demo' printed: $demo" >&2; exit 1; }
echo "ok: npx voxroute demo runs a voice turn on the installed package"

node "$repo/test/package/smoke.mjs" voxroute/ai-sdk
node "$repo/test/package/smoke.cjs" voxroute/ai-sdk
npm_install "./$tarball" "@livekit/agents@$agents_version" "@livekit/rtc-node@$rtc_version"
node "$repo/test/package/smoke.mjs" voxroute/livekit
node "$repo/test/package/smoke.cjs" voxroute/livekit
echo "smoke-package: all checks passed"
