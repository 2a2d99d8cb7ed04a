//! A document's server URLs with their variables: read from a `servers` list, checked and
//! expanded into the base URL requests are sent to.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The most servers [`read_servers`] reads from one list.
pub const MAX_SERVERS: usize = 100;

/// The most variables [`read_servers`] reads for one server.
pub const MAX_VARIABLES: usize = 50;

/// A variable of a server URL template (`{port}` in `https://api.example.com:{port}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerVariable {
    /// The name written between braces in the template.
    pub name: String,
    /// The value used when none is chosen (the first choice, or empty, when the document gives
    /// none).
    pub default: String,
    /// The values allowed (the variable's `enum`); empty allows any.
    pub choices: Vec<String>,
    /// The variable's `description`.
    pub description: Option<String>,
}

/// A server: a URL template and its variables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Server {
    /// The URL template as written, without its trailing slash.
    pub url: String,
    /// The server's `description`.
    pub description: Option<String>,
    /// The variables: those the template names, in its order, then the others.
    pub variables: Vec<ServerVariable>,
}

impl Server {
    /// The server's URL with each variable replaced by its value in `values`, else by its
    /// default. A name in braces that is not a variable is left as written.
    #[must_use]
    pub fn resolve(&self, values: &[(String, String)]) -> String {
        let mut all: Vec<(String, String)> = values.to_vec();
        for variable in &self.variables {
            if !values.iter().any(|(name, _)| *name == variable.name) {
                all.push((variable.name.clone(), variable.default.clone()));
            }
        }
        expand(&self.url, &all)
    }
}

/// A JSON scalar as text (`8443` as `8443`); objects, arrays and null as `None`.
fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The names written between braces in `template`, in order, each once; the first thousand, so
/// an absurd template costs little.
fn template_names(template: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if names.len() >= 1000 {
            break;
        }
        let after = rest.get(open + 1..).unwrap_or_default();
        let Some(close) = after.find('}') else { break };
        let name = after.get(..close).unwrap_or_default();
        // `{a{b}`: the inner brace starts the name.
        let name = name.rsplit('{').next().unwrap_or(name);
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
        rest = after.get(close + 1..).unwrap_or_default();
    }
    names
}

/// Reads one variable's object.
fn read_variable(name: &str, value: &Value) -> ServerVariable {
    let choices: Vec<String> = value
        .get("enum")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(scalar_text).collect())
        .unwrap_or_default();
    let default =
        value.get("default").and_then(scalar_text).or_else(|| choices.first().cloned()).unwrap_or_default();
    ServerVariable {
        name: name.to_owned(),
        default,
        choices,
        description: value.get("description").and_then(Value::as_str).map(str::to_owned),
    }
}

/// Reads one server object; `None` without a `url` string.
fn read_server(value: &Value) -> Option<Server> {
    let url = value.get("url")?.as_str()?;
    let url = url.trim_end_matches('/').to_owned();
    let declared = value.get("variables").and_then(Value::as_object);
    let mut variables = Vec::new();
    if let Some(declared) = declared {
        for name in template_names(&url) {
            if variables.len() >= MAX_VARIABLES {
                break;
            }
            if let Some(v) = declared.get(name) {
                variables.push(read_variable(name, v));
            }
        }
        for (name, v) in declared {
            if variables.len() >= MAX_VARIABLES {
                break;
            }
            if !variables.iter().any(|known: &ServerVariable| known.name == *name) {
                variables.push(read_variable(name, v));
            }
        }
    }
    variables.truncate(MAX_VARIABLES);
    Some(Server {
        url,
        description: value.get("description").and_then(Value::as_str).map(str::to_owned),
        variables,
    })
}

/// The servers of a `servers` array, in order, at most [`MAX_SERVERS`], each with at most
/// [`MAX_VARIABLES`] variables. An entry without a `url` string is skipped; anything but an
/// array gives none.
#[must_use]
pub fn read_servers(list: &Value) -> Vec<Server> {
    let Some(list) = list.as_array() else { return Vec::new() };
    list.iter().filter_map(read_server).take(MAX_SERVERS).collect()
}

