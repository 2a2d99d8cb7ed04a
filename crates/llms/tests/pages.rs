//! The Markdown of the Petstore and of a small 3.1 description with a tag, a `$ref` cycle,
//! security schemes, a webhook, an operation without operationId, odd names and broken
//! references: the shape of `llms.txt`, every link resolving to a page, an operation's page,
//! and the bounds.

use std::collections::{HashMap, HashSet};

use playground_llms::{FULL, INDEX, MAX_FULL_BYTES, MAX_PAGE_BYTES, Page, operation_markdown, pages};
use playground_openapi::Catalog;
use playground_openapi::outline::markdown_file;
use serde_json::{Value, json};

fn petstore() -> (Value, Catalog) {
    let document = (*petstore::document::petstore_value()).clone();
    let catalog = Catalog::from_value(&document).expect("the Petstore is listed");
    (document, catalog)
}

/// A small OpenAPI 3.1 description with what the Petstore lacks.
fn small() -> (Value, Catalog) {
    let document = json!({
        "openapi": "3.1.0",
        "info": {"title": "Odd | API", "version": "0.1", "description": "An API with *odd* corners.\n\nMore here."},
        "servers": [{"url": "https://odd.example/v1"}],
        "security": [{"key": []}],
        "tags": [{"name": "Pets & Friends", "description": "Animals. And friends."}],
        "paths": {
            "/pets/{id}": {
                "get": {
                    "tags": ["Pets & Friends", "Other"],
                    "operationId": "get pet/|weird",
                    "summary": "Get a [pet]",
                    "description": "Returns the pet. Then more.",
                    "security": [{"bearer": []}, {"oauth": ["read:pets", "write:pets"]}],
                    "parameters": [
                        {"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "format": "int64", "minimum": 1}},
                        {"name": "mode", "in": "query", "description": "a | b\nor c", "schema": {"type": "string", "enum": ["a|b", "c"], "default": "c"}}
                    ],
                    "responses": {
                        "200": {
                            "description": "The tree",
                            "headers": {"X-Rate": {"description": "left | right", "schema": {"type": "integer"}}},
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}
                        }
                    }
                }
            },
            "/things": {
                "post": {
                    "deprecated": true,
                    "x-deprecated-sunset": "2030-01-01",
                    "x-stability": "beta",
                    "requestBody": {
                        "required": true,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Weird Name~1Ω"}}}
                    },
                    "responses": {"204": {"description": "Done"}}
                }
            },
            "/broken": {
                "get": {
                    "tags": ["Pets & Friends"],
                    "operationId": "broken",
                    "parameters": [{"$ref": "#/components/parameters/Missing"}],
                    "requestBody": {"$ref": "#/components/requestBodies/Missing"},
                    "responses": {
                        "200": {"description": "Half", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Missing"}}}},
                        "404": {"$ref": "#/components/responses/Missing"}
                    }
                }
            }
        },
        "webhooks": {
            "newPet": {
                "post": {
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}},
                    "responses": {"200": {"description": "Received"}}
                }
            }
        },
        "components": {
            "schemas": {
                "Node": {
                    "type": "object",
                    "description": "A node of a tree.",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string", "maxLength": 20},
                        "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}
                    }
                },
                "Weird Name/Ω": {
                    "type": "object",
                    "properties": {"when": {"type": "string", "format": "date-time"}, "odd": {"$ref": "#/components/schemas/Missing"}}
                },
                "index": {"type": "string"},
                "Number": 5
            },
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
                "key": {"type": "apiKey", "in": "header", "name": "X-Key"},
                "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://odd.example/token", "scopes": {"read:pets": "Read", "write:pets": "Write"}}}},
                "basic": {"type": "http", "scheme": "basic"}
            }
        }
    });
    let catalog = Catalog::from_value(&document).expect("the description is listed");
    (document, catalog)
}

fn by_path(pages: &[Page]) -> HashMap<&str, &str> {
    pages.iter().map(|p| (p.path.as_str(), p.text.as_str())).collect()
}

/// The local targets of the Markdown links of `text` (`[x](target)`), addresses elsewhere
/// left out.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = &after[..end];
        if !target.contains("://") && !target.starts_with("mailto:") && !target.starts_with('#') {
            out.push(target.to_owned());
        }
        rest = &after[end..];
    }
    out
}

/// `target` relative to the folder of the page at `from`, as a path from the site's top.
fn resolve(from: &str, target: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for segment in target.split('/') {
        match segment {
            ".." => {
                assert!(parts.pop().is_some(), "{target} from {from} leaves the site");
            }
            "." => {}
            s => parts.push(s),
        }
    }
    parts.join("/")
}

