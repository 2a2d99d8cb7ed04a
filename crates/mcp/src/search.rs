//! `search_operations`: the operations ranked for a query. An exact name comes first (the
//! operationId or `METHOD /path`), then the path itself; then operations by how many of the
//! query's words they match and how well: a word in the operationId or summary counts most, then
//! in the path or a tag, then in the description. Words match whole, by their stem (`books`,
//! `book`) or as the start of a longer word (`auth`, `authorization`); `create`, `list`,
//! `update`, `delete` and their kin also match the method that does it.

use crate::api::{Api, Operation};

/// The most results one search returns.
pub const MAX_LIMIT: usize = 50;

/// Results when the call does not say.
pub const DEFAULT_LIMIT: usize = 10;

/// How much a word found in each field counts.
const ID: u32 = 3;
const SUMMARY: u32 = 3;
const PATH: u32 = 2;
const TAG: u32 = 2;
const METHOD: u32 = 2;
const DESCRIPTION: u32 = 1;

/// How well a word matches: whole, by its stem, as a prefix, or as a verb of the method.
const WHOLE: u32 = 10;
const STEM: u32 = 9;
const PREFIX: u32 = 6;
const VERB: u32 = 5;

/// The query's words that say nothing about an operation (unless they are all it has).
const STOP_WORDS: [&str; 16] =
    ["a", "an", "the", "of", "to", "for", "by", "with", "in", "on", "and", "or", "all", "from", "my", "is"];

/// One operation found, with its rank.
#[derive(Debug, Clone, Copy)]
pub struct Hit<'a> {
    /// The operation.
    pub operation: &'a Operation,
    /// 0: its exact name; 1: its path; 2: by its words.
    pub exactness: u8,
    /// How many of the query's words it matches.
    pub matched: usize,
    /// The sum of the matches, weighed by field.
    pub score: u32,
}

/// The operations of `api` that match `query`, best first, at most `limit`.
#[must_use]
pub fn search<'a>(api: &'a Api, query: &str, limit: usize) -> Vec<Hit<'a>> {
    let limit = limit.clamp(1, MAX_LIMIT);
    let query = query.trim();
    let words = query_words(query);
    let phrase = query.to_lowercase();
    let mut hits: Vec<(usize, Hit<'a>)> = api
        .operations
        .iter()
        .enumerate()
        .filter_map(|(order, operation)| {
            let exactness = exactness(operation, query);
            let (matched, mut score) = rank(operation, &words);
            let summary = operation.summary.summary.as_deref().unwrap_or_default().to_lowercase();
            if !phrase.is_empty() && summary.contains(&phrase) {
                score += WHOLE;
            }
            (exactness < 2 || matched > 0).then_some((order, Hit { operation, exactness, matched, score }))
        })
        .collect();
    hits.sort_by(|(a_order, a), (b_order, b)| {
        a.exactness
            .cmp(&b.exactness)
            .then(b.matched.cmp(&a.matched))
            .then(b.score.cmp(&a.score))
            // Among equals, the shorter path (the collection before its items), then list order.
            .then(segments(a.operation).cmp(&segments(b.operation)))
            .then(a_order.cmp(b_order))
    });
    hits.into_iter().take(limit).map(|(_, hit)| hit).collect()
}

/// The words of a query, without the stop words unless nothing else is left.
fn query_words(query: &str) -> Vec<String> {
    let mut words = words(query);
    words.dedup();
    let kept: Vec<String> = words.iter().filter(|w| !STOP_WORDS.contains(&w.as_str())).cloned().collect();
    if kept.is_empty() { words } else { kept }
}

/// 0 when `query` is the operation's name (its anchor, or `METHOD /path`), 1 when it is its
/// path, else 2.
fn exactness(operation: &Operation, query: &str) -> u8 {
    let summary = &operation.summary;
    if query.eq_ignore_ascii_case(&operation.anchor)
        || summary.operation_id.as_deref().is_some_and(|id| id.eq_ignore_ascii_case(query))
    {
        return 0;
    }
    if let Some((method, path)) = query.split_once(char::is_whitespace)
        && method.eq_ignore_ascii_case(summary.method.as_str())
        && path.trim() == summary.path
    {
        return 0;
    }
    if query == summary.path { 1 } else { 2 }
}

