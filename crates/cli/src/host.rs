//! `playground host`: serves published sites at their default addresses and custom domains,
//! with the Domains page's API (`playground_host`), until Ctrl-C or SIGTERM.
//! `playground host hash-password` makes the argon2 hash an owner's entry in `host.toml` needs.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use playground_host::config::HostConfig;
use playground_server::cli::StopSignals;

/// Serves the host `config` describes until Ctrl-C or SIGTERM. Prints one line on stdout per
/// listener, `PROGRAM listening on http://ADDRESS` (then `https://`), for scripts to read.
#[must_use]
pub fn run(program: &'static str, config: &Path) -> ExitCode {
    let path = config.to_owned();
    let config = match HostConfig::load(config) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("{program}: {error}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("{program}: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let mut signals = match StopSignals::install() {
            Ok(signals) => signals,
            Err(error) => {
                eprintln!("{program}: cannot wait for Ctrl-C or SIGTERM: {error}");
                return ExitCode::FAILURE;
            }
        };
        let host = match playground_host::Host::open(config).await {
            Ok(host) => host,
            Err(error) => {
                // The state named in the configuration (its data_dir or [database] url).
                eprintln!("{program}: {}: {error}", path.display());
                return ExitCode::FAILURE;
            }
        };
        let services = match crate::host_services::real(program, &host).await {
            Ok(services) => services,
            Err(error) => {
                eprintln!("{program}: {error}");
                return ExitCode::FAILURE;
            }
        };
        let host = match host.serve(services).await {
            Ok(host) => host,
            Err(error) => {
                eprintln!("{program}: {error}");
                return ExitCode::FAILURE;
            }
        };
        announce(program, "http", host.http);
        if let Some(https) = host.https {
            announce(program, "https", https);
        }
        let signal = signals.recv().await;
        eprintln!("{program}: {signal} received, stopping");
        host.stop().await;
        ExitCode::SUCCESS
    })
}

#[expect(clippy::print_stdout, reason = "the listening URL is this command's output")]
fn announce(program: &str, scheme: &str, address: std::net::SocketAddr) {
    println!("{program} listening on {scheme}://{address}");
    let _ = io::stdout().flush();
}

/// Reads one password line on stdin and prints its argon2id PHC string.
#[must_use]
pub fn hash_password(program: &'static str) -> ExitCode {
    let mut line = String::new();
    if let Err(error) = io::stdin().lock().read_line(&mut line) {
        eprintln!("{program}: cannot read the password on standard input: {error}");
        return ExitCode::FAILURE;
    }
    let password = line.trim_end_matches(['\r', '\n']);
    match playground_host::password::hash_password(password) {
        Ok(hash) => print_hash(&hash),
        Err(error) => {
            eprintln!("{program}: {error}");
            ExitCode::FAILURE
        }
    }
}

#[expect(clippy::print_stdout, reason = "the hash is this command's output")]
fn print_hash(hash: &str) -> ExitCode {
    println!("{hash}");
    ExitCode::SUCCESS
}
