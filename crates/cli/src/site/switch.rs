//! `playground build --switch`: the site behind a symbolic link that is switched in one rename,
//! for a folder that servers read while it is published (`playground host`'s `sites_dir`, shared
//! by several hosts). `--out NAME` is a relative link to `.NAME.builds/ID`; each build is written
//! into a new `ID` beside the previous ones, and the link is replaced by a new one pointing at it
//! (`rename(2)` of a link over a link is atomic, on NFS too). A reader that resolved the link
//! before the switch reads the whole of the old build, one after reads the whole of the new:
//! never a mix, never nothing. The newest [`KEEP`] builds are kept, so a page loaded from an
//! earlier build still finds its files (`playground host` looks there for files the current
//! build no longer has) and a switch back is one `ln -sfn`.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::{BuildError, MARKER, io_error};

/// Builds kept, the current one included.
pub const KEEP: usize = 3;

/// The name of the folder of a link's builds: `.NAME.builds`, beside the link.
#[must_use]
pub fn builds_folder(name: &str) -> String {
    format!(".{name}.builds")
}

/// What a switch did.
#[derive(Debug)]
pub struct Switched {
    /// The link's new target, relative to the link's folder (`.NAME.builds/ID`).
    pub target: PathBuf,
    /// Earlier builds kept beside it.
    pub kept: usize,
    /// Earlier builds removed (beyond [`KEEP`]).
    pub removed: usize,
    /// A folder that was at `--out` before (a site built without `--switch`), now the oldest
    /// build.
    pub converted: bool,
}

/// What is at `out` now.
enum Existing {
    Nothing,
    /// A link this tool made: to `.NAME.builds/ID`.
    Link,
    /// A site built without `--switch`: moved into the builds folder, then linked.
    Site,
    /// An empty folder: removed when the link takes its place.
    Empty,
}

/// Whether `out` is a symbolic link (a build there switches without `--switch`).
#[must_use]
pub fn is_link(out: &Path) -> bool {
    fs::symlink_metadata(out).is_ok_and(|m| m.file_type().is_symlink())
}

/// Writes a new build with `write` into the builds folder beside `out`, then switches `out` to
/// it; earlier builds beyond [`KEEP`] are removed (a failure there is only reported).
///
/// # Errors
/// `out` is not a link this tool made, nor a site, nor absent; or a file cannot be written. The
/// link then still points where it did.
pub fn switch(
    out: &Path,
    write: impl FnOnce(&Path) -> Result<(), BuildError>,
) -> Result<(Switched, Vec<String>), BuildError> {
    let refuse = |problem: String| BuildError::Out { path: out.to_owned(), problem };
    let Some(name) = out.file_name().and_then(|n| n.to_str()).map(str::to_owned) else {
        return Err(refuse("--out must name a folder of its own (not `.`, `..` or a root)".to_owned()));
    };
    let parent = match out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    };
    let folder = builds_folder(&name);
    let existing = existing(out, &folder).map_err(refuse)?;
    let builds = parent.join(&folder);
    fs::create_dir_all(&builds).map_err(io_error(&builds))?;

    let id = new_id(&builds);
    let staging = super::Staging::create(&builds, &id)?;
    write(&staging.path)?;
    let build = builds.join(&id);
    fs::rename(&staging.path, &build).map_err(io_error(&build))?;

    let target = Path::new(&folder).join(&id);
    let converted = matches!(existing, Existing::Site);
    // The one step that is not atomic, once: the folder moves away, then the link takes its place.
    match existing {
        Existing::Site => {
            let oldest = builds.join(format!("{:013}-converted", 0));
            fs::rename(out, &oldest).map_err(io_error(out))?;
        }
        Existing::Empty => fs::remove_dir(out).map_err(io_error(out))?,
        Existing::Nothing | Existing::Link => {}
    }
    let link = temporary_link(&parent, &name, &target)?;
    if let Err(source) = fs::rename(&link, out) {
        let _ = fs::remove_file(&link);
        return Err(BuildError::Io { path: out.to_owned(), source });
    }
    let (kept, removed, warnings) = prune(&builds, &id);
    Ok((Switched { target, kept, removed, converted }, warnings))
}

