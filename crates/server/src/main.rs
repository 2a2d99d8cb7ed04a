//! `petstore-mock serve`: the stateful Petstore mock, or the mock of any OpenAPI document given
//! with `--spec`, over HTTP on this machine (the command itself is `playground_server::cli`,
//! shared with `playground mock`).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use playground_server::cli::{self, ServeArgs};
use playground_server::export::{self, ExportArgs};

/// The Petstore mock, or the mock of any OpenAPI document, as a local HTTP server.
#[derive(Debug, Parser)]
#[command(name = "petstore-mock", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the mock API over HTTP until Ctrl-C or SIGTERM.
    Serve(ServeArgs),
    /// Write the state a `serve --state FILE` keeps as JSON (the format Import and `restore`
    /// read, and `--state` imports), also while the server runs.
    Export(ExportArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Serve(args) => cli::run("petstore-mock", args),
        Command::Export(args) => export::run("petstore-mock", &args),
    }
}
