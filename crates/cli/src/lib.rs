//! `playground`'s library half: publishing the reference and the mock of any API description.
//!
//! `build` writes a static site (`site`): the description is read as the page reads it
//! (`check`), the site's settings come from `playground.toml` (`config`), and the app's page is
//! made the site's (`page`). `serve` serves that site and the mock on one port, and rebuilds
//! both when the description changes (`serve`). `host` serves published sites at their
//! addresses and custom domains (`playground_host`), with real DNS, ACME certificates and TLS
//! (`host_services`, over `playground_certs`). `mock` is `petstore-mock serve`'s command
//! (`playground_server::cli`); `drift` sums up the log of its proxy mode.
#![deny(missing_docs)]

pub mod check;
pub mod config;
pub mod drift;
pub mod host;
pub mod host_services;
pub mod page;
pub mod serve;
pub mod site;
