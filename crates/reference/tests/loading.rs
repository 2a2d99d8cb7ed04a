//! Loading other documents: format detection, the shape checks and their messages, the `?url=`
//! parameter, and the flat rows of the virtual operation list.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test, with its location

use petstore::document::PETSTORE_JSON;
use playground_openapi::catalog::Catalog;
use playground_openapi::document::{
    DocumentError, Format, Source, detect_format, parse_json, url_from_query, validate,
};
use playground_openapi::outline::{RENDER_ALL_UP_TO, Row, position, rows, scroll_to_show, visible_range};
use serde_json::json;

#[test]
fn json_is_recognised_by_its_first_character_and_everything_else_is_yaml() {
    let cases: &[(&[u8], Format)] = &[
        (b"{\"openapi\":\"3.0.0\"}", Format::Json),
        (b"  \n\t[1]", Format::Json),
        (b"\xEF\xBB\xBF{}", Format::Json),
        (b"openapi: 3.0.0\n", Format::Yaml),
        (b"# comment\n{a: 1}", Format::Yaml),
        (b"---\nopenapi: 3.0.0", Format::Yaml),
        (b"", Format::Yaml),
    ];
    for (text, format) in cases {
        assert_eq!(detect_format(text), *format, "{}", String::from_utf8_lossy(text));
    }
}

#[test]
fn invalid_json_names_the_line_and_column() {
    let error = parse_json(b"{\n  \"openapi\": \"3.0.0\",\n  \"info\": }").unwrap_err();
    assert_eq!(error, DocumentError::Json { reason: "expected value".into(), line: 3, column: 11 });
    assert_eq!(error.to_string(), "The document is not valid JSON: expected value (line 3, column 11).");
    assert_eq!(parse_json(b"  \n ").unwrap_err(), DocumentError::Empty);
    assert_eq!(parse_json(b"\xEF\xBB\xBF{\"a\": 1}").unwrap(), json!({"a": 1}));
}

#[test]
fn yaml_errors_read_with_their_position() {
    let error =
        DocumentError::Yaml { reason: "bad indentation of a mapping entry".into(), line: 4, column: 3 };
    assert_eq!(
        error.to_string(),
        "The document is neither JSON nor valid YAML: bad indentation of a mapping entry (line 4, column 3)."
    );
    let error = DocumentError::Yaml { reason: "unexpected end of the stream".into(), line: 0, column: 0 };
    assert_eq!(
        error.to_string(),
        "The document is neither JSON nor valid YAML: unexpected end of the stream."
    );
}

