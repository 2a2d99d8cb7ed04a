//! A schema tree of the reference ([`SchemaNode`], already bounded in depth and size) as a
//! nested Markdown list: one item a field, two spaces a level.

use std::collections::HashSet;
use std::fmt::Write as _;

use playground_openapi::outline::{markdown_file, schema_anchor};
use playground_reference::SchemaNode;

use crate::text::{code, continued, link, one_line, short_json};

/// At most this many `enum` values are named on a line.
const MAX_ENUM_VALUES: usize = 30;

/// At most this many characters of one `enum` value.
const MAX_VALUE_CHARS: usize = 60;

/// Where a page sits: the prefix of its links to the site's top (`""` at the top, `../` in a
/// folder).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Base(pub(crate) &'static str);

impl Base {
    /// The link to a site's file named relative to the site's top.
    pub(crate) fn to(self, file: &str) -> String {
        format!("{}{file}", self.0)
    }

    /// A link to the page of the component schema `name`.
    pub(crate) fn schema_link(self, name: &str) -> String {
        link(name, &self.to(&markdown_file(&schema_anchor(name))))
    }
}

/// The schema's type in words: `string, date-time`, `array of Pet object` (the component's
/// name a link to its page), `one of`.
pub(crate) fn type_words(node: &SchemaNode, base: Base) -> String {
    let kind = match node.kind.as_str() {
        "array" => match &node.items {
            Some(items) => format!("array of {}", item_words(items, base)),
            None => "array".to_owned(),
        },
        "oneOf" => "one of".to_owned(),
        "anyOf" => "any of".to_owned(),
        "allOf" => "all of".to_owned(),
        other => other.to_owned(),
    };
    let kind = match &node.format {
        Some(format) => format!("{kind}, {format}"),
        None => kind,
    };
    match &node.component {
        Some(name) => format!("{} {kind}", base.schema_link(name)),
        None => kind,
    }
}

/// An array's items in words: as [`type_words`], the format in brackets so that it reads as
/// the items'.
fn item_words(node: &SchemaNode, base: Base) -> String {
    let mut words = type_words(&SchemaNode { format: None, ..shallow(node) }, base);
    if let Some(format) = &node.format {
        let _ = write!(words, " ({format})");
    }
    words
}

/// The node without its children (cheap to copy for [`item_words`]).
fn shallow(node: &SchemaNode) -> SchemaNode {
    SchemaNode {
        name: node.name.clone(),
        component: node.component.clone(),
        kind: node.kind.clone(),
        format: node.format.clone(),
        items: node.items.as_ref().map(|i| Box::new(shallow(i))),
        ..SchemaNode::default()
    }
}

/// A constraint in words, a pattern as code (its backslashes are not Markdown's).
pub(crate) fn constraint(text: &str) -> String {
    match text.strip_prefix("pattern ") {
        Some(pattern) => format!("pattern {}", code(pattern)),
        None => one_line(text),
    }
}

/// `text` with its first letter in upper case.
pub(crate) fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// What a line says of a schema after its type: its description, values and limits.
fn details(node: &SchemaNode, indent: usize) -> String {
    let mut parts = Vec::new();
    if let Some(description) = node.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        parts.push(continued(description, indent));
    }
    if !node.enumeration.is_empty() {
        let mut values: Vec<String> = node
            .enumeration
            .iter()
            .take(MAX_ENUM_VALUES)
            .map(|v| code(&short_json(v, MAX_VALUE_CHARS)))
            .collect();
        if node.enumeration.len() > MAX_ENUM_VALUES {
            values.push(format!("and {} more", node.enumeration.len() - MAX_ENUM_VALUES));
        }
        parts.push(format!("One of: {}.", values.join(", ")));
    }
    let mut limits: Vec<String> = node.constraints.iter().map(|c| constraint(c)).collect();
    if node.closed {
        limits.push("no other properties".to_owned());
    }
    if !limits.is_empty() {
        parts.push(format!("{}.", capitalized(&limits.join("; "))));
    }
    // An array's line stands for its items: their truncation is the line's.
    let inner = innermost(node);
    if node.truncated || inner.truncated {
        parts.push(match &inner.component {
            Some(_) => "Not expanded here: see its page.".to_owned(),
            None => "Not expanded here: it nests too deep.".to_owned(),
        });
    }
    joined(&parts)
}

