//! A published site's first paint: the reference's header, operation list and overview as
//! static HTML, in the markup and classes the app renders, so the page looks the same before
//! and after its WebAssembly runs, readers without JavaScript still get the reference, and
//! search engines index it. `playground build` writes it into the page's `#prerendered`
//! element ([`crate::site::PRERENDERED_ID`]); the app removes it when its own page appears.

use playground_openapi::catalog::Catalog;
use playground_openapi::document::AnyDocument;
use playground_openapi::outline::{self, SCHEMAS_ANCHOR};

use super::{Html, escape, overview, row_html};
use crate::Overview;
use crate::site::SiteConfig;

/// At most this many rows of the operation list are written (groups, tags and operations):
/// 5 000 rows are about 2 MB of HTML, past which a page is slow to parse for the little it
/// adds before the app's own (virtual) list takes over. A line says how many were left out.
pub const MAX_ROWS: usize = 5_000;

/// The reference's first paint as HTML, for `#prerendered`:
///
/// - `document`: the description (its root fields give the overview's licence, contact,
///   terms and links, as in the app);
/// - `catalog`: its operation list (`playground_openapi::document::load_json` gives both);
/// - `site`: the site's configuration: the title (else `info.title`), the logo, and the
///   header's home and support links.
///
/// It holds the header (logo, title, version, operation count, links), every operation grouped
/// by tag as plain links to its `#anchor` (at most [`MAX_ROWS`] rows), and the overview with
/// its descriptions rendered from Markdown as the app renders them. Every value from the
/// document and the configuration is escaped, and the work is linear in the document's size.
#[must_use]
pub fn prerender(document: &AnyDocument, catalog: &Catalog, site: &SiteConfig) -> String {
    Parts::new(document, catalog, site).page(List::FirstScreen)
}

/// [`prerender`]'s first paint, and, when the list is longer than the first screen, the page of
/// the whole list ([`WHOLE_LIST_PAGE`]): the same with every row written (at most [`MAX_ROWS`]),
/// for readers without JavaScript, whose `index.html` has the first screen's rows and a link
/// there. Its rows after the first screen are in chunks that `index.html`'s script fills in.
/// The header, the overview and the rows are made once for both.
#[must_use]
pub fn prerender_pages(
    document: &AnyDocument,
    catalog: &Catalog,
    site: &SiteConfig,
) -> (String, Option<String>) {
    let parts = Parts::new(document, catalog, site);
    let whole = (parts.rows.len() > FIRST_SCREEN_ROWS).then(|| parts.page(List::Whole));
    (parts.page(List::FirstScreen), whole)
}

/// Which rows of the list a page writes.
#[derive(Clone, Copy, PartialEq)]
enum List {
    /// `index.html`: the first screen's rows, the others filled in from [`WHOLE_LIST_PAGE`].
    FirstScreen,
    /// [`WHOLE_LIST_PAGE`]: every row.
    Whole,
}

/// What the pages share: the markup before the list (the header and the search box), the rows,
/// and the markup after it (the overview).
struct Parts<'c> {
    catalog: &'c Catalog,
    before: String,
    rows: Vec<outline::Row>,
    after: String,
}

