//! Tests of the security schemes, applying credentials and the OAuth 2.0 exchanges.
#![allow(clippy::unwrap_used)]

mod apply;
mod oauth;
mod schemes;
