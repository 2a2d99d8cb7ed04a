#!/usr/bin/env bash
# `make bench-mock`: how fast the mock answers.
#  1. Core dispatch (criterion, crates/server/benches/dispatch.rs): one `Mock::handle` call, no
#     socket, for GET /pets/1, GET /pets?limit=20 and POST /pets.
#  2. Requests per second over HTTP under wrk, side by side in one run: the native server
#     (`petstore-mock serve --seed`), Prism mocking openapi/petstore.yaml, and json-server
#     serving the same seed pets. Same wrk settings for all; every server on 127.0.0.1,
#     every one stopped at the end.
# Prints Markdown tables and whether the goal "petstore-mock >= 10x Prism" is met; also saves
# them to target/bench-mock/results.md. Not part of `make test`: the figures depend on the
# machine and on what else runs on it.
#
# Installs what is missing: wrk (Debian package), Prism and json-server (pinned in
# bench/package.json, into bench/node_modules).
# Environment: WRK_THREADS (2), WRK_CONNECTIONS (32), WRK_DURATION (10s), WRK_WARMUP (2s);
# BENCH_MOCK_CRITERION=0 skips part 1 (`make bench` does); BENCH_MOCK_JSON=FILE also writes the
# requests per second as JSON (for bench/bench.mjs).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BENCH="$ROOT/bench"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
THREADS="${WRK_THREADS:-2}"
CONNECTIONS="${WRK_CONNECTIONS:-32}"
DURATION="${WRK_DURATION:-10s}"
WARMUP="${WRK_WARMUP:-2s}"
PRISM_VERSION="5.14.2"
JSON_SERVER_VERSION="0.17.4"
cd "$ROOT"

# --- tools -----------------------------------------------------------------------------------
if ! command -v wrk >/dev/null; then
  echo "Installing wrk (Debian)"
  apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
fi
installed_version() { node -p "require('$BENCH/node_modules/$1/package.json').version" 2>/dev/null || true; }
if [[ "$(installed_version @stoplight/prism-cli)" != "$PRISM_VERSION" ||
      "$(installed_version json-server)" != "$JSON_SERVER_VERSION" ]]; then
  echo "Installing the benchmark's npm packages into bench/node_modules"
  (cd "$BENCH" && npm ci --no-audit --no-fund --loglevel=error)
fi

# The workspace's release profile is tuned for a small wasm (opt-level "z", panic = "abort").
# Native figures use Cargo's usual release settings instead, in a profile of their own so that
# neither build invalidates the other.
PROFILE=(--config 'profile.native-bench.inherits="release"' --config 'profile.native-bench.opt-level=3'
         --config 'profile.native-bench.lto=false' --config 'profile.native-bench.codegen-units=16'
         --config 'profile.native-bench.panic="unwind"')

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

# --- 1. core dispatch -------------------------------------------------------------------------
if [[ "${BENCH_MOCK_CRITERION:-1}" != 0 ]]; then
  echo "==> criterion: core dispatch"
  cargo "${PROFILE[@]}" bench --locked --profile native-bench -p playground-server --bench dispatch \
    | tee "$work/criterion.txt"
else
  : >"$work/criterion.txt"
fi

# --- 2. HTTP servers --------------------------------------------------------------------------
echo "==> building petstore-mock"
cargo "${PROFILE[@]}" build --quiet --locked --profile native-bench -p playground-server --bin petstore-mock

