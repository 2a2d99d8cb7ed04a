//! Which file answers a request for a site's page when the client asks for Markdown
//! (`Accept: text/markdown`): the page's Markdown twin, which `playground build` writes beside
//! it (see [`playground_openapi::outline::markdown_file`]). `playground serve` and `playground
//! host` both ask here, so a site answers the same wherever it is served.

/// Whether `accept` (an `Accept` header's value) asks for Markdown before HTML: `text/markdown`
/// with a weight above zero and at least that of an explicit `text/html`. Wildcards (`*/*`,
/// `text/*`) choose nothing: a browser's usual header keeps getting the page.
#[must_use]
pub fn prefers_markdown(accept: &str) -> bool {
    let mut markdown: Option<u16> = None;
    let mut html: Option<u16> = None;
    // The header is bounded by the server's limits; at most 64 entries are read.
    for entry in accept.split(',').take(64) {
        let mut parts = entry.split(';');
        let media = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let weight = parts
            .filter_map(|p| p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")))
            .find_map(weight)
            .unwrap_or(1000);
        let slot = match media.as_str() {
            "text/markdown" | "text/x-markdown" => &mut markdown,
            "text/html" | "application/xhtml+xml" => &mut html,
            _ => continue,
        };
        *slot = Some(slot.map_or(weight, |w| w.max(weight)));
    }
    markdown.is_some_and(|m| m > 0 && m >= html.unwrap_or(0))
}

/// A quality value (`0` to `1`, at most three decimals) in thousandths; `None` when malformed.
fn weight(text: &str) -> Option<u16> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let fraction: u16 = format!("{fraction:0<3}").parse().ok()?;
    match whole {
        "0" => Some(fraction),
        "1" if fraction == 0 => Some(1000),
        _ => None,
    }
}

/// The site file that may hold the Markdown twin of the page at `path` (a request path relative
/// to the site's top, without its leading `/`, percent-decoded): `index.md` for the top or
/// `index.html`, `FOLDER/index.md` for a folder, the file itself when it is already Markdown
/// or `llms.txt`, else `PATH.md`. The caller serves it when it exists, and the page otherwise.
#[must_use]
pub fn markdown_path(path: &str) -> String {
    let path = path.trim_start_matches('/');
    if path.is_empty() || path == "index.html" {
        return "index.md".to_owned();
    }
    if path.ends_with('/') {
        return format!("{path}index.md");
    }
    if path.ends_with(".md") || path.ends_with(".txt") {
        return path.to_owned();
    }
    match path.strip_suffix(".html") {
        Some(stem) => format!("{stem}.md"),
        None => format!("{path}.md"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_is_chosen_only_when_asked_for_first() {
        assert!(prefers_markdown("text/markdown"));
        assert!(prefers_markdown("text/markdown, text/html;q=0.9"));
        assert!(prefers_markdown("text/html;q=0.5, text/markdown;q=0.8"));
        assert!(prefers_markdown("text/markdown, text/html"));
        assert!(prefers_markdown("TEXT/Markdown; charset=utf-8"));
        // Browsers and the usual clients.
        assert!(!prefers_markdown("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"));
        assert!(!prefers_markdown("*/*"));
        assert!(!prefers_markdown("text/*"));
        assert!(!prefers_markdown(""));
        assert!(!prefers_markdown("text/markdown;q=0"));
        assert!(!prefers_markdown("text/markdown;q=0.5, text/html"));
        // A malformed weight counts as none given.
        assert!(prefers_markdown("text/markdown;q=2"));
        assert!(!prefers_markdown("text/markdown;q=0.5, text/html;q=0.9"));
    }

    #[test]
    fn pages_map_to_their_twins() {
        assert_eq!(markdown_path(""), "index.md");
        assert_eq!(markdown_path("/"), "index.md");
        assert_eq!(markdown_path("index.html"), "index.md");
        assert_eq!(markdown_path("schemas/"), "schemas/index.md");
        assert_eq!(markdown_path("operations/listPets"), "operations/listPets.md");
        assert_eq!(markdown_path("operations/listPets.md"), "operations/listPets.md");
        assert_eq!(markdown_path("llms.txt"), "llms.txt");
        assert_eq!(markdown_path("docs.html"), "docs.md");
    }
}
