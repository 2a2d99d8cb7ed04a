//! Security definitions: `basic` is HTTP basic authentication, `apiKey` stays, and an
//! `oauth2` definition's one `flow` becomes the matching entry of `flows`.

use serde_json::{Map, Value, json};

use super::Converter;
use super::error::ConvertError;
use super::read::{At, opt_object, opt_str, req_str, wrong};

impl Converter<'_> {
    /// The Security Scheme Object for the security definition at `at`.
    pub(super) fn security_scheme(
        &mut self,
        map: &Map<String, Value>,
        at: &At<'_>,
    ) -> Result<Value, ConvertError> {
        let mut out = Map::new();
        let description = opt_str(map, "description", at)?;
        let mut known = vec!["type", "description"];
        match req_str(map, "type", at)? {
            "basic" => {
                out.insert("type".to_owned(), json!("http"));
                out.insert("scheme".to_owned(), json!("basic"));
                insert_description(&mut out, description);
            }
            "apiKey" => {
                let name = req_str(map, "name", at)?;
                let location = req_str(map, "in", at)?;
                if !matches!(location, "query" | "header") {
                    return Err(ConvertError::UnknownValue {
                        pointer: at.pointer(),
                        field: "in",
                        value: location.to_owned(),
                        allowed: "query and header",
                    });
                }
                out.insert("type".to_owned(), json!("apiKey"));
                insert_description(&mut out, description);
                out.insert("name".to_owned(), json!(name));
                out.insert("in".to_owned(), json!(location));
                known.extend(["name", "in"]);
            }
            "oauth2" => {
                let flow = req_str(map, "flow", at)?;
                let (key, authorization, token) = match flow {
                    "implicit" => ("implicit", true, false),
                    "password" => ("password", false, true),
                    "application" => ("clientCredentials", false, true),
                    "accessCode" => ("authorizationCode", true, true),
                    other => {
                        return Err(ConvertError::UnknownValue {
                            pointer: at.pointer(),
                            field: "flow",
                            value: other.to_owned(),
                            allowed: "implicit, password, application and accessCode",
                        });
                    }
                };
                let mut entry = Map::new();
                for (url, used) in [("authorizationUrl", authorization), ("tokenUrl", token)] {
                    if used {
                        entry.insert(url.to_owned(), json!(req_str(map, url, at)?));
                    } else if opt_str(map, url, at)?.is_some() {
                        self.notes.push(format!(
                            "`{url}` of the security definition {} is not used by the `{flow}` flow; it is left out.",
                            at.quoted()
                        ));
                    }
                }
                let scopes = opt_object(map, "scopes", at)?.cloned().unwrap_or_default();
                let scopes_at = at.field("scopes");
                for (name, text) in &scopes {
                    text.as_str().ok_or_else(|| wrong(&scopes_at.field(name), "a text", text))?;
                }
                entry.insert("scopes".to_owned(), Value::Object(scopes));
                out.insert("type".to_owned(), json!("oauth2"));
                insert_description(&mut out, description);
                out.insert("flows".to_owned(), json!({ key: entry }));
                known.extend(["flow", "authorizationUrl", "tokenUrl", "scopes"]);
            }
            other => {
                return Err(ConvertError::UnknownValue {
                    pointer: at.pointer(),
                    field: "type",
                    value: other.to_owned(),
                    allowed: "basic, apiKey and oauth2",
                });
            }
        }
        self.rest(map, &known, at, "security definition", &mut out);
        Ok(Value::Object(out))
    }
}

fn insert_description(out: &mut Map<String, Value>, description: Option<&str>) {
    if let Some(description) = description {
        out.insert("description".to_owned(), json!(description));
    }
}
