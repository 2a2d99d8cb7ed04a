//! `make bench-mcp` (`bench/mcp.sh` runs it): what `playground mcp` costs a model and how fast a
//! call is, per description given on the command line (`petstore` for the Petstore's own):
//!
//! - the characters of the raw description, of our `tools/list` answer, of the `tools/list` a
//!   server with one tool per operation gives (each tool's input schema made of its parameters
//!   and body schema, the component schemas they use carried in its `$defs`, as per-operation
//!   generators make them), and of one `describe_operation` answer (the median over every
//!   operation, and the largest); tokens estimated as characters / 4;
//! - the round trip of `call_operation` on the mock: the median and 99th percentile of N calls in
//!   process, and over stdio to the `playground mcp` child named by `PLAYGROUND` when set.
//!
//! Prints a Markdown table. Figures, not a test: they depend on the machine.
//!
//!     cargo run --release --example bench -p playground-mcp -- petstore path/to/stripe.json ...

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use playground_mcp::{Api, Credentials, Server};
use rmcp::model::{ListToolsResult, Tool};
use serde_json::{Map, Value, json};

/// Calls timed per description.
const CALLS: usize = 1000;

#[expect(clippy::print_stdout, reason = "the figures are this program's output")]
fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let calls = std::env::var("BENCH_MCP_CALLS").ok().and_then(|n| n.parse().ok()).unwrap_or(CALLS);
    let mut rows = Vec::new();
    for name in std::env::args().skip(1) {
        eprintln!("bench-mcp: {name}");
        let (label, text) = if name == "petstore" {
            ("Petstore".to_owned(), petstore::document::PETSTORE_JSON.to_owned())
        } else {
            let text = std::fs::read_to_string(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
            (label_of(&name), text)
        };
        let document: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let api = Api::new(document).unwrap_or_else(|e| panic!("{name}: {e}"));
        let per_operation = per_operation_tools(&api);
        let server = Server::new(api, None, Credentials::default()).expect("a server");
        let ours =
            serde_json::to_string(&ListToolsResult::with_all_items(server.tools().to_vec())).expect("JSON");
        let theirs = serde_json::to_string(&ListToolsResult::with_all_items(per_operation)).expect("JSON");
        let describes = describe_sizes(&server);
        let (operation, arguments) = call_of(&server);
        let in_process = runtime.block_on(time_in_process(&server, &arguments, calls));
        let over_stdio = std::env::var("PLAYGROUND").ok().map(|binary| {
            let spec = if name == "petstore" { write_petstore() } else { name.clone() };
            time_over_stdio(&binary, &spec, &arguments, calls)
        });
        rows.push(Row {
            label,
            operations: server.api().operations.len(),
            raw: text.chars().count(),
            ours: ours.chars().count(),
            theirs: theirs.chars().count(),
            describe_median: describes.0,
            describe_max: describes.1,
            operation,
            in_process,
            over_stdio,
        });
    }
    println!("{}", table(&rows, calls));
}

struct Row {
    label: String,
    operations: usize,
    raw: usize,
    ours: usize,
    theirs: usize,
    describe_median: usize,
    describe_max: usize,
    operation: String,
    in_process: (Duration, Duration),
    over_stdio: Option<(Duration, Duration)>,
}

/// `stripe.com.json` → `Stripe`, `api.github.com.json` → `GitHub`, else the file's name.
fn label_of(path: &str) -> String {
    let file = Path::new(path).file_name().map_or(path.to_owned(), |f| f.to_string_lossy().into_owned());
    if file.contains("stripe") {
        "Stripe".to_owned()
    } else if file.contains("github") {
        "GitHub".to_owned()
    } else {
        file
    }
}

/// The Petstore's JSON in a file of its own, for the child's `--spec`.
fn write_petstore() -> String {
    let path = std::env::temp_dir().join("playground-bench-mcp-petstore.json");
    std::fs::write(&path, petstore::document::PETSTORE_JSON).expect("writes the Petstore");
    path.display().to_string()
}

