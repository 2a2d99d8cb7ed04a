//! Reading an API description from disk: JSON or YAML, at most [`MAX_DESCRIPTION_BYTES`].

use std::path::{Path, PathBuf};

use petstore_openapi::document::{self, Format};

/// The largest description file read (64 MiB).
pub const MAX_DESCRIPTION_BYTES: u64 = 64 * 1024 * 1024;

/// Why a description could not be read; the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct DescriptionError {
    /// The file at fault.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: String,
}

/// Reads the description at `path` as JSON or YAML.
///
/// # Errors
/// A [`DescriptionError`] naming the file when it cannot be read, is too large, or is neither
/// JSON nor YAML.
pub fn read(path: &Path) -> Result<serde_json::Value, DescriptionError> {
    let cannot = |problem: String| DescriptionError { path: path.to_owned(), problem };
    let size = std::fs::metadata(path).map_err(|e| cannot(e.to_string()))?.len();
    if size > MAX_DESCRIPTION_BYTES {
        return Err(cannot(format!("it is {size} bytes; the limit is {MAX_DESCRIPTION_BYTES}")));
    }
    let bytes = std::fs::read(path).map_err(|e| cannot(e.to_string()))?;
    match document::detect_format(&bytes) {
        Format::Json => document::parse_json(&bytes).map_err(|e| cannot(e.to_string())),
        Format::Yaml => serde_yaml_ng::from_slice(&bytes)
            .map_err(|e| cannot(format!("it is neither JSON nor YAML: {e}"))),
    }
}
