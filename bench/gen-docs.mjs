// Generated OpenAPI 3.0 documents for the growth benchmark (bench/growth.mjs): deterministic
// (seeded) documents of about 1, 10, 50 and 100 MB, about one operation per KB (100,000
// operations at 100 MB), shaped like the large public descriptions (GitHub's, Microsoft Graph):
//
//   - root fields in the usual order: openapi, info, servers, tags, paths, components;
//   - tags of 20 to 100 operations, each tag one resource of a product area, with its
//     collection, item, sub-resource and action paths (list, create, get, update, replace,
//     delete, actions), path parameters declared on the path item;
//   - operations with a summary, a description of one to four sentences (some Markdown),
//     query and header parameters (inline or `$ref` to shared ones), a request body and
//     responses that `$ref` the tag's component schemas and the shared error responses;
//   - components: per tag 3 to 6 schemas of 6 to 16 properties (formats, enums, nested
//     `$ref`s, descriptions), shared schemas, parameters, responses and security schemes.
//
// Written as compact JSON (like Microsoft Graph's and APIs.guru's files) unless
// GEN_INDENT=<n> (GitHub's file is indented by 2). The same seed and size always give the
// same bytes.
//
//   node bench/gen-docs.mjs [MB ...]    writes target/bench/growth/generated-<MB>mb.json
//                                       (1 10 50 100 by default); skips files already there
//                                       from this generator version
// Environment: GEN_OUT (folder), GEN_SEED (1), GEN_INDENT (0).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
export const GENERATED = process.env.GEN_OUT ?? join(HERE, "../target/bench/growth");
// Bump when the output changes, so that files of an older generator are written again.
const VERSION = 2;

