//! The MCP server: four tools whatever the description's size (`search_operations`,
//! `describe_operation`, `call_operation`, `reset_mock`), the description's Markdown pages as
//! resources, and the instructions that say how to use them. One [`Server`] is shared by every
//! session: over HTTP each session gets a clone, so they call the same mock.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use playground_mock::{ApiMock, Clock};
use playground_server::proxy::{Proxy, redact};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, JsonObject,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerCapabilities, ServerConfig,
    Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

use crate::api::{Api, Operation};
use crate::call::{CallInput, answer_text, build_request, cut};
use crate::credentials::{self, Credentials};
use crate::search::{self, DEFAULT_LIMIT};

/// The most bytes of one call's arguments (1 MiB); a longer call is refused with a message.
pub const MAX_ARGUMENTS: usize = 1024 * 1024;

/// The most characters of an operation's description a call returns.
pub const MAX_DESCRIBE_CHARS: usize = 60_000;

/// Resources listed per page of `resources/list`.
pub const RESOURCES_PER_PAGE: usize = 500;

/// Where the description's pages are, as resources.
pub const DOCS_URI: &str = "playground://docs/";

/// The tools' names.
pub const TOOLS: [&str; 4] = ["search_operations", "describe_operation", "call_operation", "reset_mock"];

/// Where calls go.
#[derive(Debug)]
enum Backend {
    /// The stateful mock of the description.
    Mock(Mutex<ApiMock>),
    /// A real server (its client boxed: it is as large as a mock), and the description without
    /// state to check its answers.
    Target { proxy: Box<Proxy>, checker: ApiMock },
}

#[derive(Debug)]
struct Shared {
    api: Api,
    backend: Backend,
    credentials: Credentials,
    secrets: Vec<String>,
    tools: Vec<Tool>,
    info: ServerConfig,
}

/// What a tool answered: its text, and whether it is an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolAnswer {
    /// The text.
    pub text: String,
    /// A refusal or failure (MCP's `isError`), not an answer of the API.
    pub is_error: bool,
}

impl ToolAnswer {
    fn ok(text: impl Into<String>) -> Self {
        Self { text: text.into(), is_error: false }
    }

    fn error(text: impl Into<String>) -> Self {
        Self { text: text.into(), is_error: true }
    }
}

/// The MCP server of one description.
#[derive(Debug, Clone)]
pub struct Server(Arc<Shared>);

impl Server {
    /// The server of `api`, calling its mock, or the real server `target` when given, with the
    /// credentials `credentials` adds to calls.
    ///
    /// # Errors
    /// When the description cannot be mocked (it has no paths, ...).
    pub fn new(api: Api, target: Option<Proxy>, credentials: Credentials) -> Result<Self, String> {
        let mock = ApiMock::from_document(api.document.clone()).map_err(|e| e.to_string())?;
        let target_url = target.as_ref().map(|proxy| proxy.upstream().to_owned());
        let backend = match target {
            Some(proxy) => Backend::Target { proxy: Box::new(proxy), checker: mock },
            None => Backend::Mock(Mutex::new(mock.with_clock(Clock::system()))),
        };
        let tools = tools(&api, target_url.as_deref(), &credentials);
        let info = ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_server_info(Implementation::new("playground", env!("CARGO_PKG_VERSION")))
            .with_instructions(instructions(&api, target_url.as_deref()));
        let secrets = credentials.secrets();
        Ok(Self(Arc::new(Shared { api, backend, credentials, secrets, tools, info })))
    }

    /// The description.
    #[must_use]
    pub fn api(&self) -> &Api {
        &self.0.api
    }

    /// The tools, as `tools/list` gives them.
    #[must_use]
    pub fn tools(&self) -> &[Tool] {
        &self.0.tools
    }

    /// Runs the tool `name` with `arguments`, as `tools/call` does.
    ///
    /// # Errors
    /// When there is no such tool (a protocol error, not a tool's answer).
    pub async fn call(&self, name: &str, arguments: &Map<String, Value>) -> Result<ToolAnswer, String> {
        let size = serde_json::to_vec(arguments).map_or(usize::MAX, |bytes| bytes.len());
        if size > MAX_ARGUMENTS {
            return Ok(ToolAnswer::error(format!(
                "The arguments are {size} bytes; a call takes at most {MAX_ARGUMENTS} bytes (1 MiB). Send \
                 a smaller body."
            )));
        }
        let answer = match name {
            "search_operations" => self.search(arguments),
            "describe_operation" => self.describe(arguments),
            "call_operation" => self.call_operation(arguments).await,
            "reset_mock" => self.reset(),
            _ => return Err(format!("There is no tool {name}; the tools are {}.", TOOLS.join(", "))),
        };
        Ok(answer)
    }

