//! Markdown of a document's descriptions to HTML that is safe to insert into the page: raw
//! HTML in the source is shown as text, never parsed, and links or images whose URL is not
//! http(s), mailto, a relative path or an anchor keep their text and lose the URL.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html};

/// Whether `url` may be a link or an image: http(s), mailto, relative or an anchor.
pub(crate) fn safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    match lower.split_once(':') {
        // A colon before any slash, `?` or `#` starts a scheme.
        Some((scheme, _)) if !scheme.contains(['/', '?', '#']) => {
            matches!(scheme, "http" | "https" | "mailto")
        }
        _ => true,
    }
}

/// Renders `markdown` to HTML with no executable content.
#[must_use]
pub fn to_safe_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut dropped_links = 0_usize;
    let events = Parser::new_ext(markdown, options).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            if safe_url(&dest_url) {
                Some(Event::Start(Tag::Link { link_type, dest_url, title, id }))
            } else {
                dropped_links += 1;
                None
            }
        }
        Event::End(TagEnd::Link) if dropped_links > 0 => {
            dropped_links -= 1;
            None
        }
        Event::Start(Tag::Image { link_type, dest_url, title, id }) => {
            if safe_url(&dest_url) {
                Some(Event::Start(Tag::Image { link_type, dest_url, title, id }))
            } else {
                Some(Event::Start(Tag::Image { link_type, dest_url: CowStr::Borrowed(""), title, id }))
            }
        }
        other => Some(other),
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

#[cfg(test)]
mod tests {
    use super::to_safe_html;

    #[test]
    fn renders_common_markdown() {
        assert_eq!(
            to_safe_html("**bold** and `code`"),
            "<p><strong>bold</strong> and <code>code</code></p>\n"
        );
        assert!(to_safe_html("- a\n- b").contains("<li>a</li>"));
        assert!(to_safe_html("| a | b |\n|---|---|\n| 1 | 2 |").contains("<table>"));
        assert_eq!(
            to_safe_html("[docs](https://example.com/x)"),
            "<p><a href=\"https://example.com/x\">docs</a></p>\n"
        );
    }

    #[test]
    fn raw_html_is_text_not_markup() {
        let out = to_safe_html("<script>alert(1)</script>\n\nHi <img src=x onerror=alert(2)> there");
        assert!(!out.contains("<script"), "{out}");
        assert!(!out.contains("<img"), "{out}");
        assert!(out.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{out}");
        assert!(out.contains("&lt;img src=x onerror=alert(2)&gt;"), "{out}");
    }

    #[test]
    fn dangerous_urls_lose_their_link_but_keep_their_text() {
        for url in ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " data:text/html,<b>", "vbscript:x"] {
            let out = to_safe_html(&format!("[click]({url}) after"));
            assert!(!out.contains("href"), "{url}: {out}");
            assert!(out.contains("click"), "{url}: {out}");
        }
        let out = to_safe_html("![x](javascript:alert(1))");
        assert!(!out.contains("javascript"), "{out}");
        assert!(to_safe_html("[a](/relative#x)").contains("href=\"/relative#x\""));
        assert!(to_safe_html("[a](#anchor)").contains("href=\"#anchor\""));
        assert!(to_safe_html("[a](mailto:x@example.com)").contains("href=\"mailto:x@example.com\""));
    }
}
