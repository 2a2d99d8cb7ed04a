//! A report written out: as text for a terminal, as Markdown for a pull request's comment or a
//! changelog, and as JSON for programs (the shape `docs/diff.md` gives).

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;
use serde_json::Value;

use crate::{Change, Level, Report};

/// One of the two descriptions compared, as output names it.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    /// The file as the user named it.
    pub file: String,
    /// `info.title`.
    pub title: String,
    /// `info.version`.
    pub version: String,
}

impl Side {
    /// The description in `file`, named by its `info`.
    #[must_use]
    pub fn of(file: &str, document: &Value) -> Side {
        let info = |key: &str| {
            document.pointer(&format!("/info/{key}")).and_then(Value::as_str).unwrap_or_default().to_owned()
        };
        Side { file: file.to_owned(), title: info("title"), version: info("version") }
    }

    fn label(&self) -> String {
        match (self.title.is_empty(), self.version.is_empty()) {
            (false, false) => format!("{} {} ({})", self.title, self.version, self.file),
            (false, true) => format!("{} ({})", self.title, self.file),
            _ => self.file.clone(),
        }
    }
}

const LEVELS: [Level; 3] = [Level::Breaking, Level::Deprecation, Level::NonBreaking];

/// `2 breaking, 1 deprecation, 5 non-breaking changes`.
#[must_use]
pub fn summary(report: &Report) -> String {
    if report.changes.is_empty() {
        return "no changes".to_owned();
    }
    let [breaking, deprecation, non_breaking] = LEVELS.map(|l| report.count(l));
    let deprecations = if deprecation == 1 { "deprecation" } else { "deprecations" };
    let changes = if non_breaking == 1 { "change" } else { "changes" };
    format!("{breaking} breaking, {deprecation} {deprecations}, {non_breaking} non-breaking {changes}")
}

/// Who a change is about, as a heading: the operation(s), the shared schema, or the document.
fn subject(change: &Change) -> String {
    if let Some(schema) = &change.schema {
        let direction = change
            .direction
            .map_or("", |d| if d == crate::Direction::Request { " in requests" } else { " in responses" });
        return format!("schema {schema}{direction}");
    }
    match change.operations.as_slice() {
        [] => "the API".to_owned(),
        [one] => match &one.operation_id {
            Some(id) => format!("{} ({id})", one.label()),
            None => one.label(),
        },
        _ => reach(change),
    }
}

/// The changes about one subject.
type Group<'r> = (String, Vec<&'r Change>);

/// Changes grouped by level, then by subject, in report order.
fn grouped(report: &Report) -> Vec<(Level, Vec<Group<'_>>)> {
    let mut out = Vec::new();
    for level in LEVELS {
        let mut groups: Vec<Group<'_>> = Vec::new();
        let mut index: BTreeMap<(String, Option<Vec<crate::OperationKey>>), usize> = BTreeMap::new();
        for change in report.changes.iter().filter(|c| c.level == level) {
            // A shared schema compared twice (strictly, and only for experimental operations)
            // is two subjects: the operations they reach differ.
            let key = (subject(change), change.schema.is_some().then(|| change.operations.clone()));
            match index.get(&key) {
                Some(&at) => groups[at].1.push(change),
                None => {
                    index.insert(key.clone(), groups.len());
                    groups.push((key.0, vec![change]));
                }
            }
        }
        if !groups.is_empty() {
            out.push((level, groups));
        }
    }
    out
}

/// The operations a shared schema's change reaches, in words (the first few, then a count).
fn reached(change: &Change) -> Option<String> {
    change.schema.as_ref()?;
    Some(reach(change))
}

/// A change's operations in words: the first few, then a count.
fn reach(change: &Change) -> String {
    const SHOWN: usize = 5;
    let names: Vec<String> = change.operations.iter().take(SHOWN).map(crate::OperationKey::label).collect();
    let more = change.operations.len().saturating_sub(SHOWN);
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    format!("{}{more}", names.join(", "))
}

/// The report as text for a terminal.
#[must_use]
pub fn text(report: &Report, old: &Side, new: &Side) -> String {
    let mut out = format!("{} → {}\n{}\n", old.label(), new.label(), summary(report));
    for (level, groups) in grouped(report) {
        let _ = write!(out, "\n{}:\n", heading(level));
        for (subject, changes) in groups {
            let _ = writeln!(out, "  {subject}");
            if let Some(reached) = changes.first().and_then(|c| reached(c)) {
                let _ = writeln!(out, "    (reaches {reached})");
            }
            for change in changes {
                let place =
                    if change.place.is_empty() { String::new() } else { format!("{}: ", change.place) };
                let _ = writeln!(out, "    {place}{} [{}]", change.message, change.id);
            }
        }
    }
    out
}

fn heading(level: Level) -> &'static str {
    match level {
        Level::Breaking => "Breaking",
        Level::Deprecation => "Deprecations",
        Level::NonBreaking => "Non-breaking",
    }
}

/// Markdown's inline code around `text`, with a fence longer than any backtick run in it.
fn code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Text for Markdown with the characters that would start markup escaped.
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The report as Markdown (a pull request's comment, a changelog).
#[must_use]
pub fn markdown(report: &Report, old: &Side, new: &Side) -> String {
    let mut out = format!("## {} → {}\n\n{}\n", plain(&old.label()), plain(&new.label()), summary(report));
    for (level, groups) in grouped(report) {
        let _ = write!(out, "\n### {} ({})\n", heading(level), report.count(level));
        for (subject, changes) in groups {
            let _ = write!(out, "\n**{}**", plain(&subject));
            if let Some(reached) = changes.first().and_then(|c| reached(c)) {
                let _ = write!(out, " (reaches {})", plain(&reached));
            }
            out.push_str("\n\n");
            for change in changes {
                let place = if change.place.is_empty() {
                    String::new()
                } else {
                    format!("{}: ", plain(&change.place))
                };
                let _ = writeln!(out, "- {place}{} {}", plain(&change.message), code(change.id));
            }
        }
    }
    out
}

/// The report as JSON.
#[must_use]
pub fn json(report: &Report, old: &Side, new: &Side) -> String {
    #[derive(Serialize)]
    struct Counts {
        breaking: usize,
        deprecation: usize,
        #[serde(rename = "non-breaking")]
        non_breaking: usize,
    }
    #[derive(Serialize)]
    struct Out<'r> {
        old: &'r Side,
        new: &'r Side,
        summary: Counts,
        changes: &'r [Change],
    }
    let summary = Counts {
        breaking: report.count(Level::Breaking),
        deprecation: report.count(Level::Deprecation),
        non_breaking: report.count(Level::NonBreaking),
    };
    let out = Out { old, new, summary, changes: &report.changes };
    serde_json::to_string_pretty(&out).unwrap_or_default() + "\n"
}