fn check_links(pages: &[Page]) {
    let files: HashSet<&str> = pages.iter().map(|p| p.path.as_str()).collect();
    for page in pages {
        for target in links(&page.text) {
            assert!(!target.starts_with('/'), "{}: {target} is relative", page.path);
            let file = resolve(&page.path, &target);
            assert!(files.contains(file.as_str()), "{}: {target} ({file}) is a page", page.path);
        }
    }
}

/// Every fenced JSON block of `text`.
fn json_blocks(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("```json\n") {
        let body = &rest[at + 8..];
        let end = body.find("\n```").expect("the block ends");
        out.push(serde_json::from_str(&body[..end]).unwrap_or_else(|e| panic!("{e}: {}", &body[..end])));
        rest = &body[end..];
    }
    out
}

#[test]
fn llms_txt_has_the_shape_and_links_every_operation_once() {
    for (document, catalog) in [petstore(), small()] {
        let pages = pages(&document, &catalog, &catalog.title);
        assert_eq!(pages[0].path, INDEX);
        assert_eq!(pages[1].path, FULL);
        let llms = &pages[0].text;
        let mut lines = llms.lines();
        assert_eq!(lines.next(), Some(format!("# {}", catalog.title).as_str()));
        assert_eq!(lines.next(), Some(""));
        let summary = lines.next().expect("a summary");
        assert!(summary.starts_with("> ") && !summary[2..].contains(['*', '\n']), "{summary}");
        assert!(llms.contains("\n## "), "{llms}");

        let linked = links(llms);
        let mut operations = HashSet::new();
        for op in catalog.operations() {
            let file = markdown_file(&op.anchor());
            if operations.insert(file.clone()) {
                let count = linked.iter().filter(|l| **l == file).count();
                assert_eq!(count, 1, "{file} is linked once in\n{llms}");
            }
        }
        assert_eq!(operations.len(), catalog.operation_count() + catalog.webhook_count());
        let names = document["components"]["schemas"].as_object().expect("schemas");
        for name in names.keys() {
            let file = markdown_file(&playground_openapi::outline::schema_anchor(name));
            assert!(linked.contains(&file), "{file} is linked");
        }
        check_links(&pages);
    }
}

#[test]
fn the_pages_are_the_catalogs_views() {
    let (document, catalog) = small();
    let pages = pages(&document, &catalog, "Odd");
    let files = by_path(&pages);
    for file in [
        "index.md",
        "operations/broken.md",
        "operations/webhook-post-newPet.md",
        "tags/default.md",
        "schemas/index.md",
        "schemas/Node.md",
        "schemas/Number.md",
    ] {
        assert!(files.contains_key(file), "{file} in {:?}", files.keys());
    }
    // Names that are not plain file names keep distinct files of their own.
    for name in ["get pet/|weird", "post-/things"] {
        let file = markdown_file(name);
        assert!(file.starts_with("operations/") && !file[11..].contains(['/', '|', ' ']), "{file}");
        assert!(files.contains_key(file.as_str()), "{file}");
    }
    for name in ["Pets & Friends", "Weird Name/Ω", "index"] {
        let anchor = if name.starts_with('P') { format!("tag/{name}") } else { format!("schema/{name}") };
        assert!(files.contains_key(markdown_file(&anchor).as_str()), "{anchor}");
    }
    assert_ne!(markdown_file("schema/index"), "schemas/index.md");
    // No tag page for the webhooks' list.
    assert_eq!(pages.iter().filter(|p| p.path.starts_with("tags/")).count(), 3);
    let overview = files["index.md"];
    assert!(overview.starts_with("# Odd\n\nVersion `0.1`\n\nAn API with *odd* corners."), "{overview}");
    assert!(overview.contains("[llms.txt](llms.txt)"), "{overview}");
    assert!(overview.contains("`key`: API key in the header `X-Key`"), "{overview}");
}

