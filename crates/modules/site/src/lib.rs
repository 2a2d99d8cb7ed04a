//! The JavaScript module `playground_site.js` of the npm package `petstore-playground`
//! (`packages/cli`): the site builder of `playground build` (`playground_site`), run in Node by
//! the package's `playground build` and `playground serve`, so both make the very site the
//! native command line makes. Node reads and writes the files: the module reads through the
//! caller's `readFile(path, limit)` and gives the site back in memory.
//!
//! - `buildSite(options, readFile)`: `options` is `{spec, specRoot, config, index, indexPath,
//!   appNames, servedMock, cwd}` (the description as the user named it and as an absolute path,
//!   the configuration as named, the app's `index.html`, its name and the app's top names);
//!   the answer is `{title,
//!   operations, warnings, files: [{name, bytes}], copy, images: [{from, name}], read,
//!   document}`. A site that cannot be made throws an `Error` whose message names the file.
//! - `loadDescription(spec, readFile, cwd)`: `{document, files}`, the description bundled into
//!   one document (its JSON text), for `playground mock`.
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
pub use exports::{build_site, load_description};
