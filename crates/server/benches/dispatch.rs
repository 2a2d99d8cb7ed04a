//! Core dispatch throughput: what one `Mock::handle` call costs, with no socket in the way, for
//! the requests `bench/mock/run.sh` also sends over HTTP. Run by `make bench-mock`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use petstore_core::{Mock, Request};
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
    group.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
