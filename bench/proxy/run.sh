#!/usr/bin/env bash
# `make bench-proxy`: the latency `playground mock --proxy` adds to a call of a real API, beside
# a direct call and Prism's proxy (`prism proxy`), one run.
#
# The "real API" is `petstore-mock serve --seed` (the Petstore with its demo data, answering as
# openapi/petstore.yaml describes it). In front of it: `playground mock --spec
# openapi/petstore.yaml --proxy REAL --log FILE` (each request and answer checked, one log line
# per exchange), and `prism proxy openapi/petstore.yaml REAL` (Prism checks both too). One
# client (bench/proxy/latency.mjs) sends the same GETs one after another over a kept-alive
# connection to each, and the percentiles of the three are compared: the proxies' figures minus
# the direct call's are what each adds. Every server listens on 127.0.0.1 and is stopped at the
# end. Prints a Markdown table and writes it to bench/PROXY.md. Not part of `make test`: the
# figures depend on the machine and on what else runs on it.
#
# Installs what is missing: Prism (pinned in bench/package.json, into bench/node_modules).
# Environment: BENCH_PROXY_REQUESTS (2000 per URL), BENCH_PROXY_WARMUP (200 per URL).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BENCH="$ROOT/bench"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
REQUESTS="${BENCH_PROXY_REQUESTS:-2000}"
WARMUP="${BENCH_PROXY_WARMUP:-200}"
PRISM_VERSION="5.14.2"
SPEC="openapi/petstore.yaml"
cd "$ROOT"

# --- tools -----------------------------------------------------------------------------------
installed_version() { node -p "require('$BENCH/node_modules/$1/package.json').version" 2>/dev/null || true; }
if [[ "$(installed_version @stoplight/prism-cli)" != "$PRISM_VERSION" ]]; then
  echo "Installing the benchmark's npm packages into bench/node_modules"
  (cd "$BENCH" && npm ci --no-audit --no-fund --loglevel=error)
fi

# Native figures with Cargo's usual release settings (the workspace's release profile is tuned
# for a small wasm), in the profile bench/mock/run.sh uses too.
PROFILE=(--config 'profile.native-bench.inherits="release"' --config 'profile.native-bench.opt-level=3'
         --config 'profile.native-bench.lto=false' --config 'profile.native-bench.codegen-units=16'
         --config 'profile.native-bench.panic="unwind"')
echo "==> building petstore-mock and playground"
cargo "${PROFILE[@]}" build --quiet --locked --profile native-bench \
  -p playground-server --bin petstore-mock -p playground --bin playground