#[test]
fn an_operation_page_has_what_a_call_needs() {
    let (document, catalog) = petstore();
    let op =
        catalog.operations().find(|op| op.operation_id.as_deref() == Some("listPets")).expect("listPets");
    let page = operation_markdown(&document, &catalog, op);
    assert!(page.starts_with("# List pets\n\n`GET /pets` · operationId `listPets`\n"), "{page}");
    assert!(page.contains("Tags: [Animals](../tags/Animals.md)"), "{page}");
    assert!(page.contains("## Security\n\nNone"), "{page}");
    assert!(
        page.contains("\n| Name | In | Type | Required | Description |\n|---|---|---|---|---|\n"),
        "{page}"
    );
    assert!(
        page.contains(
            "| `limit` | query | integer, int32 | no | Page size. 1 to 100; default 20. Example: `20`. |"
        ),
        "{page}"
    );
    assert!(
        page.contains("| `status` | query | array of [PetStatus](../schemas/PetStatus.md) string | no |"),
        "{page}"
    );
    assert!(page.contains("\n### 200\n\nA page of pets.\n"), "{page}");
    assert!(page.contains("| `X-Total-Count` | integer, int64 |"), "{page}");
    assert!(page.contains("- `name` (string, required): The animal's name."), "{page}");
    assert!(!json_blocks(&page).is_empty());

    let create =
        catalog.operations().find(|op| op.operation_id.as_deref() == Some("createPet")).expect("createPet");
    let page = operation_markdown(&document, &catalog, create);
    let body =
        &page[page.find("## Request body").expect("a body")..page.find("## Responses").expect("responses")];
    assert!(body.starts_with("## Request body\n\nRequired.\n\nSchema (`application/json`): [NewPet](../schemas/NewPet.md) object."), "{body}");
    assert!(body.contains("\n- `categoryId` (integer, int64, required): "), "{body}");
    let examples = json_blocks(body);
    assert_eq!(examples.len(), 1, "{body}");
    assert!(examples[0]["name"].is_string(), "{body}");
    // A component listed once on the page is named after that, not listed again.
    assert_eq!(page.matches("- `code` (string, required)").count(), 1, "{page}");
    assert!(page.contains("Its fields are listed above."), "{page}");

    let all = pages(&document, &catalog, "Petstore");
    let file = markdown_file(&create.anchor());
    assert_eq!(all.iter().find(|p| p.path == file).map(|p| p.text.as_str()), Some(page.as_str()));
}

#[test]
fn security_badges_and_odd_cells_are_written_out() {
    let (document, catalog) = small();
    let find = |path: &str| catalog.operations().find(|op| op.path == path).expect("listed");
    let page = operation_markdown(&document, &catalog, find("/pets/{id}"));
    assert!(page.starts_with("# Get a [pet]\n\n`GET /pets/{id}` · operationId `get pet/|weird`"), "{page}");
    assert!(
        page.contains("Any one of:\n\n- `bearer` (Bearer token in `Authorization: Bearer <token>`, a JWT)\n"),
        "{page}"
    );
    assert!(page.contains("- `oauth` (OAuth 2 access token in `Authorization: Bearer <token>` (client credentials flow at `https://odd.example/token`)), scopes `read:pets`, `write:pets`"), "{page}");
    // Listed under two tags: its page names both, `llms.txt` links it once (checked above).
    assert!(page.contains("Tags: [Pets & Friends](../tags/"), "{page}");
    assert!(page.contains(", [Other](../tags/Other.md)\n"), "{page}");
    let row = page.lines().find(|l| l.starts_with("| `mode`")).expect("the mode row");
    assert_eq!(
        row,
        "| `mode` | query | string | no | a \\| b or c. One of: `\"a\\|b\"`, `\"c\"`. Default \"c\". |"
    );
    let header = page.lines().find(|l| l.starts_with("| `X-Rate`")).expect("the header row");
    assert_eq!(header, "| `X-Rate` | integer | left \\| right |");
    // The cycle: Node's children are Nodes, named and not expanded again.
    assert!(
        page.contains(
            "- `children` (array of [Node](../schemas/Node.md) object): Not expanded here: see its page.\n"
        ),
        "{page}"
    );

    let things = operation_markdown(&document, &catalog, find("/things"));
    assert!(things.starts_with("# POST /things\n\n`POST /things`\n\n**Deprecated.** This operation is deprecated and will be sunset on 2030-01-01.\n\n**Beta.**"), "{things}");
    assert!(things.contains("## Security\n\n- `key` (API key in the header `X-Key`)\n"), "{things}");
    assert!(things.contains("- `when` (string, date-time)"), "{things}");

    let hook = catalog.operations().find(|op| op.webhook).expect("the webhook");
    let page = operation_markdown(&document, &catalog, hook);
    assert!(page.starts_with("# Webhook POST newPet\n\nWebhook `newPet`: the API sends `POST`"), "{page}");
}

#[test]
fn broken_references_are_sentences() {
    let (document, catalog) = small();
    let broken = catalog.operations().find(|op| op.path == "/broken").expect("listed");
    let page = operation_markdown(&document, &catalog, broken);
    let problems = &page[page.find("## Not shown\n").expect("the problems")..];
    assert!(problems.lines().filter(|l| l.starts_with("- ")).count() >= 2, "{problems}");
    let all = pages(&document, &catalog, "Odd");
    let files = by_path(&all);
    assert!(files["schemas/Number.md"].starts_with("# Number\n\n"), "{}", files["schemas/Number.md"]);

    // A path item that is a broken reference, a schema that is no schema, a security
    // requirement naming no scheme: the pages are still written.
    let odd = json!({
        "openapi": "3.0.3",
        "info": {"title": "Broken", "version": "1"},
        "security": [{"nowhere": []}],
        "paths": {
            "/a": {"$ref": "#/components/pathItems/none"},
            "/b": {"get": {"responses": {"200": {"$ref": 7}}, "parameters": [5, {"name": "x"}]}}
        },
        "components": {"schemas": {"A": {"$ref": "#/nowhere"}, "B": {"type": 5, "properties": []}, "C": {"allOf": "x"}}}
    });
    let catalog = Catalog::from_value(&odd).expect("listed");
    let all = pages(&odd, &catalog, "");
    check_links(&all);
    for op in catalog.operations() {
        let page = operation_markdown(&odd, &catalog, op);
        assert!(page.starts_with("# "), "{page}");
    }
}

