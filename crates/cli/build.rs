//! Sets `PLAYGROUND_COMMIT`, the commit `playground --version` names, and, with the feature
//! `embed-app`, packs the app's folder into `$OUT_DIR/app.tar.gz` (`src/pack.rs`), which
//! `src/embedded.rs` compiles in.
//!
//! The commit: the environment's `PLAYGROUND_COMMIT` when set (`scripts/release.sh` sets it),
//! else `git rev-parse --short=12 HEAD` with `-dirty` when `git status --porcelain` lists
//! anything, else `unknown` (no git, or not a checkout). It is taken again only when `HEAD`, the
//! branch it points to or `packed-refs` changes, not on every build: between commits the
//! `-dirty` mark is the one of the last time it was taken.
//!
//! The app's folder: `PLAYGROUND_APP_DIR` (relative to the workspace's root) when set, else the
//! workspace's `dist/` (`make build`). Without an `index.html` there the build fails.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

#[cfg(feature = "embed-app")]
#[path = "src/pack.rs"]
mod pack;

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let workspace = manifest.join("../..");
    let workspace = fs::canonicalize(&workspace).unwrap_or(workspace);
    println!("cargo::rerun-if-changed=build.rs");
    commit(&workspace);
    #[cfg(feature = "embed-app")]
    embed_app(&workspace);
}

/// Sets `PLAYGROUND_COMMIT` for the crate's code.
fn commit(workspace: &Path) {
    println!("cargo::rerun-if-env-changed=PLAYGROUND_COMMIT");
    let commit = match env::var("PLAYGROUND_COMMIT") {
        Ok(commit) if !commit.trim().is_empty() => commit.trim().to_owned(),
        _ => {
            watch_head(workspace);
            from_git(workspace).unwrap_or_else(|| "unknown".to_owned())
        }
    };
    println!("cargo::rustc-env=PLAYGROUND_COMMIT={commit}");
}

/// The output of `git ARGS` run in `workspace`, trimmed, when it succeeds.
fn git(workspace: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git").arg("-C").arg(workspace).args(args).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// `HEAD`'s short hash, with `-dirty` when files differ from it.
fn from_git(workspace: &Path) -> Option<String> {
    let hash = git(workspace, &["rev-parse", "--short=12", "HEAD"])?;
    let dirty = git(workspace, &["status", "--porcelain"]).is_some_and(|status| !status.is_empty());
    Some(if dirty { format!("{hash}-dirty") } else { hash })
}

/// Reruns the build script when `HEAD` moves: `HEAD` itself, the branch it points to and
/// `packed-refs`, those of them that exist (a path that does not exist would rerun it always).
fn watch_head(workspace: &Path) {
    let mut names = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
    if let Some(branch) = git(workspace, &["symbolic-ref", "-q", "HEAD"]) {
        names.push(branch);
    }
    for name in names {
        if let Some(path) = git(workspace, &["rev-parse", "--git-path", &name]) {
            let path = workspace.join(path);
            if path.is_file() {
                println!("cargo::rerun-if-changed={}", path.display());
            }
        }
    }
}

/// Packs the app's folder into `$OUT_DIR/app.tar.gz`, or fails the build when it has no
/// `index.html`.
#[cfg(feature = "embed-app")]
fn embed_app(workspace: &Path) {
    println!("cargo::rerun-if-changed=src/pack.rs");
    println!("cargo::rerun-if-env-changed=PLAYGROUND_APP_DIR");
    let dir = match env::var_os("PLAYGROUND_APP_DIR") {
        Some(dir) if !dir.is_empty() => workspace.join(dir),
        _ => workspace.join("dist"),
    };
    println!("cargo::rerun-if-changed={}", dir.display());
    if !dir.join("index.html").is_file() {
        println!(
            "cargo::error=the feature embed-app packs the app's release build into playground, but {} \
             has no index.html: run `make build` (trunk build --release) first, or set \
             PLAYGROUND_APP_DIR to the folder it wrote",
            dir.display()
        );
        return;
    }
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo")).join("app.tar.gz");
    let file = fs::File::create(&out).unwrap_or_else(|e| panic!("cannot create {}: {e}", out.display()));
    let written = pack::pack(&dir, std::io::BufWriter::new(file))
        .and_then(|mut writer| std::io::Write::flush(&mut writer));
    if let Err(error) = written {
        println!("cargo::error=cannot pack the app's folder {} into playground: {error}", dir.display());
    }
}
