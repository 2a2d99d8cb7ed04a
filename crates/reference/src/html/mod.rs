//! The reference's read-only parts as HTML: an operation's description, parameters, bodies,
//! responses, security and callbacks, schema trees, the overview, a tag's page and the schema
//! pages. They render once and never change, so the page inserts them as HTML instead of
//! building each element with view code: the first download is smaller, and a large operation
//! renders in one DOM write.
//!
//! Every value from the document is escaped; links from it are the core's checked ones
//! ([`crate::safe_link`]). Markdown descriptions go through the caller's renderer
//! ([`Html::new`]); while it is not ready they are written as plain text marked
//! [`MARKDOWN_SOURCE`], which the page renders in place once it is.

mod operation;
mod pages;
mod prerender;
mod rows;
mod schema;

pub use operation::operation;
pub use pages::{DOWNLOAD_ACTION, overview, schema_list, schema_page, tag_page};
pub use prerender::{
    MAX_ROWS, WHOLE_LIST_PAGE, count, operation_count, page_title, prerender, prerender_pages, version_label,
};
pub use rows::row_html;
pub use schema::schema_tree;

/// The attribute on a description still shown as plain text: its text is the Markdown source.
pub const MARKDOWN_SOURCE: &str = "data-markdown";

/// The markup of [`Html::separator`]: `.word-space` (`font-size: 0`) makes its space take no
/// width, so the line looks as it did, while the text (and `innerText`, unlike a visually
/// hidden element, which it reads as a line of its own) has a plain space between two words.
pub const SEPARATOR: &str = r#"<span class="word-space"> </span>"#;

/// `text` with `&`, `<`, `>`, `"` and `'` escaped, for HTML text and attribute values.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped(&mut out, text);
    out
}

/// `text` with the entities [`escape`] and the Markdown renderer write decoded (`&amp;` last, so
/// `&amp;lt;` stays `&lt;`): the plain text of safe HTML, once its tags are dropped.
#[must_use]
pub fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

/// The text up to the end of its first sentence (a `.`, `!` or `?` before a space), for a
/// summary of a description.
#[must_use]
pub fn first_sentence(text: &str) -> &str {
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|(_, next)| *next == ' ') {
            return &text[..at + c.len_utf8()];
        }
    }
    text
}

fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// Markdown to safe HTML, or `None` while the renderer is not there.
pub type Markdown<'a> = &'a dyn Fn(&str) -> Option<String>;

/// An HTML fragment being written.
pub struct Html<'a> {
    out: String,
    markdown: Markdown<'a>,
    pending: bool,
}

impl std::fmt::Debug for Html<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Html").field("out", &self.out).finish_non_exhaustive()
    }
}

impl<'a> Html<'a> {
    /// An empty fragment whose descriptions `markdown` renders.
    #[must_use]
    pub fn new(markdown: Markdown<'a>) -> Self {
        Self { out: String::new(), markdown, pending: false }
    }

    /// Whether a description was written as plain text, the renderer not being ready.
    #[must_use]
    pub fn markdown_pending(&self) -> bool {
        self.pending
    }

    /// The HTML written.
    #[must_use]
    pub fn finish(self) -> String {
        self.out
    }

    /// Markup as it is (never a value from the document).
    fn raw(&mut self, markup: &str) -> &mut Self {
        self.out.push_str(markup);
        self
    }

    /// Text, escaped.
    fn text(&mut self, text: &str) -> &mut Self {
        push_escaped(&mut self.out, text);
        self
    }

    /// `<tag attrs>text</tag>`: `attrs` is markup, `text` is escaped.
    fn element(&mut self, tag: &str, attrs: &str, text: &str) -> &mut Self {
        self.raw("<").raw(tag).raw(attrs).raw(">").text(text).raw("</").raw(tag).raw(">")
    }

    /// ` name="value"`, the value escaped.
    fn attr(&mut self, name: &str, value: &str) -> &mut Self {
        self.raw(" ").raw(name).raw("=\"").text(value).raw("\"")
    }

