//! The site's `index.html`: the app's page with the description's title and summary, the
//! site's configuration element, the early request pointed at the site's document, the
//! pre-rendered reference, and every address of the app's files made relative.

use playground_reference::html::{escape, first_sentence, unescape};
use playground_reference::markdown::to_safe_html;

/// The longest page description (`<meta name="description">`), in characters.
pub const MAX_SUMMARY_CHARS: usize = 160;

/// The id of the site's configuration element, which the app reads.
pub use playground_reference::site::CONFIG_ID;

/// The id of the link to the Markdown of the view shown (`index.md` as built), which the app
/// points at each view's own page.
pub const MARKDOWN_LINK_ID: &str = "markdown-twin";

/// The links to the site's Markdown, in the page's `<head>`: the overview's (`index.md`) and
/// the index of every page (`llms.txt`), both relative so that a site under a folder keeps them.
pub const MARKDOWN_LINKS: &str = concat!(
    r#"<link rel="alternate" type="text/markdown" id="markdown-twin" href="index.md">"#,
    r#"<link rel="alternate" type="text/plain" title="llms.txt" href="llms.txt">"#,
);

/// The document the app's early request asks for, in the app's `index.html`.
const APP_DOCUMENT: &str = "petstore.json";

/// Why the app's `index.html` could not be made the site's: it changed shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the app's index.html {0}; the build of this playground no longer matches its app")]
pub struct PageError(String);

/// What the site's page says in its `<head>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The page's title.
    pub title: String,
    /// Its description in plain text, when the API has one.
    pub summary: Option<String>,
    /// The icon's relative address, when the site has its own.
    pub favicon: Option<String>,
    /// The site's configuration element's JSON ([`script_json`]).
    pub config: String,
    /// The site's document's relative address, which the early request asks for.
    pub document: String,
    /// HTML placed first in `<body>`, outside the app and the pre-rendered reference (a
    /// versioned site's switcher, banner and marks); empty for none.
    pub banner: String,
}

/// `value` as JSON that can stand inside a `<script>` element: `<`, `>` and `&` are escaped
/// (`\u003c`, ...), so no text in it can close the element.
#[must_use]
pub fn script_json(value: &serde_json::Value) -> String {
    let mut out = String::new();
    for c in value.to_string().chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            // JSON allows them in strings; older JavaScript did not.
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// The first sentence of a Markdown description, as plain text of at most
/// [`MAX_SUMMARY_CHARS`] characters (cut at a word, with an ellipsis); `None` when there is
/// no text.
#[must_use]
pub fn summary(markdown: &str) -> Option<String> {
    let first_paragraph = markdown.trim_start().split("\n\n").next().unwrap_or_default();
    let text = plain_text(&to_safe_html(first_paragraph));
    let words: Vec<&str> = text.split_whitespace().collect();
    let text = words.join(" ");
    let sentence = first_sentence(&text);
    if sentence.is_empty() {
        return None;
    }
    if sentence.chars().count() <= MAX_SUMMARY_CHARS {
        return Some(sentence.to_owned());
    }
    let mut cut = String::new();
    for word in sentence.split(' ') {
        if cut.chars().count() + word.chars().count() + 1 > MAX_SUMMARY_CHARS - 1 {
            break;
        }
        if !cut.is_empty() {
            cut.push(' ');
        }
        cut.push_str(word);
    }
    if cut.is_empty() {
        cut = sentence.chars().take(MAX_SUMMARY_CHARS - 1).collect();
    }
    cut.push('\u{2026}');
    Some(cut)
}

/// The text of safe HTML (the Markdown renderer's): tags dropped, entities decoded.
fn plain_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            // The renderer ends each block with a line break, which keeps blocks apart.
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    unescape(&text)
}

