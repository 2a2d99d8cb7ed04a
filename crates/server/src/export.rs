//! `export`: the state a `--state FILE` holds, as the JSON snapshot the page's Import, the JS
//! module's `restore` and another `--state` read. Reads the database while a server runs on
//! it (SQLite readers do not wait for its writer).

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use petstore::Mock;
use playground_mock::ApiMock;

use crate::state_db::{self, Found, StateDb};
use crate::{Served, description, state_file};

/// The flags of `export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The state file (`serve --state FILE`).
    #[arg(long, value_name = "FILE")]
    state: PathBuf,
    /// The document the state belongs to, for the state of `serve --spec` (without it, the
    /// state is the Petstore's).
    #[arg(long, value_name = "FILE")]
    spec: Option<PathBuf>,
    /// Write the JSON here (atomically) instead of to stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Writes the state `args.state` holds as JSON; messages start with `program`.
#[must_use]
pub fn run(program: &str, args: &ExportArgs) -> ExitCode {
    match export(args) {
        Ok(json) => {
            let written = match &args.out {
                Some(out) => state_file::save(out, &json).map_err(|e| e.to_string()),
                None => {
                    io::stdout().lock().write_all(format!("{json}\n").as_bytes()).map_err(|e| e.to_string())
                }
            };
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("{program}: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(error) => {
            eprintln!("{program}: {error}");
            ExitCode::FAILURE
        }
    }
}

fn export(args: &ExportArgs) -> Result<String, String> {
    let mut mock: Served = match &args.spec {
        Some(path) => {
            let cannot = |why: String| format!("cannot read the document {}: {why}", path.display());
            let document = description::read(path).map_err(|e| cannot(e.to_string()))?;
            ApiMock::from_document(document).map_err(|e| cannot(e.to_string()))?.into()
        }
        None => Mock::new().into(),
    };
    let path: &Path = &args.state;
    let invalid = |e: playground_mock::SnapshotError| format!("cannot export {}: {e}", path.display());
    match state_db::look(path).map_err(|e| e.to_string())? {
        Found::Nothing => {
            return Err(format!("{} holds no state (it does not exist or is empty)", path.display()));
        }
        Found::Database => {
            let db = StateDb::open_read_only(path).map_err(|e| e.to_string())?;
            mock.restore_records(db.records().map_err(|e| e.to_string())?).map_err(invalid)?;
        }
        Found::Snapshot(text) => mock.restore(&text).map_err(invalid)?,
    }
    Ok(mock.snapshot())
}
