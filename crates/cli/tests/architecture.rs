//! ARCHITECTURE.md's crate map against `cargo metadata`: every workspace package has a row, every
//! row names a package, and each row's folder, workspace dependencies and dev-dependencies are
//! cargo's. The map's rules hold too: a crate depends only on crates listed above it, a pure
//! crate on pure crates only, and no browser crate on a native one or the reverse.
//!
//! The map is the Markdown tables under `## Crate map`, one row per package:
//!
//! ```text
//! | Folder | Package | Kind | Workspace dependencies | Tests also use | What it is for |
//! | `crates/http` | `playground-http` | pure | none | none | ... |
//! ```
//!
//! Dependencies are backticked package names separated by commas, or `none`; "Tests also use"
//! lists the dev-dependencies that are not normal dependencies too, and a crate's dependency on
//! itself (to turn a feature on in its own tests) is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The section of ARCHITECTURE.md that holds the map.
const SECTION: &str = "## Crate map";

/// What a package is, in the map's Kind column.
const KINDS: [&str; 3] = ["pure", "browser", "native"];

/// One package, as the map or cargo gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Package {
    name: String,
    /// Relative to the workspace root, `.` for the root package.
    folder: String,
    /// The map's Kind (empty from cargo).
    kind: String,
    dependencies: BTreeSet<String>,
    dev_dependencies: BTreeSet<String>,
}

fn workspace_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().unwrap_or(root);
    assert!(root.join("Cargo.toml").is_file(), "no Cargo.toml at {}", root.display());
    root
}

