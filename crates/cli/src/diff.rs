//! `playground diff OLD NEW`: the two descriptions read as `build` reads them (Swagger 2.0
//! converted), compared by `playground_diff`, the report written as text, Markdown or JSON; the
//! exit code says whether changes at the `--fail-on` level were found (1), or a description
//! could not be read (2).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use clap::{Args, ValueEnum};
use playground_diff::render::{self, Side};
use playground_diff::{Level, Options};
use serde_json::Value;

/// `diff`'s arguments.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The description before (OpenAPI 3.0 to 3.2 or Swagger 2.0; JSON or YAML, one file or many).
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The description after.
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
    /// How to write the changes.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Exit with 1 when a change at this level (or above) is found: for CI.
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub fail_on: Option<FailOn>,
    /// The day sunset dates are compared with (YYYY-MM-DD) [default: today].
    #[arg(long, value_name = "DATE", value_parser = date)]
    pub date: Option<String>,
}

/// How to write the changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Grouped by level and operation, for a terminal.
    Text,
    /// For a pull request's comment or a changelog.
    Markdown,
    /// Every change with its id, level, operations and pointer (docs/diff.md).
    Json,
}

/// The level `--fail-on` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Breaking changes.
    Breaking,
    /// Deprecations and breaking changes.
    Deprecation,
    /// Any change.
    Any,
}

/// The exit code when a description cannot be read.
const UNREADABLE: u8 = 2;

/// Runs `diff`.
#[expect(clippy::print_stdout, reason = "the report is this command's output")]
pub fn run(program: &str, args: &DiffArgs) -> ExitCode {
    let (old, new) = std::thread::scope(|scope| {
        let old = scope.spawn(|| read(&args.old));
        let new = read(&args.new);
        (old.join().unwrap_or_else(|_| Err(format!("{}: could not be read", args.old.display()))), new)
    });
    let (old, new) = match (old, new) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(error), _) | (_, Err(error)) => {
            eprintln!("{program}: {error}");
            return ExitCode::from(UNREADABLE);
        }
    };
    let options = Options { today: Some(args.date.clone().unwrap_or_else(today)) };
    let report = playground_diff::compare(&old, &new, &options);
    let (old_side, new_side) =
        (Side::of(&args.old.display().to_string(), &old), Side::of(&args.new.display().to_string(), &new));
    let out = match args.format {
        Format::Text => render::text(&report, &old_side, &new_side),
        Format::Markdown => render::markdown(&report, &old_side, &new_side),
        Format::Json => render::json(&report, &old_side, &new_side),
    };
    print!("{out}");
    let failing = args.fail_on.is_some_and(|level| match level {
        FailOn::Breaking => report.any_at_least(Level::Breaking),
        FailOn::Deprecation => report.any_at_least(Level::Deprecation),
        FailOn::Any => !report.changes.is_empty(),
    });
    if failing { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

/// A description as `build` reads it: its files, checked as the page reads it, a Swagger 2.0
/// one converted; or the error naming the file and the place.
fn read(path: &Path) -> Result<Value, String> {
    let document = playground_server::description::read(path).map_err(|e| e.to_string())?;
    let checked = playground_site::check::check(path, document).map_err(|e| e.to_string())?;
    Ok(checked.document)
}

/// A `--date`: `YYYY-MM-DD`.
fn date(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let shape = bytes.len() == 10
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() });
    if shape { Ok(text.to_owned()) } else { Err("expected a date as YYYY-MM-DD".to_owned()) }
}

/// Today (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let days = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400);
    let (year, month, day) = civil(i64::try_from(days).unwrap_or(0));
    format!("{year:04}-{month:02}-{day:02}")
}

/// The calendar date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::civil;

    #[test]
    fn days_become_calendar_dates() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(59), (1970, 3, 1));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(20_786), (2026, 11, 29));
    }
}
