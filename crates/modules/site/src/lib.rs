//! The JavaScript module `playground_site.js` of the npm package `petstore-playground`
//! (`packages/cli`): the site builder of `playground build` (`playground_site`), run in Node by
//! the package's `playground build` and `playground serve`, so both make the very site the
//! native command line makes. Node reads and writes the files: the module reads through the
//! caller's `readFile(path, limit)` and gives the site back in memory.
//!
//! - `buildSite(options, readFile)`: `options` is `{spec, specRoot, config, index, indexPath,
//!   appNames, servedMock, cwd, previous}` (the description as the user named it and as an
//!   absolute path, the configuration as named, the app's `index.html`, its name and the app's
//!   top names, and the earlier versions' descriptions of `build --previous`, newest first); the
//!   answer is `{title, operations, warnings, files: [{name, bytes}], copy, mounts, images:
//!   [{from, name}], read, document}` (`mounts`: the folders, such as `v/1.0/`, where the app's
//!   entries `copy` are copied as well as at the top). A site that cannot be made throws an
//!   `Error` whose message names the file.
//! - `loadDescription(spec, readFile, cwd)`: `{document, files}`, the description bundled into
//!   one document (its JSON text), for `playground mock`.
//! - `diffDescriptions(options, readFile)`: `{text, failing}`, two descriptions compared as
//!   `playground diff` compares them (`playground_diff`), for the package's `playground diff`;
//!   `options` is `{old, oldRoot, new, newRoot, cwd, format, failOn, date}`. A description that
//!   cannot be read throws an `Error` whose message names the file.
//! - `readFile(path, limit)` gives the file's bytes (a `Uint8Array`), or throws an `Error` whose
//!   message follows the file's name: "does not exist", "is a folder, not a file", "is N bytes;
//!   the limit is L" or "cannot be read: ...".
//!
//! `scripts/build-modules.sh OUT site` builds it (`wasm-bindgen --target web`, `wasm-opt` in
//! release). On other targets the crate is empty. Tests: `tests/cli-package` runs the packed
//! package in Node 18 and 20.
#![deny(missing_docs)]

#[cfg(target_arch = "wasm32")]
mod exports;

#[cfg(target_arch = "wasm32")]
pub use exports::{build_site, diff_descriptions, load_description};