    fn search(&self, arguments: &Map<String, Value>) -> ToolAnswer {
        let api = &self.0.api;
        let query = match arguments.get("query") {
            Some(Value::String(query)) if !query.trim().is_empty() => query,
            Some(Value::String(_)) | None => {
                return ToolAnswer::error("`query` is required: words to look for.");
            }
            Some(_) => return ToolAnswer::error("`query` must be a string."),
        };
        let limit = match arguments.get("limit") {
            None | Some(Value::Null) => DEFAULT_LIMIT,
            Some(value) => match value.as_u64().and_then(|n| usize::try_from(n).ok()) {
                Some(n @ 1..=search::MAX_LIMIT) => n,
                _ => {
                    return ToolAnswer::error(format!(
                        "`limit` must be a whole number from 1 to {}.",
                        search::MAX_LIMIT
                    ));
                }
            },
        };
        let hits = search::search(api, query, limit);
        ToolAnswer::ok(search::text(api, query, &hits))
    }

    fn describe(&self, arguments: &Map<String, Value>) -> ToolAnswer {
        let operation = match self.operation(arguments) {
            Ok(operation) => operation,
            Err(refusal) => return refusal,
        };
        let page = playground_openapi::outline::markdown_file(&operation.anchor);
        let hint = format!("the whole page is the resource {DOCS_URI}{page}");
        ToolAnswer::ok(cut(&self.0.api.markdown(operation), MAX_DESCRIBE_CHARS, &hint))
    }

    /// The operation the argument `operation` names, or the refusal that says there is none.
    fn operation(&self, arguments: &Map<String, Value>) -> Result<&Operation, ToolAnswer> {
        let name = match arguments.get("operation") {
            Some(Value::String(name)) if !name.trim().is_empty() => name,
            _ => {
                return Err(ToolAnswer::error(
                    "`operation` is required: an operation's name from search_operations (its id, or \
                     METHOD /path).",
                ));
            }
        };
        self.0.api.find(name).ok_or_else(|| ToolAnswer::error(self.unknown(name)))
    }

    /// Why `name` names no operation, with the closest ones.
    fn unknown(&self, name: &str) -> String {
        let api = &self.0.api;
        let mut text = format!(
            "No operation `{}` in {}. Use search_operations to find one, and name it as it lists it",
            name.trim(),
            api.title()
        );
        if let Some(first) = api.operations.first() {
            text.push_str(&format!(
                " (e.g. `{}`) or as METHOD /path (e.g. `{}`)",
                first.anchor,
                first.method_and_path()
            ));
        }
        text.push('.');
        let close = search::search(api, name, 3);
        if !close.is_empty() {
            let names: Vec<String> = close.iter().map(|hit| format!("`{}`", hit.operation.anchor)).collect();
            text.push_str(&format!(" Closest: {}.", names.join(", ")));
        }
        text
    }

    async fn call_operation(&self, arguments: &Map<String, Value>) -> ToolAnswer {
        let shared = &*self.0;
        let input = match CallInput::from_arguments(arguments) {
            Ok(input) => input,
            Err(why) => return ToolAnswer::error(why),
        };
        let Some(operation) = shared.api.find(&input.operation) else {
            return ToolAnswer::error(self.unknown(&input.operation));
        };
        let view = match shared.api.view(operation) {
            Ok(view) => view,
            Err(why) => return ToolAnswer::error(why),
        };
        let built = match build_request(&view, &input) {
            Ok(built) => built,
            Err(why) => return ToolAnswer::error(why),
        };
        let mut request = built.request;
        let mut notes = built.notes;
        let requirements = operation.summary.requirements(&shared.api.catalog.security);
        let added = shared.credentials.apply(&mut request, requirements);
        if !added.is_empty() {
            notes.push(format!("Credentials from the environment were sent for {}.", added.join(", ")));
        }
        match &shared.backend {
            Backend::Mock(mock) => {
                let mut mock = lock(mock);
                let checked = mock.check_request(&request);
                let response = mock.handle(&request);
                let secrets = [shared.secrets.clone(), mock.credentials_in(&request)].concat();
                drop(mock);
                let title = "What the request breaks in the description (the mock refuses it):";
                ToolAnswer::ok(redact(&answer_text(&response, title, &checked.mismatches, &notes), &secrets))
            }
            Backend::Target { proxy, checker } => {
                let secrets = [shared.secrets.clone(), checker.credentials_in(&request)].concat();
                match proxy.exchange(&request).await {
                    Ok(response) => {
                        let checked = checker.check_exchange(&request, &response);
                        let title = "How the exchange departs from the description:";
                        ToolAnswer::ok(redact(
                            &answer_text(&response, title, &checked.mismatches, &notes),
                            &secrets,
                        ))
                    }
                    Err(why) => {
                        let mut text = format!("The server at {} did not answer: {why}.", proxy.upstream());
                        for mismatch in checker.check_request(&request).mismatches {
                            text.push_str(&format!("\n- {}: {mismatch}", mismatch.kind));
                        }
                        ToolAnswer::error(redact(&text, &secrets))
                    }
                }
            }
        }
    }