/** mulberry32: a small seeded PRNG; returns floats in [0, 1). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AREAS = ["Billing", "Identity", "Storage", "Compute", "Networking", "Messaging", "Analytics", "Catalog",
  "Orders", "Shipping", "Payments", "Support", "Marketing", "Inventory", "Security", "Audit", "Search",
  "Media", "Calendar", "Documents", "Projects", "Teams", "Devices", "Reports", "Notifications", "Workflows",
  "Integrations", "Compliance", "Pricing", "Accounts"];
const NOUNS = ["account", "address", "agent", "alert", "asset", "attachment", "batch", "bucket", "budget",
  "campaign", "card", "channel", "charge", "check", "cluster", "comment", "contact", "contract", "coupon",
  "credential", "customer", "dashboard", "dataset", "deployment", "device", "discount", "domain", "draft",
  "endpoint", "event", "export", "feed", "file", "filter", "folder", "form", "gateway", "grant", "group",
  "hook", "image", "import", "incident", "invoice", "issue", "item", "job", "key", "label", "lead", "license",
  "link", "list", "location", "log", "member", "message", "meter", "metric", "migration", "mandate", "note",
  "offer", "order", "package", "page", "partner", "payment", "payout", "plan", "policy", "pool", "price",
  "product", "profile", "project", "queue", "quote", "receipt", "record", "refund", "region", "release",
  "report", "request", "reservation", "review", "role", "route", "rule", "run", "schedule", "secret",
  "segment", "session", "setting", "shipment", "snapshot", "source", "subscription", "survey", "tax", "task",
  "template", "thread", "ticket", "token", "transfer", "trigger", "usage", "user", "variant", "vault",
  "version", "volume", "webhook", "workspace", "zone"];
const ACTIONS = ["archive", "restore", "publish", "cancel", "approve", "reject", "lock", "unlock", "verify",
  "refresh", "rotate", "retry", "pause", "resume", "close", "reopen", "export", "duplicate", "transfer", "sync"];
const WORDS = ("the a an of to for with by on in from when if this that each every its their your which " +
  "returns lists creates updates deletes replaces resource request response field fields value values " +
  "object objects identifier page results filter filters sorted order default maximum minimum optional " +
  "required only also must may can will not be is are was has have been used set sets current previous " +
  "next first last new existing related parent child owner organization account user team project " +
  "access permission scope token authenticated caller rate limit limits header headers status code error " +
  "errors retry later time timestamp date UTC ISO format string number integer boolean array list state " +
  "active archived pending deleted visible hidden public private read write admin members settings " +
  "billing usage events history changes version versions cursor pagination link links total count").split(" ");
const PROPERTY_NAMES = ["id", "name", "display_name", "description", "status", "state", "created_at",
  "updated_at", "deleted_at", "owner_id", "parent_id", "url", "html_url", "email", "phone", "currency",
  "amount", "quantity", "priority", "visibility", "labels", "metadata", "enabled", "locked", "expires_at",
  "version", "region", "type", "kind", "category", "source", "target", "notes", "score", "weight",
  "position", "color", "timezone", "locale", "external_id", "reference", "checksum", "size", "count"];
const STATUSES = ["active", "pending", "archived", "deleted", "draft", "failed", "succeeded", "queued", "paused"];

const cap = (s) => s[0].toUpperCase() + s.slice(1);
const camel = (s) => s.split(/[_\s-]+/).filter(Boolean).map((w, i) => (i ? cap(w) : w)).join("");
const pascal = (s) => s.split(/[_\s-]+/).filter(Boolean).map(cap).join("");
const plural = (s) => (/(s|x|ch|sh)$/.test(s) ? `${s}es` : /[^aeiou]y$/.test(s) ? `${s.slice(0, -1)}ies` : `${s}s`);
const human = (s) => s.replace(/_/g, " ");

/** The parts of one document: its tags, path items and component schemas, in order. */
function generator(seed) {
  const random = prng(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const chance = (p) => random() < p;
  const sentence = (min, max) => {
    const words = Array.from({ length: int(min, max) }, () => pick(WORDS));
    if (chance(0.15)) words.splice(int(1, words.length - 1), 0, `\`${pick(PROPERTY_NAMES)}\``);
    return `${cap(words.join(" "))}.`;
  };
  const paragraph = (min, max) => Array.from({ length: int(min, max) }, () => sentence(6, 18)).join(" ");
  const docsLink = (slug) => `See [the guide](https://docs.example.com/guides/${slug}) for details.`;

  const usedTags = new Set();
  const usedResources = new Set();
  // Every key of `paths` and `components.schemas` is unique (JSON.parse keeps the last of two
  // equal keys, but YAML parsers, which some tools read JSON with, refuse them).
  const usedPaths = new Set();
  const usedSchemas = new Set(["Error", "PageInfo", "Link", "SimpleUser"]);
  const schemaName = (name) => {
    let unique = name;
    for (let n = 2; usedSchemas.has(unique); n++) unique = `${name}${n}`;
    usedSchemas.add(unique);
    return unique;
  };
  let tagCount = 0;

  /** One tag: its entry, its paths ([path, item] pairs) and its schemas ([name, schema] pairs). */
  function tag() {
    tagCount += 1;
    const area = pick(AREAS);
    let noun = pick(NOUNS);
    let resource = `${area.toLowerCase()}_${noun}`;
    let suffix = 1;
    while (usedResources.has(resource)) resource = `${area.toLowerCase()}_${noun}${++suffix}`;
    usedResources.add(resource);
    if (suffix > 1) noun = `${noun}${suffix}`;
    let name = `${area} ${plural(human(noun))}`;
    while (usedTags.has(name)) name = `${name} ${tagCount}`;
    usedTags.add(name);
    const Schema = schemaName(pascal(`${area} ${noun}`));
    const base = `/v${int(1, 3)}/${area.toLowerCase()}/${plural(noun)}`;
    const idParam = `${noun}_id`;
    const entry = { name, description: `${paragraph(1, 3)} ${docsLink(resource.replace(/_/g, "-"))}` };

    // Schemas: the resource, its create and update bodies, its list page, sub-resources.
    const schemas = [];
    const ref = (n) => ({ $ref: `#/components/schemas/${n}` });
    const property = (prop) => {
      if (prop === "id" || prop.endsWith("_id")) return { type: "string", format: "uuid", description: sentence(4, 10), example: "3f6c2d1e-8b7a-4c5d-9e0f-1a2b3c4d5e6f" };
      if (prop.endsWith("_at")) return { type: "string", format: "date-time", description: sentence(4, 10), readOnly: prop !== "expires_at" };
      if (prop === "status" || prop === "state") return { type: "string", enum: STATUSES.slice(0, int(3, STATUSES.length)), description: sentence(5, 12) };
      if (["amount", "quantity", "priority", "score", "weight", "position", "size", "count", "version"].includes(prop)) {
        return { type: "integer", format: "int64", minimum: 0, description: sentence(4, 12) };
      }
      if (["enabled", "locked"].includes(prop)) return { type: "boolean", default: false, description: sentence(4, 10) };
      if (prop === "labels") return { type: "array", items: { type: "string", maxLength: 50 }, maxItems: 100, description: sentence(5, 12) };
      if (prop === "metadata") return { type: "object", additionalProperties: { type: "string" }, description: sentence(6, 14) };
      if (prop.endsWith("url")) return { type: "string", format: "uri", description: sentence(4, 10) };
      if (prop === "email") return { type: "string", format: "email", description: sentence(4, 10) };
      return { type: "string", maxLength: pick([64, 100, 255, 1024]), description: sentence(4, 14) };
    };
    const objectSchema = (props, required) => ({
      type: "object",
      description: paragraph(1, 2),
      required,
      properties: Object.fromEntries(props.map((p) => [p, property(p)])),
    });
    const props = ["id", "name", ...PROPERTY_NAMES.filter((p) => p !== "id" && p !== "name" && chance(0.22))].slice(0, 16);
    const resourceSchema = objectSchema(props, ["id", "name"]);
    resourceSchema.properties.owner = ref("SimpleUser");
    resourceSchema.properties.links = { type: "array", items: ref("Link") };
    schemas.push([Schema, resourceSchema]);
    const writable = props.filter((p) => p !== "id" && !p.endsWith("_at"));
    const Create = schemaName(`${Schema}Create`);
    const Update = schemaName(`${Schema}Update`);
    const Page = schemaName(`${Schema}Page`);
    schemas.push([Create, objectSchema(writable.slice(0, 8), ["name"])]);
    schemas.push([Update, objectSchema(writable.slice(0, 8), [])]);
    schemas.push([Page, {
      type: "object",
      description: `A page of ${plural(human(noun))}.`,
      required: ["items", "page_info"],
      properties: { items: { type: "array", items: ref(Schema) }, page_info: ref("PageInfo"), total_count: { type: "integer" } },
    }]);
    const subs = Array.from({ length: int(0, 2) }, () => pick(NOUNS)).filter((s, i, all) => s !== noun && all.indexOf(s) === i);
    const subSchemas = new Map();
    for (const sub of subs) {
      const subProps = ["id", ...PROPERTY_NAMES.filter((p) => p !== "id" && chance(0.2))].slice(0, 10);
      const subSchema = objectSchema(subProps, ["id"]);
      subSchema.properties[`${noun}_id`] = property("parent_id");
      subSchemas.set(sub, schemaName(`${Schema}${pascal(sub)}`));
      schemas.push([subSchemas.get(sub), subSchema]);
    }

    // Operations, grouped by path; the tag gets 20 to 100 of them.
    const want = int(20, 100);
    const items = new Map();
    let ops = 0;
    const pathParams = (names) => names.map((n) => ({ name: n, in: "path", required: true, description: sentence(4, 10), schema: { type: "string" } }));
    const add = (path, params, method, op) => {
      if (!items.has(path)) {
        if (usedPaths.has(path)) throw new Error(`gen-docs: two tags made the path ${path}`);
        usedPaths.add(path);
        items.set(path, params.length ? { parameters: pathParams(params) } : {});
      }
      const item = items.get(path);
      if (item[method]) return false;
      item[method] = op;
      ops += 1;
      return true;
    };
    const json = (schema) => ({ "application/json": { schema } });
    const errors = (...codes) => Object.fromEntries(codes.map((c) => [c, { $ref: `#/components/responses/${{ 400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 409: "Conflict", 422: "ValidationFailed", 429: "TooManyRequests" }[c]}` }]));
    const operation = (verb, what, extra) => ({
      tags: [name],
      summary: `${cap(verb)} ${what}`,
      description: `${paragraph(1, 4)}${chance(0.3) ? `\n\n${docsLink(`${resource}-${verb}`.replace(/_/g, "-"))}` : ""}`,
      operationId: `${camel(resource)}/${camel(`${verb} ${what}`.replace(/[^a-z0-9 ]/gi, " "))}`,
      ...extra,
    });
    const listParams = () => [
      { $ref: "#/components/parameters/PerPage" },
      { $ref: "#/components/parameters/Cursor" },
      ...(chance(0.5) ? [{ name: "sort", in: "query", description: sentence(5, 12), schema: { type: "string", enum: ["created", "updated", "name"], default: "created" } }] : []),
      ...(chance(0.4) ? [{ name: "status", in: "query", description: sentence(5, 12), schema: { type: "string", enum: STATUSES.slice(0, 4) } }] : []),
    ];
    const item = `${base}/{${idParam}}`;
    const main = [
      () => add(base, [], "get", operation("list", plural(human(noun)), { parameters: listParams(), responses: { 200: { description: "OK", content: json(ref(Page)) }, ...errors(401, 429) } })),
      () => add(base, [], "post", operation("create", `a ${human(noun)}`, { requestBody: { required: true, content: json(ref(Create)) }, responses: { 201: { description: "Created", content: json(ref(Schema)) }, ...errors(400, 401, 422) } })),
      () => add(item, [idParam], "get", operation("get", `a ${human(noun)}`, { responses: { 200: { description: "OK", content: json(ref(Schema)) }, ...errors(401, 404) } })),
      () => add(item, [idParam], "patch", operation("update", `a ${human(noun)}`, { parameters: [{ $ref: "#/components/parameters/IfMatch" }], requestBody: { required: true, content: json(ref(Update)) }, responses: { 200: { description: "OK", content: json(ref(Schema)) }, ...errors(404, 409, 422) } })),
      () => add(item, [idParam], "put", operation("replace", `a ${human(noun)}`, { requestBody: { required: true, content: json(ref(Create)) }, responses: { 200: { description: "OK", content: json(ref(Schema)) }, ...errors(404, 422) } })),
      () => add(item, [idParam], "delete", operation("delete", `a ${human(noun)}`, { responses: { 204: { description: "No Content" }, ...errors(403, 404) } })),
    ];
    for (const step of main) if (ops < want) step();
    // Then actions and sub-collections, each name used once in the tag.
    const shuffle = (xs) => xs.map((x) => [random(), x]).sort((a, b) => a[0] - b[0]).map(([, x]) => x);
    const actions = shuffle(ACTIONS);
    const others = [...subs, ...shuffle(NOUNS.filter((n) => n !== noun && !subs.includes(n)))];
    while (ops < want) {
      if (actions.length && chance(0.45)) {
        const action = actions.shift();
        add(`${item}/${action}`, [idParam], "post", operation(action, `a ${human(noun)}`, {
          ...(chance(0.5) ? { requestBody: { content: json({ type: "object", properties: { reason: { type: "string", description: sentence(4, 10) } } }) } } : {}),
          responses: { 202: { description: "Accepted", content: json(ref(Schema)) }, ...errors(404, 409) },
        }));
      } else {
        const sub = others.shift();
        const subSchema = subSchemas.get(sub) ?? Schema;
        const collection = `${item}/${plural(sub)}`;
        const what = `${human(sub)} of a ${human(noun)}`;
        add(collection, [idParam], "get", operation("list", plural(what), { parameters: listParams(), responses: { 200: { description: "OK", content: json({ type: "array", items: ref(subSchema) }) }, ...errors(404) } }));
        if (ops < want) add(collection, [idParam], "post", operation("add", `a ${what}`, { requestBody: { content: json(ref(subSchema)) }, responses: { 201: { description: "Created", content: json(ref(subSchema)) }, ...errors(404, 422) } }));
        const one = `${collection}/{${sub}_id}`;
        if (ops < want) add(one, [idParam, `${sub}_id`], "get", operation("get", `a ${what}`, { parameters: [{ $ref: "#/components/parameters/AcceptLanguage" }], responses: { 200: { description: "OK", content: json(ref(subSchema)) }, ...errors(404) } }));
        if (ops < want) add(one, [idParam, `${sub}_id`], "delete", operation("remove", `a ${what}`, { responses: { 204: { description: "No Content" }, ...errors(404) } }));
      }
    }
    return { entry, paths: [...items], schemas, operations: ops };
  }
  return tag;
}

const SHARED = {
  parameters: {
    PerPage: { name: "per_page", in: "query", description: "The number of results per page (max 100).", schema: { type: "integer", default: 30, minimum: 1, maximum: 100 } },
    Cursor: { name: "cursor", in: "query", description: "A cursor, as given in the `page_info` of the previous page.", schema: { type: "string" } },
    IfMatch: { name: "If-Match", in: "header", description: "Only apply the change when the resource still has this ETag.", schema: { type: "string" } },
    AcceptLanguage: { name: "Accept-Language", in: "header", description: "The language of human-readable fields.", schema: { type: "string", example: "en-US" } },
  },
  responses: Object.fromEntries([
    ["BadRequest", "The request is malformed."], ["Unauthorized", "Authentication is required."],
    ["Forbidden", "The caller may not do this."], ["NotFound", "No such resource."],
    ["Conflict", "The resource changed meanwhile."], ["ValidationFailed", "The body did not validate."],
    ["TooManyRequests", "Rate limit exceeded; retry after the time in `Retry-After`."],
  ].map(([n, d]) => [n, { description: d, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } }])),
  schemas: {
    Error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" }, documentation_url: { type: "string", format: "uri" }, errors: { type: "array", items: { type: "object", properties: { field: { type: "string" }, code: { type: "string" } } } } } },
    PageInfo: { type: "object", properties: { next_cursor: { type: "string", nullable: true }, has_more: { type: "boolean" } } },
    Link: { type: "object", required: ["rel", "href"], properties: { rel: { type: "string" }, href: { type: "string", format: "uri" } } },
    SimpleUser: { type: "object", required: ["id", "login"], properties: { id: { type: "integer" }, login: { type: "string" }, avatar_url: { type: "string", format: "uri" }, type: { type: "string", enum: ["User", "Bot", "Organization"] } } },
  },
  securitySchemes: {
    oauth2: { type: "oauth2", flows: { authorizationCode: { authorizationUrl: "https://auth.example.com/authorize", tokenUrl: "https://auth.example.com/token", scopes: { read: "Read access", write: "Write access" } } } },
    apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
  },
};

