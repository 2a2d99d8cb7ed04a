//! The security an operation needs, each scheme described in words from
//! `components.securitySchemes`.

use std::borrow::Cow;

use serde_json::Value;

use super::{OperationView, SecurityUse, follow};

/// The security of an operation ([`OperationView::security`] and [`OperationView::schemes`]),
/// which the page hands the try-it module beside the view (`playground_seam::MountOptions`):
/// only the module's build with the Authorization part reads it. The other build is mounted
/// only for operations that name no scheme the document describes
/// ([`OperationView::needs_full_try_it`]), and skips it unread, without code to read it.
/// Borrowed from the view where it is written, owned where it is read.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Access<'a> {
    /// The ways in, each the schemes used together.
    pub security: Cow<'a, [Vec<SecurityUse>]>,
    /// The schemes they name, as the document describes them.
    pub schemes: Cow<'a, [playground_openapi::security::Scheme]>,
}

impl OperationView {
    /// Its security, to hand over beside the view.
    #[must_use]
    pub fn access(&self) -> Access<'_> {
        Access { security: Cow::Borrowed(&self.security), schemes: Cow::Borrowed(&self.schemes) }
    }

    /// Puts back the security [`OperationView::access`] took.
    pub fn set_access(&mut self, access: Access<'_>) {
        self.security = access.security.into_owned();
        self.schemes = access.schemes.into_owned();
    }
}

/// A `security` list with each scheme described from `components.securitySchemes`.
pub(super) fn security(doc: &Value, requirements: Option<&Value>) -> Vec<Vec<SecurityUse>> {
    let schemes = &doc["components"]["securitySchemes"];
    requirements
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .map(|requirement| {
            requirement
                .iter()
                .map(|(name, scopes)| SecurityUse {
                    name: name.clone(),
                    kind: follow(doc, &schemes[name])
                        .ok()
                        .filter(|s| s.is_object())
                        .map_or_else(|| "not described in the document".to_owned(), scheme_in_words),
                    scopes: scopes
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect(),
                })
                .collect()
        })
        .collect()
}

/// A security scheme in words.
fn scheme_in_words(scheme: &Value) -> String {
    let text = |key: &str| scheme.get(key).and_then(Value::as_str).unwrap_or_default();
    match text("type") {
        "apiKey" => format!("API key in the {} {}", text("in"), text("name")),
        "http" => {
            let name = text("scheme");
            let name = if name.eq_ignore_ascii_case("bearer") {
                "bearer".to_owned()
            } else if name.eq_ignore_ascii_case("basic") {
                "basic".to_owned()
            } else {
                name.to_owned()
            };
            // No brackets: the operation's page writes the whole in brackets after the name.
            match scheme.get("bearerFormat").and_then(Value::as_str) {
                Some(format) => format!("HTTP {name}, {format}"),
                None => format!("HTTP {name}"),
            }
        }
        "oauth2" => {
            let flows: Vec<&str> = scheme
                .get("flows")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(flow, _)| match flow.as_str() {
                    "authorizationCode" => "authorization code",
                    "clientCredentials" => "client credentials",
                    "implicit" => "implicit",
                    "password" => "password",
                    "deviceAuthorization" => "device authorization",
                    other => other,
                })
                .collect();
            match flows.len() {
                0 => "OAuth 2".to_owned(),
                1 => format!("OAuth 2, {} flow", flows[0]),
                _ => format!("OAuth 2, {} flows", and_list(&flows)),
            }
        }
        "openIdConnect" => "OpenID Connect".to_owned(),
        "mutualTLS" => "mutual TLS".to_owned(),
        other if !other.is_empty() => other.to_owned(),
        _ => "a scheme of no known type".to_owned(),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_scheme_in_words_has_no_brackets_of_its_own() {
        let password = json!({"type": "oauth2", "flows": {"password": {"tokenUrl": "/t", "scopes": {}}}});
        assert_eq!(scheme_in_words(&password), "OAuth 2, password flow");
        let two = json!({"type": "oauth2", "flows": {"authorizationCode": {}, "clientCredentials": {}}});
        assert_eq!(scheme_in_words(&two), "OAuth 2, authorization code and client credentials flows");
        let three =
            json!({"type": "oauth2", "flows": {"implicit": {}, "password": {}, "clientCredentials": {}}});
        assert_eq!(scheme_in_words(&three), "OAuth 2, implicit, password and client credentials flows");
        let bearer = json!({"type": "http", "scheme": "Bearer", "bearerFormat": "JWT"});
        assert_eq!(scheme_in_words(&bearer), "HTTP bearer, JWT");
        for scheme in [password, two, three, bearer] {
            assert!(!scheme_in_words(&scheme).contains(['(', ')']));
        }
    }
}