/// How many of `words` the operation matches, and the weighed sum of the best match of each.
fn rank(operation: &Operation, words: &[String]) -> (usize, u32) {
    let summary = &operation.summary;
    let id = self::words(summary.operation_id.as_deref().unwrap_or_default());
    let title = self::words(summary.summary.as_deref().unwrap_or_default());
    let path = self::words(&summary.path);
    let tags: Vec<String> = operation.tags.iter().flat_map(|t| self::words(t)).collect();
    let description = self::words(operation.description.as_deref().unwrap_or_default());
    let method = summary.method.as_str().to_ascii_lowercase();
    let fields: [(&[String], u32); 5] =
        [(&id, ID), (&title, SUMMARY), (&path, PATH), (&tags, TAG), (&description, DESCRIPTION)];
    let mut matched = 0;
    let mut score = 0;
    for word in words {
        let mut best = fields
            .iter()
            .map(|(field, weight)| weight * field.iter().map(|t| quality(word, t)).max().unwrap_or(0))
            .max()
            .unwrap_or(0);
        if *word == method {
            best = best.max(METHOD * WHOLE);
        } else if verb_of(word).contains(&method.as_str()) {
            best = best.max(METHOD * VERB);
        }
        if best > 0 {
            matched += 1;
            score += best;
        }
    }
    (matched, score)
}

/// How well the query's word `word` matches the field's word `token`.
fn quality(word: &str, token: &str) -> u32 {
    if word == token {
        WHOLE
    } else if stem(word) == stem(token) {
        STEM
    } else if word.len() >= 3 && token.starts_with(word) {
        PREFIX
    } else {
        0
    }
}

/// The methods a verb asks for.
fn verb_of(word: &str) -> &'static [&'static str] {
    match word {
        "create" | "add" | "new" | "make" | "post" | "submit" | "register" => &["post"],
        "list" | "get" | "read" | "fetch" | "show" | "find" | "search" | "retrieve" | "view" => &["get"],
        "update" | "edit" | "modify" | "change" => &["patch", "put"],
        "replace" | "set" | "put" => &["put"],
        "delete" | "remove" | "destroy" | "erase" => &["delete"],
        _ => &[],
    }
}

/// A word without its plural ending: `books` and `book`, `categories` and `category`.
fn stem(word: &str) -> String {
    if word.len() > 4
        && let Some(base) = word.strip_suffix("ies")
    {
        return format!("{base}y");
    }
    for ending in ["sses", "shes", "ches", "xes"] {
        if word.len() > ending.len() + 1 && word.ends_with(ending) {
            return word[..word.len() - 2].to_owned();
        }
    }
    if word.len() > 3 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") {
        return word[..word.len() - 1].to_owned();
    }
    word.to_owned()
}

/// The words of a text in lower case: split at anything not a letter or digit, and where a
/// lower-case letter meets an upper-case one (`listPets` is `list`, `pets`).
#[must_use]
pub fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// How many segments the operation's path has.
fn segments(operation: &Operation) -> usize {
    operation.summary.path.split('/').filter(|s| !s.is_empty()).count()
}

/// The search's answer as compact text: one line per operation (its name, method and path,
/// summary and tags), and what to do next.
#[must_use]
pub fn text(api: &Api, query: &str, hits: &[Hit<'_>]) -> String {
    if hits.is_empty() {
        return format!(
            "No operation of {} matches \"{}\". Try other words (a resource, a verb such as list or \
             create, a path such as /users); there are {} operations.",
            api.title(),
            query.trim(),
            api.operations.len()
        );
    }
    let mut out = String::new();
    for hit in hits {
        let op = hit.operation;
        out.push_str(&op.anchor);
        out.push_str("  ");
        out.push_str(&op.method_and_path());
        if let Some(summary) = op.summary.summary.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            out.push_str("  ");
            out.push_str(&one_line(summary));
        }
        if !op.tags.is_empty() {
            out.push_str("  [");
            out.push_str(&op.tags.join(", "));
            out.push(']');
        }
        if op.summary.deprecated {
            out.push_str("  (deprecated)");
        }
        out.push('\n');
    }
    out.push_str("Next: describe_operation with one of the names on the left.");
    out
}

/// The text on one line, at most 120 characters.
fn one_line(text: &str) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= 120 {
        return line;
    }
    let mut cut: String = line.chars().take(119).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_at_case_and_punctuation() {
        assert_eq!(words("listPets"), ["list", "pets"]);
        assert_eq!(words("create_book_books_post"), ["create", "book", "books", "post"]);
        assert_eq!(words("/books/{book_id}"), ["books", "book", "id"]);
        assert_eq!(words("getHTTPStatus v2"), ["get", "httpstatus", "v2"]);
    }

    #[test]
    fn stems_join_plurals() {
        assert_eq!(stem("books"), stem("book"));
        assert_eq!(stem("categories"), stem("category"));
        assert_eq!(stem("addresses"), stem("address"));
        assert_eq!(stem("boxes"), stem("box"));
        assert_eq!(stem("arrays"), stem("array"));
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("class"), "class");
    }
}