/// Sentences joined with a space, each but the last ending in a stop (a description often has
/// none).
pub(crate) fn joined(parts: &[String]) -> String {
    let mut out = String::new();
    for part in parts {
        if !out.is_empty() {
            if !out.ends_with(['.', '!', '?', ':', ';']) {
                out.push('.');
            }
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}

/// Writes the trees of one page: a component schema's fields are listed the first time the
/// page shows it, and named after that (a description's trees repeat the same few schemas).
#[derive(Debug)]
pub(crate) struct Trees {
    pub(crate) base: Base,
    listed: HashSet<String>,
}

impl Trees {
    pub(crate) fn new(base: Base) -> Self {
        Self { base, listed: HashSet::new() }
    }

    /// Whether `node`'s list is written here: not when it is a component whose fields this
    /// page listed already, nor a component met below the top schema's own fields (`nested`),
    /// whose page has them (then `details` says so). Written out, a large description's nested
    /// components make pages of hundreds of kilobytes (Stripe's: 228 KB for the median
    /// operation), mostly fields a reader of the operation does not need; one link away they
    /// cost a line.
    fn lists(&mut self, node: &SchemaNode, details: &mut String, nested: bool) -> bool {
        let Some(name) = node.component.as_ref().filter(|_| has_children(node)) else { return true };
        if self.listed.contains(name) {
            *details = joined(&[std::mem::take(details), "Its fields are listed above.".to_owned()]);
            return false;
        }
        if nested {
            // Its description is on its page too: in a large description it is the same few
            // paragraphs at every place the component is used.
            *details = format!("Its fields are on its page, {}.", self.base.schema_link(name));
            return false;
        }
        self.listed.insert(name.clone());
        true
    }

    /// A whole tree: `lead`, the top's type and details, then its list.
    pub(crate) fn tree(&mut self, out: &mut String, lead: &str, node: &SchemaNode) {
        let mut line = type_words(node, self.base);
        if node.nullable {
            line.push_str(", nullable");
        }
        let mut details = details(node, 0);
        let lists = self.lists(node, &mut details, false);
        if !details.is_empty() {
            line.push_str(". ");
            line.push_str(&details);
        }
        let _ = write!(out, "{lead}{line}\n\n");
        if lists {
            let before = out.len();
            self.children(out, node, 0);
            if out.len() > before {
                out.push('\n');
            }
        }
    }

    /// The list under `node` (its fields, its array's items' fields, its alternatives, its
    /// other parts), `depth` levels in.
    pub(crate) fn children(&mut self, out: &mut String, node: &SchemaNode, depth: usize) {
        let node = innermost(node);
        for property in &node.properties {
            let mut flags = Vec::new();
            if property.required {
                flags.push("required");
            }
            if property.read_only {
                flags.push("read-only");
            }
            self.item(out, &code(&property.name), &flags, &property.schema, depth);
        }
        let label = if node.kind == "allOf" { "part" } else { "option" };
        for (i, variant) in node.variants.iter().enumerate() {
            self.item(out, &format!("{label} {}", i + 1), &[], variant, depth);
        }
        for part in &node.parts {
            self.item(out, &part.label, &[], &part.schema, depth);
        }
    }

    /// One item of the list: `- name (type, flags): details`, then its own list.
    fn item(&mut self, out: &mut String, name: &str, flags: &[&str], node: &SchemaNode, depth: usize) {
        let pad = "  ".repeat(depth);
        let mut words = vec![type_words(node, self.base)];
        words.extend(flags.iter().map(|f| (*f).to_owned()));
        if node.nullable {
            words.push("nullable".to_owned());
        }
        let _ = write!(out, "{pad}- {name} ({})", words.join(", "));
        let mut details = details(node, pad.len() + 2);
        // The array's items are what its line names and its list shows.
        let lists = self.lists(innermost(node), &mut details, depth > 0);
        if !details.is_empty() {
            let _ = write!(out, ": {details}");
        }
        out.push('\n');
        if lists {
            self.children(out, node, depth + 1);
        }
    }
}

/// An array's innermost items (an array's list is theirs: its line names their type), or the
/// node itself.
fn innermost(mut node: &SchemaNode) -> &SchemaNode {
    while let Some(items) = node.items.as_deref().filter(|_| node.kind == "array") {
        node = items;
    }
    node
}

/// Whether a schema has a list under it.
fn has_children(node: &SchemaNode) -> bool {
    let node = innermost(node);
    !node.properties.is_empty() || !node.variants.is_empty() || !node.parts.is_empty()
}
