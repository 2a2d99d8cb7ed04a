//! The operation list as flat rows of one height (group headings, tag headings, operations),
//! and which of them a scrolled list shows: the sidebar renders only those, so a document with
//! a thousand operations lists as fast as one with ten.

use std::ops::Range;
use std::sync::Arc;

use crate::catalog::{Group, OperationSummary};

/// A link to `#anchor`. The fragment is percent-encoded, so an anchor with spaces (even a
/// trailing one) or `#` comes back whole in `location.hash`.
#[must_use]
pub fn href(anchor: &str) -> String {
    // What a URL fragment cannot hold as it is (the WHATWG URL standard's fragment set), and `%`
    // and `#` so that the text decodes back to itself.
    format!("#{}", crate::pointer::percent_encode(anchor, |b| b" \"<>`#%".contains(&b)))
}

/// The anchor of a tag's page.
#[must_use]
pub fn tag_anchor(tag: &str) -> String {
    format!("tag/{tag}")
}

/// The anchor of a component schema's page.
#[must_use]
pub fn schema_anchor(name: &str) -> String {
    format!("schema/{name}")
}

/// The anchor of the list of component schemas.
pub const SCHEMAS_ANCHOR: &str = "schemas";

/// The longest name a Markdown twin's file keeps from its anchor before the hash.
const MAX_FILE_STEM: usize = 80;

/// The Markdown twin of the view an anchor names, as a path relative to the site's top: a
/// published site writes it (`playground build`), its page links to it (`<link rel="alternate"
/// type="text/markdown">`) and `playground serve` answers `Accept: text/markdown` with it.
///
/// - `""` (the overview): `index.md`; [`SCHEMAS_ANCHOR`]: `schemas/index.md`;
/// - `tag/NAME`: `tags/STEM.md`; `schema/NAME`: `schemas/STEM.md`;
/// - an operation's anchor: `operations/STEM.md`.
///
/// The stem is the name itself when it is made only of ASCII letters, digits, `_`, `-` and
/// inner `.` (at most 80 of them, and no name Windows reserves); any other name keeps those
/// characters, the rest each run made one `-`, and ends in `-` and the FNV-1a hash of the whole
/// name in 8 hex digits, so two names never share a file. Names differing only in case keep
/// distinct files except on a case-insensitive disk.
#[must_use]
pub fn markdown_file(anchor: &str) -> String {
    if anchor.is_empty() {
        return "index.md".to_owned();
    }
    if anchor == SCHEMAS_ANCHOR {
        return "schemas/index.md".to_owned();
    }
    let (folder, name) = match Page::of(anchor) {
        Some(Page::Tag(name)) => ("tags", name),
        Some(Page::Schema(name)) => ("schemas", name),
        _ => ("operations", anchor),
    };
    format!("{folder}/{}.md", file_stem(name))
}

/// A file name's stem for `name` (see [`markdown_file`]).
fn file_stem(name: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.';
    let reserved = {
        let lower = name.to_ascii_lowercase();
        let base = lower.split('.').next().unwrap_or_default();
        matches!(base, "con" | "prn" | "aux" | "nul" | "index")
            || ((base.starts_with("com") || base.starts_with("lpt"))
                && base.len() == 4
                && base.as_bytes()[3].is_ascii_digit())
    };
    if !name.is_empty()
        && name.len() <= MAX_FILE_STEM
        && name.chars().all(plain)
        && !name.starts_with('.')
        && !name.ends_with('.')
        && !reserved
    {
        return name.to_owned();
    }
    let mut stem = String::new();
    for c in name.chars() {
        if plain(c) && c != '.' {
            stem.push(c);
        } else if !stem.ends_with('-') {
            stem.push('-');
        }
        if stem.len() >= MAX_FILE_STEM {
            break;
        }
    }
    let stem = stem.trim_matches('-');
    // FNV-1a, 32 bits: small, and the same wherever the site's files are named.
    let hash = name.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    if stem.is_empty() { format!("{hash:08x}") } else { format!("{stem}-{hash:08x}") }
}