work="$(mktemp -d)"
pids=()
stop_all() {
  for pid in "${pids[@]}"; do
    # Each server runs in a session of its own (setsid): its group holds it and its children.
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap stop_all EXIT

free_port() {
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}
# url_of NAME OUT LOG PID: the URL a server printed as "NAME listening on URL".
url_of() {
  local url=""
  for _ in $(seq 1 300); do
    url="$(sed -n "s/^$1 listening on //p" "$2")"
    [[ -n "$url" ]] && { echo "$url"; return 0; }
    kill -0 "$4" 2>/dev/null || break
    sleep 0.1
  done
  echo "$1 printed no URL:" >&2
  cat "$3" >&2
  exit 1
}
# wait_for URL NAME LOG PID: until URL answers 200, or the server exits.
wait_for() {
  for _ in $(seq 1 600); do
    if [[ "$(curl -s -o /dev/null -w '%{http_code}' "$1" || true)" == "200" ]]; then return 0; fi
    if ! kill -0 "$4" 2>/dev/null; then
      echo "$2 did not start:" >&2
      cat "$3" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "$2 did not answer 200 at $1 within 60 s:" >&2
  cat "$3" >&2
  exit 1
}

setsid "$TARGET_DIR/native-bench/petstore-mock" serve --host 127.0.0.1 --port 0 --seed \
  >"$work/real.out" 2>"$work/real.log" &
pids+=($!)
real="$(url_of petstore-mock "$work/real.out" "$work/real.log" $!)"
wait_for "$real/pets/1" "petstore-mock (the real API)" "$work/real.log" "${pids[-1]}"

setsid "$TARGET_DIR/native-bench/playground" mock --host 127.0.0.1 --port 0 --spec "$SPEC" \
  --proxy "$real" --log "$work/drift.jsonl" >"$work/proxy.out" 2>"$work/proxy.log" &
pids+=($!)
proxy="$(url_of playground "$work/proxy.out" "$work/proxy.log" $!)"
wait_for "$proxy/pets/1" "playground mock --proxy" "$work/proxy.log" "${pids[-1]}"

prism_port="$(free_port)"
# Log level "warn": Prism otherwise logs every request, which would slow it down.
setsid "$BENCH/node_modules/.bin/prism" proxy -h 127.0.0.1 -p "$prism_port" -v warn "$SPEC" "$real" \
  >"$work/prism.log" 2>&1 &
pids+=($!)
prism="http://127.0.0.1:$prism_port"
wait_for "$prism/pets/1" "prism proxy" "$work/prism.log" "${pids[-1]}"

paths=("/pets/1" "/pets?limit=20")
urls=()
for base in "$real" "$proxy" "$prism"; do
  for path in "${paths[@]}"; do urls+=("$base$path"); done
done
load="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "==> $REQUESTS sequential GETs per URL after $WARMUP to warm up (load average $load)"
node "$BENCH/proxy/latency.mjs" "$REQUESTS" "$WARMUP" -- "${urls[@]}" | tee "$work/latency.jsonl"

drifted="$(grep -c '"mismatches":\[{' "$work/drift.jsonl" || true)"
logged="$(wc -l <"$work/drift.jsonl")"
sha="$(git rev-parse --short HEAD)"
report="$BENCH/PROXY.md"
node - "$work/latency.jsonl" "$real" "$proxy" "$prism" "$sha" "$(nproc)" "$REQUESTS" "$WARMUP" "$PRISM_VERSION" \
  "$logged" "$drifted" "$load" >"$report" <<'JS'
const fs = require("fs");
const [file, real, proxy, prism, sha, cores, requests, warmup, prismVersion, logged, drifted, load] = process.argv.slice(2);
const rows = fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const of = (base, path) => rows.find((r) => r.url === base + path);
const ms = (n) => n.toFixed(3);
const plus = (n) => (n >= 0 ? "+" : "") + n.toFixed(3);
const out = [];
out.push("# Proxy latency (`make bench-proxy`)");
out.push("");
out.push(`One run at ${sha} on ${cores} cores, ${new Date().toISOString().slice(0, 10)}: ${requests} sequential GETs per URL over one`);
out.push(`kept-alive connection after ${warmup} to warm up (bench/proxy/latency.mjs), all on 127.0.0.1. The real API is`);
out.push("`petstore-mock serve --seed`; `playground mock --spec openapi/petstore.yaml --proxy` checks each request");
out.push(`and answer and logs a line per exchange; Prism ${prismVersion}'s \`prism proxy\` checks them too. Times in milliseconds,`);
out.push("from sending to the last byte; *added* is the proxy's figure minus the direct call's.");
out.push("");
out.push("| Request | Direct p50 | Direct p99 | playground p50 | playground p99 | added p50 / p99 | Prism p50 | Prism p99 | added p50 / p99 |");
out.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const path of ["/pets/1", "/pets?limit=20"]) {
  const d = of(real, path), p = of(proxy, path), q = of(prism, path);
  out.push(`| GET ${path} | ${ms(d.p50)} | ${ms(d.p99)} | ${ms(p.p50)} | ${ms(p.p99)} | ${plus(p.p50 - d.p50)} / ${plus(p.p99 - d.p99)} | ${ms(q.p50)} | ${ms(q.p99)} | ${plus(q.p50 - d.p50)} / ${plus(q.p99 - d.p99)} |`);
}
out.push("");
const odd = rows.filter((r) => Object.keys(r.statuses).some((s) => s !== "200"));
out.push(odd.length === 0
  ? "Every answer was 200."
  : `Answers other than 200: ${odd.map((r) => `${r.url} ${JSON.stringify(r.statuses)}`).join("; ")}.`);
out.push(`Load average (1, 5, 15 min) when the measuring began: ${load}; other work on the machine shows in the p99s.`);
out.push(`The playground proxy logged ${logged.trim()} exchanges, ${drifted} of them with mismatches.`);
console.log(out.join("\n"));
JS
echo
cat "$report"
echo
echo "Saved to ${report#"$ROOT"/}"