/// The median and the largest `describe_operation` answer, in characters.
fn describe_sizes(server: &Server) -> (usize, usize) {
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
    let mut sizes: Vec<usize> = server
        .api()
        .operations
        .iter()
        .map(|op| {
            let arguments = json!({"operation": op.anchor});
            let answer = runtime
                .block_on(server.call("describe_operation", arguments.as_object().expect("an object")))
                .expect("a tool");
            answer.text.chars().count()
        })
        .collect();
    sizes.sort_unstable();
    (sizes.get(sizes.len() / 2).copied().unwrap_or(0), sizes.last().copied().unwrap_or(0))
}

/// The call timed: the first GET without path parameters (a list), with a credential in case it
/// needs one.
fn call_of(server: &Server) -> (String, Map<String, Value>) {
    let api = server.api();
    let operation = api
        .operations
        .iter()
        .find(|op| op.summary.method.as_str() == "GET" && !op.summary.path.contains('{'))
        .or_else(|| api.operations.first())
        .expect("an operation");
    let arguments = json!({"operation": operation.anchor, "headers": {"Authorization": "Bearer test"}});
    (operation.method_and_path(), arguments.as_object().expect("an object").clone())
}

async fn time_in_process(
    server: &Server,
    arguments: &Map<String, Value>,
    calls: usize,
) -> (Duration, Duration) {
    for _ in 0..calls / 10 {
        let _ = server.call("call_operation", arguments).await;
    }
    let mut times = Vec::with_capacity(calls);
    for _ in 0..calls {
        let started = Instant::now();
        let answer = server.call("call_operation", arguments).await.expect("a tool");
        times.push(started.elapsed());
        assert!(!answer.is_error, "{}", answer.text);
    }
    percentiles(times)
}

/// `calls` calls over stdio to `playground mcp --spec SPEC`, one after another.
fn time_over_stdio(
    binary: &str,
    spec: &str,
    arguments: &Map<String, Value>,
    calls: usize,
) -> (Duration, Duration) {
    let mut child = Command::new(binary)
        .args(["mcp", "--spec", spec])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts playground mcp");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let mut send = |message: &Value, answer: bool| {
        writeln!(input, "{message}").expect("writes");
        input.flush().expect("flushes");
        if answer {
            line.clear();
            output.read_line(&mut line).expect("reads an answer");
            assert!(line.contains("\"result\""), "{line}");
        }
    };
    send(
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
            "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}),
        true,
    );
    send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), false);
    let call = |id: usize| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "call_operation", "arguments": arguments}})
    };
    for id in 1..=calls / 10 {
        send(&call(id), true);
    }
    let mut times = Vec::with_capacity(calls);
    for id in 0..calls {
        let message = call(calls + id);
        let started = Instant::now();
        send(&message, true);
        times.push(started.elapsed());
    }
    let _ = child.kill();
    let _ = child.wait();
    percentiles(times)
}

fn percentiles(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort_unstable();
    let at = |q: f64| {
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let index = ((times.len() as f64 - 1.0) * q).round() as usize;
        times.get(index).copied().unwrap_or_default()
    };
    (at(0.5), at(0.99))
}

