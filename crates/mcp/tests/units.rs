//! The search's ranking, the requests `call_operation` builds, and the four tools run in process
//! against the mock of the FastAPI app's description (`tests/fixtures/fastapi/shelf.json`) and
//! the Petstore's.

use playground_mcp::call::{CallInput, build_request};
use playground_mcp::search::search;
use playground_mcp::{Api, Credentials, Server};
use serde_json::{Map, Value, json};

fn shelf() -> Api {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/fastapi/shelf.json");
    let text = std::fs::read_to_string(path).expect("reads shelf.json");
    Api::new(serde_json::from_str(&text).expect("shelf.json is JSON")).expect("shelf.json is a description")
}

fn petstore() -> Api {
    Api::new((*petstore::document::petstore_value()).clone()).expect("the Petstore is a description")
}

/// The first `n` results' names.
fn ranked(api: &Api, query: &str, n: usize) -> Vec<String> {
    search(api, query, n).iter().map(|hit| hit.operation.anchor.clone()).collect()
}

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().expect("an object").clone()
}

#[test]
fn words_rank_the_operation_that_does_them_first() {
    let shelf = shelf();
    assert_eq!(ranked(&shelf, "create book", 1), ["create_book_books_post"]);
    assert_eq!(ranked(&shelf, "list books", 1), ["list_books_books_get"]);
    assert_eq!(ranked(&shelf, "delete a book", 1), ["delete_book_books__book_id__delete"]);
    assert_eq!(ranked(&shelf, "replace book", 1), ["replace_book_books__book_id__put"]);
    let petstore = petstore();
    assert_eq!(ranked(&petstore, "create pet", 1), ["createPet"]);
    assert_eq!(ranked(&petstore, "add a category", 1), ["createCategory"]);
    assert_eq!(ranked(&petstore, "cancel order", 1), ["cancelOrder"]);
    assert_eq!(ranked(&petstore, "stock", 3).len(), 3);
    assert!(search(&petstore, "zebra unicorn", 10).is_empty());
}

#[test]
fn exact_names_and_paths_come_first() {
    let shelf = shelf();
    // The word "book" is in every operation; the name picks one.
    assert_eq!(ranked(&shelf, "read_book_books__book_id__get", 1), ["read_book_books__book_id__get"]);
    assert_eq!(ranked(&shelf, "READ_BOOK_BOOKS__BOOK_ID__GET", 1), ["read_book_books__book_id__get"]);
    assert_eq!(ranked(&shelf, "PUT /books/{book_id}", 1), ["replace_book_books__book_id__put"]);
    let on_path = ranked(&shelf, "/books/{book_id}", 3);
    assert_eq!(on_path.len(), 3, "{on_path:?}");
    assert!(on_path.iter().all(|name| name.contains("book_id")), "{on_path:?}");
    let petstore = petstore();
    assert_eq!(ranked(&petstore, "getPet", 1), ["getPet"]);
    // The limit holds, and 0 reads as 1.
    assert_eq!(search(&petstore, "pet", 2).len(), 2);
    assert_eq!(search(&petstore, "pet", 0).len(), 1);
}

#[test]
fn operations_are_found_by_id_or_method_and_path() {
    let shelf = shelf();
    let by_id = shelf.find("read_book_books__book_id__get").expect("by id");
    assert_eq!(by_id.method_and_path(), "GET /books/{book_id}");
    assert_eq!(shelf.find("get /books/{book_id}").map(|op| op.anchor.as_str()), Some(by_id.anchor.as_str()));
    assert_eq!(shelf.find("GET /books/42?x=1").map(|op| op.anchor.as_str()), Some(by_id.anchor.as_str()));
    assert!(shelf.find("PATCH /books/42").is_none());
    assert!(shelf.find("nope").is_none());
    assert_eq!(by_id.tags, ["books"]);
}

