//! `petstore-mock serve`: the stateful Petstore mock, or the mock of any OpenAPI document given
//! with `--spec`, over HTTP on this machine (the command itself is `petstore_mock_server::cli`,
//! shared with `playground mock`).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use petstore_mock_server::cli::{self, ServeArgs};

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
}

fn main() -> ExitCode {
    let Cli { command: Command::Serve(args) } = Cli::parse();
    cli::run("petstore-mock", args)
}