/// The site's page made from the app's `index.html`: see the module's documentation.
/// `entries` are the names of the files and folders at the top of the site, whose absolute
/// addresses (`/name`) become relative ones (`./name`); `prerendered` goes first in `<body>`.
///
/// # Errors
/// A [`PageError`] when the page does not have the shape this build knows: one `<title>`, one
/// `<body>`, the early request's literal `"petstore.json"` once, the app started after the head
/// script says so ([`APP_START`]), no absolute address left.
pub fn rewrite(index: &str, head: &Head, prerendered: &str, entries: &[String]) -> Result<String, PageError> {
    let page = drop_tags(index, "<meta", |tag| {
        attribute_is(tag, "name", "description") || attribute_starts(tag, "property", "og:")
    });
    let page = if head.favicon.is_some() {
        drop_tags(&page, "<link", |tag| attribute_is(tag, "rel", "icon"))
    } else {
        page
    };
    // The site's own links to its Markdown replace any the app's page has.
    let page = drop_tags(&page, "<link", |tag| {
        attribute_is(tag, "rel", "alternate")
            && (attribute_is(tag, "type", "text/markdown") || attribute_is(tag, "href", "llms.txt"))
    });

    let (Some(open), Some(close)) = (page.find("<title>"), page.find("</title>")) else {
        return Err(PageError("has no <title>".to_owned()));
    };
    if close < open || page[close + 1..].contains("<title>") {
        return Err(PageError("does not have one <title>".to_owned()));
    }
    let mut tags = format!("<title>{}</title>", escape(&head.title));
    let title = escape(&head.title);
    if let Some(summary) = &head.summary {
        let summary = escape(summary);
        tags.push_str(&format!(
            "<meta name=\"description\" content=\"{summary}\"><meta property=\"og:description\" content=\"{summary}\">"
        ));
    }
    tags.push_str(&format!("<meta property=\"og:title\" content=\"{title}\">"));
    if let Some(favicon) = &head.favicon {
        tags.push_str(&format!("<link rel=\"icon\" href=\"{}\">", escape(favicon)));
    }
    tags.push_str(MARKDOWN_LINKS);
    tags.push_str(&format!("<script type=\"application/json\" id=\"{CONFIG_ID}\">{}</script>", head.config));
    let page = format!("{}{tags}{}", &page[..open], &page[close + "</title>".len()..]);

    let page = early_request(&page, &head.document)?;
    starts_after_first_paint(&page)?;
    let page = without_first_screen(&page);
    let page = relative(&page, entries);
    if let Some(absolute) = absolute_address(&page) {
        return Err(PageError(format!(
            "refers to {absolute}, which is not a file of the app; a site's addresses must be relative"
        )));
    }

    let Some(body) = page.find("<body") else {
        return Err(PageError("has no <body>".to_owned()));
    };
    let Some(end) = page[body..].find('>').map(|end| body + end + 1) else {
        return Err(PageError("has a <body> tag that does not end".to_owned()));
    };
    let prerendered = if prerendered.is_empty() {
        String::new()
    } else {
        format!("<div id=\"prerendered\">{prerendered}</div>")
    };
    Ok(format!("{}{}{prerendered}{}", &page[..end], head.banner, &page[end..]))
}

/// The page with its early request for the Petstore's document asking for `document` instead.
fn early_request(page: &str, document: &str) -> Result<String, PageError> {
    let quoted: Vec<String> = ['"', '\'', '`'].iter().map(|q| format!("{q}{APP_DOCUMENT}{q}")).collect();
    let found: Vec<&String> = quoted.iter().filter(|q| page.contains(q.as_str())).collect();
    let [literal] = found.as_slice() else {
        return Err(PageError(format!("does not name \"{APP_DOCUMENT}\" once, in its early request")));
    };
    if page.matches(literal.as_str()).count() != 1 {
        return Err(PageError(format!("names \"{APP_DOCUMENT}\" more than once")));
    }
    let quote = &literal[..1];
    Ok(page.replacen(literal.as_str(), &format!("{quote}{document}{quote}"), 1))
}

/// How the app's page starts its app (scripts/finish-page.mjs writes it in place of Trunk's
/// module script): once the head script resolves `__playgroundAppStart`, which on a site's page
/// is after the first frame, it asks for the app's JavaScript and WebAssembly, both at once.
/// Loading, compiling and starting the app in the tasks before the first frame held a published
/// site's first row back (Stripe's: 114 ms against 95, median of 9 loads each in one run of
/// bench/site.mjs's harness); the pre-rendered reference is what a reader sees until the app
/// replaces it.
const APP_START: &str = "await window.__playgroundAppStart;";