impl<'c> Parts<'c> {
    fn new(document: &AnyDocument, catalog: &'c Catalog, site: &SiteConfig) -> Self {
        let render = |source: &str| Some(crate::markdown::to_safe_html(source));
        let mut before = Html::new(&render);
        // The accent for readers without JavaScript (index.html's script sets it for the others).
        if let Some(accent) = site.accent_value() {
            before.raw("<style>:root{--accent:").raw(&accent).raw("}</style>");
        }
        header(&mut before, catalog, site);
        before.raw(r#"<div class="layout"><aside class="sidebar">"#).raw(SEARCH);
        let mut after = Html::new(&render);
        after.raw(r#"</aside><main id="content">"#);
        let about = document.root().map(Overview::from_root).unwrap_or_default();
        overview(&mut after, catalog, &about, true);
        after.raw("</main></div>");
        let rows = outline::rows(&catalog.groups);
        Self { catalog, before: before.finish(), rows, after: after.finish() }
    }

    fn page(&self, list: List) -> String {
        let render = |_: &str| None;
        let mut html = Html::new(&render);
        html.raw(&self.before);
        operation_list(&mut html, self.catalog, &self.rows, list);
        html.raw(&self.after);
        html.finish()
    }
}

/// The search box of the app's sidebar (`src/ui/search.rs`); it works once the app runs.
const SEARCH: &str = r#"<div class="search" role="search"><label for="operation-search" class="search-label">Search operations</label><input id="operation-search" type="search" placeholder="Path, summary or operationId" aria-keyshortcuts="/ Control+K Meta+K" autocomplete="off"><kbd class="search-hint" aria-hidden="true">/</kbd></div>"#;

/// The pre-rendered list's rows are laid out and painted when near the screen (the app's own
/// list draws only the rows in view).
const ROWS_IN_VIEW: &str =
    "<style>#prerendered .list-row{content-visibility:auto;contain-intrinsic-size:auto 3.25rem}</style>";

/// The theme choice of the app's header (`src/ui/theme.rs`), following the system until the app
/// runs.
const THEME: &str = r#"<div class="theme-toggle"><label for="theme-choice">Theme</label><select id="theme-choice"><option value="system" selected>System</option><option value="light">Light</option><option value="dark">Dark</option></select></div>"#;

/// The Mock block as the app's `MockPanel` (`src/ui/mock_panel.rs`) first shows it, before the
/// mock is started, so the header keeps its height when the app takes over; its button works
/// once the app runs.
const MOCK_BLOCK: &str = r#"<section class="mock-panel" aria-labelledby="mock-panel-title"><h2 id="mock-panel-title" class="mock-panel-title">Mock</h2><p class="mock-panel-note">In this browser, shared by its tabs</p><p class="mock-counts hint">This document's mock starts when a try-it panel sends to it, or here.</p><div class="mock-actions"><button type="button" class="button" disabled>Start the mock</button></div></section>"#;

/// The header as the app's `Reference` writes it in site mode.
fn header(html: &mut Html<'_>, catalog: &Catalog, site: &SiteConfig) {
    html.raw(r##"<header class="doc-header"><div class="doc-heading"><h1><a href="#" class="title-link">"##);
    if let Some(logo) = &site.logo {
        html.raw(r#"<img class="site-logo""#).attr("src", logo).raw(r#" alt="">"#);
    }
    html.text(site.title_or(&catalog.title)).raw(r#"</a></h1><p class="doc-meta">"#);
    html.element("span", r#" class="version""#, &version_label(&catalog.version));
    html.element("span", r#" class="op-count""#, &operation_count(catalog));
    let webhooks = catalog.webhook_count();
    if webhooks > 0 {
        html.element("span", r#" class="op-count""#, &count(webhooks, "webhook"));
    }
    html.anchor_link(SCHEMAS_ANCHOR, "", "Schemas").raw("</p></div>");
    if site.mock {
        html.raw(MOCK_BLOCK);
    }
    html.raw(r#"<nav class="header-nav" aria-label="Project">"#);
    site_links(html, site);
    html.raw(THEME).raw("</nav></header>");
}

/// The header's home and support links, as the app's `site_page` (`src/lib.rs`) writes them.
fn site_links(html: &mut Html<'_>, site: &SiteConfig) {
    for (link, text, testid) in
        [(&site.links.home, "Home", "site-home"), (&site.links.support, "Support", "site-support")]
    {
        if let Some(url) = link {
            html.raw("<a").attr("href", url).attr("data-testid", testid).raw(">").text(text).raw("</a>");
        }
    }
}

/// Rows of the list in `index.html`: more than a tall screen shows (about 25 rows of 3.25rem at
/// 1,440 pixels).
pub const FIRST_SCREEN_ROWS: usize = 40;

/// The page with every row of the list, beside `index.html`.
pub const WHOLE_LIST_PAGE: &str = "all-operations.html";

/// In [`WHOLE_LIST_PAGE`], this comment starts the first screen's rows and then each chunk of
/// [`ROWS_PER_CHUNK`] rows after them, and [`ROWS_END`] follows the last. A row's text is
/// escaped, so no row holds either.
const CHUNK: &str = "<!--rows-->";
const ROWS_END: &str = "<!--/rows-->";

/// The rows after the first screen are filled in this many at a time, one chunk per task.
const ROWS_PER_CHUNK: usize = 250;

/// Fills `index.html`'s list in from [`WHOLE_LIST_PAGE`] after the first frame: its chunks
/// after the first screen's, one per task (each a bounded piece of HTML to parse), until the
/// app replaces the first paint. A browser parses a document that arrives whole before its
/// first frame, so rows in `index.html` delay it even unseen: GitHub's 1,223 operations held
/// back in `<noscript>` (870 KB of text to scan) put its first row on screen at 151 ms, against
/// 107 ms with them here (median of 9 interleaved loads, the floor 63 ms).
const FILL_ROWS: &str = r##"<script>requestAnimationFrame(function(){setTimeout(function(){fetch("all-operations.html").then(function(r){return r.ok?r.text():""}).then(function(t){var c=t.split("\x3c!--rows--\x3e"),i=2,n=c.length-1;if(n<2)return;c[n]=c[n].split("\x3c!--/rows--\x3e")[0];(function f(){var l=document.querySelector("#prerendered .list-spacer");if(!l||i>n)return;l.insertAdjacentHTML("beforeend",c[i++]);setTimeout(f)})()},function(){})})})</script>"##;

/// The operation list of the app's sidebar (`src/ui/operation_list.rs`): in `index.html` the
/// first screen's rows, a link to [`WHOLE_LIST_PAGE`] for readers without JavaScript and the
/// script that fills the rest in ([`FILL_ROWS`]); there every row, in marked chunks.
fn operation_list(html: &mut Html<'_>, catalog: &Catalog, rows: &[outline::Row], list: List) {
    // The browser lays out and paints only the rows near the screen.
    html.raw(ROWS_IN_VIEW);
    html.raw(r#"<nav class="operation-list" aria-label="Operations"><div class="list-scroller"><div class="list-spacer">"#);
    let written = &rows[..rows.len().min(MAX_ROWS)];
    let (first, rest) = written.split_at(written.len().min(FIRST_SCREEN_ROWS));
    let whole = list == List::Whole;
    if whole {
        html.raw(CHUNK);
    }
    for row in first {
        html.raw(&row_html(row, None));
    }
    if whole {
        for chunk in rest.chunks(ROWS_PER_CHUNK) {
            html.raw(CHUNK);
            for row in chunk {
                html.raw(&row_html(row, None));
            }
        }
        html.raw(ROWS_END);
    }
    html.raw("</div></div></nav>");
    if !rest.is_empty() && !whole {
        let operations = operation_count(catalog);
        html.raw("<noscript><p class=\"hint\"><a href=\"").raw(WHOLE_LIST_PAGE).raw("\">");
        html.text(&format!("All {operations}, on one page")).raw("</a></p></noscript>");
        html.raw(FILL_ROWS);
    }
    if rows.len() > MAX_ROWS {
        let left = rows.iter().skip(MAX_ROWS).filter(|r| matches!(r, outline::Row::Operation(_))).count();
        html.element("p", r#" class="hint""#, &format!("And {left} more operation{}.", super::plural(left)));
    }
}

/// "12 operations", or that the list is still being read (a document still arriving).
#[must_use]
pub fn operation_count(catalog: &Catalog) -> String {
    if catalog.partial {
        "Listing operations\u{2026}".to_owned()
    } else {
        count(catalog.operation_count(), "operation")
    }
}

/// "1 webhook", "2 webhooks".
#[must_use]
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", super::plural(n))
}

/// `info.version` as a label: "v1.0.0" for a version number, the version as written
/// otherwise ("v1", "2024-01-01", "beta").
#[must_use]
pub fn version_label(version: &str) -> String {
    let bytes = version.as_bytes();
    let date = bytes.len() >= 10 && bytes[4] == b'-' && bytes[7] == b'-';
    if version.starts_with(|c: char| c.is_ascii_digit()) && !date {
        format!("v{version}")
    } else {
        version.to_owned()
    }
}

/// `text` escaped for the page's `<title>` and attributes (the build writes the title too).
#[must_use]
pub fn page_title(site: &SiteConfig, catalog: &Catalog) -> String {
    escape(&format!("{} reference", site.title_or(&catalog.title)))
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;
    use std::time::Instant;

    use playground_openapi::document::load_json;

    use super::*;

    fn load(json: &str) -> (AnyDocument, Catalog) {
        load_json(json.as_bytes().to_vec()).expect("a valid document")
    }

    const NASTY: &str = r#"{
      "openapi": "3.0.3",
      "info": {"title": "A <b>&\"quoted\"</b> API", "version": "2.1.0",
               "description": "Hello *world* <script>alert(1)</script>"},
      "tags": [{"name": "Zoo & <Friends>", "description": "All the **animals**"}],
      "paths": {
        "/pets": {
          "get": {"tags": ["Zoo & <Friends>"], "operationId": "listPets", "summary": "List <pets> & \"more\"", "responses": {"200": {"description": "ok"}}},
          "post": {"operationId": "addPet", "summary": "Untagged", "responses": {"201": {"description": "ok"}}}
        }
      }
    }"#;

    #[test]
    fn values_are_escaped() {
        let (doc, catalog) = load(NASTY);
        let out = prerender(&doc, &catalog, &SiteConfig::new("openapi.json"));
        assert!(out.contains("A &lt;b&gt;&amp;&quot;quoted&quot;&lt;/b&gt; API</a></h1>"), "{out}");
        assert!(out.contains("List &lt;pets&gt; &amp; &quot;more&quot;"));
        assert!(out.contains("Zoo &amp; &lt;Friends&gt;"));
        assert!(!out.contains("<script>"));
        assert!(!out.contains("<b>"));
        // Markdown is rendered as the app renders it, raw HTML kept as text.
        assert!(out.contains("<em>world</em>"));
        assert!(out.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(out.contains("<strong>animals</strong>"));
        assert!(
            out.contains(r#"<span class="version">v2.1.0</span><span class="op-count">2 operations</span>"#)
        );
    }

    #[test]
    fn the_site_title_logo_and_links_win() {
        let (doc, catalog) = load(NASTY);
        let site = SiteConfig {
            title: Some("Acme <Pets>".to_owned()),
            logo: Some("logo.png?a=1&b=\"2\"".to_owned()),
            links: crate::site::Links {
                home: Some("https://acme.example/?a=1&b=2".to_owned()),
                support: None,
            },
            ..SiteConfig::new("openapi.json")
        };
        let out = prerender(&doc, &catalog, &site);
        assert!(out.contains(
            r#"<img class="site-logo" src="logo.png?a=1&amp;b=&quot;2&quot;" alt="">Acme &lt;Pets&gt;</a></h1>"#
        ));
        assert!(
            out.contains(r#"<a href="https://acme.example/?a=1&amp;b=2" data-testid="site-home">Home</a>"#)
        );
        assert!(!out.contains("site-support"));
        assert!(!out.contains("--accent"));
        let teal = SiteConfig { accent: Some("#0b7285".to_owned()), ..site.clone() };
        assert!(prerender(&doc, &catalog, &teal).starts_with(
            "<style>:root{--accent:light-dark(#0b7285, color-mix(in srgb, #0b7285 60%, white))}</style><header"
        ));
        let sneaky = SiteConfig { accent: Some("red}body{display:none".to_owned()), ..site.clone() };
        assert!(!prerender(&doc, &catalog, &sneaky).contains("--accent"));
        assert_eq!(page_title(&site, &catalog), "Acme &lt;Pets&gt; reference");
        assert!(!out.contains("Petstore"));
    }

    #[test]
    fn the_mock_block_is_in_the_header_when_the_site_shows_it() {
        let (doc, catalog) = load(NASTY);
        let without = prerender(&doc, &catalog, &SiteConfig::new("openapi.json"));
        assert!(!without.contains("mock-panel"), "{without}");
        let with = prerender(&doc, &catalog, &SiteConfig { mock: true, ..SiteConfig::new("openapi.json") });
        let block = with.find(r#"<section class="mock-panel""#).expect("the Mock block");
        let header_end = with.find("</header>").expect("the header");
        assert!(block < header_end && with[block..header_end].contains("Start the mock"), "{with}");
    }

    #[test]
    fn operations_are_grouped_by_tag_and_link_to_their_anchor() {
        let (doc, catalog) = load(NASTY);
        let out = prerender(&doc, &catalog, &SiteConfig::new("openapi.json"));
        let tagged = out.find(r#"data-operation-id="listPets""#).expect("tagged operation");
        let untagged = out.find(r#"data-operation-id="addPet""#).expect("untagged operation");
        let tag = out.find(r#"data-group="Zoo &amp; &lt;Friends&gt;""#).expect("the tag's heading");
        assert!(tag < tagged, "the tag heads its operations");
        // The untagged operation is listed too, under a group of its own after the tags.
        let other = out[tagged..untagged].rfind(r#"data-testid="group""#).map(|i| i + tagged);
        assert!(other.is_some(), "a group heads the untagged operation");
        assert!(out.contains(r##"href="#listPets""##) && out.contains(r##"href="#addPet""##));
        // Painted when near the screen, every row in the page all the same.
        assert!(out.find(ROWS_IN_VIEW).expect("the rows' rule") < tag);
        // The list is the sidebar, the overview the main column, as the app has them.
        let list = out.find(r#"class="list-spacer""#).expect("list");
        let main = out.find(r#"<main id="content"><section class="overview""#).expect("overview");
        assert!(list < main && main > untagged);
    }

    /// A document of `n` operations, each under one of 50 tags.
    fn large(n: usize) -> String {
        let mut paths = String::new();
        for i in 0..n {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(
                paths,
                r#"{sep}"/items{i}":{{"get":{{"tags":["tag{}"],"operationId":"op{i}","summary":"Item {i}","responses":{{"200":{{"description":"ok"}}}}}}}}"#,
                i % 50
            );
        }
        format!(r#"{{"openapi":"3.0.3","info":{{"title":"Big","version":"1"}},"paths":{{{paths}}}}}"#)
    }

    #[test]
    fn index_has_the_first_screen_and_the_whole_list_page_every_row_in_chunks() {
        // 50 tags of 12 operations: 650 rows (50 group headings and 600 operations).
        let (doc, catalog) = load(&large(600));
        let site = SiteConfig::new("openapi.json");
        let list_of = |page: &str| {
            let start = page.find(r#"class="list-spacer">"#).unwrap() + r#"class="list-spacer">"#.len();
            let end = start + page[start..].find("</nav>").unwrap();
            (page[start..end].to_owned(), end)
        };
        let index = prerender(&doc, &catalog, &site);
        let (list, end) = list_of(&index);
        assert_eq!(list.matches(r#"class="list-row"#).count(), FIRST_SCREEN_ROWS);
        assert!(!index.contains(CHUNK) && !index.contains("<noscript data-rows"));
        // Without JavaScript a link to the whole list; with it, the script that fills it in,
        // after the list, reading the page and the markers written below.
        assert!(index[end..].contains(r#"<noscript><p class="hint"><a href="all-operations.html">All 600 operations, on one page</a></p></noscript>"#));
        assert_eq!(index.matches(FILL_ROWS).count(), 1);
        assert!(index.find(FILL_ROWS).unwrap() > end);
        // The markers as JavaScript escapes: `<!--` in a script's text changes how it is parsed.
        for name in [WHOLE_LIST_PAGE, CHUNK, ROWS_END] {
            let escaped = name.replace('<', "\\x3c").replace('>', "\\x3e");
            assert!(FILL_ROWS.contains(&format!("\"{escaped}\"")), "{escaped}");
        }

        let whole = prerender_pages(&doc, &catalog, &site).1.expect("a longer list than a screen");
        let (list, _) = list_of(&whole);
        assert!(!whole.contains("<noscript") && !whole.contains("<script"));
        // Every row, in order: the first screen's, then chunks of at most ROWS_PER_CHUNK.
        assert_eq!(list.matches(r#"class="list-row"#).count(), 650);
        let body = list.split(ROWS_END).next().unwrap();
        let chunks: Vec<&str> = body.split(CHUNK).skip(1).collect();
        assert_eq!(chunks[0].matches(r#"class="list-row"#).count(), FIRST_SCREEN_ROWS);
        assert_eq!(chunks.len(), 1 + (650 - FIRST_SCREEN_ROWS).div_ceil(ROWS_PER_CHUNK));
        assert!(chunks.iter().all(|c| c.matches(r#"class="list-row"#).count() <= ROWS_PER_CHUNK));
        assert_eq!(chunks[0], list_of(&index).0.trim_end_matches("</div></div>"));
        let order: Vec<usize> =
            (0..600).map(|i| list.find(&format!(r#"data-operation-id="op{i}""#)).unwrap()).collect();
        let by_tag = |i: usize| (i % 50, i / 50);
        let mut sorted: Vec<usize> = (0..600).collect();
        sorted.sort_by_key(|&i| by_tag(i));
        assert!(sorted.windows(2).all(|w| order[w[0]] < order[w[1]]), "rows in the list's order");

        // A short list is all in index.html, with no script, and has no page of its own (each
        // operation here has a group heading).
        let (doc, catalog) = load(&large(FIRST_SCREEN_ROWS / 2));
        let short = prerender(&doc, &catalog, &site);
        assert!(!short.contains("<noscript") && !short.contains("<script"), "{short}");
        assert!(prerender_pages(&doc, &catalog, &site).1.is_none());
    }

    #[test]
    fn a_huge_document_gives_bounded_output_in_linear_time() {
        let (doc, catalog) = load(&large(2_000));
        let small = prerender_pages(&doc, &catalog, &SiteConfig::new("openapi.json")).1.unwrap();
        assert!(small.contains("2000 operations") && small.contains(r#"data-operation-id="op1999""#));
        assert!(!small.contains("more."));

        let (doc, catalog) = load(&large(20_000));
        let start = Instant::now();
        let big = prerender_pages(&doc, &catalog, &SiteConfig::new("openapi.json")).1.unwrap();
        let took = start.elapsed();
        let rows = big.matches(r#"class="list-row"#).count();
        assert_eq!(rows, MAX_ROWS);
        let cut = big.find("</aside>").map_or("", |end| &big[end.saturating_sub(200)..end]);
        assert!(cut.ends_with(" more operations.</p>"), "{cut}");
        // Bounded: the rows cut at MAX_ROWS, ten times the operations do not write ten times
        // the HTML.
        assert!(big.len() < small.len() * 4, "{} against {}", big.len(), small.len());
        // Not quadratic: 20 000 operations take well under a second even unoptimised.
        assert!(took.as_secs_f64() < 5.0, "{took:?}");
    }
}
