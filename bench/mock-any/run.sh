#!/usr/bin/env bash
# `make bench-mock-any`: the "mock any API" server (`petstore-mock serve --spec DOC`) against
# the public API descriptions of bench/mock-any/documents.txt, one after the other. Per document:
#  1. Schemathesis, every phase (examples, coverage, fuzzing, stateful) and every check, within
#     a fixed budget: operations tested, requests sent, 5xx answers, failing responses by check
#     with an example of each. The stateful phase creates resources and reads them back
#     (checks use_after_free and ensure_resource_availability).
#  2. Requests per second under wrk, petstore-mock vs Prism on the same document: one GET, the
#     first whose only required parameters are path parameters (filled from the document's
#     examples, else `1`) that both servers answer with 2xx.
# Prints Markdown and saves it to target/bench-mock-any/results.md, with every figure in
# target/bench-mock-any/results.json. Not part of `make test`: it takes about 25 minutes and
# the figures depend on the machine. Every server listens on 127.0.0.1 and is stopped at the end.
#
# Installs what is missing: wrk (Debian package), Prism (pinned in bench/package.json, into
# bench/node_modules), Schemathesis (pinned, into .tools/venv, the venv scripts/schemathesis.sh
# uses; python3-venv from Debian when python3 cannot make one), the documents (corpus/fetch.mjs).
#
# Environment:
#   MOCK_ANY_TARGET      who Schemathesis tests: ours, prism, or auto (default): ours when the
#                        binary knows `serve --spec`, else Prism (the table says which)
#   MOCK_ANY_BIN         a petstore-mock binary to use instead of building one
#   MOCK_ANY_MAX_TIME    Schemathesis' time budget per document in seconds (40)
#   MOCK_ANY_MAX_EXAMPLES  cases per operation and phase in each round (10)
#   MOCK_ANY_WORKERS     Schemathesis workers (2); MOCK_ANY_SEED (20260601)
#   MOCK_ANY_ONLY        a regular expression: only the documents whose id matches
#   MOCK_ANY_SCHEMATHESIS=0, MOCK_ANY_RPS=0  skip part 1, part 2
#   MOCK_ANY_KEEP_EVENTS=1  keep Schemathesis' events (every request, answer and check) of each
#                        document in $OUT/events/<id>.ndjson, to look into the failures
#   WRK_THREADS (2), WRK_CONNECTIONS (32), WRK_DURATION (5s), WRK_WARMUP (1s)
#   PRISM_START_TIMEOUT  seconds Prism may take to load a document (60; it never loads Stripe)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
HERE="$ROOT/bench/mock-any"
BENCH="$ROOT/bench"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET_DIR/bench-mock-any"
VENV="$ROOT/.tools/venv"
PY="$VENV/bin/python"
SCHEMATHESIS_VERSION="4.32.5" # the pin of scripts/schemathesis.sh: both share .tools/venv
PRISM_VERSION="5.14.2"        # the pin of bench/package.json
TARGET="${MOCK_ANY_TARGET:-auto}"
MAX_TIME="${MOCK_ANY_MAX_TIME:-40}"
MAX_EXAMPLES="${MOCK_ANY_MAX_EXAMPLES:-10}"
WORKERS="${MOCK_ANY_WORKERS:-2}"
SEED="${MOCK_ANY_SEED:-20260601}"
ONLY="${MOCK_ANY_ONLY:-}"
THREADS="${WRK_THREADS:-2}"
CONNECTIONS="${WRK_CONNECTIONS:-32}"
DURATION="${WRK_DURATION:-5s}"
WARMUP="${WRK_WARMUP:-1s}"
PRISM_START_TIMEOUT="${PRISM_START_TIMEOUT:-60}"
cd "$ROOT"
case "$TARGET" in auto | ours | prism) ;; *) echo "MOCK_ANY_TARGET is ours, prism or auto, not $TARGET" >&2; exit 2 ;; esac

# --- tools -----------------------------------------------------------------------------------
if ! command -v wrk >/dev/null; then
  echo "Installing wrk (Debian)"
  apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
fi
installed_version() { node -p "require('$BENCH/node_modules/$1/package.json').version" 2>/dev/null || true; }
if [[ "$(installed_version @stoplight/prism-cli)" != "$PRISM_VERSION" ]]; then
  echo "Installing the benchmark's npm packages into bench/node_modules"
  (cd "$BENCH" && npm ci --no-audit --no-fund --loglevel=error)
