//! The page's components, one section per file. The page holds the [`crate::state::Ctx`] and
//! hands each section only the signals it reads and `on_*` callbacks for what it does.

pub mod add_domain;
pub mod certificate;
pub mod config;
pub mod domain_card;
#[cfg(feature = "host")]
pub mod host_page;
pub mod instructions;
#[cfg(feature = "demo")]
pub mod page;
pub mod parts;
#[cfg(feature = "demo")]
pub mod settings;
pub mod troubleshooting;
#[cfg(feature = "demo")]
pub mod zone;