/**
 * The document of about `megabytes` MB (10^6 bytes) for `seed`, as text, with its counts.
 * Tags are added until the text reaches the size, so it is at most one tag over.
 */
export function generate({ megabytes, seed = 1, indent = 0 }) {
  const target = megabytes * 1e6;
  const tag = generator(seed * 1000 + Math.round(megabytes * 10));
  const str = (v) => JSON.stringify(v, null, indent || undefined);
  const tags = [];
  const paths = [];
  const schemas = [];
  let bytes = 2000; // the root fields and shared components
  let operations = 0;
  while (bytes < target) {
    const t = tag();
    tags.push(t.entry);
    for (const [path, item] of t.paths) {
      const text = str(item);
      paths.push([path, text]);
      bytes += text.length + path.length + 4;
    }
    for (const [name, schema] of t.schemas) {
      const text = str(schema);
      schemas.push([name, text]);
      bytes += text.length + name.length + 4;
    }
    bytes += str(t.entry).length + 1;
    operations += t.operations;
  }
  // The root, written field by field so that huge maps are joined as text.
  const pad = (n) => (indent ? `\n${" ".repeat(indent * n)}` : "");
  const colon = indent ? ": " : ":";
  const reindent = (text, n) => (indent ? text.replace(/\n/g, `\n${" ".repeat(indent * n)}`) : text);
  const map = (entries, level) => `{${entries.map(([k, text]) => `${pad(level + 1)}${JSON.stringify(k)}${colon}${reindent(text, level + 1)}`).join(",")}${pad(level)}}`;
  const field = (k, v) => [k, str(v)];
  const info = {
    title: `Generated API (${megabytes} MB, ${operations} operations)`,
    version: "1.0.0",
    description: `A generated description for the growth benchmark of Petstore Playground (bench/gen-docs.mjs, seed ${seed}). ${"It has realistic shapes: tags of 20 to 100 operations, shared component schemas, parameters and responses. ".repeat(3)}`,
    contact: { name: "API Support", url: "https://example.com/support", email: "support@example.com" },
    license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
  };
  const components = [
    ["schemas", map([...Object.entries(SHARED.schemas).map(([k, v]) => field(k, v)), ...schemas], 2)],
    ["parameters", str(SHARED.parameters)],
    ["responses", str(SHARED.responses)],
    ["securitySchemes", str(SHARED.securitySchemes)],
  ];
  const root = [
    field("openapi", "3.0.3"),
    field("info", info),
    field("servers", [{ url: "https://api.example.com", description: "Production" }, { url: "https://sandbox.api.example.com", description: "Sandbox" }]),
    field("security", [{ oauth2: ["read"] }, { apiKey: [] }]),
    ["tags", `[${tags.map((t) => `${pad(2)}${reindent(str(t), 2)}`).join(",")}${pad(1)}]`],
    ["paths", map(paths, 1)],
    ["components", map(components, 1)],
  ];
  const text = `${map(root, 0)}\n`;
  return { text, operations, tags: tags.length, paths: paths.length, schemas: schemas.length + Object.keys(SHARED.schemas).length };
}