    fn reset(&self) -> ToolAnswer {
        match &self.0.backend {
            Backend::Mock(mock) => {
                let mut mock = lock(mock);
                let removed: usize = mock.resources().iter().map(|r| r.count).sum();
                mock.reset();
                ToolAnswer::ok(format!(
                    "The mock is empty again, as when the server started ({removed} stored item{} removed).",
                    if removed == 1 { "" } else { "s" }
                ))
            }
            Backend::Target { proxy, .. } => ToolAnswer::error(format!(
                "Nothing was reset: calls go to the server at {}, which keeps its own state.",
                proxy.upstream()
            )),
        }
    }

    /// The resources of one page of `resources/list`, from `cursor` (an offset this server gave).
    ///
    /// # Errors
    /// When the cursor is not one this server gave.
    pub fn resources(&self, cursor: Option<&str>) -> Result<(Vec<Resource>, Option<String>), String> {
        let pages = self.0.api.pages();
        let start = match cursor {
            None => 0,
            Some(cursor) => cursor
                .parse::<usize>()
                .ok()
                .filter(|n| *n <= pages.len())
                .ok_or_else(|| format!("the cursor {cursor:?} is not one this server gave"))?,
        };
        let end = pages.len().min(start + RESOURCES_PER_PAGE);
        let listed = pages[start..end]
            .iter()
            .map(|page| {
                Resource::new(format!("{DOCS_URI}{}", page.path), page.path.clone())
                    .with_mime_type(mime_type(&page.path))
                    .with_size(page.text.len() as u64)
            })
            .collect();
        Ok((listed, (end < pages.len()).then(|| end.to_string())))
    }

    /// The text and media type of the resource `uri`.
    #[must_use]
    pub fn resource(&self, uri: &str) -> Option<(&str, &'static str)> {
        let path = uri.strip_prefix(DOCS_URI)?;
        let page = self.0.api.pages().iter().find(|page| page.path == path)?;
        Some((page.text.as_str(), mime_type(&page.path)))
    }
}

fn lock(mock: &Mutex<ApiMock>) -> MutexGuard<'_, ApiMock> {
    // A panic while the lock was held leaves a mock whose every change is whole (the mock never
    // panics on input); keep serving it.
    mock.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `text/plain` for `llms.txt` and `llms-full.txt`, `text/markdown` for the pages.
fn mime_type(path: &str) -> &'static str {
    if path.ends_with(".txt") { "text/plain" } else { "text/markdown" }
}

/// What the server tells the model when a session starts.
fn instructions(api: &Api, target: Option<&str>) -> String {
    let calls = match target {
        None => "Calls go to a stateful mock of the description, kept while this server runs (reset_mock \
                 empties it): what is created can be read, listed, changed and deleted; a request that \
                 departs from the description is refused with the field named."
            .to_owned(),
        Some(url) => format!(
            "Calls go to the real server at {url}, with the credentials of the environment; each answer \
             is checked against the description."
        ),
    };
    format!(
        "{} ({} operations). Use search_operations then describe_operation then call_operation. {calls} \
         The reference is also readable as resources: {DOCS_URI}llms.txt lists its pages.",
        api.title(),
        api.operations.len()
    )
}

