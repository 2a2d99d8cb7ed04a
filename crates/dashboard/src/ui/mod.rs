//! The page's components, one section per file. The page (`page.rs`) holds its backend
//! (`demo.rs` or `host.rs`) and hands each section only the signals it reads and `on_*`
//! callbacks for what it does.

pub mod add_domain;
pub mod certificate;
pub mod config;
#[cfg(feature = "demo")]
pub mod demo;
pub mod domain_card;
#[cfg(feature = "host")]
pub mod host;
pub mod instructions;
pub mod page;
pub mod parts;
#[cfg(feature = "demo")]
pub mod settings;
pub mod troubleshooting;
#[cfg(feature = "demo")]
pub mod zone;