/// `page`, when it starts its app as [`APP_START`] says: waiting for the head script, with no
/// `modulepreload` or WebAssembly `preload` link asking for the app's files before.
fn starts_after_first_paint(page: &str) -> Result<(), PageError> {
    let refuse = |what: &str| Err(PageError(format!("does not start its app as this build knows ({what})")));
    if page.matches(APP_START).count() != 1 {
        return refuse("its module script does not await `__playgroundAppStart` once");
    }
    for what in ["import init", "modulepreload", "type=application/wasm", "type=\"application/wasm\""] {
        if page.contains(what) {
            return refuse(&format!("`{what}` asks for the app before the first paint"));
        }
    }
    if !page.contains("module_or_path: wasmFile") {
        return refuse("no WebAssembly fetched after the wait");
    }
    Ok(())
}

/// `page` with every `/name` that starts an attribute value or a string (after `=`, `"`, `'`
/// or a backquote) made `./name`, for each top-level `name` of the site.
fn relative(page: &str, entries: &[String]) -> String {
    let mut out = String::with_capacity(page.len() + 64);
    let mut rest = page;
    while let Some(at) = rest.find('/') {
        let before = rest[..at].chars().next_back();
        let after = &rest[at + 1..];
        let starts_value = matches!(before, Some('=' | '"' | '\'' | '`'));
        let names_entry = entries.iter().any(|name| {
            after.strip_prefix(name.as_str()).is_some_and(|tail| !tail.starts_with(is_name_char))
        });
        out.push_str(&rest[..at]);
        if starts_value && names_entry {
            out.push_str("./");
        } else {
            out.push('/');
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')
}

/// An absolute address left in an attribute or a module import (`href=/x`, `src="/x"`,
/// `from '/x'`, `module_or_path: '/x'`), when there is one.
fn absolute_address(page: &str) -> Option<String> {
    const STARTS: [&str; 14] = [
        "href=/",
        "href=\"/",
        "href='/",
        "src=/",
        "src=\"/",
        "src='/",
        "from '/",
        "from \"/",
        "module_or_path: '/",
        "module_or_path: \"/",
        "fetch('/",
        "fetch(\"/",
        "import('/",
        "import(\"/",
    ];
    STARTS.iter().find_map(|start| {
        page.match_indices(start).find_map(|(at, _)| {
            let address = &page[at + start.len() - 1..];
            if address.starts_with("//") {
                return None;
            }
            let end = address
                .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '>'))
                .unwrap_or(address.len());
            Some(address[..end].to_owned())
        })
    })
}

/// `page` without the script that draws a `?url=` document's first screen (www/first-screen.js,
/// the one that defines `window.__playgroundFirstScreen`): a site's page never opens another
/// document, and its own first paint is in its HTML, so the page has 7 KB less to parse.
fn without_first_screen(page: &str) -> String {
    const NAME: &str = "__playgroundFirstScreen";
    drop_between(page, "<script>", "</script>", |script| {
        script.match_indices(NAME).any(|(at, _)| {
            let after = script[at + NAME.len()..].trim_start();
            after.starts_with('=') && !after.starts_with("==")
        })
    })
}

/// `page` without the tags starting with `start` (such as `<meta`) that `drop` picks.
fn drop_tags(page: &str, start: &str, drop: impl Fn(&str) -> bool) -> String {
    drop_between(page, start, ">", drop)
}

/// `page` without each run from `start` to the next `end` (both included) that `drop` picks.
fn drop_between(page: &str, start: &str, end: &str, drop: impl Fn(&str) -> bool) -> String {
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(at) = rest.find(start) {
        let Some(stop) = rest[at..].find(end).map(|stop| at + stop + end.len()) else { break };
        out.push_str(&rest[..at]);
        if !drop(&rest[at..stop]) {
            out.push_str(&rest[at..stop]);
        }
        rest = &rest[stop..];
    }
    out.push_str(rest);
    out
}