/// The four tools, their descriptions naming the API and where calls go.
fn tools(api: &Api, target: Option<&str>, credentials: &Credentials) -> Vec<Tool> {
    let title = api.title();
    let schema = |value: Value| -> Arc<JsonObject> {
        match value {
            Value::Object(map) => Arc::new(map),
            _ => Arc::new(JsonObject::new()),
        }
    };
    let operation = json!({"type": "string",
        "description": "The operation's name as search_operations lists it (its id), or METHOD /path."});
    let search = Tool::new(
        "search_operations",
        format!(
            "Find operations of {title} ({} in all) by words (a resource, a verb, a path) or by name. \
             One line per operation: name, method and path, summary, tags; best first.",
            api.operations.len()
        ),
        schema(json!({"type": "object", "properties": {
            "query": {"type": "string", "description": "Words to look for, or an operation's name."},
            "limit": {"type": "integer", "minimum": 1, "maximum": search::MAX_LIMIT,
                "description": format!("The most operations listed (default {DEFAULT_LIMIT}).")}
        }, "required": ["query"], "additionalProperties": false})),
    )
    .with_annotations(ToolAnnotations::new().read_only(true).open_world(false));
    let describe = Tool::new(
        "describe_operation",
        "The documentation of one operation as Markdown: its parameters, request body (schema and \
         example), answers and security.",
        schema(json!({"type": "object", "properties": {"operation": operation},
            "required": ["operation"], "additionalProperties": false})),
    )
    .with_annotations(ToolAnnotations::new().read_only(true).open_world(false));
    let call = Tool::new("call_operation", call_description(title, target, credentials), schema(json!({
        "type": "object",
        "properties": {
            "operation": operation,
            "path_params": {"type": "object", "description": "Path parameters by name, e.g. {\"id\": 1}."},
            "query": {"type": "object", "description": "Query parameters by name; a list for repeated values."},
            "headers": {"type": "object", "description": "Headers by name, e.g. {\"Authorization\": \"Bearer test\"}."},
            "body": {"description": "The request body: JSON as the operation's schema says, or a form's fields as an object."}
        },
        "required": ["operation"],
        "additionalProperties": false
    })))
    .with_annotations(ToolAnnotations::new().read_only(false).destructive(true).open_world(target.is_some()));
    let reset = Tool::new(
        "reset_mock",
        "Empty the mock's state (every stored item), as when the server started.",
        schema(json!({"type": "object", "properties": {}, "additionalProperties": false})),
    )
    .with_annotations(
        ToolAnnotations::new().read_only(false).destructive(true).idempotent(true).open_world(false),
    );
    vec![search, describe, call, reset]
}

/// `call_operation`'s description: where calls go and how credentials are given.
fn call_description(title: &str, target: Option<&str>, credentials: &Credentials) -> String {
    let mut text = match target {
        None => format!(
            "Send a request for an operation to the stateful mock of {title}: what is created can be \
             read, listed, changed and deleted until reset_mock. Answers with the status, main headers \
             and body, and what the request breaks in the description (the field named). Operations \
             that need credentials: pass them in headers (any well-formed value works against the \
             mock, e.g. Authorization: Bearer test)."
        ),
        Some(url) => format!(
            "Send a request for an operation of {title} to the real server at {url}. Answers with the \
             status, main headers and body, and how the request and answer depart from the \
             description. Credentials come from the environment ({}<SCHEME>) and are never shown; \
             headers given here are sent too.",
            credentials::PREFIX
        ),
    };
    if !credentials.is_empty() {
        let schemes: Vec<&str> = credentials.schemes().collect();
        text.push_str(&format!(" Credentials are added for {}.", schemes.join(", ")));
    }
    text
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        self.0.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.0.tools.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.0.tools.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        let answer =
            self.call(&request.name, &arguments).await.map_err(|why| ErrorData::invalid_params(why, None))?;
        let content = vec![ContentBlock::text(answer.text)];
        Ok(if answer.is_error { CallToolResult::error(content) } else { CallToolResult::success(content) }
            .into())
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let cursor = request.and_then(|r| r.cursor);
        let (resources, next) =
            self.resources(cursor.as_deref()).map_err(|why| ErrorData::invalid_params(why, None))?;
        let mut result = ListResourcesResult::with_all_items(resources);
        result.next_cursor = next;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some((text, mime_type)) = self.resource(&request.uri) else {
            return Err(ErrorData::resource_not_found(
                format!(
                    "There is no resource {}; resources/list names them ({DOCS_URI}llms.txt first).",
                    request.uri
                ),
                None,
            ));
        };
        let contents = ResourceContents::text(text, request.uri.clone()).with_mime_type(mime_type);
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}