#[test]
fn requests_encode_path_query_and_body() {
    let shelf = shelf();
    let read = shelf.find("read_book_books__book_id__get").expect("read");
    let view = shelf.view(read).expect("a view");
    let input = CallInput::from_arguments(&arguments(json!({
        "operation": "read_book_books__book_id__get",
        "path_params": {"book_id": "a b/c?"},
        "query": {"extra": "x&y"},
        "headers": {"Authorization": "Bearer test"}
    })))
    .expect("arguments");
    let built = build_request(&view, &input).expect("a request");
    assert_eq!(built.request.method, "GET");
    assert_eq!(built.request.target, "/books/a%20b%2Fc%3F?extra=x%26y");
    assert_eq!(built.request.header_value("authorization"), Some("Bearer test"));
    assert!(built.notes.iter().any(|n| n.contains("`query.extra`")), "{:?}", built.notes);

    let missing = CallInput::from_arguments(&arguments(json!({"operation": "x"}))).expect("arguments");
    let error = build_request(&view, &missing).expect_err("the path parameter is missing");
    assert!(error.contains("`path_params.book_id` is required"), "{error}");
    let unknown = CallInput::from_arguments(&arguments(json!({"operation": "x", "path_params": {"id": 1}})))
        .expect("arguments");
    let error = build_request(&view, &unknown).expect_err("no such parameter");
    assert!(error.contains("`path_params.id`") && error.contains("book_id"), "{error}");

    let list = shelf.find("list_books_books_get").expect("list");
    let view = shelf.view(list).expect("a view");
    let input = CallInput::from_arguments(&arguments(json!({
        "operation": "list_books_books_get",
        "query": {"limit": 5, "tag": ["a", "b"]},
        "body": {"ignored": true}
    })))
    .expect("arguments");
    let built = build_request(&view, &input).expect("a request");
    assert!(built.request.target.starts_with("/books?"), "{}", built.request.target);
    assert!(built.request.target.contains("limit=5"), "{}", built.request.target);
    assert!(built.request.body.is_empty());
    assert!(built.notes.iter().any(|n| n.contains("takes no body")), "{:?}", built.notes);

    let create = shelf.find("POST /books").expect("create");
    let view = shelf.view(create).expect("a view");
    let input = CallInput::from_arguments(&arguments(json!({
        "operation": "POST /books", "body": {"title": "Dune", "isbn": "9780441013593"}
    })))
    .expect("arguments");
    let built = build_request(&view, &input).expect("a request");
    assert_eq!(built.request.header_value("content-type"), Some("application/json"));
    let body: Value = serde_json::from_slice(&built.request.body).expect("a JSON body");
    assert_eq!(body, json!({"title": "Dune", "isbn": "9780441013593"}));
}

#[tokio::test]
async fn the_tools_call_one_stateful_mock() {
    let server = Server::new(shelf(), None, Credentials::default()).expect("a server");
    let names: Vec<&str> = server.tools().iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["search_operations", "describe_operation", "call_operation", "reset_mock"]);

    let found = server.call("search_operations", &arguments(json!({"query": "create book"}))).await.unwrap();
    assert!(
        found.text.starts_with("create_book_books_post  POST /books  Create Book  [books]"),
        "{}",
        found.text
    );

    let created = server
        .call(
            "call_operation",
            &arguments(json!({"operation": "create_book_books_post",
                "body": {"title": "Dune", "isbn": "9780441013593"}})),
        )
        .await
        .unwrap();
    assert!(!created.is_error && created.text.starts_with("201 Created"), "{}", created.text);
    let listed = server.call("call_operation", &arguments(json!({"operation": "GET /books"}))).await.unwrap();
    assert!(listed.text.starts_with("200 OK") && listed.text.contains("\"Dune\""), "{}", listed.text);

    let bad = server
        .call(
            "call_operation",
            &arguments(
                json!({"operation": "create_book_books_post", "body": {"title": 7, "isbn": "9780441013593"}}),
            ),
        )
        .await
        .unwrap();
    assert!(bad.text.starts_with("422"), "{}", bad.text);
    assert!(bad.text.contains("/title"), "the field is named: {}", bad.text);

    let unknown = server.call("call_operation", &arguments(json!({"operation": "fly"}))).await.unwrap();
    assert!(unknown.is_error && unknown.text.contains("No operation `fly`"), "{}", unknown.text);
    assert!(unknown.text.contains("search_operations"), "{}", unknown.text);
    assert!(server.call("fly", &Map::new()).await.is_err(), "an unknown tool is a protocol error");

    let huge = "x".repeat(playground_mcp::server::MAX_ARGUMENTS);
    let refused = server
        .call("call_operation", &arguments(json!({"operation": "create_book_books_post", "body": huge})))
        .await
        .unwrap();
    assert!(refused.is_error && refused.text.contains("at most 1048576 bytes"), "{}", refused.text);

    let reset = server.call("reset_mock", &Map::new()).await.unwrap();
    assert!(reset.text.contains("1 stored item removed"), "{}", reset.text);
    let listed = server.call("call_operation", &arguments(json!({"operation": "GET /books"}))).await.unwrap();
    assert!(!listed.text.contains("Dune"), "{}", listed.text);
}

