//! Security as a mock enforces it: the credentials an operation's security alternatives name,
//! present where the scheme puts them, and among the accepted ones when the options list some.

use super::failure::Failure;
use super::spec::{Credential, Operation};
use playground_http::Request;

/// Whether the request carries what one of the operation's security alternatives needs: a
/// value where the scheme puts it, and one of `accepted` when that is not empty.
pub(super) fn check_credentials(
    op: &Operation,
    request: &Request,
    query: &[(String, String)],
    accepted: &[String],
) -> Result<(), Failure> {
    if op.security.is_empty() || op.security.iter().any(Vec::is_empty) {
        return Ok(());
    }
    let mut given_but_refused = false;
    let mut valid = |value: &str, decoded: Option<String>| {
        let value = value.trim();
        if value.is_empty() {
            return false;
        }
        let ok = accepted.is_empty()
            || accepted.iter().any(|a| a == value || decoded.as_deref().is_some_and(|d| a == d));
        given_but_refused |= !ok;
        ok
    };
    let mut has = |credential: &Credential| match credential {
        Credential::Header(name) => request.header_value(name).is_some_and(|v| valid(v, None)),
        Credential::Query(name) => query.iter().any(|(k, v)| k == name && valid(v, None)),
        Credential::Cookie(name) => request
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("cookie"))
            .flat_map(|(_, v)| v.split(';'))
            .any(|pair| pair.split_once('=').is_some_and(|(k, v)| k.trim() == name && valid(v, None))),
        Credential::Authorization(scheme) => request.header_value("Authorization").is_some_and(|v| {
            v.split_once(' ').is_some_and(|(s, token)| {
                s.eq_ignore_ascii_case(scheme)
                    && valid(token, (scheme == "basic").then(|| basic_pair(token)).flatten())
            })
        }),
        Credential::Unchecked => true,
    };
    if op.security.iter().any(|alternative| alternative.iter().all(&mut has)) {
        return Ok(());
    }
    if given_but_refused {
        return Err(Failure::unauthorized(
            format!("{}: the credentials given are not among those this mock accepts.", op.id),
            challenge(op),
        ));
    }
    let describe = |c: &Credential| match c {
        Credential::Header(name) => format!("the header {name}"),
        Credential::Query(name) => format!("the query parameter {name}"),
        Credential::Cookie(name) => format!("the cookie {name}"),
        Credential::Authorization(scheme) => {
            format!("an Authorization header with a {} credential", capitalized(scheme))
        }
        Credential::Unchecked => "a client certificate".to_owned(),
    };
    let needs: Vec<String> =
        op.security.iter().map(|alt| alt.iter().map(describe).collect::<Vec<_>>().join(" and ")).collect();
    Err(Failure::unauthorized(
        format!("{} needs credentials: {}.", op.id, needs.join(", or ")),
        challenge(op),
    ))
}

/// The `WWW-Authenticate` value of a 401: the first HTTP scheme the operation takes.
fn challenge(op: &Operation) -> String {
    op.security
        .iter()
        .flatten()
        .find_map(|c| match c {
            Credential::Authorization(scheme) => Some(format!("{} realm=\"mock\"", capitalized(scheme))),
            _ => None,
        })
        .unwrap_or_else(|| "ApiKey realm=\"mock\"".to_owned())
}

/// The `user:password` of a Basic credential's base64, when it decodes to text.
fn basic_pair(token: &str) -> Option<String> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD.decode(token.trim()).ok()?;
    String::from_utf8(bytes).ok()
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}