/// A description of `count` operations, each with a description of `bytes` bytes.
fn generated(count: usize, bytes: usize) -> (Value, Catalog) {
    // A short first paragraph, as most descriptions have, then the bulk.
    let text = format!("A generated item.\n\n{}", "Words of a long description. ".repeat(bytes / 29 + 1));
    let mut paths = serde_json::Map::new();
    for i in 0..count {
        paths.insert(
            format!("/items/{i}"),
            json!({"get": {"operationId": format!("item{i}"), "summary": format!("Item {i}"), "description": text, "responses": {"200": {"description": "OK"}}}}),
        );
    }
    let document = json!({"openapi": "3.1.0", "info": {"title": "Big", "version": "1"}, "paths": paths});
    let catalog = Catalog::from_value(&document).expect("listed");
    (document, catalog)
}

#[test]
fn llms_full_stops_at_its_bound() {
    // 300 pages of 32 KiB: past 8 MiB after some 256 of them.
    let (document, catalog) = generated(300, 32 * 1024);
    let all = pages(&document, &catalog, "Big");
    let full = &all.iter().find(|p| p.path == FULL).expect("llms-full.txt").text;
    assert!(full.len() <= MAX_FULL_BYTES + 1024, "{}", full.len());
    assert!(full.len() > MAX_FULL_BYTES - 64 * 1024, "{}", full.len());
    let included = full.matches("\n---\n\n# Item ").count();
    let last = full.rsplit("\n---\n\n").next().expect("a last part");
    let left_out = 300 - included;
    assert!(left_out > 0);
    assert_eq!(
        last,
        format!(
            "{left_out} pages are left out of this file, which stops at 8 MiB; [llms.txt](llms.txt) links them all.\n"
        )
    );
    assert!(full.starts_with("# Big\n"), "the overview comes first");
    // llms.txt still links every page.
    let llms = &all[0].text;
    assert_eq!(llms.matches("](operations/").count(), 300);
}

#[test]
fn a_page_is_cut_at_its_bound() {
    let (document, catalog) = generated(1, 3 * MAX_PAGE_BYTES / 2);
    let op = catalog.operations().next().expect("an operation");
    let page = operation_markdown(&document, &catalog, op);
    assert!(page.len() <= MAX_PAGE_BYTES, "{}", page.len());
    assert!(
        page.ends_with("This page is cut at 1 MiB; the description has the rest.\n"),
        "{}",
        &page[page.len() - 200..]
    );
}

#[test]
fn components_deeper_than_the_top_fields_are_linked_not_written_out() {
    let document = json!({
        "openapi": "3.1.0",
        "info": {"title": "Orders", "version": "1"},
        "paths": {"/orders": {"post": {
            "operationId": "createOrder",
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}},
            "responses": {"201": {"description": "Created"}}
        }}},
        "components": {"schemas": {
            "Order": {"type": "object", "properties": {
                "customer": {"$ref": "#/components/schemas/Customer"},
                "note": {"type": "object", "properties": {"text": {"type": "string"}}}
            }},
            "Customer": {"type": "object", "description": "Who pays, at length.", "properties": {
                "address": {"$ref": "#/components/schemas/Address"}
            }},
            "Address": {"type": "object", "properties": {"city": {"type": "string"}}}
        }}
    });
    let catalog = Catalog::from_value(&document).expect("a catalog");
    let op = catalog.operations().next().expect("createOrder");
    let page = operation_markdown(&document, &catalog, op);
    // The body's own component is written out, and so are its fields' components and inline
    // objects.
    assert!(page.contains("- `note` (object)\n  - `text` (string)"), "{page}");
    assert!(
        page.contains("- `customer` ([Customer](../schemas/Customer.md) object): Who pays, at length."),
        "{page}"
    );
    // A component below those is one line with a link; its fields are on its page.
    assert!(
        page.contains(
            "  - `address` ([Address](../schemas/Address.md) object): Its fields are on its page, [Address](../schemas/Address.md).\n"
        ),
        "{page}"
    );
    assert!(!page.contains("- `city` (string)"), "{page}");
    let all = pages(&document, &catalog, "Orders");
    let address = all.iter().find(|p| p.path == "schemas/Address.md").expect("Address's page");
    assert!(address.text.contains("- `city` (string)"), "{}", address.text);
}