#[tokio::test]
async fn credentials_from_the_environment_are_sent_and_never_shown() {
    let document = json!({
        "openapi": "3.1.0", "info": {"title": "Echo", "version": "1"},
        "security": [{"token": []}],
        "components": {"securitySchemes": {"token": {"type": "http", "scheme": "bearer"}}},
        "paths": {"/me": {"get": {"operationId": "me", "responses": {"200": {"description": "",
            "content": {"application/json": {"schema": {"type": "object"}}}}}}}}
    });
    let api = Api::new(document).expect("a description");
    let env = |name: &str| (name == "PLAYGROUND_AUTH_TOKEN").then(|| "s3cret-token".to_owned());
    let credentials = Credentials::from_env(&api.document, &env);
    let server = Server::new(api, None, credentials).expect("a server");
    let tools = serde_json::to_string(server.tools()).expect("JSON");
    assert!(tools.contains("Credentials are added for token"), "{tools}");
    let me = server.call("call_operation", &arguments(json!({"operation": "me"}))).await.unwrap();
    assert!(me.text.starts_with("200"), "the mock took the credential: {}", me.text);
    assert!(!me.text.contains("s3cret"), "{}", me.text);

    let bare = Server::new(shelf(), None, Credentials::default()).expect("a server");
    let description = serde_json::to_string(bare.tools()).expect("JSON");
    assert!(description.contains("Authorization: Bearer test"), "{description}");
}

#[tokio::test]
async fn malformed_messages_get_an_error_or_are_skipped_and_the_server_goes_on() {
    use rmcp::ServiceExt;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let server = Server::new(shelf(), None, Credentials::default()).expect("a server");
    let (client, served) = tokio::io::duplex(1 << 20);
    let (read, write) = tokio::io::split(served);
    let running =
        tokio::spawn(async move { server.serve((read, write)).await.expect("a session").waiting().await });
    let (from_server, mut to_server) = tokio::io::split(client);
    let mut lines = BufReader::new(from_server).lines();
    // Each answer within 30 s: a missing one fails the test rather than hanging it.
    let mut answer = async || -> Value {
        let line = tokio::time::timeout(std::time::Duration::from_secs(30), lines.next_line())
            .await
            .expect("an answer within 30 s")
            .expect("reads")
            .expect("a line");
        serde_json::from_str(&line).expect("JSON")
    };
    let mut send = async |line: &str| {
        to_server.write_all(format!("{line}\n").as_bytes()).await.expect("writes");
    };
    send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#).await;
    let initialized = answer().await;
    assert_eq!(initialized["result"]["serverInfo"]["name"], "playground");
    assert!(
        initialized["result"]["instructions"]
            .as_str()
            .unwrap()
            .contains("search_operations then describe_operation")
    );
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    // Not JSON: skipped without an answer (no id to answer to).
    send("{not json").await;
    // JSON, not a request of the protocol: an error answer.
    send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"call everything"}"#).await;
    let refused = answer().await;
    assert!(refused.get("error").is_some(), "{refused}");
    send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_operations","arguments":{"query":"create book"}}}"#).await;
    let found = answer().await;
    assert_eq!(found["id"], 3, "{found}");
    assert!(
        found["result"]["content"][0]["text"].as_str().unwrap().starts_with("create_book_books_post"),
        "{found}"
    );
    // The end of input ends the session.
    to_server.shutdown().await.expect("closes");
    let ended = tokio::time::timeout(std::time::Duration::from_secs(30), running).await;
    ended.expect("the session ends at the end of input").expect("a task").expect("cleanly");
}

#[test]
fn a_description_or_target_that_cannot_be_used_is_named() {
    let missing = std::path::Path::new("no/such/description.yaml");
    let error = playground_mcp::load("playground", missing, None, &|_| None).expect_err("no such file");
    assert!(
        error.starts_with("cannot serve no/such/description.yaml: ") && error.contains("does not exist"),
        "{error}"
    );
    let shelf =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/fastapi/shelf.json"));
    let error = playground_mcp::load("playground", shelf, Some("ftp://example.com"), &|_| None)
        .expect_err("not http");
    assert!(error.starts_with("--target ftp://example.com: "), "{error}");
    assert!(playground_mcp::load("playground", shelf, Some("http://127.0.0.1:9/v1"), &|_| None).is_ok());
}