fn existing(out: &Path, folder: &str) -> Result<Existing, String> {
    let Ok(metadata) = fs::symlink_metadata(out) else { return Ok(Existing::Nothing) };
    if metadata.file_type().is_symlink() {
        let target = fs::read_link(out).map_err(|e| format!("cannot read the link: {e}"))?;
        let mut parts = target.components();
        let ours = matches!(
            (parts.next(), parts.next(), parts.next()),
            (Some(std::path::Component::Normal(f)), Some(std::path::Component::Normal(_)), None) if f == folder
        );
        if !ours {
            return Err(format!(
                "it is a symbolic link to {}, not to a build of playground build --switch ({folder}/ID); \
                 choose another --out, or remove the link",
                target.display()
            ));
        }
        return Ok(Existing::Link);
    }
    if metadata.is_dir() && out.join(MARKER).is_file() {
        return Ok(Existing::Site);
    }
    if metadata.is_dir() && fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_none()) {
        return Ok(Existing::Empty);
    }
    Err(if metadata.is_dir() {
        format!(
            "it is a folder with files, and not a site built by playground (it has no {MARKER}); choose another --out"
        )
    } else {
        "it exists and is not a folder or a link; choose another --out".to_owned()
    })
}

/// A build's name, `MILLIS-N-PID`: the time in milliseconds (13 digits) and a 4-digit counter,
/// chosen so that the name sorts after every build in `builds` (the newest are the ones kept,
/// found by sorting names); the process id keeps two builds of the same moment apart. A name is
/// never reused: within one millisecond the counter goes on from the newest build's, even after
/// [`prune`] removed the builds that had the lower counters.
fn new_id(builds: &Path) -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis());
    let newest = fs::read_dir(builds)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let mut parts = name.split('-');
            Some((parts.next()?.parse::<u128>().ok()?, parts.next()?.parse::<u64>().ok()?))
        })
        .max();
    // A clock set back keeps the newest build's time, so the new name still sorts last.
    let (millis, n) = match newest {
        Some((millis, n)) if millis >= now => (millis, n + 1),
        _ => (now, 0),
    };
    format!("{millis:013}-{n:04}-{}", std::process::id())
}

