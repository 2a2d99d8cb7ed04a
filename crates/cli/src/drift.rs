//! `playground drift LOG`: the log `playground mock --proxy ... --log LOG` writes, summed up per
//! operation: calls, how many departed from the description, and the mismatches by kind.

use std::fs::File;
use std::io::{BufRead, BufReader, Read as _};
use std::path::{Path, PathBuf};

use playground_mock::{ExchangeLine, Summary};

/// The longest line read from a log (1 MiB); a longer one is skipped as not an exchange.
pub const MAX_LINE: usize = 1024 * 1024;

/// The most lines skipped that are named one by one.
pub const MAX_NAMED_SKIPS: usize = 10;

/// Why a log could not be summed up.
#[derive(Debug, thiserror::Error)]
pub enum DriftError {
    /// The log could not be opened or read.
    #[error("cannot read the log {}: {source}", path.display())]
    Read {
        /// The log.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Not one line of the log is an exchange.
    #[error("{} holds no exchange of `playground mock --proxy --log`{}", path.display(), first.as_ref().map(|f| format!(" ({f})")).unwrap_or_default())]
    Empty {
        /// The log.
        path: PathBuf,
        /// Why its first line was skipped, if one was.
        first: Option<String>,
    },
}

/// A log summed up, with the lines that were skipped, each named (`LOG:12: ...`).
#[derive(Debug, Default)]
pub struct DriftLog {
    /// Calls and mismatches per operation.
    pub summary: Summary,
    /// The lines skipped, the first [`MAX_NAMED_SKIPS`] named.
    pub skipped: Vec<String>,
    /// How many lines were skipped.
    pub skipped_count: usize,
}

/// Reads the log at `path`.
///
/// # Errors
/// When it cannot be read, or holds no exchange.
pub fn read(path: &Path) -> Result<DriftLog, DriftError> {
    let file = File::open(path).map_err(|source| DriftError::Read { path: path.to_owned(), source })?;
    read_from(BufReader::new(file), path)
}

/// Reads a log from `reader`; `path` names it in messages.
///
/// # Errors
/// As [`read`].
pub fn read_from(mut reader: impl BufRead, path: &Path) -> Result<DriftLog, DriftError> {
    let mut read = DriftLog::default();
    let mut number = 0_usize;
    let mut line = Vec::new();
    loop {
        line.clear();
        // At most MAX_LINE + 1 bytes: one more says the line is too long.
        let taken = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|source| DriftError::Read { path: path.to_owned(), source })?;
        if taken == 0 {
            break;
        }
        number += 1;
        let complete = line.ends_with(b"\n");
        if !complete && line.len() > MAX_LINE {
            // Skip the rest of the long line.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let more = (&mut reader)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut rest)
                    .map_err(|source| DriftError::Read { path: path.to_owned(), source })?;
                if more == 0 || rest.ends_with(b"\n") {
                    break;
                }
            }
            skip(&mut read, path, number, format!("longer than {MAX_LINE} bytes"));
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<ExchangeLine>(text.trim()) {
            Ok(exchange) => read.summary.add(&exchange),
            Err(error) => skip(&mut read, path, number, format!("not an exchange: {error}")),
        }
    }
    if read.summary.calls == 0 {
        return Err(DriftError::Empty { path: path.to_owned(), first: read.skipped.first().cloned() });
    }
    Ok(read)
}

fn skip(read: &mut DriftLog, path: &Path, number: usize, why: String) {
    read.skipped_count += 1;
    if read.skipped.len() < MAX_NAMED_SKIPS {
        read.skipped.push(format!("{}:{number}: {why}", path.display()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"method":"GET","path":"/items","operation":"listItems","status":200,"ms":2,"mismatches":[{"kind":"body","pointer":"/0/id","rule":"expected integer, got string"}]}"#;

    #[test]
    fn lines_are_summed_and_bad_ones_named() {
        let text = format!("{LINE}\n\nnot json\n{LINE}\n{{\"method\":\"GET\"");
        let read = read_from(text.as_bytes(), Path::new("drift.jsonl")).expect("reads");
        assert_eq!(read.summary.calls, 2);
        assert_eq!(read.skipped_count, 2);
        assert!(read.skipped[0].starts_with("drift.jsonl:3: not an exchange"), "{:?}", read.skipped);
        assert!(read.skipped[1].starts_with("drift.jsonl:5: "), "{:?}", read.skipped);
    }

    #[test]
    fn a_line_too_long_is_skipped_without_being_held() {
        let long = format!("\"{}\"", "x".repeat(MAX_LINE * 2 + 10));
        let text = format!("{long}\n{LINE}\n");
        let read = read_from(text.as_bytes(), Path::new("log")).expect("reads");
        assert_eq!(read.summary.calls, 1);
        assert_eq!(read.skipped, ["log:1: longer than 1048576 bytes"]);
    }

    #[test]
    fn a_log_without_exchanges_is_an_error_naming_it() {
        let error = read_from("hello\n".as_bytes(), Path::new("x.log")).unwrap_err().to_string();
        assert!(error.starts_with("x.log holds no exchange"), "{error}");
        assert!(error.contains("x.log:1: not an exchange"), "{error}");
        let missing = read(Path::new("/nonexistent/drift.log")).unwrap_err().to_string();
        assert!(missing.starts_with("cannot read the log /nonexistent/drift.log"), "{missing}");
    }
}
