"""What `bench/mock-any/run.sh` needs to know about one API description.

    python document.py FILE               one JSON object: version, size, facts about its shape
    python document.py FILE --candidates  the GET requests worth timing under wrk, one a line
    python document.py FILE --auth-config  Schemathesis settings ([auth.openapi.NAME]) that send
                                          the bench's credentials for each security scheme

A candidate is a GET whose required parameters are all path parameters (filled from the
document's examples, else `1`), in document order; after them come GETs with required query or
header parameters, filled the same way. Each carries the credentials its security requirement
asks for: `bench` (API keys, bearer tokens) and `bench:bench` (Basic), the values run.sh tells
petstore-mock to accept (`--credential`); Prism takes any. Runs with the Python of .tools/venv, which has PyYAML (a Schemathesis dependency).
"""

import json
import os
import re
import sys
from urllib.parse import quote, urlsplit

import yaml

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
MAX_CANDIDATES = 12


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        return json.loads(data)
    except ValueError:
        return yaml.load(data, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def resolve(doc, value, depth=0):
    """Follows a local `$ref` (a parameter or a schema); anything else is returned as is."""
    while isinstance(value, dict) and isinstance(value.get("$ref"), str) and depth < 20:
        ref = value["$ref"]
        if not ref.startswith("#/"):
            return {}
        node = doc
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                return {}
            node = node[part]
        value, depth = node, depth + 1
    return value if isinstance(value, dict) else {}


def parameters(doc, path_item, operation):
    """The operation's parameters, path-level ones included unless the operation overrides them."""
    merged = {}
    for raw in list(path_item.get("parameters") or []) + list(operation.get("parameters") or []):
        param = resolve(doc, raw)
        if "name" in param and "in" in param:
            merged[(param["name"], param["in"])] = param
    return list(merged.values())


def sample(doc, param):
    """A value for a path parameter: its example, else its schema's, else `1` (by type)."""
    if "example" in param:
        return param["example"]
    examples = param.get("examples")
    if isinstance(examples, dict):
        for ex in examples.values():
            ex = resolve(doc, ex)
            if "value" in ex:
                return ex["value"]
    # Swagger 2.0 keeps the schema's keywords on the parameter itself.
    schema = resolve(doc, param.get("schema")) if "schema" in param else param
    for _ in range(5):
        variants = schema.get("allOf") or schema.get("oneOf") or schema.get("anyOf")
        if not variants or any(k in schema for k in ("type", "enum", "example", "default")):
            break
        schema = resolve(doc, variants[0])
    for key in ("example", "x-example", "default"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    fmt = schema.get("format")
    if fmt == "uuid":
        return "3fa85f64-5717-4562-b3fc-2c963f66afa6"
    if fmt == "date":
        return "2024-01-01"
    if fmt == "date-time":
        return "2024-01-01T00:00:00Z"
    return 1


def as_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def security_schemes(doc):
    return (doc.get("components") or {}).get("securitySchemes") or doc.get("securityDefinitions") or {}


def credentials(doc, operation):
    """Headers and query parameters that satisfy the first security requirement."""
    requirements = operation.get("security", doc.get("security")) or []
    schemes = security_schemes(doc)
    headers, query = [], []
    if not requirements or {} in requirements:
        return headers, query
    for name in requirements[0] or {}:
        scheme = resolve(doc, schemes.get(name) or {})
        kind = scheme.get("type")
        if kind == "apiKey":
            where, key = scheme.get("in"), scheme.get("name", "api_key")
            if where == "query":
                query.append(f"{quote(key)}=bench")
            elif where == "cookie":
                headers.append(f"Cookie: {key}=bench")
            else:
                headers.append(f"{key}: bench")
        elif kind in ("http", "basic") and (scheme.get("scheme", "basic").lower() == "basic"):
            headers.append("Authorization: Basic YmVuY2g6YmVuY2g=")
        elif kind in ("http", "oauth2", "openIdConnect"):
            headers.append("Authorization: Bearer bench")
    return headers, query


def auth_config(doc):
    """TOML: for each security scheme Schemathesis can fill, the bench's credential."""
    lines = []
    for name, scheme in security_schemes(doc).items():
        scheme = resolve(doc, scheme or {})
        kind = scheme.get("type")
        http = (scheme.get("scheme") or "").lower()
        if kind == "apiKey":
            values = {"api_key": "bench"}
        elif kind == "basic" or (kind == "http" and http == "basic"):
            values = {"username": "bench", "password": "bench"}
        elif kind in ("oauth2", "openIdConnect") or (kind == "http" and http == "bearer"):
            values = {"bearer": "bench"}
        else:
            continue
        # A TOML basic string is written as JSON writes a string.
        lines.append(f"\n[auth.openapi.{json.dumps(name)}]")
        lines.extend(f"{key} = {json.dumps(value)}" for key, value in values.items())
    return "\n".join(lines)


def candidates(doc):
    """GETs whose required parameters are all in the path, then (when a document has too few)
    GETs whose required query and header parameters are filled the same way."""
    plain, filled = [], []
    for template, item in (doc.get("paths") or {}).items():
        item = resolve(doc, item)
        op = item.get("get")
        if not isinstance(op, dict) or "#" in template or "?" in template:
            continue
        params = parameters(doc, item, op)
        path = template
        query, headers = [], []
        for p in params:
            if p["in"] == "path":
                path = path.replace("{" + p["name"] + "}", quote(as_text(sample(doc, p)), safe=""))
            elif p.get("required") and p["in"] == "query":
                query.append(f"{quote(p['name'])}={quote(as_text(sample(doc, p)), safe='')}")
            elif p.get("required") and p["in"] == "header":
                headers.append(f"{p['name']}: {as_text(sample(doc, p))}")
        if re.search(r"\{[^}]*\}", path):
            # A path parameter the operation does not declare: `1`, as for an undocumented one.
            path = re.sub(r"\{[^}]*\}", "1", path)
        auth_headers, auth_query = credentials(doc, op)
        query, headers = query + auth_query, headers + auth_headers
        if any(p.get("required") and p["in"] not in ("path", "query", "header") for p in params):
            continue
        required = any(p.get("required") and p["in"] != "path" for p in params)
        (filled if required else plain).append({
            "template": template,
            "target": path + ("?" + "&".join(query) if query else ""),
            "headers": headers,
            "filled": required,
        })
    return (plain + filled)[:MAX_CANDIDATES]


def shape(doc):
    """Facts for the report: operation count, collection + item pairs, nesting, bodies."""
    paths = doc.get("paths") or {}
    operations = 0
    form = False
    for item in paths.values():
        item = resolve(doc, item)
        for method in METHODS:
            op = item.get(method)
            if not isinstance(op, dict):
                continue
            operations += 1
            content = (resolve(doc, op.get("requestBody")).get("content") or {}) if "requestBody" in op else {}
            consumes = op.get("consumes", doc.get("consumes")) or []
            if any("form" in t for t in list(content) + list(consumes)) or any(
                    resolve(doc, p).get("in") == "formData" for p in op.get("parameters") or []):
                form = True
    templates = set(paths)
    collections = nested = 0
    for template in paths:
        m = re.fullmatch(r"(.*)/\{[^}/]+\}", template)
        if m and m.group(1) in templates:
            collections += 1
            if "{" in m.group(1):
                nested += 1
    servers = doc.get("servers") or []
    base = urlsplit(servers[0].get("url", "")).path if servers and isinstance(servers[0], dict) else doc.get("basePath", "")
    return {
        "operations": operations,
        "collections": collections,
        "nested": nested,
        "form": form,
        "security": sorted(security_schemes(doc)),
        "basePath": (base or "").rstrip("/"),
    }


def main():
    if len(sys.argv) != 2 and not (len(sys.argv) == 3 and sys.argv[2] in ("--candidates", "--auth-config")):
        sys.exit("usage: document.py FILE [--candidates | --auth-config]")
    path = sys.argv[1]
    doc = load(path)
    if sys.argv[2:] == ["--auth-config"]:
        print(auth_config(doc))
        return
    if sys.argv[2:] == ["--candidates"]:
        # For the shell: one candidate a line, "target<TAB>filled<TAB>header<TAB>header...".
        for c in candidates(doc):
            print("\t".join([c["target"], "1" if c["filled"] else "0", *c["headers"]]))
        return
    version = str(doc.get("openapi") or doc.get("swagger") or "")
    json.dump({"version": version, "size": os.path.getsize(path), **shape(doc)}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