fn minimal() -> serde_json::Value {
    json!({"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {"/a": {"get": {"summary": "A"}}}})
}

#[test]
fn nesting_deeper_than_the_reader_follows_is_named_as_such() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let error = playground_openapi::document::load_json(deep.into_bytes()).unwrap_err();
    assert!(
        error.to_string().starts_with(
            "The document is not valid JSON: it nests values more than 128 levels deep, deeper than this reader follows"
        ),
        "{error}"
    );
}

#[test]
fn a_minimal_openapi_30_document_is_listed() {
    let catalog = validate(&minimal()).unwrap();
    assert_eq!(catalog.title, "T");
    assert_eq!(catalog.operation_count(), 1);
    for version in ["3.0.0", "3.0.4", "3.0"] {
        let mut doc = minimal();
        doc["openapi"] = json!(version);
        assert!(validate(&doc).is_ok(), "{version}");
    }
    let petstore: serde_json::Value = serde_json::from_str(PETSTORE_JSON).unwrap();
    assert_eq!(validate(&petstore).unwrap(), Catalog::from_json(PETSTORE_JSON.as_bytes()).unwrap());
}

#[test]
fn every_shape_problem_has_its_own_message() {
    let with = |patch: &dyn Fn(&mut serde_json::Value)| {
        let mut doc = minimal();
        patch(&mut doc);
        validate(&doc).unwrap_err().to_string()
    };
    assert_eq!(
        validate(&json!([1, 2])).unwrap_err().to_string(),
        "The document must be an object with `openapi`, `info` and `paths` fields; this one is a list."
    );
    assert_eq!(validate(&json!("openapi")).unwrap_err(), DocumentError::NotAnObject("a string"));
    assert_eq!(
        validate(&json!({"swagger": "2.0", "info": {}, "paths": {}})).unwrap_err().to_string(),
        "This is a Swagger 2.0 document; this reference reads OpenAPI 3.0 to 3.2 and Swagger 2.0 documents (Swagger 2.0 converted to OpenAPI 3.0 as it loads)."
    );
    assert_eq!(
        with(&|d| d["openapi"] = json!("4.0.0")),
        "This is an OpenAPI 4.0.0 document; this reference reads OpenAPI 3.0 to 3.2 and Swagger 2.0 documents only."
    );
    assert_eq!(
        with(&|d| d["openapi"] = json!("3.10.0")),
        DocumentError::UnsupportedVersion("3.10.0".into()).to_string()
    );
    assert_eq!(
        with(&|d| d["openapi"] = json!("2.0")),
        DocumentError::UnsupportedVersion("2.0".into()).to_string()
    );
    assert_eq!(
        with(&|d| d.as_object_mut().unwrap().retain(|k, _| k != "openapi")),
        "The document has no `openapi` version field, so it is not an OpenAPI document; this reference reads OpenAPI 3.0 to 3.2 and Swagger 2.0 documents."
    );
    assert_eq!(
        with(&|d| d["openapi"] = json!(3.0)),
        "The document has no `openapi` version field (it is a number there, where a text such as \"3.1.0\" belongs), so it is not an OpenAPI document; this reference reads OpenAPI 3.0 to 3.2 and Swagger 2.0 documents."
    );
    assert_eq!(
        with(&|d| d.as_object_mut().unwrap().retain(|k, _| k != "info")),
        "The document has no `info` object (with its `title` and `version`)."
    );
    assert_eq!(with(&|d| d["info"] = json!("T")), DocumentError::MissingInfo.to_string());
    assert_eq!(
        with(&|d| d["info"].as_object_mut().unwrap().retain(|k, _| k != "version")),
        "The document's `info` object has no `version` text."
    );
    assert_eq!(with(&|d| d["info"]["title"] = json!(1)), "The document's `info` object has no `title` text.");
    assert_eq!(
        with(&|d| d.as_object_mut().unwrap().retain(|k, _| k != "paths")),
        "The document has no `paths` object, so it describes no operation."
    );
    assert_eq!(
        with(&|d| d["paths"] = json!([])),
        "The document's `/paths` is a list, where an object belongs."
    );
    assert_eq!(
        with(&|d| d["paths"]["/a/{b}"] = json!("pets")),
        "The document's `/paths/~1a~1{b}` is a string, where an object belongs."
    );
    assert_eq!(
        with(&|d| d["paths"]["/a"]["get"] = json!([1])),
        "The document could not be listed: `/paths/~1a`: invalid type: sequence, expected an operation (an object)."
    );
}

#[test]
fn fetch_failures_say_what_happened_in_plain_words() {
    let missing = DocumentError::Http {
        url: "https://example.com/a.yaml".into(),
        status: 404,
        status_text: String::new(),
    };
    assert_eq!(
        missing.to_string(),
        "The document could not be fetched from https://example.com/a.yaml: the server answered 404 Not Found."
    );
    let teapot = DocumentError::Http { url: "u".into(), status: 418, status_text: "I'm a teapot".into() };
    assert_eq!(
        teapot.to_string(),
        "The document could not be fetched from u: the server answered 418 I'm a teapot."
    );
    let odd = DocumentError::Http { url: "u".into(), status: 499, status_text: String::new() };
    assert_eq!(odd.to_string(), "The document could not be fetched from u: the server answered 499.");
    let network = DocumentError::Network { url: "https://example.com/a.json".into() }.to_string();
    assert!(
        network.contains("did not answer, or it does not allow other sites to read it (CORS)"),
        "{network}"
    );
}

#[test]
fn the_url_parameter_is_read_from_the_query_string() {
    assert_eq!(
        url_from_query("?url=https%3A%2F%2Fexample.com%2Fapi.yaml"),
        Some("https://example.com/api.yaml".into())
    );
    assert_eq!(url_from_query("?a=1&url=fixtures/x.json"), Some("fixtures/x.json".into()));
    assert_eq!(url_from_query("url=a+b"), Some("a b".into()));
    assert_eq!(url_from_query("?url="), None);
    assert_eq!(url_from_query(""), None);
    assert_eq!(url_from_query("?urls=x"), None);
    assert_eq!(url_from_query("?url=a%2Bb%20c"), Some("a+b c".into()));
    assert_eq!(url_from_query("?url=%FF"), None, "not UTF-8");
}

#[test]
fn sources_describe_themselves() {
    assert!(Source::Builtin.is_builtin());
    assert!(!Source::Pasted.is_builtin());
    assert_eq!(Source::File("api.yaml".into()).describe(), "the file api.yaml");
    assert_eq!(Source::Url("https://x/y".into()).describe(), "https://x/y");
}

#[test]
fn rows_put_group_and_tag_headings_before_their_operations() {
    let catalog = Catalog::from_json(PETSTORE_JSON.as_bytes()).unwrap();
    let rows = rows(&catalog.groups);
    let headings: Vec<String> = rows
        .iter()
        .filter_map(|r| match r {
            Row::Group { name, .. } => Some(format!("group {name}")),
            Row::Tag { name, group, .. } => Some(format!("tag {name} in {group}")),
            Row::Operation(_) => None,
        })
        .collect();
    assert_eq!(
        headings,
        [
            "group Pets",
            "tag Animals in Pets",
            "tag Categories in Pets",
            "group Store",
            "tag Orders in Store",
            "tag Inventory in Store"
        ]
    );
    assert_eq!(rows.len(), 18 + 6);
    assert!(matches!(&rows[2], Row::Operation(op) if op.anchor() == "listPets"));
    assert_eq!(position(&rows, "listPets"), Some(2));
    assert_eq!(position(&rows, "nothing"), None);

    // A tag standing alone is its own group: no tag heading.
    let single = Catalog::from_value(&minimal()).unwrap();
    assert_eq!(rows_of(&single), ["group default", "op"]);
}

fn rows_of(catalog: &Catalog) -> Vec<String> {
    rows(&catalog.groups)
        .iter()
        .map(|r| match r {
            Row::Group { name, .. } => format!("group {name}"),
            Row::Tag { name, .. } => format!("tag {name}"),
            Row::Operation(_) => "op".into(),
        })
        .collect()
}

#[test]
fn only_rows_in_view_and_the_overscan_are_rendered() {
    // Short lists are rendered whole.
    assert_eq!(visible_range(0.0, 100.0, 50.0, RENDER_ALL_UP_TO, 5), 0..RENDER_ALL_UP_TO);
    let len = 1200;
    // At the top: rows 0..=10 are (partly) in view in 500px of 50px rows, plus 5 below.
    assert_eq!(visible_range(0.0, 500.0, 50.0, len, 5), 0..16);
    // Scrolled to row 100 and a bit: 5 above, 100..=110 in view, 5 below.
    assert_eq!(visible_range(5010.0, 500.0, 50.0, len, 5), 95..116);
    // At the end, clamped.
    assert_eq!(visible_range(59_800.0, 500.0, 50.0, len, 5), 1191..1200);
    // Beyond the end (a list that just got shorter) and odd inputs stay in bounds.
    assert_eq!(visible_range(1e9, 500.0, 50.0, len, 5), 1195..1200);
    assert_eq!(visible_range(-20.0, -1.0, 50.0, len, 2), 0..3);
}

#[test]
fn scrolling_to_a_row_centres_it_only_when_it_is_out_of_view() {
    assert_eq!(scroll_to_show(3, 0.0, 500.0, 50.0), None);
    assert_eq!(scroll_to_show(9, 0.0, 500.0, 50.0), None);
    assert_eq!(scroll_to_show(10, 0.0, 500.0, 50.0), Some(275.0));
    assert_eq!(scroll_to_show(100, 0.0, 500.0, 50.0), Some(4775.0));
    assert_eq!(scroll_to_show(0, 4000.0, 500.0, 50.0), Some(0.0));
}

#[test]
fn rows_render_as_escaped_html_with_markers_and_the_current_mark() {
    use playground_reference::html::escape as escape_html;
    use playground_reference::html::row_html;
    assert_eq!(
        escape_html(r#"<a href="x">'&'</a>"#),
        "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
    );
    let catalog = Catalog::from_json(PETSTORE_JSON.as_bytes()).unwrap();
    let listed = rows(&catalog.groups);
    assert_eq!(
        row_html(&listed[0], None),
        r##"<div class="list-row group-name" role="heading" aria-level="2" data-testid="group" data-group="Pets"><a href="#tag/Pets" class="heading-link">Pets</a></div>"##
    );
    assert_eq!(
        row_html(&listed[1], None),
        r##"<div class="list-row tag-name" role="heading" aria-level="3" data-testid="tag" data-tag="Animals" data-in-group="Pets"><a href="#tag/Animals" class="heading-link">Animals</a></div>"##
    );
    let get_pet = &listed[position(&listed, "getPet").unwrap()];
    let html = row_html(get_pet, Some("getPet"));
    assert!(html.starts_with(r##"<div class="list-row operation" data-testid="operation" data-operation-id="getPet"><a href="#getPet" class="operation-link" title="GET /pets/{petId}" aria-current="page">"##), "{html}");
    assert!(html.contains(r#"<code class="path deprecated">/pets/{petId}</code><span class="badge badge-deprecated" data-testid="badge-deprecated">Deprecated</span>"#), "{html}");
    assert!(!row_html(get_pet, Some("listPets")).contains("aria-current"));
    let complete = row_html(&listed[position(&listed, "completeOrder").unwrap()], None);
    assert!(complete.contains(r#"data-testid="badge-stability">Experimental</span>"#), "{complete}");

    // Text from a hostile document stays text.
    let hostile = Catalog::from_value(&json!({"openapi": "3.0.0", "info": {"title": "T", "version": "1"},
        "tags": [{"name": "<b>t</b>"}],
        "paths": {"/x\"><script>": {"get": {"tags": ["<b>t</b>"], "operationId": "a\"b", "summary": "<img src=x onerror=alert(1)>"}}}}))
    .unwrap();
    let html: String = rows(&hostile.groups).iter().map(|r| row_html(r, None)).collect();
    assert!(!html.contains("<script>") && !html.contains("<img") && !html.contains("<b>"), "{html}");
    assert!(html.contains(r#"data-operation-id="a&quot;b""#), "{html}");
    assert!(html.contains(r##"href="#tag/%3Cb%3Et%3C/b%3E""##), "{html}");
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"), "{html}");
}
