//! Core dispatch throughput: what one `Mock::handle` call costs, with no socket in the way, for
//! the requests `bench/mock/run.sh` also sends over HTTP. Run by `make bench-mock`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use petstore::Mock;
use playground_http::Request;
use playground_mock::ApiMock;
use serde_json::json;

fn dispatch(c: &mut Criterion) {
    let mut group = c.benchmark_group("core dispatch");
    group.throughput(Throughput::Elements(1));

    let mut mock = Mock::seeded();
    let get = Request::new("GET", "/pets/1");
    group.bench_function("GET /pets/1", |b| b.iter(|| black_box(mock.handle(black_box(&get)))));

    let list = Request::new("GET", "/pets?limit=20");
    group.bench_function("GET /pets?limit=20", |b| b.iter(|| black_box(mock.handle(black_box(&list)))));

    // Each create gets a fresh copy of the seeded store, so the store does not grow over the
    // millions of iterations and every sample measures the same thing.
    let seeded = Mock::seeded();
    let create = Request::new("POST", "/pets").json(&json!({"name": "Rex", "categoryId": 1}));
    group.bench_function("POST /pets", |b| {
        b.iter_batched_ref(
            || seeded.clone(),
            |mock| black_box(mock.handle(black_box(&create))),
            BatchSize::SmallInput,
        );
    });

    // A document's own answer: its examples, checked against a `oneOf` schema before one is
    // served (the first does not fit), and a generated value where it has none.
    let shape = json!({"oneOf": [
        {"type": "object", "required": ["kind", "title"], "properties": {"kind": {"const": "episode"},
            "title": {"type": "string"}, "audio": {"type": "string", "format": "uri"}}},
        {"type": "object", "required": ["kind", "name"], "properties": {"kind": {"const": "podcast"},
            "name": {"type": "string"}, "email": {"type": "string", "format": "email"}}}
    ]});
    let results = json!({"type": "object", "properties": {"results": {"type": "array", "items": shape}}});
    let page = |kind: &str, n: usize| {
        let items: Vec<serde_json::Value> = (0..n)
            .map(|i| {
                json!({"kind": kind, "title": format!("t{i}"), "name": format!("n{i}"),
                "audio": "https://example.com/a.mp3", "email": "a@example.com"})
            })
            .collect();
        json!({"value": {"results": items}})
    };
    let doc = json!({"openapi": "3.0.3", "info": {"title": "Search", "version": "1"}, "paths": {
        "/search": {"get": {"responses": {"200": {"description": "", "content": {"application/json": {
            "schema": results, "examples": {"mixed": page("both", 20), "episodes": page("episode", 20)}}}}}}},
        "/generated": {"get": {"responses": {"200": {"description": "", "content": {"application/json": {
            "schema": results}}}}}}
    }});
    let mut api = ApiMock::from_document(doc).expect("the bench document reads");
    let search = Request::new("GET", "/search");
    group.bench_function("ApiMock GET /search (examples)", |b| {
        b.iter(|| black_box(api.handle(black_box(&search))));
    });
    let generated = Request::new("GET", "/generated");
    group.bench_function("ApiMock GET /generated", |b| {
        b.iter(|| black_box(api.handle(black_box(&generated))))
    });
    group.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