/// One tool per operation, as per-operation generators make them: named by the operationId (or
/// method and path), described by the summary and description, and taking its parameters and
/// its body as properties, the component schemas they use in `$defs`.
fn per_operation_tools(api: &Api) -> Vec<Tool> {
    let document = &api.document;
    api.operations
        .iter()
        .map(|op| {
            let summary = &op.summary;
            let item = document
                .pointer(&format!("/paths/{}", playground_openapi::pointer::escape_segment(&summary.path)))
                .and_then(|item| playground_openapi::pointer::resolve(document, item).ok())
                .unwrap_or(&Value::Null);
            let raw = item.get(summary.method.as_str().to_ascii_lowercase()).unwrap_or(&Value::Null);
            let mut properties = Map::new();
            let mut required = Vec::new();
            let parameters = item
                .get("parameters")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .chain(raw.get("parameters").and_then(Value::as_array).into_iter().flatten());
            for parameter in parameters {
                let Ok(parameter) = playground_openapi::pointer::resolve(document, parameter) else {
                    continue;
                };
                let Some(name) = parameter.get("name").and_then(Value::as_str) else { continue };
                let mut schema = parameter.get("schema").cloned().unwrap_or_else(|| json!({}));
                if let (Some(description), Some(map)) = (parameter.get("description"), schema.as_object_mut())
                {
                    map.insert("description".to_owned(), description.clone());
                }
                if parameter.get("required").and_then(Value::as_bool).unwrap_or(false) {
                    required.push(Value::String(name.to_owned()));
                }
                properties.insert(name.to_owned(), schema);
            }
            if let Some(body) =
                raw.get("requestBody").and_then(|b| playground_openapi::pointer::resolve(document, b).ok())
            {
                let content = body.get("content").and_then(Value::as_object);
                let media = content.and_then(|c| {
                    c.iter()
                        .find(|(media, _)| media.contains("json"))
                        .or_else(|| c.iter().next())
                        .map(|(_, m)| m)
                });
                if let Some(schema) = media.and_then(|m| m.get("schema")) {
                    properties.insert("body".to_owned(), schema.clone());
                    if body.get("required").and_then(Value::as_bool).unwrap_or(false) {
                        required.push(Value::String("body".to_owned()));
                    }
                }
            }
            let mut schema = json!({"type": "object", "properties": properties, "required": required});
            let definitions = definitions(document, &schema);
            rewrite(&mut schema);
            if !definitions.is_empty() {
                schema["$defs"] = Value::Object(definitions);
            }
            let name: String = op
                .anchor
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
                .take(64)
                .collect();
            let description = [summary.summary.as_deref(), op.description.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("\n\n");
            let Value::Object(schema) = schema else { unreachable!("an object") };
            Tool::new(name, description, std::sync::Arc::new(schema))
        })
        .collect()
}

/// The component schemas `schema` uses, directly or through each other, with their references
/// rewritten to `#/$defs/NAME`.
fn definitions(document: &Value, schema: &Value) -> Map<String, Value> {
    let mut wanted: Vec<String> = Vec::new();
    collect(schema, &mut wanted);
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut found: BTreeMap<String, Value> = BTreeMap::new();
    while let Some(name) = wanted.pop() {
        if !done.insert(name.clone()) {
            continue;
        }
        let Some(target) = document.pointer(&format!("/components/schemas/{}", escape(&name))) else {
            continue;
        };
        collect(target, &mut wanted);
        let mut target = target.clone();
        rewrite(&mut target);
        found.insert(name, target);
    }
    found.into_iter().collect()
}

fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

const SCHEMAS: &str = "#/components/schemas/";

fn collect(value: &Value, wanted: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(name) = map.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(SCHEMAS))
            {
                wanted.push(name.replace("~1", "/").replace("~0", "~"));
            }
            map.values().for_each(|v| collect(v, wanted));
        }
        Value::Array(items) => items.iter().for_each(|v| collect(v, wanted)),
        _ => {}
    }
}

fn rewrite(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref")
                && let Some(name) = reference.strip_prefix(SCHEMAS)
            {
                *reference = format!("#/$defs/{name}");
            }
            map.values_mut().for_each(rewrite);
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite),
        _ => {}
    }
}

/// `12,345`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn size(chars: usize) -> String {
    format!("{} ({} tokens)", thousands(chars), thousands(chars.div_ceil(4)))
}

fn ms(duration: Duration) -> String {
    format!("{:.3}", duration.as_secs_f64() * 1000.0)
}

fn table(rows: &[Row], calls: usize) -> String {
    let mut out = String::from(
        "| Description | Operations | Raw description, chars (tokens) | Our tools/list | One tool per operation | \
         describe_operation, median (largest) |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for row in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} ({}) |\n",
            row.label,
            thousands(row.operations),
            size(row.raw),
            size(row.ours),
            size(row.theirs),
            size(row.describe_median),
            thousands(row.describe_max),
        ));
    }
    out.push_str(
        "\n| Description | call_operation timed | In process, median / p99 ms | Over stdio, median / p99 ms |\n\
         |---|---|---:|---:|\n",
    );
    for row in rows {
        let stdio =
            row.over_stdio.map_or_else(|| "not run".to_owned(), |(m, p)| format!("{} / {}", ms(m), ms(p)));
        out.push_str(&format!(
            "| {} | `{}` | {} / {} | {stdio} |\n",
            row.label,
            row.operation,
            ms(row.in_process.0),
            ms(row.in_process.1)
        ));
    }
    out.push_str(&format!("\n{calls} calls each, after {} unmeasured.", calls / 10));
    out
}
