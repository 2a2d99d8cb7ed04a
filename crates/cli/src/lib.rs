//! `playground`'s library half: publishing the reference and the mock of any API description.
//!
//! `build` writes a static site (`site`): the description is read from disk
//! (`playground_server::description`) and as the page reads it (`check`: the core's reader,
//! Swagger 2.0 converted first, each listed operation's view built for the warnings), the site's
//! settings come from `playground.toml` (`config`, unknown keys refused), and the app's page is
//! made the site's (`page`: title, description, the `<script type="application/json"
//! id="playground-site">` element the app reads, the early request pointed at `openapi.json`,
//! Trunk's absolute addresses made relative; an `index.html` of another shape stops the build
//! rather than give a broken site). ARCHITECTURE.md walks through it.
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
//! `playground_server::export`); `drift` sums up the log of the mock's proxy mode.
//!
//! Tests: `tests/build.rs`, `tests/serve.rs`, `tests/mock.rs`, `tests/proxy.rs`, `tests/host.rs`
//! (the walk with Debian's Pebble) run the binary; `tests/architecture.rs` checks
//! ARCHITECTURE.md's crate map against `cargo metadata`.
#![deny(missing_docs)]

pub mod check;
pub mod config;
pub mod drift;
pub mod host;
pub mod host_services;
pub mod page;
pub mod serve;
pub mod site;