/// `template` with each `{name}` replaced by the value `values` gives it (the first, if several);
/// a name with no value is left as written. Values are inserted as they are (a `basePath` may
/// hold `/`).
#[must_use]
pub fn expand(template: &str, values: &[(String, String)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(rest.get(..open).unwrap_or_default());
        let after = rest.get(open + 1..).unwrap_or_default();
        let Some(close) = after.find('}') else {
            out.push('{');
            rest = after;
            continue;
        };
        let name = after.get(..close).unwrap_or_default();
        if name.contains('{') {
            // `{a{b}`: this brace is text; the inner one may start a name.
            out.push('{');
            rest = after;
            continue;
        }
        match values.iter().find(|(n, _)| n == name) {
            Some((_, value)) => out.push_str(value),
            None => {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
        }
        rest = after.get(close + 1..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// Whether `value` may be given to `variable`.
///
/// # Errors
/// A sentence when `value` is empty, or when the variable lists its choices and `value` is not
/// one of them (the sentence lists them).
pub fn check_value(variable: &ServerVariable, value: &str) -> Result<(), String> {
    if value.is_empty() {
        return Err(format!("The server variable `{}` needs a value.", variable.name));
    }
    if !variable.choices.is_empty() && !variable.choices.iter().any(|c| c == value) {
        let choices: Vec<String> = variable.choices.iter().map(|c| format!("`{c}`")).collect();
        return Err(format!(
            "`{value}` is not a value of the server variable `{}`; it takes {}.",
            variable.name,
            choices.join(", ")
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn servers_are_read_with_variables_in_template_order() {
        let servers = read_servers(&json!([
            {
                "url": "{scheme}://{host}:{port}/{basePath}/",
                "description": "Any server",
                "variables": {
                    "extra": {"default": "x"},
                    "basePath": {"default": "v2/api", "description": "Where the API lives."},
                    "port": {"enum": [8443, "443"], "default": 8443},
                    "host": {"default": "api.example.com"},
                    "scheme": {"enum": ["https", "http"]}
                }
            },
            {"url": "/"},
            {"description": "no url"},
            {"url": "https://{region}.example.com/{version}", "variables": {"version": {"default": "v1"}}}
        ]));
        assert_eq!(servers.len(), 3);
        let first = &servers[0];
        assert_eq!(first.url, "{scheme}://{host}:{port}/{basePath}");
        assert_eq!(first.description.as_deref(), Some("Any server"));
        let names: Vec<&str> = first.variables.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["scheme", "host", "port", "basePath", "extra"]);
        assert_eq!(
            first.variables[2],
            ServerVariable {
                name: "port".into(),
                default: "8443".into(),
                choices: vec!["8443".into(), "443".into()],
                description: None,
            }
        );
        // No default: the first choice.
        assert_eq!(first.variables[0].default, "https");
        assert_eq!(first.resolve(&[]), "https://api.example.com:8443/v2/api");
        assert_eq!(
            first.resolve(&pairs(&[("scheme", "http"), ("basePath", "a/b:c")])),
            "http://api.example.com:8443/a/b:c"
        );
        assert_eq!(servers[1].url, "");
        // `{region}` has no entry in `variables`: left as written.
        let third = &servers[2];
        assert_eq!(third.variables.len(), 1);
        assert_eq!(third.resolve(&[]), "https://{region}.example.com/v1");
    }

    #[test]
    fn expand_replaces_what_it_is_given_and_leaves_the_rest() {
        let template = "{scheme}://{host}:{port}/{basePath}";
        assert_eq!(
            expand(
                template,
                &pairs(&[("scheme", "https"), ("host", "h"), ("port", "1"), ("basePath", "v1/x")])
            ),
            "https://h:1/v1/x"
        );
        assert_eq!(expand(template, &pairs(&[("host", "a:b/c")])), "{scheme}://a:b/c:{port}/{basePath}");
        assert_eq!(expand("a{b", &pairs(&[("b", "x")])), "a{b");
        assert_eq!(expand("{a{b}c}", &pairs(&[("b", "x")])), "{axc}");
        assert_eq!(expand("{}x", &pairs(&[("", "y")])), "yx");
        assert_eq!(expand("é{v}ü", &pairs(&[("v", "✓")])), "é✓ü");
        // A value holding braces is not expanded again.
        assert_eq!(expand("{a}{b}", &pairs(&[("a", "{b}"), ("b", "2")])), "{b}2");
    }

    #[test]
    fn values_are_checked() {
        let port = ServerVariable {
            name: "port".into(),
            default: "443".into(),
            choices: vec!["443".into(), "8443".into()],
            description: None,
        };
        assert_eq!(check_value(&port, "8443"), Ok(()));
        assert_eq!(
            check_value(&port, "80"),
            Err("`80` is not a value of the server variable `port`; it takes `443`, `8443`.".to_owned())
        );
        assert_eq!(check_value(&port, ""), Err("The server variable `port` needs a value.".to_owned()));
        let free = ServerVariable { choices: Vec::new(), ..port };
        assert_eq!(check_value(&free, "anything/at:all"), Ok(()));
    }

    #[test]
    fn reading_is_bounded_and_never_fails() {
        let many: Vec<Value> =
            (0..150).map(|i| json!({"url": format!("https://s{i}.example.com")})).collect();
        assert_eq!(read_servers(&Value::Array(many)).len(), MAX_SERVERS);
        let variables: serde_json::Map<String, Value> =
            (0..80).map(|i| (format!("v{i}"), json!({"default": "x"}))).collect();
        let servers = read_servers(&json!([{"url": "https://x/{v79}", "variables": variables}]));
        assert_eq!(servers[0].variables.len(), MAX_VARIABLES);
        assert_eq!(servers[0].variables[0].name, "v79");
        for odd in
            [json!(null), json!({}), json!("x"), json!([1, null, {"url": 3}, {"url": "x", "variables": []}])]
        {
            let _ = read_servers(&odd);
        }
        let server = read_servers(&json!([{"url": "x", "variables": {"a": {"enum": "no", "default": {}}}}]));
        assert_eq!(server[0].variables[0].default, "");
        let text = serde_json::to_string(&server).unwrap();
        assert_eq!(serde_json::from_str::<Vec<Server>>(&text).unwrap(), server);
    }
}
