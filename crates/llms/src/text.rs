//! Small pieces of Markdown: escapes, inline code, links, plain first sentences, JSON blocks,
//! and the cut of a page that grew past its bound.

use std::fmt::Write as _;

use playground_reference::html::unescape;
use serde_json::Value;

/// `text` on one line: every run of whitespace (newlines included) made one space.
pub(crate) fn one_line(text: &str) -> String {
    // Most names and summaries are one line already: copied as they are.
    let plain = !text.starts_with(' ')
        && !text.ends_with(' ')
        && !text.contains("  ")
        && !text.contains(|c: char| c.is_whitespace() && c != ' ');
    if plain {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// `text` as a table cell: on one line, `|` escaped (a pipe would end the cell).
pub(crate) fn cell(text: &str) -> String {
    one_line(text).replace('|', "\\|")
}

/// `text` as inline code, with a fence longer than any run of backticks inside it.
pub(crate) fn code(text: &str) -> String {
    let text = one_line(text);
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    if longest == 0 && !text.is_empty() {
        return format!("`{text}`");
    }
    let fence = "`".repeat(longest + 1);
    // The spaces keep a backtick at either end from joining the fence.
    format!("{fence} {text} {fence}")
}

/// `text` as a link's text: brackets and backslashes escaped, on one line.
pub(crate) fn link_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in one_line(text).chars() {
        // Only what would end the text or open a link; `_` and `*` stay as written, since they
        // rarely make emphasis in a name and escapes are noise to a reader of the raw text.
        if matches!(c, '[' | ']' | '\\' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A Markdown link to `href` (a site's file, or an address the reference deems safe), with the
/// characters that would end the address escaped.
pub(crate) fn link(text: &str, href: &str) -> String {
    let href = href.trim();
    if text.trim() == href
        && (href.starts_with("https://") || href.starts_with("http://"))
        && !href.contains(['<', '>', ' '])
    {
        return format!("<{href}>");
    }
    let mut address = String::with_capacity(href.len());
    for c in href.chars() {
        match c {
            ' ' => address.push_str("%20"),
            '(' => address.push_str("%28"),
            ')' => address.push_str("%29"),
            '<' => address.push_str("%3C"),
            '>' => address.push_str("%3E"),
            c if c.is_control() => {}
            c => address.push(c),
        }
    }
    format!("[{}]({address})", link_text(text))
}

/// The first paragraph of some Markdown as plain text on one line (markup dropped), or `None`
/// when there is no text.
pub(crate) fn plain_paragraph(markdown: &str) -> Option<String> {
    let first = markdown
        .split("\n\n")
        .map(str::trim)
        .find(|p| !p.is_empty() && !p.starts_with('#'))
        .or_else(|| markdown.split("\n\n").map(str::trim).find(|p| !p.is_empty()))?;
    let text = one_line(&plain_text(&playground_reference::markdown::to_safe_html(first)));
    (!text.is_empty()).then_some(text)
}

pub(crate) use playground_reference::html::first_sentence;

/// `text` cut to at most `max` characters at a word, with `…` when cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut = String::new();
    for word in text.split(' ') {
        if cut.chars().count() + word.chars().count() + 1 >= max {
            break;
        }
        if !cut.is_empty() {
            cut.push(' ');
        }
        cut.push_str(word);
    }
    if cut.is_empty() {
        cut = text.chars().take(max.saturating_sub(1)).collect();
    }
    cut.push('\u{2026}');
    cut
}

/// The text of safe HTML (the reference's Markdown renderer's): tags dropped, entities decoded.
fn plain_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut tag: Option<String> = None;
    for c in html.chars() {
        match (&mut tag, c) {
            (None, '<') => tag = Some(String::new()),
            (Some(name), '>') => {
                // A block's end keeps its words apart from the next block's.
                let block = ["/p", "/li", "br", "/h", "/td", "/th", "/tr", "/pre", "/blockquote"];
                if block.iter().any(|b| name.starts_with(b)) {
                    text.push(' ');
                }
                tag = None;
            }
            (Some(name), c) => name.push(c),
            (None, c) => text.push(c),
        }
    }
    unescape(&text)
}

/// A value in a few characters, as JSON on one line, cut at `max` characters.
pub(crate) fn short_json(value: &Value, max: usize) -> String {
    let text = value.to_string();
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// The largest example written whole; a larger one is written compact, else left out.
pub(crate) const MAX_EXAMPLE_BYTES: usize = 4 * 1024;

/// An example as a fenced block: pretty JSON, or compact JSON when the pretty form is over
/// [`MAX_EXAMPLE_BYTES`], or a sentence when even that is. A string sent as something other
/// than JSON (`text/plain`, XML) is shown as its text.
pub(crate) fn example_block(out: &mut String, value: &Value, media_type: Option<&str>) {
    let json = media_type.is_none_or(|m| m.contains("json") || m == "*/*");
    if let (false, Value::String(text)) = (json, value)
        && text.len() <= MAX_EXAMPLE_BYTES
    {
        let fence = fence_for(text);
        let _ = write!(out, "{fence}\n{}\n{fence}\n\n", text.trim_end_matches('\n'));
        return;
    }
    let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
    let text = if pretty.len() <= MAX_EXAMPLE_BYTES { pretty } else { value.to_string() };
    if text.len() > MAX_EXAMPLE_BYTES {
        let _ = write!(
            out,
            "The example is {} KiB of JSON, more than a page shows ({} KiB): the schema above gives its shape.\n\n",
            text.len().div_ceil(1024),
            MAX_EXAMPLE_BYTES / 1024
        );
        return;
    }
    let fence = fence_for(&text);
    let _ = write!(out, "{fence}json\n{text}\n{fence}\n\n");
}

/// A code fence longer than any run of backticks at the start of a line of `text`.
fn fence_for(text: &str) -> String {
    let longest = text
        .lines()
        .map(|line| line.trim_start().chars().take_while(|c| *c == '`').count())
        .max()
        .unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// Multi-line `text` as the rest of a list item whose content starts `indent` columns in:
/// each later line indented so that it stays in the item.
pub(crate) fn continued(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.trim().lines().enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.trim().is_empty() {
                out.push_str(&pad);
            }
        }
        out.push_str(if i > 0 { line.trim_end() } else { line.trim() });
    }
    out
}

/// `text` cut at a line to at most `max` bytes with a closing note, when it is longer; a code
/// block left open by the cut is closed first.
pub(crate) fn bounded(mut text: String, max: usize, note: &str) -> String {
    if text.len() <= max {
        return text;
    }
    let room = max.saturating_sub(note.len() + 16);
    let mut at = room.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let at = text[..at].rfind('\n').map_or(at, |n| n + 1);
    text.truncate(at);
    // An odd number of fence lines leaves a block open: close it so the note reads as text.
    let fences = text.lines().filter(|line| line.trim_start().starts_with("```")).count();
    if fences % 2 == 1 {
        text.push_str("```\n");
    }
    let _ = write!(text, "\n{note}\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_codes_and_links_escape_what_would_break_them() {
        assert_eq!(cell("a | b\nc"), "a \\| b c");
        assert_eq!(code("x"), "`x`");
        assert_eq!(code("a`b"), "`` a`b ``");
        assert_eq!(link("a [b]", "schemas/x y.md"), "[a \\[b\\]](schemas/x%20y.md)");
    }

    #[test]
    fn a_plain_paragraph_drops_markup_and_headings() {
        let text = plain_paragraph("# Title\n\nThe **Petstore** [API](https://x).\nMore.\n\nNext.");
        assert_eq!(text.as_deref(), Some("The Petstore API. More."));
        assert_eq!(first_sentence("One. Two."), "One.");
        assert_eq!(shorten("one two three", 8), "one two…");
    }

    #[test]
    fn a_cut_page_closes_its_code_block() {
        let text = format!("# T\n\n```json\n{}\n```\n", "1,\n".repeat(1000));
        let cut = bounded(text, 200, "Cut.");
        assert!(cut.len() <= 200, "{}", cut.len());
        assert!(cut.ends_with("```\n\nCut.\n"), "{cut}");
    }
}
