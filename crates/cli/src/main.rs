//! `playground`: the reference and the mock of any API description, with one command each
//! (`playground build` writes a static site, `playground mock` serves the mock over HTTP,
//! `playground serve` serves both while the description is edited, `playground drift` sums up
//! how a real API's answers departed from it, `playground mcp` serves the mock to agents over
//! the Model Context Protocol).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use playground::app::App;
use playground::host;
use playground::serve::{self, Serve};
use playground::site::{self, Build, Source};
use playground_server::cli;
use playground_site::check::MAX_WARNINGS;

/// The program's name in its messages.
const PROGRAM: &str = "playground";

/// `--version`'s text after the name: the version, the commit (build.rs) and where the app's
/// files come from.
#[cfg(feature = "embed-app")]
const VERSION: &str =
    concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("PLAYGROUND_COMMIT"), ", app embedded)");
/// `--version`'s text after the name: the version, the commit (build.rs) and where the app's
/// files come from.
#[cfg(not(feature = "embed-app"))]
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("PLAYGROUND_COMMIT"),
    ", app not embedded: --app defaults to ",
    env!("CARGO_MANIFEST_DIR"),
    "/../../dist)"
);

/// The app's folder when `--app` is not given and no app is built in: the build tree's `dist/`.
const BUILD_TREE_APP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../dist");

/// Publish the reference and the mock of an API description.
#[derive(Debug, Parser)]
#[command(name = "playground", version = VERSION, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the mock of a description over HTTP until Ctrl-C or SIGTERM.
    #[command(mut_arg("spec", |arg| arg.required(true)), mut_arg("seed", |arg| arg.hide(true)))]
    Mock(cli::ServeArgs),
    /// Write the state a `mock --state FILE` keeps as JSON, also while the mock runs.
    Export(playground_server::export::ExportArgs),
    /// Sum up the log of `mock --proxy URL --log LOG`: per operation, the calls and the
    /// mismatches with the description by kind.
    Drift(DriftArgs),
    /// Write a static site of a description's reference, with its in-browser mock.
    Build(BuildArgs),
    /// Serve the site `build` would write at /, and the description's mock at /mock/, until
    /// Ctrl-C or SIGTERM; both are rebuilt, and open pages reloaded, when the description changes.
    Serve(ServeArgs),
    /// Serve published sites at their default addresses and custom domains, with the Domains
    /// page's API, until Ctrl-C or SIGTERM (`host hash-password` makes an owner's password hash).
    Host(HostArgs),
    /// Compare two descriptions: every change per operation and per schema, each breaking,
    /// a deprecation or non-breaking (exit 1 with --fail-on when one at that level is found, 2
    /// when a description cannot be read).
    Diff(playground::diff::DiffArgs),
    /// Serve an MCP server over the description's mock (search, describe and call its
    /// operations) on stdio, or on streamable HTTP at /mcp with --port.
    Mcp(playground_mcp::McpArgs),
}