free_port() {
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
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
  >"$work/native.out" 2>"$work/native.log" &
pids+=($!)
native_pid=$!
for _ in $(seq 1 300); do
  native="$(sed -n 's/^petstore-mock listening on //p' "$work/native.out")"
  [[ -n "$native" ]] && break
  sleep 0.1
done
[[ -n "$native" ]] || { echo "petstore-mock printed no URL" >&2; cat "$work/native.log" >&2; exit 1; }
wait_for "$native/pets/1" petstore-mock "$work/native.log" "$native_pid"

# json-server gets the native server's own seed data, so both serve the same pets.
curl -sf "$native/pets?limit=100" >"$work/pets.json"
curl -sf "$native/categories?limit=100" >"$work/categories.json"
node -e '
  const fs = require("fs");
  const [pets, categories, out] = process.argv.slice(1);
  const db = { pets: JSON.parse(fs.readFileSync(pets)), categories: JSON.parse(fs.readFileSync(categories)) };
  fs.writeFileSync(out, JSON.stringify(db, null, 2));
' "$work/pets.json" "$work/categories.json" "$work/db.json"

prism_port="$(free_port)"
# Log level "warn": Prism otherwise logs every request, which would slow it down.
setsid "$BENCH/node_modules/.bin/prism" mock -h 127.0.0.1 -p "$prism_port" -v warn openapi/petstore.yaml \
  >"$work/prism.log" 2>&1 &
pids+=($!)
prism="http://127.0.0.1:$prism_port"
wait_for "$prism/pets/1" Prism "$work/prism.log" "$!"

json_port="$(free_port)"
setsid "$BENCH/node_modules/.bin/json-server" --host 127.0.0.1 --port "$json_port" --quiet "$work/db.json" \
  >"$work/json-server.log" 2>&1 &
pids+=($!)
json_server="http://127.0.0.1:$json_port"
wait_for "$json_server/pets/1" json-server "$work/json-server.log" "$!"

# run_wrk NAME URL: prints "req/s non-2xx errors".
run_wrk() {
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "$2" >/dev/null
  local out="$work/wrk-$1.txt"
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "$2" >"$out"
  local rps non2xx errors
  rps="$(awk '/^Requests\/sec:/ { print $2 }' "$out")"
  non2xx="$(awk '/Non-2xx or 3xx responses:/ { print $5 }' "$out")"
  errors="$(grep 'Socket errors:' "$out" || true)"
  [[ -z "$errors" ]] || echo "    $1:$errors" >&2
  echo "${rps:-0} ${non2xx:-0}"
}

# json-server pages with `_limit`; `limit` would be a filter on a field of that name.
declare -A url=(
  [native-one]="$native/pets/1" [native-page]="$native/pets?limit=20"
  [prism-one]="$prism/pets/1" [prism-page]="$prism/pets?limit=20"
  [json-one]="$json_server/pets/1" [json-page]="$json_server/pets?_limit=20"
)
declare -A rps non2xx
for key in native-one prism-one json-one native-page prism-page json-page; do
  status="$(curl -s -o /dev/null -w '%{http_code}' "${url[$key]}")"
  [[ "$status" == "200" ]] || { echo "${url[$key]} answered $status, not 200" >&2; exit 1; }
  echo "==> wrk -t$THREADS -c$CONNECTIONS -d$DURATION ${url[$key]}"
  read -r "rps[$key]" "non2xx[$key]" < <(run_wrk "$key" "${url[$key]}")
  echo "    ${rps[$key]} req/s (non-2xx: ${non2xx[$key]})"
done

# --- report -----------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "n/a" }'; }
fmt() { awk -v n="$1" 'BEGIN { printf "%.0f", n }'; }
criterion_rows() {
  # "core dispatch/GET /pets/1" then "time:   [low est high]": report the estimate.
  awk '
    /^core dispatch\// { name = substr($0, 15); sub(/ *time:.*/, "", name); sub(/[ \t]+$/, "", name) }
    name != "" && /time:/ {
      gsub(/[\[\]]/, ""); sub(/.*time: */, "");
      split($0, t, " "); printf "| %s | %s %s |\n", name, t[3], t[4]; name = ""
    }' "$work/criterion.txt"
}
goal_met=yes
for endpoint in one page; do
  awk -v a="${rps[native-$endpoint]}" -v b="${rps[prism-$endpoint]}" 'BEGIN { exit !(a >= 10 * b) }' || goal_met=no
done
sha="$(git rev-parse --short HEAD)"
report="$TARGET_DIR/bench-mock/results.md"
mkdir -p "$(dirname "$report")"
{
  echo "## Mock benchmark ($sha, $(nproc) cores, wrk -t$THREADS -c$CONNECTIONS -d$DURATION after a $WARMUP warm-up)"
  echo
  if [[ -s "$work/criterion.txt" ]]; then
    echo "Core dispatch, one \`Mock::handle\` call (criterion estimate):"
    echo
    echo "| Request | Time per call |"
    echo "|---|---|"
    criterion_rows
    echo
  fi
  echo "HTTP requests per second:"
  echo
  echo "| Request | petstore-mock | Prism $PRISM_VERSION | json-server $JSON_SERVER_VERSION | vs Prism | vs json-server |"
  echo "|---|---:|---:|---:|---:|---:|"
  for endpoint in one page; do
    label="GET /pets/1"; [[ "$endpoint" == page ]] && label="GET /pets?limit=20 (json-server: ?_limit=20)"
    echo "| $label | $(fmt "${rps[native-$endpoint]}") | $(fmt "${rps[prism-$endpoint]}") |" \
         "$(fmt "${rps[json-$endpoint]}") | $(ratio "${rps[native-$endpoint]}" "${rps[prism-$endpoint]}") |" \
         "$(ratio "${rps[native-$endpoint]}" "${rps[json-$endpoint]}") |"
  done
  echo
  nonzero=""
  for key in "${!non2xx[@]}"; do [[ "${non2xx[$key]}" == 0 ]] || nonzero+=" $key=${non2xx[$key]}"; done
  [[ -z "$nonzero" ]] && echo "Every answer was 2xx." || echo "Non-2xx answers:$nonzero."
  echo
  echo "Goal \"petstore-mock >= 10x Prism\" on both requests: **$([[ $goal_met == yes ]] && echo met || echo NOT met)**."
} | tee "$report"
echo
echo "Saved to ${report#"$ROOT"/}"
if [[ -n "${BENCH_MOCK_JSON:-}" ]]; then
  cat >"$BENCH_MOCK_JSON" <<JSON
{
  "threads": $THREADS, "connections": $CONNECTIONS, "duration": "$DURATION", "warmup": "$WARMUP",
  "versions": { "prism": "$PRISM_VERSION", "jsonServer": "$JSON_SERVER_VERSION" },
  "rows": [
    { "request": "GET /pets/1", "native": ${rps[native-one]}, "prism": ${rps[prism-one]}, "jsonServer": ${rps[json-one]} },
    { "request": "GET /pets?limit=20 (json-server: ?_limit=20)", "native": ${rps[native-page]}, "prism": ${rps[prism-page]}, "jsonServer": ${rps[json-page]} }
  ]
}
JSON
fi
