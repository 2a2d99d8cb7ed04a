//! The Authorize panel's logic: the security schemes a document declares, the credentials the
//! reader entered for them, writing those credentials into a try-it request, and building and
//! reading the OAuth 2.0 and OpenID Connect exchanges. The page does the HTTP; nothing here
//! touches the network or the browser.

use std::collections::BTreeMap;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use playground_http::Request;

mod apply;
mod oauth;
#[cfg(test)]
mod tests;

pub use apply::*;
pub use oauth::*;
pub use playground_openapi::security::*;

/// The largest token response [`read_token_response`] reads, in bytes.
pub const MAX_TOKEN_RESPONSE: usize = 1024 * 1024;

/// The longest redirect query or fragment [`read_callback`] reads, in bytes.
pub const MAX_CALLBACK: usize = 64 * 1024;

/// What [`apply`] writes instead of an API key when asked for placeholders.
pub const PLACEHOLDER_API_KEY: &str = "<API_KEY>";

/// What [`apply`] writes instead of a bearer or access token when asked for placeholders.
pub const PLACEHOLDER_TOKEN: &str = "<TOKEN>";

/// What [`apply`] writes after `Basic ` instead of the encoded user name and password when asked
/// for placeholders.
pub const PLACEHOLDER_BASIC: &str = "<BASE64(USERNAME:PASSWORD)>";
