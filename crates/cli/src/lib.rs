//! `playground`'s library half: publishing the reference and the mock of any API description.
//!
//! `build` writes a static site (`site`): `playground_site` makes it in memory (the description
//! read from disk through `playground_server::description` and as the page reads it, the
//! settings of `playground.toml`, the app's page made the site's; an `index.html` of another
//! shape stops the build rather than give a broken site), and `site` writes it beside `--out`
//! and renames it into place, with the app's files (`app`: `--app DIR` or the build tree's
//! `dist/`). ARCHITECTURE.md walks through it.
//!
//! `serve` writes the same site (`site::write_into`) into a folder of its own per version, keeps
//! the page in memory with a live-reload script added (never in a built site), and nests `mock`'s
//! router (`playground_server::router_with`) under `/mock`, its `Location` rewritten. It polls
//! the modification times and sizes of the description's files and `playground.toml` every
//! 300 ms (no dependency, and it sees editors that replace files as well as those that write into
//! them); once a change has kept still for 200 ms, a good version replaces the site and the
//! mock's state and sends `reload` on `/__playground/events` (Server-Sent Events, 64 listeners at
//! most); a broken one sends `error`, shown in a banner.
//!
//! `host` serves published sites at their addresses and custom domains (`playground_host`), with
//! real DNS, ACME certificates and TLS (`host_services`, over `playground_certs`). `mock` and
//! `export` are `petstore-mock serve` and `petstore-mock export` (`playground_server::cli`,
//! `playground_server::export`); `drift` sums up the log of the mock's proxy mode; `mcp` is the
//! MCP server over the mock (`playground_mcp::run`).
//!
//! Tests: `tests/build.rs`, `tests/serve.rs`, `tests/mock.rs`, `tests/proxy.rs`, `tests/host.rs`
//! (the walk with Debian's Pebble) run the binary; `tests/architecture.rs` checks
//! ARCHITECTURE.md's crate map against `cargo metadata`.
#![deny(missing_docs)]

pub mod app;
pub mod diff;
pub mod drift;
pub mod embedded;
pub mod host;
pub mod host_services;
pub mod serve;
pub mod site;