/// The workspace's packages as `cargo metadata` gives them.
fn cargo_packages(root: &Path) -> Vec<Package> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let output = Command::new(&cargo)
        .args(["metadata", "--no-deps", "--format-version", "1", "--offline", "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .output()
        .expect("runs cargo metadata");
    assert!(output.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("cargo metadata gives JSON");
    from_metadata(&metadata)
}

fn from_metadata(metadata: &Value) -> Vec<Package> {
    let root = Path::new(metadata["workspace_root"].as_str().expect("workspace_root"));
    let packages = metadata["packages"].as_array().expect("packages");
    let names: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    packages
        .iter()
        .map(|p| {
            let name = p["name"].as_str().expect("a package name").to_owned();
            let manifest = Path::new(p["manifest_path"].as_str().expect("manifest_path"));
            let folder = manifest.parent().and_then(|dir| dir.strip_prefix(root).ok()).map_or_else(
                || manifest.display().to_string(),
                |dir| if dir.as_os_str().is_empty() { ".".to_owned() } else { dir.display().to_string() },
            );
            let mut dependencies = BTreeSet::new();
            let mut dev_dependencies = BTreeSet::new();
            for dependency in p["dependencies"].as_array().into_iter().flatten() {
                let Some(dep) = dependency["name"].as_str().filter(|d| names.contains(d) && *d != name)
                else {
                    continue;
                };
                if dependency["kind"].as_str() == Some("dev") {
                    dev_dependencies.insert(dep.to_owned());
                } else {
                    dependencies.insert(dep.to_owned());
                }
            }
            let dev_dependencies = dev_dependencies.difference(&dependencies).cloned().collect();
            Package { name, folder, kind: String::new(), dependencies, dev_dependencies }
        })
        .collect()
}

/// The text between backticks in `cell`, each.
fn backticked(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

/// A list of backticked names, or `none`.
fn names(cell: &str, row: &str, problems: &mut Vec<String>) -> BTreeSet<String> {
    let cell = cell.trim();
    if cell == "none" {
        return BTreeSet::new();
    }
    let listed = backticked(cell);
    let rebuilt = listed.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    if listed.is_empty() || rebuilt != cell {
        problems.push(format!(
            "row {row}: \"{cell}\" is neither `none` nor backticked names separated by commas"
        ));
    }
    listed.into_iter().collect()
}

/// The map's rows, and what in it cannot be read.
fn map_packages(markdown: &str) -> (Vec<Package>, Vec<String>) {
    let mut problems = Vec::new();
    let Some(start) = markdown.lines().position(|line| line.trim() == SECTION) else {
        return (Vec::new(), vec![format!("ARCHITECTURE.md has no `{SECTION}` section")]);
    };
    let mut packages = Vec::new();
    for line in markdown.lines().skip(start + 1).take_while(|line| !line.starts_with("## ")) {
        let line = line.trim();
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.first() == Some(&"Folder")
            || cells.iter().all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue;
        }
        let [folder, package, kind, dependencies, dev_dependencies, purpose] = cells[..] else {
            problems.push(format!("a row of {} cells instead of 6: {line}", cells.len()));
            continue;
        };
        let named = backticked(package);
        let (Some(folder), [name]) = (backticked(folder).into_iter().next(), &named[..]) else {
            problems.push(format!("a row without a backticked folder and one backticked package: {line}"));
            continue;
        };
        if !KINDS.contains(&kind) {
            problems.push(format!("row {name}: kind `{kind}` is not one of {KINDS:?}"));
        }
        if purpose.is_empty() {
            problems.push(format!("row {name}: says nothing of what it is for"));
        }
        packages.push(Package {
            name: name.clone(),
            folder,
            kind: kind.to_owned(),
            dependencies: names(dependencies, name, &mut problems),
            dev_dependencies: names(dev_dependencies, name, &mut problems),
        });
    }
    (packages, problems)
}

fn list(names: &BTreeSet<String>) -> String {
    if names.is_empty() {
        return "none".to_owned();
    }
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// Every way the map departs from cargo, one sentence each.
fn differences(map: &[Package], cargo: &[Package]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut rows: BTreeMap<&str, &Package> = BTreeMap::new();
    for row in map {
        if rows.insert(&row.name, row).is_some() {
            problems.push(format!("`{}` has more than one row", row.name));
        }
    }
    let actual: BTreeMap<&str, &Package> = cargo.iter().map(|p| (p.name.as_str(), p)).collect();
    for (name, package) in &actual {
        let Some(row) = rows.get(name) else {
            problems.push(format!(
                "`{name}` ({}) is a workspace package with no row in the crate map",
                package.folder
            ));
            continue;
        };
        if row.folder != package.folder {
            problems
                .push(format!("`{name}`: the map says folder `{}`, cargo `{}`", row.folder, package.folder));
        }
        if row.dependencies != package.dependencies {
            problems.push(format!(
                "`{name}`: the map says workspace dependencies {}, cargo {}",
                list(&row.dependencies),
                list(&package.dependencies)
            ));
        }
        if row.dev_dependencies != package.dev_dependencies {
            problems.push(format!(
                "`{name}`: the map says its tests also use {}, cargo {}",
                list(&row.dev_dependencies),
                list(&package.dev_dependencies)
            ));
        }
    }
    for name in rows.keys().filter(|name| !actual.contains_key(*name)) {
        problems.push(format!("the crate map names `{name}`, which is not a workspace package"));
    }
    let position: BTreeMap<&str, usize> =
        map.iter().enumerate().map(|(i, row)| (row.name.as_str(), i)).collect();
    for (index, row) in map.iter().enumerate() {
        for dependency in &row.dependencies {
            if position.get(dependency.as_str()).is_some_and(|&at| at > index) {
                problems
                    .push(format!("`{}` depends on `{dependency}`, which the map lists below it", row.name));
            }
            let Some(kind) = rows.get(dependency.as_str()).map(|d| d.kind.as_str()) else { continue };
            let allowed = match row.kind.as_str() {
                "pure" => kind == "pure",
                "browser" => kind != "native",
                "native" => kind != "browser",
                _ => true,
            };
            if !allowed {
                problems.push(format!(
                    "`{}` is {} and depends on `{dependency}`, which is {kind}",
                    row.name, row.kind
                ));
            }
        }
    }
    problems
}

#[test]
fn the_crate_map_of_architecture_md_is_cargos() {
    let root = workspace_root();
    let path = root.join("ARCHITECTURE.md");
    let markdown = std::fs::read_to_string(&path).expect("ARCHITECTURE.md is readable");
    let (map, mut problems) = map_packages(&markdown);
    problems.extend(differences(&map, &cargo_packages(&root)));
    assert!(
        problems.is_empty(),
        "{} departs from `cargo metadata`:\n- {}",
        path.display(),
        problems.join("\n- ")
    );
}

#[test]
fn each_difference_is_named() {
    let package = |name: &str, folder: &str, kind: &str, deps: &[&str], dev: &[&str]| Package {
        name: name.to_owned(),
        folder: folder.to_owned(),
        kind: kind.to_owned(),
        dependencies: deps.iter().map(|d| (*d).to_owned()).collect(),
        dev_dependencies: dev.iter().map(|d| (*d).to_owned()).collect(),
    };
    let markdown = "\
# Architecture\n\n## Crate map\n\n\
| Folder | Package | Kind | Workspace dependencies | Tests also use | What it is for |\n\
|---|---|---|---|---|---|\n\
| `crates/a` | `a` | pure | none | none | A. |\n\
| `crates/bee` | `b` | pure | `a`, `n` | none | B. |\n\
| `crates/gone` | `gone` | native | none | none | Gone. |\n\
| `crates/n` | `n` | native | none | `a` | N. |\n\n\
## Next\n\n| `crates/c` | `c` | pure | none | none | Not in the map. |\n";
    let (map, problems) = map_packages(markdown);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(map.len(), 4);
    let cargo = [
        package("a", "crates/a", "", &[], &[]),
        package("b", "crates/b", "", &["a", "n"], &[]),
        package("n", "crates/n", "", &[], &[]),
        package("c", "crates/c", "", &[], &[]),
    ];
    let found = differences(&map, &cargo);
    let expected = [
        "`b`: the map says folder `crates/bee`, cargo `crates/b`",
        "`c` (crates/c) is a workspace package with no row in the crate map",
        "`n`: the map says its tests also use `a`, cargo none",
        "the crate map names `gone`, which is not a workspace package",
        "`b` depends on `n`, which the map lists below it",
        "`b` is pure and depends on `n`, which is native",
    ];
    assert_eq!(found, expected);

    let (_, problems) =
        map_packages("## Crate map\n| `x` | `x` | wasm | `a` `b` | none | X. |\n| `y` | `y` |\n");
    assert_eq!(
        problems,
        [
            "row x: kind `wasm` is not one of [\"pure\", \"browser\", \"native\"]",
            "row x: \"`a` `b`\" is neither `none` nor backticked names separated by commas",
            "a row of 2 cells instead of 6: | `y` | `y` |",
        ]
    );
}
