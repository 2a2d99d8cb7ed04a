//! Packs the app's folder (`trunk build --release`'s `dist/`) into one gzip-compressed tar
//! archive: written once, used by `build.rs` (feature `embed-app`, through `#[path]`) and by the
//! tests of `embedded`, which unpack what it packs.
//!
//! Every file is packed but hidden entries (a build tool's staging folder, a previous site's
//! marker) and `*.d.ts` files (the TypeScript declarations wasm-bindgen leaves, which no page
//! loads); what a site leaves out of the rest is decided when the site is written, as for a
//! folder. The archive is the same for the same files: entries in name order, links followed,
//! no owner, modification time 0, mode 0644 (0755 for folders).

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;

/// Whether a file or folder of the app's folder is packed (`name` is the entry's own name).
pub fn packed(name: &str, is_dir: bool) -> bool {
    !name.starts_with('.') && (is_dir || !name.ends_with(".d.ts"))
}

/// Writes the files of `dir` (see the module's documentation) as a tar archive compressed with
/// gzip at its best level into `out`; gives back `out`.
///
/// # Errors
///
/// The first error reading the folder or writing the archive, with the path read.
pub fn pack<W: Write>(dir: &Path, out: W) -> io::Result<W> {
    let mut builder = tar::Builder::new(GzEncoder::new(out, Compression::best()));
    add_folder(&mut builder, dir, "")?;
    builder.into_inner()?.finish()
}

/// Adds the packed entries of `dir` under `prefix` (empty, or ending with `/`), in name order.
fn add_folder<W: Write>(builder: &mut tar::Builder<W>, dir: &Path, prefix: &str) -> io::Result<()> {
    let mut entries = Vec::new();
    for entry in fs::read_dir(dir).map_err(|error| with_path(dir, error))? {
        let entry = entry.map_err(|error| with_path(dir, error))?;
        let Ok(name) = entry.file_name().into_string() else {
            return Err(with_path(&entry.path(), io::Error::other("the name is not UTF-8")));
        };
        entries.push((name, entry.path()));
    }
    entries.sort();
    for (name, path) in entries {
        // Links followed, as the site's copy of a folder does.
        let metadata = fs::metadata(&path).map_err(|error| with_path(&path, error))?;
        if !packed(&name, metadata.is_dir()) {
            continue;
        }
        let inner = format!("{prefix}{name}");
        if metadata.is_dir() {
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(tar::EntryType::Directory);
            header.set_size(0);
            header.set_mode(0o755);
            header.set_mtime(0);
            builder.append_data(&mut header, format!("{inner}/"), io::empty())?;
            add_folder(builder, &path, &format!("{inner}/"))?;
        } else {
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(tar::EntryType::Regular);
            header.set_size(metadata.len());
            header.set_mode(0o644);
            header.set_mtime(0);
            let file = fs::File::open(&path).map_err(|error| with_path(&path, error))?;
            builder.append_data(&mut header, &inner, file).map_err(|error| with_path(&path, error))?;
        }
    }
    Ok(())
}

/// `error`, its message prefixed with the path it is about.
fn with_path(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}