    /// A description: rendered Markdown, or its source as text until the renderer is ready.
    fn markdown(&mut self, source: &str) -> &mut Self {
        match (self.markdown)(source) {
            Some(html) => self.raw(r#"<div class="markdown">"#).raw(&html).raw("</div>"),
            None => {
                self.pending = true;
                self.raw(r#"<div class="markdown markdown-plain" "#)
                    .raw(MARKDOWN_SOURCE)
                    .raw(">")
                    .text(source)
                    .raw("</div>")
            }
        }
    }

    /// A space only the page's text has (copied text, a screen reader, `textContent`): it
    /// keeps two words that sit side by side, each in its own element spaced by CSS margins,
    /// from running together, without changing how they look.
    fn separator(&mut self) -> &mut Self {
        self.raw(SEPARATOR)
    }

    /// A link to a page of the reference (`#anchor`).
    fn anchor_link(&mut self, anchor: &str, attrs: &str, text: &str) -> &mut Self {
        self.raw("<a")
            .attr("href", &playground_openapi::outline::href(anchor))
            .raw(attrs)
            .raw(">")
            .text(text)
            .raw("</a>")
    }

    /// A link that leaves the reference, in a new tab.
    fn external_link(&mut self, url: &str, text: &str) -> &mut Self {
        self.raw("<a")
            .attr("href", url)
            .raw(r#" target="_blank" rel="noopener noreferrer">"#)
            .text(text)
            .raw("</a>")
    }

    /// An HTTP method's label.
    fn method(&mut self, method: &str) -> &mut Self {
        self.raw(r#"<span class="method method-"#)
            .raw(&method.to_ascii_lowercase())
            .raw(r#"">"#)
            .raw(method)
            .raw("</span>")
    }

    /// Pretty JSON in `<pre class="example">`, with `attrs`.
    fn example(&mut self, attrs: &str, value: &serde_json::Value) -> &mut Self {
        let json = serde_json::to_string_pretty(value).unwrap_or_default();
        self.raw(r#"<pre class="example""#).raw(attrs).raw("><code>").text(&json).raw("</code></pre>")
    }

    /// The notes on a generated example, when there are any.
    fn example_notes(&mut self, attrs: &str, notes: &[String]) -> &mut Self {
        if !notes.is_empty() {
            self.element("p", attrs, &format!("Generated example: {}.", notes.join("; ")));
        }
        self
    }
}

/// A page that cannot be shown: `message` as an alert (`testid` names it for tests, when not
/// empty).
pub fn error(html: &mut Html<'_>, testid: &str, message: &str) {
    html.raw(r#"<p class="load-error" role="alert""#);
    if !testid.is_empty() {
        html.attr("data-testid", testid);
    }
    html.raw(">").text(message).raw("</p>");
}

/// A line saying the part asked for is on its way (the document is still arriving).
pub fn pending(html: &mut Html<'_>, message: &str) {
    html.raw(r#"<p class="document-status" role="status" data-testid="document-arriving">"#)
        .text(message)
        .raw("</p>");
}

/// `"s"` unless `count` is one.
fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        assert_eq!(escape(r#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
        let plain = |_: &str| None;
        let mut html = Html::new(&plain);
        html.attr("title", "\"><script>").markdown("<b>**x**</b>");
        assert_eq!(
            html.finish(),
            r#" title="&quot;&gt;&lt;script&gt;"<div class="markdown markdown-plain" data-markdown>&lt;b&gt;**x**&lt;/b&gt;</div>"#
        );
    }

    #[test]
    fn a_ready_renderer_writes_its_html() {
        let render = |s: &str| Some(format!("<p>{s}</p>"));
        let mut html = Html::new(&render);
        html.markdown("x");
        assert_eq!(html.finish(), r#"<div class="markdown"><p>x</p></div>"#);
    }
}
