//! The page's components, one per file; each reads the [`crate::state::Ctx`] from context.

pub mod add_domain;
pub mod config;
pub mod domain_card;
pub mod page;
pub mod settings;
pub mod zone;