fi
installed="$("$VENV/bin/schemathesis" --version 2>/dev/null || true)"
if [[ "$installed" != *" $SCHEMATHESIS_VERSION" ]]; then
  echo "Installing schemathesis $SCHEMATHESIS_VERSION into .tools/venv (found: ${installed:-none})"
  if [[ ! -x "$PY" ]]; then
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
      echo "Installing python3-venv (Debian)"
      apt-get install -y -qq python3-venv >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }
    fi
    python3 -m venv "$VENV"
  fi
  "$PY" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# documents.txt: one corpus id a line, then `# shape: why`; blank lines and comments skipped.
ids=()
labels=()
while IFS= read -r line; do
  id="${line%%#*}"
  id="${id//[[:space:]]/}"
  [[ -n "$id" ]] || continue
  [[ -z "$ONLY" || "$id" =~ $ONLY ]] || continue
  ids+=("$id")
  label="${line#*#}"
  [[ "$label" != "$line" ]] || label=""
  labels+=("$(sed 's/^ *//; s/:.*//' <<<"$label")")
done <"$HERE/documents.txt"
[[ ${#ids[@]} -gt 0 ]] || { echo "No document of bench/mock-any/documents.txt matches MOCK_ANY_ONLY=$ONLY" >&2; exit 2; }
DOCS="${CORPUS_CACHE:-$ROOT/corpus/cache}/documents"
for id in "${ids[@]}"; do
  if [[ ! -f "$DOCS/$id" ]]; then
    echo "Fetching the corpus (node corpus/fetch.mjs)"
    node corpus/fetch.mjs
    break
  fi
done
for id in "${ids[@]}"; do
  [[ -f "$DOCS/$id" ]] || { echo "$id is not in corpus/manifest.json (or the fetch failed)" >&2; exit 1; }
done

# --- the server under test ---------------------------------------------------------------------
# Native figures use Cargo's usual release settings, in the profile bench/mock/run.sh builds (the
# workspace's release profile is tuned for a small wasm: opt-level "z", panic = "abort").
PROFILE=(--config 'profile.native-bench.inherits="release"' --config 'profile.native-bench.opt-level=3'
         --config 'profile.native-bench.lto=false' --config 'profile.native-bench.codegen-units=16'
         --config 'profile.native-bench.panic="unwind"')
BIN="${MOCK_ANY_BIN:-}"
if [[ -z "$BIN" && "$TARGET" != prism ]]; then
  echo "==> building petstore-mock"
  if cargo "${PROFILE[@]}" build --quiet --locked --profile native-bench -p playground-server --bin petstore-mock; then
    BIN="$TARGET_DIR/native-bench/petstore-mock"
  elif [[ "$TARGET" == ours ]]; then
    echo "petstore-mock does not build" >&2
    exit 1
  else
    echo "petstore-mock does not build: Prism only" >&2
  fi
fi
ours=no
if [[ -n "$BIN" ]] && "$BIN" serve --help 2>/dev/null | grep -q -- '--spec'; then ours=yes; fi
note=""
if [[ "$TARGET" == auto ]]; then
  if [[ "$ours" == yes ]]; then TARGET=ours; else
    TARGET=prism
    note="**petstore-mock has no \`serve --spec\` yet: Schemathesis tested Prism, and there is no req/s of ours.**"
    echo "petstore-mock has no 'serve --spec' yet: testing Prism" >&2
  fi
elif [[ "$TARGET" == ours && "$ours" != yes ]]; then
  echo "$BIN has no 'serve --spec'" >&2
  exit 1
fi

# --- servers ----------------------------------------------------------------------------------
work="$(mktemp -d)"
pids=()
stop_all() {
  for pid in "${pids[@]}"; do
    # Each server runs in a session of its own (setsid): its group holds it and its children.
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
st_pid="" # Schemathesis, while it runs (`timeout` passes the signal on)
trap '[[ -z "$st_pid" ]] || kill -TERM "$st_pid" 2>/dev/null || true; stop_all; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# stop PID: one server and its group.
stop() {
  kill -TERM -- "-$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  local rest=()
  for pid in "${pids[@]}"; do [[ "$pid" == "$1" ]] || rest+=("$pid"); done
  pids=("${rest[@]}")
}
free_port() {
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}
# start_ours DOC LOG: sets server_url and server_pid, or returns 1 (the log says why).
start_ours() {
  # The credentials Schemathesis and wrk send (document.py); any other value is refused, as the
  # real API would refuse it.
  setsid "$BIN" serve --spec "$1" --host 127.0.0.1 --port 0 --credential bench --credential bench:bench \
    >"$2.out" 2>"$2" &
  server_pid=$!
  pids+=("$server_pid")
  server_url=""
  for _ in $(seq 1 600); do
    server_url="$(sed -n 's/^petstore-mock listening on //p' "$2.out")"
    [[ -n "$server_url" ]] && return 0
    kill -0 "$server_pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
# start_prism DOC LOG: the same for Prism. It has answered once any HTTP status comes back.
start_prism() {
  local port
  port="$(free_port)"
  # Log level "warn": Prism otherwise logs every request, which would slow it down.
  setsid "$BENCH/node_modules/.bin/prism" mock -h 127.0.0.1 -p "$port" -v warn "$1" >"$2" 2>&1 &
  server_pid=$!
  pids+=("$server_pid")
  server_url="http://127.0.0.1:$port"
  local deadline=$((SECONDS + PRISM_START_TIMEOUT))
  while ((SECONDS < deadline)); do
    [[ "$(curl -s -o /dev/null -w '%{http_code}' "$server_url/" || true)" != 000 ]] && return 0
    kill -0 "$server_pid" 2>/dev/null || return 1
    sleep 0.2
  done
  echo "did not answer within $PRISM_START_TIMEOUT s" >>"$2"
  return 1
}
start() { if [[ "$1" == ours ]]; then start_ours "$2" "$3"; else start_prism "$2" "$3"; fi; }
# why LOG: the lines worth quoting from a server's log when it died or would not start: a Rust
# panic and its message, an exception, else the last line.
why() {
  local found
  found="$(grep -m1 -A1 'panicked at' "$1" 2>/dev/null || grep -m1 -E '^([A-Za-z]*Error|error|Error|fatal|FATAL)\b' "$1" 2>/dev/null ||
    grep -v '^\s*$' "$1" 2>/dev/null | tail -n 1 || true)"
  tr '\n' ' ' <<<"$found" | sed 's/\x1b\[[0-9;]*m//g' | cut -c1-300
}
# panics LOG: how many times a Rust server panicked while it kept running.
panics() { grep -c 'panicked at' "$1" 2>/dev/null || true; }
json_string() { "$PY" -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$1"; }

# status URL HEADER...: the status code of one GET.
status() {
  local url="$1" args=()
  shift
  for h in "$@"; do args+=(-H "$h"); done
  curl -s -o /dev/null -m 10 -w '%{http_code}' "${args[@]}" "$url" || true
}
# run_wrk URL HEADER...: prints "req/s non-2xx".
run_wrk() {
  local url="$1" args=() out="$work/wrk.txt"
  shift
  for h in "$@"; do args+=(-H "$h"); done
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "${args[@]}" "$url" >/dev/null 2>&1 || true
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "${args[@]}" "$url" >"$out" 2>&1 || true
  local rps non2xx
  rps="$(awk '/^Requests\/sec:/ { print $2 }' "$out")"
  non2xx="$(awk '/Non-2xx or 3xx responses:/ { print $5 }' "$out")"
  echo "${rps:-0} ${non2xx:-0}"
}

# --- per document -----------------------------------------------------------------------------
target_label="petstore-mock"
[[ "$TARGET" == prism ]] && target_label="Prism $PRISM_VERSION (petstore-mock has no --spec yet)"
started=$SECONDS
for i in "${!ids[@]}"; do
  id="${ids[$i]}"
  doc="$DOCS/$id"
  dir="$work/docs/$(printf '%03d' "$i")"
  mkdir -p "$dir/st"
  echo "==> [$((i + 1))/${#ids[@]}] $id"
  "$PY" "$HERE/document.py" "$doc" >"$dir/document.json"
  printf '%s\n' "$id" >"$dir/id"
  printf '%s\n' "${labels[$i]}" >"$dir/label"
  # The shared settings plus this document's credentials, one per security scheme.
  { cat "$HERE/schemathesis.toml"; "$PY" "$HERE/document.py" "$doc" --auth-config; } >"$dir/schemathesis.toml"

  # 1. Schemathesis against a fresh server.
  crashed=false
  started_ok=true
  crash_log=""
  panic_count=0
  if [[ "${MOCK_ANY_SCHEMATHESIS:-1}" == 0 ]]; then
    :
  elif start "$TARGET" "$doc" "$dir/server.log"; then
    echo "    schemathesis against $server_url (budget ${MAX_TIME}s)"
    st_rc=0
    # Its working folder is a scratch one: Schemathesis keeps caches in the current folder, and
    # the repository's schemathesis.toml (for the Petstore) must not apply.
    # In the background, so that a stop signal reaches the trap at once (bash runs traps only
    # between commands, and `wait` is one it interrupts).
    (cd "$dir/st" && exec timeout --kill-after=10 $((MAX_TIME + 300)) "$VENV/bin/schemathesis" \
      --config-file "$dir/schemathesis.toml" run "$doc" \
      --url "$server_url" \
      --checks all \
      --phases examples,coverage,fuzzing,stateful \
      --max-examples "$MAX_EXAMPLES" \
      --max-time "$MAX_TIME" \
      --seed "$SEED" \
      --workers "$WORKERS" \
      --request-timeout 10 \
      --suppress-health-check all \
      --generation-database none \
      --report ndjson,json --report-ndjson-path events.ndjson --report-json-path run.json \
      --no-color >output.txt 2>&1) &
    st_pid=$!
    wait "$st_pid" || st_rc=$?
    st_pid=""
    if ! kill -0 "$server_pid" 2>/dev/null; then
      crashed=true
      crash_log="$(why "$dir/server.log")"
      echo "    the server died: $crash_log"
    fi
    panic_count="$(panics "$dir/server.log")"
    if [[ "${panic_count:-0}" -gt 0 && -z "$crash_log" ]]; then
      crash_log="$(why "$dir/server.log")"
      echo "    the server panicked $panic_count times: $crash_log"
    fi
    stop "$server_pid"
    if [[ -s "$dir/st/events.ndjson" && -s "$dir/st/run.json" ]]; then
      "$PY" "$HERE/report.py" summarize "$dir/st/events.ndjson" "$dir/st/run.json" "$doc" >"$dir/schemathesis.json"
    else
      message="Schemathesis exited with $st_rc: $(grep -v '^\s*$' "$dir/st/output.txt" | tail -n 3 | tr '\n' ' ' | cut -c1-300)"
      printf '{"requests": 0, "errors": [%s]}\n' "$(json_string "$message")" >"$dir/schemathesis.json"
    fi
    "$PY" "$HERE/report.py" line "$dir/schemathesis.json"
    if [[ "${MOCK_ANY_KEEP_EVENTS:-0}" == 1 ]]; then
      mkdir -p "$OUT/events" && cp "$dir/st/events.ndjson" "$OUT/events/$(echo "$id" | tr / _).ndjson" 2>/dev/null || true
    fi
    rm -f "$dir/st/events.ndjson"
  else
    crash_log="$(why "$dir/server.log")"
    echo "    the server did not start: $crash_log"
    printf '{"requests": 0, "errors": [%s]}\n' "$(json_string "the server did not start: $crash_log")" >"$dir/schemathesis.json"
    started_ok=false
    stop "$server_pid"
  fi
  printf '{"started": %s, "crashed": %s, "panics": %s, "crash_log": %s}\n' "$started_ok" "$crashed" "${panic_count:-0}" \
    "$(json_string "$crash_log")" >"$dir/server.json"

  # 2. Requests per second: fresh servers, the same GET and wrk settings for both.
  if [[ "${MOCK_ANY_RPS:-1}" == 0 ]]; then continue; fi
  ours_url="" ours_pid="" prism_url="" prism_pid="" rps_note=""
  if [[ "$ours" == yes ]]; then
    if start_ours "$doc" "$dir/ours-rps.log"; then ours_url="$server_url"; ours_pid="$server_pid"
    else rps_note="petstore-mock did not start: $(why "$dir/ours-rps.log")"; stop "$server_pid"; fi
  fi
  if [[ "$TARGET" == prism && "$started_ok" == false ]]; then
    rps_note="${rps_note:+$rps_note; }Prism did not start: $crash_log" # no second wait for it
  elif start_prism "$doc" "$dir/prism-rps.log"; then prism_url="$server_url"; prism_pid="$server_pid"
  else rps_note="${rps_note:+$rps_note; }Prism did not start: $(why "$dir/prism-rps.log")"; stop "$server_pid"; fi
  chosen="" chosen_headers=() status_ours="-" status_prism="-" filled=0
  while IFS=$'\t' read -r -a fields; do
    target="${fields[0]}"
    headers=("${fields[@]:2}")
    so="-" sp="-"
    [[ -n "$ours_url" ]] && so="$(status "$ours_url$target" "${headers[@]}")"
    [[ -n "$prism_url" ]] && sp="$(status "$prism_url$target" "${headers[@]}")"
    if [[ -z "$chosen" ]]; then
      chosen="$target" chosen_headers=("${headers[@]}") status_ours="$so" status_prism="$sp" filled="${fields[1]}"
    fi
    # The first GET that every running server answers with 2xx wins; else the first one.
    if [[ ( -z "$ours_url" || "$so" == 2?? ) && ( -z "$prism_url" || "$sp" == 2?? ) ]]; then
      chosen="$target" chosen_headers=("${headers[@]}") status_ours="$so" status_prism="$sp" filled="${fields[1]}"
      break
    fi
  done < <("$PY" "$HERE/document.py" "$doc" --candidates)
  rps_ours=0 rps_prism=0 non2xx_ours=0 non2xx_prism=0
  if [[ -z "$chosen" ]]; then
    rps_note="${rps_note:+$rps_note; }no GET without a body"
  else
    [[ "$filled" == 1 ]] && rps_note="${rps_note:+$rps_note; }required query or header parameters filled"
    if [[ -n "$ours_url" ]]; then
      echo "    wrk petstore-mock GET $chosen ($status_ours)"
      read -r rps_ours non2xx_ours < <(run_wrk "$ours_url$chosen" "${chosen_headers[@]}")
    fi
    if [[ -n "$prism_url" ]]; then
      echo "    wrk Prism GET $chosen ($status_prism)"
      read -r rps_prism non2xx_prism < <(run_wrk "$prism_url$chosen" "${chosen_headers[@]}")
    fi
    echo "    req/s: ${ours_url:+petstore-mock $rps_ours, }Prism $rps_prism"
  fi
  [[ -z "$ours_pid" ]] || stop "$ours_pid"
  [[ -z "$prism_pid" ]] || stop "$prism_pid"
  cat >"$dir/rps.json" <<JSON
{"target": $(json_string "$chosen"), "headers": $(json_string "${chosen_headers[*]}"),
 "status_ours": "$status_ours", "status_prism": "$status_prism",
 "ours": $rps_ours, "prism": $rps_prism, "non2xx_ours": $non2xx_ours, "non2xx_prism": $non2xx_prism,
 "note": $(json_string "$rps_note")}
JSON
done
elapsed=$((SECONDS - started))

# --- report -----------------------------------------------------------------------------------
cat >"$work/meta.json" <<JSON
{"commit": $(json_string "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' + uncommitted changes')"),
 "cores": $(nproc), "target": "$TARGET", "target_label": $(json_string "$target_label"), "note": $(json_string "$note"),
 "schemathesis": "$SCHEMATHESIS_VERSION", "prism": "$PRISM_VERSION",
 "max_examples": $MAX_EXAMPLES, "max_time": $MAX_TIME, "seed": $SEED, "workers": $WORKERS,
 "threads": $THREADS, "connections": $CONNECTIONS, "duration": "$DURATION", "warmup": "$WARMUP",
 "elapsed_seconds": $elapsed}
JSON
mkdir -p "$OUT"
"$PY" "$HERE/report.py" collect "$work" >"$OUT/results.json"
"$PY" "$HERE/report.py" render "$OUT/results.json" >"$OUT/results.md"
echo
cat "$OUT/results.md"
echo "Took $((elapsed / 60)) min $((elapsed % 60)) s. Saved to ${OUT#"$ROOT"/}/results.md and results.json"