/** Writes the document of `megabytes` MB into GENERATED unless this generator version wrote it; returns its path and counts. */
export function ensureGenerated(megabytes, { seed = Number(process.env.GEN_SEED ?? 1), indent = Number(process.env.GEN_INDENT ?? 0) } = {}) {
  mkdirSync(GENERATED, { recursive: true });
  const file = join(GENERATED, `generated-${megabytes}mb${seed !== 1 ? `-seed${seed}` : ""}${indent ? `-indent${indent}` : ""}.json`);
  const meta = `${file}.meta`;
  const key = JSON.stringify({ VERSION, megabytes, seed, indent });
  if (existsSync(file) && existsSync(meta)) {
    const saved = JSON.parse(readFileSync(meta, "utf8"));
    if (saved.key === key) return { file, ...saved.counts };
  }
  const { text, ...counts } = generate({ megabytes, seed, indent });
  writeFileSync(file, text);
  writeFileSync(meta, JSON.stringify({ key, counts: { ...counts, bytes: Buffer.byteLength(text) } }));
  return { file, ...counts, bytes: Buffer.byteLength(text) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sizes = process.argv.slice(2).map(Number);
  for (const mb of sizes.length ? sizes : [1, 10, 50, 100]) {
    const started = Date.now();
    const out = ensureGenerated(mb);
    console.log(`${out.file}: ${(out.bytes / 1e6).toFixed(1)} MB, ${out.operations} operations, ${out.tags} tags, ${out.paths} paths, ${out.schemas} schemas (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}