#[derive(Debug, Args)]
struct DriftArgs {
    /// The log `playground mock --proxy URL --log LOG` wrote (one JSON line per exchange).
    #[arg(value_name = "LOG")]
    log: PathBuf,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct HostArgs {
    #[command(subcommand)]
    command: Option<HostCommand>,
    /// The host's configuration (host.toml).
    #[arg(long, value_name = "FILE", required = true)]
    config: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum HostCommand {
    /// Read a password on standard input and print its argon2 hash, for an owner's
    /// password_hash in host.toml.
    HashPassword,
}

/// What a site is made of, for `build` and `serve`.
#[derive(Debug, Args)]
struct SiteArgs {
    /// The API description (OpenAPI 3.0 to 3.2 or Swagger 2.0; JSON or YAML).
    #[arg(long, value_name = "FILE")]
    spec: PathBuf,
    /// The site's settings (title, logo, accent, favicon, links, try_it, mock).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The app's files, as `make build` leaves them in dist/ [default: the app built into this
    /// program, else the build tree's dist/ (`playground --version` says which)]
    #[arg(long, value_name = "DIR")]
    app: Option<PathBuf>,
}

/// The app `--app` names: that folder; without it the app built into the program, or the build
/// tree's `dist/` when none is.
fn app(arg: Option<PathBuf>) -> App {
    match (arg, playground::embedded::app()) {
        (Some(dir), _) => App::Dir(dir),
        (None, Some(embedded)) => App::Embedded(embedded),
        (None, None) => App::Dir(PathBuf::from(BUILD_TREE_APP)),
    }
}

impl From<SiteArgs> for Source {
    fn from(args: SiteArgs) -> Self {
        Source {
            spec: args.spec,
            config: args.config,
            app: app(args.app),
            served_mock: None,
            previous: Vec::new(),
        }
    }
}

#[derive(Debug, Args)]
struct BuildArgs {
    #[command(flatten)]
    site: SiteArgs,
    /// The folder to write the site to; a site built there before is replaced.
    #[arg(long, value_name = "DIR", default_value = "site")]
    out: PathBuf,
    /// An earlier version's description, published under v/VERSION/ with a version switcher
    /// and a Changes page per version; repeat it, newest first (or list them in
    /// playground.toml's [[versions]]).
    #[arg(long, value_name = "FILE")]
    previous: Vec<PathBuf>,
    /// Make --out a symbolic link switched to each new build in one rename, the two previous
    /// builds kept beside it (for a folder servers read while it is published, such as
    /// `playground host`'s sites_dir); a link made so is switched without this flag.
    #[arg(long)]
    switch: bool,
}

#[derive(Debug, Args)]
struct ServeArgs {
    #[command(flatten)]
    site: SiteArgs,
    /// Address to listen on (only this one).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on; 0 picks a free one (the URL printed at start tells which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Mock(args) => cli::run(PROGRAM, args),
        Command::Mcp(args) => playground_mcp::run(PROGRAM, args),
        Command::Diff(args) => playground::diff::run(PROGRAM, &args),
        Command::Export(args) => playground_server::export::run(PROGRAM, &args),
        Command::Drift(args) => drift(&args.log),
        Command::Build(args) => build(args),
        Command::Serve(args) => {
            serve::run(PROGRAM, Serve { source: args.site.into(), host: args.host, port: args.port })
        }
        Command::Host(args) => match (args.command, args.config) {
            (Some(HostCommand::HashPassword), _) => host::hash_password(PROGRAM),
            (None, Some(config)) => host::run(PROGRAM, &config),
            (None, None) => {
                eprintln!("{PROGRAM}: host needs --config FILE");
                ExitCode::FAILURE
            }
        },
    }
}

#[expect(clippy::print_stdout, reason = "the summary is this command's output")]
fn drift(log: &std::path::Path) -> ExitCode {
    match playground::drift::read(log) {
        Ok(read) => {
            for skipped in &read.skipped {
                eprintln!("{PROGRAM}: warning: skipped {skipped}");
            }
            if read.skipped_count > read.skipped.len() {
                eprintln!(
                    "{PROGRAM}: warning: and {} more lines skipped",
                    read.skipped_count - read.skipped.len()
                );
            }
            println!("{}", read.summary);
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{PROGRAM}: {error}");
            ExitCode::FAILURE
        }
    }
}

fn build(args: BuildArgs) -> ExitCode {
    let mut source: Source = args.site.into();
    source.previous = args.previous;
    let build = Build { source, out: args.out, switch: args.switch };
    match site::build(&build) {
        Ok(site::Wrote { built, switched, warnings }) => {
            for warning in built.warnings.iter().take(MAX_WARNINGS) {
                eprintln!("{PROGRAM}: warning: {warning}");
            }
            if built.warnings.len() > MAX_WARNINGS {
                eprintln!("{PROGRAM}: warning: and {} more", built.warnings.len() - MAX_WARNINGS);
            }
            let plural = if built.operations == 1 { "" } else { "s" };
            eprintln!(
                "{PROGRAM}: wrote {} ({}, {} operation{plural})",
                build.out.display(),
                built.title,
                built.operations
            );
            if let Some(switched) = switched {
                if switched.converted {
                    eprintln!("{PROGRAM}: the site that was there is kept as the oldest build");
                }
                let earlier = match switched.kept {
                    1 => "1 earlier build kept".to_owned(),
                    n => format!("{n} earlier builds kept"),
                };
                eprintln!(
                    "{PROGRAM}: switched {} to {} ({earlier}, {} removed)",
                    build.out.display(),
                    switched.target.display(),
                    switched.removed
                );
            }
            for warning in warnings {
                eprintln!("{PROGRAM}: warning: {warning}");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{PROGRAM}: {error}");
            ExitCode::FAILURE
        }
    }
}