/// A page of the reference other than an operation, as its anchor names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page<'a> {
    /// A tag's page ([`tag_anchor`]).
    Tag(&'a str),
    /// The list of component schemas ([`SCHEMAS_ANCHOR`]).
    Schemas,
    /// One component schema ([`schema_anchor`]).
    Schema(&'a str),
}

impl<'a> Page<'a> {
    /// The page `anchor` names, if any (an operation's anchor is looked up first: it wins).
    #[must_use]
    pub fn of(anchor: &'a str) -> Option<Self> {
        if anchor == SCHEMAS_ANCHOR {
            return Some(Self::Schemas);
        }
        anchor
            .strip_prefix("schema/")
            .map(Self::Schema)
            .or_else(|| anchor.strip_prefix("tag/").map(Self::Tag))
    }
}

/// One row of the operation list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A group heading.
    Group {
        /// Group name, as shown.
        name: String,
        /// The tag's name when the group is a tag (its heading links to the tag's page).
        tag: Option<String>,
    },
    /// A child tag's heading (not shown for a tag that is its own group).
    Tag {
        /// Tag name, as shown.
        name: String,
        /// The group it belongs to, as shown.
        group: String,
        /// The tag's name (its heading links to the tag's page).
        tag: String,
    },
    /// An operation.
    Operation(Arc<OperationSummary>),
}

/// The rows of `groups` in order: each group's heading, then for each of its tags the tag's
/// heading (unless the tag stands alone as its own group) and its operations.
#[must_use]
pub fn rows(groups: &[Group]) -> Vec<Row> {
    let mut rows = Vec::new();
    for group in groups {
        rows.push(Row::Group { name: group.title.clone(), tag: group.is_tag.then(|| group.name.clone()) });
        let standalone = group.tags.len() == 1 && group.tags[0].name == group.name;
        for tag in &group.tags {
            if !standalone {
                rows.push(Row::Tag {
                    name: tag.title.clone(),
                    group: group.title.clone(),
                    tag: tag.name.clone(),
                });
            }
            rows.extend(tag.operations.iter().cloned().map(Row::Operation));
        }
    }
    rows
}

/// The index of the first row of the operation with this anchor.
#[must_use]
pub fn position(rows: &[Row], anchor: &str) -> Option<usize> {
    rows.iter().position(|row| matches!(row, Row::Operation(op) if op.anchor() == anchor))
}

/// Lists of at most this many rows are rendered whole.
pub const RENDER_ALL_UP_TO: usize = 100;

/// The rows to render for a list scrolled to `scroll_top` and `height` pixels tall, with rows
/// `row_height` pixels tall: those in view plus `overscan` rows on each side. Lists of up to
/// [`RENDER_ALL_UP_TO`] rows are rendered whole.
#[must_use]
pub fn visible_range(
    scroll_top: f64,
    height: f64,
    row_height: f64,
    len: usize,
    overscan: usize,
) -> Range<usize> {
    if len <= RENDER_ALL_UP_TO || row_height <= 0.0 {
        return 0..len;
    }
    let index = |px: f64| -> usize {
        // Pixel offsets are small and non-negative here; the float-to-int cast saturates.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let i = (px.max(0.0) / row_height) as usize;
        i
    };
    let first = index(scroll_top).min(len);
    let last = (index(scroll_top + height.max(0.0)) + 1).min(len);
    first.saturating_sub(overscan)..(last + overscan).min(len)
}

/// The scroll offset that brings row `index` into a list scrolled to `scroll_top` and `height`
/// pixels tall, or `None` when the row is already fully in view. A row out of view is centred.
#[must_use]
pub fn scroll_to_show(index: usize, scroll_top: f64, height: f64, row_height: f64) -> Option<f64> {
    #[allow(clippy::cast_precision_loss)] // row counts are far below 2^52
    let top = index as f64 * row_height;
    let bottom = top + row_height;
    if top >= scroll_top && bottom <= scroll_top + height {
        None
    } else {
        Some((top - (height - row_height) / 2.0).max(0.0))
    }
}