/// A new link to `target` beside `out`'s name, to be renamed over it.
fn temporary_link(parent: &Path, name: &str, target: &Path) -> Result<PathBuf, BuildError> {
    for attempt in 0..100_u32 {
        let link = parent.join(format!(".{name}.link-{}-{attempt}", std::process::id()));
        match symlink(target, &link) {
            Ok(()) => return Ok(link),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(source) => return Err(BuildError::Io { path: link, source }),
        }
    }
    Err(BuildError::Io { path: parent.to_owned(), source: io::Error::other("no free name for the link") })
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// Elsewhere a link to a folder is not what servers expect: `--switch` is for Unix.
#[cfg(not(unix))]
fn symlink(_target: &Path, _link: &Path) -> io::Result<()> {
    Err(io::Error::other("--switch needs a Unix system (symbolic links renamed over each other)"))
}

/// Removes the builds beyond the newest [`KEEP`], never `current`; (earlier builds kept,
/// removed, warnings).
fn prune(builds: &Path, current: &str) -> (usize, usize, Vec<String>) {
    let mut warnings = Vec::new();
    let mut names: Vec<String> = match fs::read_dir(builds) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| !n.starts_with('.'))
            .collect(),
        Err(error) => {
            warnings.push(format!("{}: cannot list the earlier builds: {error}", builds.display()));
            return (0, 0, warnings);
        }
    };
    names.sort_unstable_by(|a, b| b.cmp(a));
    let mut kept = 0;
    let mut removed = 0;
    for (i, name) in names.iter().enumerate() {
        if name == current {
            continue;
        }
        if i < KEEP {
            kept += 1;
            continue;
        }
        let path = builds.join(name);
        match fs::remove_dir_all(&path) {
            Ok(()) => removed += 1,
            Err(error) => {
                warnings.push(format!("{}: cannot remove this earlier build: {error}", path.display()))
            }
        }
    }
    (kept, removed, warnings)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn site(dir: &Path, text: &str) -> Result<(), BuildError> {
        fs::write(dir.join(MARKER), "").map_err(io_error(dir))?;
        fs::write(dir.join("index.html"), text).map_err(io_error(dir))
    }

    #[test]
    fn a_new_name_sorts_after_every_build_even_after_pruning_in_the_same_millisecond() {
        let builds = tempfile::tempdir().expect("scratch");
        let far = "9999999999999";
        // The builds of one millisecond (ahead of the clock), the lower counters pruned.
        for name in [format!("{far}-0003-1"), format!("{far}-0004-1"), "0000000000000-converted".to_owned()] {
            fs::create_dir(builds.path().join(name)).expect("a build");
        }
        let id = new_id(builds.path());
        assert!(id.starts_with(&format!("{far}-0005-")), "{id}");
        let empty = tempfile::tempdir().expect("scratch");
        let first = new_id(empty.path());
        assert!(first.contains("-0000-") && first < new_id(builds.path()), "{first}");
    }

    #[test]
    fn each_build_is_switched_to_and_the_newest_three_are_kept() {
        let root = tempfile::tempdir().expect("scratch");
        let out = root.path().join("petstore");
        for i in 0..5 {
            let (switched, warnings) =
                switch(&out, |dir| site(dir, &format!("build {i}"))).expect("switches");
            assert!(warnings.is_empty(), "{warnings:?}");
            assert_eq!(fs::read_to_string(out.join("index.html")).expect("reads"), format!("build {i}"));
            assert_eq!(fs::read_link(&out).expect("a link"), switched.target);
            assert_eq!(switched.kept, i.min(KEEP - 1));
            assert_eq!(switched.removed, usize::from(i >= KEEP));
        }
        let builds = fs::read_dir(root.path().join(".petstore.builds")).expect("lists").count();
        assert_eq!(builds, KEEP);
        // Only the link and its builds' folder are left: no staging, no temporary link.
        let mut names: Vec<_> =
            fs::read_dir(root.path()).expect("lists").map(|e| e.expect("entry").file_name()).collect();
        names.sort();
        assert_eq!(names, [".petstore.builds", "petstore"]);
    }

    #[test]
    fn a_failed_build_leaves_the_link_where_it_was() {
        let root = tempfile::tempdir().expect("scratch");
        let out = root.path().join("petstore");
        switch(&out, |dir| site(dir, "good")).expect("switches");
        let before = fs::read_link(&out).expect("a link");
        let failed = switch(&out, |dir| {
            Err(BuildError::Io { path: dir.to_owned(), source: io::Error::other("full") })
        });
        assert!(failed.is_err());
        assert_eq!(fs::read_link(&out).expect("a link"), before);
        assert_eq!(fs::read_to_string(out.join("index.html")).expect("reads"), "good");
        assert_eq!(fs::read_dir(root.path().join(".petstore.builds")).expect("lists").count(), 1);
    }

    #[test]
    fn a_site_built_in_place_is_kept_as_the_oldest_build_and_others_are_refused() {
        let root = tempfile::tempdir().expect("scratch");
        let out = root.path().join("petstore");
        fs::create_dir(&out).expect("folder");
        site(&out, "in place").expect("writes");
        let (switched, _) = switch(&out, |dir| site(dir, "switched")).expect("switches");
        assert!(switched.converted);
        assert_eq!(switched.kept, 1);
        assert_eq!(fs::read_to_string(out.join("index.html")).expect("reads"), "switched");

        let other = root.path().join("docs");
        fs::create_dir(&other).expect("folder");
        fs::write(other.join("notes.txt"), "mine").expect("writes");
        let error = switch(&other, |dir| site(dir, "x")).expect_err("refused").to_string();
        assert!(error.contains("not a site built by playground"), "{error}");
        assert_eq!(fs::read_to_string(other.join("notes.txt")).expect("untouched"), "mine");

        // An empty folder is replaced by the link, but only once the build is written.
        let empty = root.path().join("empty");
        fs::create_dir(&empty).expect("folder");
        assert!(
            switch(&empty, |dir| Err(BuildError::Io {
                path: dir.to_owned(),
                source: io::Error::other("full")
            }))
            .is_err()
        );
        assert!(empty.is_dir() && !is_link(&empty), "a failed build leaves it");
        switch(&empty, |dir| site(dir, "filled")).expect("switches");
        assert_eq!(fs::read_to_string(empty.join("index.html")).expect("reads"), "filled");

        let link = root.path().join("elsewhere");
        std::os::unix::fs::symlink("/tmp", &link).expect("a link");
        let error = switch(&link, |dir| site(dir, "x")).expect_err("refused").to_string();
        assert!(error.contains("not to a build of playground build --switch"), "{error}");
    }
}