/// The value of the attribute `name` of `tag`, quoted or not.
fn attribute<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let mut search = tag;
    loop {
        let at = search.find(name)?;
        let before = search[..at].chars().next_back();
        let after = &search[at + name.len()..];
        if before.is_some_and(char::is_whitespace)
            && let Some(value) = after.strip_prefix('=')
        {
            return Some(match value.chars().next() {
                Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or_default(),
                // Unquoted, it ends at a space or the tag's end (`type=application/wasm>`).
                _ => value.split(|c: char| c.is_whitespace() || c == '>').next().unwrap_or_default(),
            });
        }
        search = after;
    }
}

fn attribute_is(tag: &str, name: &str, value: &str) -> bool {
    attribute(tag, name).is_some_and(|v| v.eq_ignore_ascii_case(value))
}

fn attribute_starts(tag: &str, name: &str, prefix: &str) -> bool {
    attribute(tag, name).is_some_and(|v| v.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIFIED: &str = "<!doctype html><html lang=en><meta charset=utf-8><meta content=\"Petstore API\" name=description><title>Petstore API reference</title><script>var href=new URL(a||`petstore.json`,document.baseURI).href;</script><script>(()=>{window.__playgroundFirstScreen=(a=>a)})()</script><link href=/favicon-1.png integrity=sha384-x rel=icon><link href=/style-2.css rel=stylesheet><script type=module>await window.__playgroundAppStart;\nconst wasmFile = fetch('/app-3_bg.wasm');\nconst { default: init, ...bindings } = await import('/app-3.js');\nconst wasm = await init({ module_or_path: wasmFile });</script><body><noscript>JS</noscript></body></html>";

    fn head() -> Head {
        Head {
            title: "Shop <API>".to_owned(),
            summary: Some("Sells \"things\".".to_owned()),
            favicon: None,
            config: script_json(&serde_json::json!({"title": "</script>"})),
            document: "openapi.json".to_owned(),
            banner: String::new(),
        }
    }

    fn entries() -> Vec<String> {
        ["favicon-1.png", "style-2.css", "app-3.js", "app-3_bg.wasm", "snippets"].map(str::to_owned).to_vec()
    }

    #[test]
    fn a_minified_page_is_rewritten() {
        let page = rewrite(MINIFIED, &head(), "<h1>Shop</h1>", &entries()).expect("rewrites");
        assert!(page.contains("<title>Shop &lt;API&gt;</title>"), "{page}");
        assert!(!page.contains("Petstore"), "{page}");
        assert!(page.contains("<meta name=\"description\" content=\"Sells &quot;things&quot;.\">"));
        assert!(page.contains("{\"title\":\"\\u003c/script\\u003e\"}</script>"));
        assert!(page.contains("`openapi.json`"));
        assert!(page.contains("href=./favicon-1.png"));
        // The app starts when the head script says so, its files asked for together.
        let wait = page.find(APP_START).expect("waits for the head script");
        let wasm = page.find("const wasmFile = fetch('./app-3_bg.wasm');").expect("fetches the WebAssembly");
        let import = page.find("= await import('./app-3.js');").expect("imports the app");
        assert!(wait < wasm && wasm < import, "{page}");
        assert!(page.contains("<body><div id=\"prerendered\"><h1>Shop</h1></div><noscript>"));
        assert!(page.contains(MARKDOWN_LINKS), "{page}");
        // The script that draws a `?url=` document's first screen is not a site's; the head
        // script that calls it stays.
        assert!(!page.contains("__playgroundFirstScreen"), "{page}");
        assert!(page.contains("var href="), "{page}");
        assert!(MARKDOWN_LINKS.contains(&format!("id=\"{MARKDOWN_LINK_ID}\"")));
    }

    #[test]
    fn the_links_to_the_markdown_are_the_sites_own() {
        let own = r#"<link rel="alternate" type="text/markdown" href="/index.md">"#;
        let app = MINIFIED.replacen("<title>", &format!("{own}<title>"), 1);
        let page = rewrite(&app, &head(), "", &entries()).expect("rewrites");
        assert!(!page.contains(own), "{page}");
        assert_eq!(page.matches("text/markdown").count(), 1, "{page}");
        assert_eq!(page.matches(r#"href="llms.txt""#).count(), 1, "{page}");
    }

    #[test]
    fn a_favicon_replaces_the_apps() {
        let head = Head { favicon: Some("playground-favicon.svg".to_owned()), ..head() };
        let page = rewrite(MINIFIED, &head, "", &entries()).expect("rewrites");
        assert!(!page.contains("favicon-1.png"));
        assert!(page.contains("<link rel=\"icon\" href=\"playground-favicon.svg\">"));
        assert!(!page.contains("prerendered"));
    }

    #[test]
    fn a_page_of_another_shape_is_refused() {
        for (from, to) in [
            ("await window.__playgroundAppStart;\n", ""),
            ("<script type=module>", "<script type=module>await window.__playgroundAppStart;"),
            ("module_or_path: wasmFile", "module_or_path: '/app-3_bg.wasm'"),
            ("</script><body>", "</script><link href=/app-3.js rel=modulepreload><body>"),
            (
                "</script><body>",
                "</script><link as=fetch href=/app-3_bg.wasm rel=preload type=application/wasm><body>",
            ),
        ] {
            let other = MINIFIED.replace(from, to);
            let error = rewrite(&other, &head(), "", &entries()).expect_err(to);
            assert!(error.to_string().contains("does not start its app"), "{error}");
        }
        let no_literal = MINIFIED.replace("`petstore.json`", "`other.json`");
        assert!(rewrite(&no_literal, &head(), "", &entries()).is_err());
        let no_title = MINIFIED.replace("<title>Petstore API reference</title>", "");
        assert!(rewrite(&no_title, &head(), "", &entries()).is_err());
        let unknown = MINIFIED.replace("href=/style-2.css", "href=/elsewhere.css");
        let error = rewrite(&unknown, &head(), "", &entries()).expect_err("an absolute address");
        assert!(error.to_string().contains("/elsewhere.css"), "{error}");
    }

    /// The app's own page, as Trunk's development builds leave it (release builds minify it,
    /// as [`MINIFIED`]): a change of its shape that the build would refuse fails here first.
    #[test]
    fn the_apps_page_has_the_shape_the_build_knows() {
        // The module script that starts the app, as scripts/finish-page.mjs leaves Trunk's.
        let source = include_str!("../../../index.html").replacen(
            "</head>",
            "<script type=\"module\">\nawait window.__playgroundAppStart;\nconst wasmFile = fetch('/app-3_bg.wasm');\nconst { default: init, ...bindings } = await import('/app-3.js');\nconst wasm = await init({ module_or_path: wasmFile });\n</script></head>",
            1,
        );
        let page = rewrite(&source, &head(), "", &["app-3.js".to_owned(), "app-3_bg.wasm".to_owned()])
            .expect("the app's index.html is rewritten");
        assert!(page.contains("await import('./app-3.js')") && !page.contains("modulepreload"), "{page}");
        assert!(page.contains("\"openapi.json\""), "{page}");
        let config = page.find(CONFIG_ID).expect("the configuration element");
        let first_script = page.find("<script>").expect("the page's first script");
        assert!(config < first_script, "the configuration comes before the scripts that read it");
    }

    #[test]
    fn the_summary_is_the_first_sentence_in_plain_text() {
        assert_eq!(summary("The **Shop** API. It sells."), Some("The Shop API.".to_owned()));
        assert_eq!(summary("[Pets](https://x.example), toys"), Some("Pets, toys".to_owned()));
        assert_eq!(summary("# Title\n\nMore"), Some("Title".to_owned()));
        assert_eq!(summary("   "), None);
        assert_eq!(summary("Version 1.2 is here"), Some("Version 1.2 is here".to_owned()));
        let long = summary(&"word ".repeat(100)).expect("a summary");
        assert!(long.chars().count() <= MAX_SUMMARY_CHARS && long.ends_with('\u{2026}'), "{long}");
    }
}
