//! Reading an API description from disk: JSON or YAML, in one file or many, as
//! `playground_site::description` reads it (relative `$ref`s between files followed and
//! bundled, every size bounded), with the files read from the disk.

use std::path::Path;

pub use playground_site::description::{Description, DescriptionError, MAX_DESCRIPTION_BYTES};

/// Reads the description at `path` as JSON or YAML, with the files its references name.
///
/// # Errors
/// A [`DescriptionError`] naming the file when it cannot be read, is too large, or is neither
/// JSON nor YAML; or naming the file and JSON pointer of each reference that cannot be followed.
pub fn read(path: &Path) -> Result<serde_json::Value, DescriptionError> {
    load(path).map(|description| description.document)
}

/// [`read`], with the list of the files read.
///
/// # Errors
/// As [`read`].
pub fn load(path: &Path) -> Result<Description, DescriptionError> {
    let root = std::path::absolute(path)
        .map_err(|e| DescriptionError { path: path.to_owned(), problem: e.to_string() })?;
    let cwd = std::env::current_dir().ok();
    playground_site::description::load(path, &root, cwd.as_deref(), &mut read_file)
}

/// Reads one file from the disk, at most `limit` bytes.
///
/// # Errors
/// Why not, in words that follow the file's name.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let size = match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => return Err("is a folder, not a file".to_owned()),
        Ok(metadata) => metadata.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err("does not exist".to_owned()),
        Err(e) => return Err(format!("cannot be read: {e}")),
    };
    if size > limit {
        return Err(format!("is {size} bytes; the limit is {limit}"));
    }
    std::fs::read(path).map_err(|e| format!("cannot be read: {e}"))
}
