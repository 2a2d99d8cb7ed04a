//! Reading OpenAPI descriptions (3.0, 3.1 and 3.2; Swagger 2.0 is recognised and handed to the
//! converter): the text read whole or as it arrives, the catalog of its operations and the list's
//! rows, schema access for every dialect, servers and security schemes. Pure Rust with no browser
//! crates, so it builds and tests on the host and on `wasm32-unknown-unknown` alike. Reading knows
//! nothing of the views: `playground_reference::DocumentViews` builds them from an `AnyDocument`.
//!
//! # Reading (`document`)
//!
//! Imports go one way inside `document/`: `error.rs` (`DocumentError`, one sentence per problem)
//! <- `checks.rs` (`parse_json`, `validate`, the root checks) <- `indexed.rs` (`IndexedDocument`)
//! <- `any.rs` (`AnyDocument`: whole, indexed or arriving) <- `outcome.rs` (`Read`: what reading
//! gave) <- `stream.rs` (`DocumentStream`, the one reader) <- `mod.rs` (`read`, `load_json`,
//! `Source`); `format.rs` tells JSON from YAML.
//!
//! A document is indexed, not parsed whole: the index says where each path item and component
//! is, and an opened operation, webhook or schema gets a small document of its own
//! (`IndexedDocument::small_document`: the components, path items and security schemes its
//! references reach). `DocumentStream` builds the index as the text arrives: it checks UTF-8 as
//! it goes and indexes each root entry once it has arrived whole (each path item and webhook read
//! for the list in the same pass, `catalog::PathItemRead` into `catalog::ItemsRead`; components
//! checked as raw values). An entry that has not arrived whole is tried again only once the text
//! grew by a quarter of what the try read, so the work stays linear however the chunks fall. Once
//! `paths`, `openapi`, `info` and `tags` are in, `push` gives the list (`AnyDocument::Arriving`);
//! `list_first` gives a long list's first rows as soon as they are final. Where the reader cannot
//! follow the text (a syntax error, a root or `paths` that is not an object), `read_whole` parses
//! it as one value for the error's line and column. The text is kept without the indentation of
//! its lines (`Lines::restore` gives the columns back); line ends and indentation are found eight
//! bytes at a time.
//!
//! Accepted beyond 3.0's minimum: `openapi` 3.0.x, 3.1.x and 3.2.x (3.1 and later need one of
//! `paths`, `webhooks` and `components`); `paths` or `webhooks` that are not objects are refused
//! with their JSON pointer (`NotAnObjectAt`); `components` of the wrong kind is ignored. JSON
//! nested deeper than serde_json's 128 levels is refused with that reason.
//!
//! # The list (`catalog`, `outline`)
//!
//! The catalog skips `x-` keys among the paths, follows a path item's `$ref` (to
//! `components/pathItems`, another path or a webhook), reads 3.2's `query` operations and reads
//! the fields it shows leniently: only a path item or operation that is not an object refuses the
//! document. Redoc's `x-tagGroups` and `x-displayName` shape the groups. Webhooks (`webhooks`, or
//! `x-webhooks` in 3.0) are listed last under `catalog::WEBHOOKS` and not counted as operations.
//! Anchors: `catalog::anchor` (the `operationId`, else `get-/path`), `catalog::webhook_anchor`,
//! `outline::tag_anchor`, `outline::schema_anchor` and `outline::SCHEMAS_ANCHOR`, linked through
//! `outline::href`. The search folds case with the browser's `toLowerCase`
//! (`Catalog::filter_folded`), so the page's wasm carries no Unicode case tables.
//!
//! # The rest
//!
//! `schema` reads schemas for both dialects in one place (`type` lists and `nullable`, `const`
//! and `enum`, `examples` and `example`, both kinds of exclusive bounds, a `$ref`'s siblings laid
//! over its target); the views, the try-it checks and the generator ask it. `pointer` resolves
//! JSON pointers, percent-encoded or not (`pointer_target`). `security` reads the schemes and
//! says whether an operation can be sent with the credentials filled (`access`); `servers` reads
//! server variables.
//!
//! `bundle` joins a description kept in many files and does no input or output: a
//! `bundle::Bundler` says which files it wants, its caller reads and provides them, and `finish`
//! gives one document. What comes from another file goes to the components section of its kind,
//! named after its file or pointer, so it is kept once and a schema that refers to itself stays a
//! loop of references; what has no section is copied where the reference stands. A reference that
//! cannot be followed stays, with `x-unresolved-reference` saying why, so only the part that uses
//! it fails. The command lines' caller is `crates/site/src/description.rs`, the page's
//! `crates/modules/convert/src/bundle.rs`.
//!
//! Tests: `tests/catalog.rs`, `tests/catalog_security.rs` and `tests/stream_first.rs`; the
//! reader's property tests (any chunking ends as reading the whole text does) are
//! `crates/reference/tests/stream.rs`, beside the views they compare.
#![deny(missing_docs)]

pub mod bundle;
pub mod catalog;
pub mod document;
pub mod json;
pub mod outline;
pub mod pointer;
pub mod schema;
pub mod security;
pub mod servers;

pub use catalog::{Catalog, CatalogError};
