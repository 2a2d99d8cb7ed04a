//! Reading an API description from files: JSON or YAML, in one file or many (relative `$ref`s
//! between files are followed and bundled into one document by `playground_openapi::bundle`).
//! Every size is bounded: [`MAX_DESCRIPTION_BYTES`] per file, and the bundle's [`Limits`].
//!
//! The files are read by the caller's [`ReadFile`]: the native command line reads the disk
//! (`playground_server::description`), the npm package's command line Node's `fs`, so both
//! read a description the same way and say the same of one they cannot read.

mod yaml;

use std::path::{Component, Path, PathBuf};

use playground_openapi::bundle::{self, Bundler, Limits};
use playground_openapi::document::{self, Format};
use serde_json::Value;

/// The largest description file read (64 MiB).
pub const MAX_DESCRIPTION_BYTES: u64 = 64 * 1024 * 1024;

/// How many problems an error lists before it says how many more there are.
const PROBLEMS_LISTED: usize = 10;

/// Why a description could not be read; the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct DescriptionError {
    /// The file at fault.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: String,
}

/// Reads one file, at most `limit` bytes: its bytes, or why not in words that follow the file's
/// name ("does not exist", "is a folder, not a file", "is N bytes; the limit is L", "cannot be
/// read: ...").
pub type ReadFile<'r> = dyn FnMut(&Path, u64) -> Result<Vec<u8>, String> + 'r;

/// A description read from files.
#[derive(Debug, Clone)]
pub struct Description {
    /// The document, with the parts of other files in it.
    pub document: Value,
    /// The files read, the root first (what to watch for changes).
    pub files: Vec<PathBuf>,
}

/// Reads the description at `path` (as the user named it; `root` is the same file as an
/// absolute path) as JSON or YAML, with the files its references name, each read by `read`.
/// Files are named relative to `cwd` in messages when they are under it.
///
/// # Errors
/// A [`DescriptionError`] naming the file when it cannot be read, is too large, or is neither
/// JSON nor YAML; or naming the file and JSON pointer of each reference that cannot be followed.
pub fn load(
    path: &Path,
    root: &Path,
    cwd: Option<&Path>,
    read: &mut ReadFile<'_>,
) -> Result<Description, DescriptionError> {
    let cannot = |problem: String| DescriptionError { path: path.to_owned(), problem };
    let root = normalize(root);
    let mut read_value = |path: &Path| -> Result<(Value, u64), String> {
        let bytes = read(path, MAX_DESCRIPTION_BYTES)?;
        let size = bytes.len() as u64;
        if size > MAX_DESCRIPTION_BYTES {
            return Err(format!("is {size} bytes; the limit is {MAX_DESCRIPTION_BYTES}"));
        }
        parse(&bytes).map(|value| (value, size))
    };
    let (value, bytes) = read_value(&root).map_err(cannot)?;
    let address = root.to_string_lossy().into_owned();
    if !bundle::refers_to_other_files(&value) {
        return Ok(Description { document: value, files: vec![path.to_owned()] });
    }
    let mut bundler = Bundler::new(&address, value, bytes, join, Limits::default());
    loop {
        let wanted = bundler.wanted();
        if wanted.is_empty() {
            break;
        }
        for address in wanted {
            match read_value(Path::new(&address)) {
                Ok((value, bytes)) => bundler.provide(&address, Ok(value), bytes),
                Err(reason) => bundler.provide(&address, Err(reason), 0),
            }
        }
    }
    let bundled = bundler.finish();
    let shown = |address: &str| shown(address, cwd);
    match bundled.problems.as_slice() {
        [] => {}
        [one] => {
            let problem =
                format!("at {}: the reference {} {}", pointer(&one.in_file), one.reference, one.reason);
            return Err(DescriptionError { path: PathBuf::from(shown(&one.file)), problem });
        }
        many => {
            let mut lines: Vec<String> = (many.iter().take(PROBLEMS_LISTED))
                .map(|p| {
                    format!("{} at {}: {} {}", shown(&p.file), pointer(&p.in_file), p.reference, p.reason)
                })
                .collect();
            if many.len() > PROBLEMS_LISTED {
                lines.push(format!("and {} more", many.len() - PROBLEMS_LISTED));
            }
            let problem = format!("{} references cannot be followed:\n  {}", many.len(), lines.join("\n  "));
            return Err(cannot(problem));
        }
    }
    let files = bundled.files.iter().map(PathBuf::from).collect();
    Ok(Description { document: bundled.document, files })
}

/// A file's address as a user reads it: relative to the working directory when under it.
fn shown(address: &str, cwd: Option<&Path>) -> String {
    let path = Path::new(address);
    cwd.and_then(|here| path.strip_prefix(here).ok().map(|p| p.display().to_string()))
        .unwrap_or_else(|| address.to_owned())
}

/// A JSON pointer as a user reads it (the root is `/`).
fn pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

/// The value of a file's bytes, JSON or YAML.
fn parse(bytes: &[u8]) -> Result<Value, String> {
    match document::detect_format(bytes) {
        Format::Json => document::parse_json(bytes).map_err(|e| e.to_string()),
        Format::Yaml => yaml::from_slice(bytes).map_err(|e| format!("is neither JSON nor YAML: {e}")),
    }
}

/// The file a reference's file part (`schemas/Pet.yaml`, `../common.yaml`, percent-encoded as
/// a URI reference) names, from the file it stands in. Only files: a reference to the network
/// is refused, so that a build reads nothing but the disk.
fn join(base: &str, reference: &str) -> Result<String, String> {
    let lower = reference.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return Err("is on the network; descriptions are read from disk only".to_owned());
    }
    let reference = lower.strip_prefix("file://").map_or(reference, |_| &reference["file://".len()..]);
    let decoded = percent_encoding::percent_decode_str(reference)
        .decode_utf8()
        .map_err(|_| "is not UTF-8 once its escapes are read".to_owned())?;
    let base = Path::new(base);
    let joined = match base.parent() {
        Some(folder) => folder.join(decoded.as_ref()),
        None => PathBuf::from(decoded.as_ref()),
    };
    Ok(normalize(&joined).to_string_lossy().into_owned())
}

/// `path` with its `.` and `..` parts taken away as written (the file need not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
