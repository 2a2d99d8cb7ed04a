//! A versioned site: the newest version at the site's top and each earlier one under
//! `v/NAME/`, every page with a version switcher (static HTML before the app, so it needs no
//! script and costs the app nothing), a Changes page per version (`changes/`, made by
//! `playground_diff`: breaking first, each change linked to its operation), a mark on the
//! operations that changed (styles keyed on the rows' and details' `data-operation-id`), and on
//! an earlier version a banner pointing at the newest.

use std::fmt::Write;

use playground_diff::render::{self, Side};
use playground_diff::{Change, Level, OperationKey, Report};
use playground_openapi::catalog::{self, METHODS};
use playground_openapi::outline;
use playground_reference::html::escape;

/// The most earlier versions a site publishes.
pub const MAX_VERSIONS: usize = 20;

/// The longest version name kept, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// The folder of the earlier versions.
pub const FOLDER: &str = "v";

/// The folder of a version's Changes page.
pub const CHANGES: &str = "changes";

/// One version of a versioned site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Its name as shown (`2.0`).
    pub name: String,
    /// Its folder's name under `v/` (the name with anything but letters, digits, `.`, `_`
    /// and `-` made `-`).
    pub slug: String,
}

impl Version {
    /// A version named `name`.
    #[must_use]
    pub fn new(name: &str) -> Version {
        // `info.version` is the description's to write: kept to a length a switcher shows.
        let name: String = name.trim().chars().take(MAX_NAME_CHARS).collect();
        let name = name.trim_end();
        let slug: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '-' })
            .collect();
        let slug = if slug.trim_matches(['.', '-']).is_empty() { "version".to_owned() } else { slug };
        Version { name: name.to_owned(), slug }
    }
}

/// Where version `at` of `versions` (0 is the newest, at the top) is, as a path from the
/// site's top with a trailing `/` (empty for the top).
#[must_use]
pub fn folder(versions: &[Version], at: usize) -> String {
    if at == 0 { String::new() } else { format!("{FOLDER}/{}/", versions[at].slug) }
}

/// The way back from a folder to the site's top (`../../` from `v/1.0/`).
fn up(folder: &str) -> String {
    "../".repeat(folder.matches('/').count())
}

/// The HTML placed first in version `at`'s page, before the app: the switcher, the link to
/// its Changes page when it has one, the banner of an earlier version, and the marks' styles.
#[must_use]
pub fn header(versions: &[Version], at: usize, changes: Option<&Report>) -> String {
    let mut out = String::from(STYLE);
    out.push_str(&nav(versions, at, &folder(versions, at), changes.is_some()));
    if let Some(report) = changes {
        out.push_str(&marks(report, &versions[at].name));
    }
    out
}

/// The switcher as seen from the folder `from` (a path from the site's top, ending in `/`),
/// with a link to version `at`'s Changes page, and the banner of an earlier version.
fn nav(versions: &[Version], at: usize, from: &str, changes_link: bool) -> String {
    let top = up(from);
    let to = |i: usize| {
        let href = format!("{top}{}", folder(versions, i));
        if href.is_empty() { "./".to_owned() } else { href }
    };
    let mut out = String::from(r#"<nav class="site-versions" aria-label="Versions"><details><summary>"#);
    let _ = write!(out, "Version {}</summary><ul>", escape(&versions[at].name));
    for (i, version) in versions.iter().enumerate() {
        let current = if i == at { r#" aria-current="page""# } else { "" };
        let newest = if i == 0 { " (newest)" } else { "" };
        let _ = write!(
            out,
            r#"<li><a href="{}"{current}>{}{newest}</a></li>"#,
            escape(&to(i)),
            escape(&version.name)
        );
    }
    out.push_str("</ul></details>");
    if changes_link {
        let _ = write!(
            out,
            r#"<a class="changes-link" href="{CHANGES}/">Changes in {}</a>"#,
            escape(&versions[at].name)
        );
    }
    out.push_str("</nav>");
    if at > 0 {
        let _ = write!(
            out,
            r#"<p class="version-banner" role="note">You are reading version {}. <a href="{}">Version {} is the newest.</a></p>"#,
            escape(&versions[at].name),
            escape(&to(0)),
            escape(&versions[0].name)
        );
    }
    out
}

/// The page at the newest version's own folder (`v/2.0/`): it sends the reader to the site's
/// top, keeping the operation the address names (`#getPet`).
#[must_use]
pub fn redirect_page(newest: &Version) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Version {name}</title>\
         <link rel=\"canonical\" href=\"../../\"><meta http-equiv=\"refresh\" content=\"0; url=../../\">\
         <script>location.replace(\"../../\" + location.hash)</script></head>\
         <body><p>Version {name} is the newest: <a href=\"../../\">read it here</a>.</p></body></html>\n",
        name = escape(&newest.name)
    )
}

/// The section a version's `llms.txt` ends with: its Changes page and the other versions'
/// `llms.txt`, relative to its folder.
#[must_use]
pub fn llms_section(versions: &[Version], at: usize, changes: Option<&Report>) -> String {
    let top = up(&folder(versions, at));
    let mut out = String::from("\n## Versions\n\n");
    if let Some(report) = changes {
        let _ = writeln!(
            out,
            "- [Changes in {}]({CHANGES}/index.md): what changed since the version before ({})",
            link_text(&versions[at].name),
            render::summary(report)
        );
    }
    for (i, version) in versions.iter().enumerate().filter(|(i, _)| *i != at) {
        let what = if i == 0 { "the newest version" } else { "an earlier version" };
        let _ =
            writeln!(out, "- [{}]({top}{}llms.txt): {what}", link_text(&version.name), folder(versions, i));
    }
    out
}

/// A version's name as a Markdown link's text: brackets and backslashes escaped.
fn link_text(name: &str) -> String {
    name.chars().fold(String::new(), |mut out, c| {
        if matches!(c, '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
        out
    })
}

/// The switcher's and banner's styles, in the site's colours (`theme.css`'s variables).
const STYLE: &str = "<style>\
.site-versions{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem;padding:.3rem 1rem;border-bottom:1px solid var(--border,#ccc);font-size:.875rem;background:var(--bg);color:var(--fg);position:relative;z-index:5}\
.site-versions details{position:relative}\
.site-versions summary{cursor:pointer;padding:.15rem .4rem;border:1px solid var(--border,#ccc);border-radius:6px}\
.site-versions ul{position:absolute;left:0;top:calc(100% + .25rem);margin:0;padding:.3rem 0;list-style:none;min-width:12rem;max-height:60vh;overflow:auto;background:var(--bg);border:1px solid var(--border,#ccc);border-radius:6px;box-shadow:0 6px 20px rgb(0 0 0/.2)}\
.site-versions li a{display:block;padding:.3rem .8rem;color:inherit;text-decoration:none}\
.site-versions li a:hover,.site-versions li a:focus-visible{background:color-mix(in srgb,var(--accent,#07a) 15%,transparent)}\
.site-versions a[aria-current]{font-weight:600}\
.site-versions .changes-link{color:var(--accent,#07a)}\
.version-banner{margin:0;padding:.5rem 1rem;background:color-mix(in srgb,#e8a400 22%,var(--bg));color:var(--fg);border-bottom:1px solid var(--border,#ccc);font-size:.9rem}\
.version-banner a{color:inherit;font-weight:600}\
</style>";

/// A string for CSS, quoted: `"` and `\` escaped, and characters outside printable ASCII as
/// escapes, so no text can end the rule or the `<style>` element.
fn css_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' if c != '<' && c != '>' => out.push(c),
            _ => {
                let _ = write!(out, "\\{:x} ", u32::from(c));
            }
        }
    }
    out.push('"');
    out
}

/// The anchor of the operation a change names, as the list and the detail carry it.
fn anchor(key: &OperationKey) -> String {
    let method = METHODS.iter().copied().find(|m| m.as_str() == key.method).unwrap_or(METHODS[0]);
    if key.webhook {
        catalog::webhook_anchor(key.operation_id.as_deref(), method, &key.path)
    } else {
        catalog::anchor(key.operation_id.as_deref(), method, &key.path)
    }
}

/// The styles that mark the operations a report names: "New in NAME" on those added,
/// "Changed in NAME" (with breaking changes, "Breaking change in NAME") on the others.
fn marks(report: &Report, name: &str) -> String {
    let mut added = std::collections::BTreeSet::new();
    let mut changed = std::collections::BTreeMap::<String, Level>::new();
    for change in &report.changes {
        for key in &change.operations {
            let anchor = anchor(key);
            if matches!(change.id, "operation-added" | "webhook-added") {
                added.insert(anchor);
            } else if !matches!(change.id, "operation-removed" | "webhook-removed") {
                let level = changed.entry(anchor).or_insert(change.level);
                *level = (*level).max(change.level);
            }
        }
    }
    let selectors = |anchors: &mut dyn Iterator<Item = &String>| -> String {
        let mut list = Vec::new();
        for anchor in anchors {
            let quoted = css_string(anchor);
            list.push(format!(".list-row.operation[data-operation-id={quoted}] .summary::after"));
            list.push(format!(".operation-detail[data-operation-id={quoted}] .detail-header::after"));
        }
        list.join(",")
    };
    let mut out = String::from("<style>");
    let badge = "display:inline-block;margin-left:.5rem;padding:0 .4rem;border-radius:999px;font-size:.72rem;font-weight:600;line-height:1.5;vertical-align:middle;white-space:nowrap;";
    let mut rule = |anchors: Vec<&String>, text: String, colour: &str| {
        if anchors.is_empty() {
            return;
        }
        let _ = write!(
            out,
            "{}{{content:{};{badge}background:color-mix(in srgb,{colour} 18%,transparent);color:var(--fg)}}",
            selectors(&mut anchors.into_iter()),
            css_string(&text)
        );
    };
    rule(added.iter().collect(), format!("New in {name}"), "#2a9d3a");
    let breaking: Vec<&String> = changed
        .iter()
        .filter(|(a, l)| **l == Level::Breaking && !added.contains(*a))
        .map(|(a, _)| a)
        .collect();
    let other: Vec<&String> = changed
        .iter()
        .filter(|(a, l)| **l != Level::Breaking && !added.contains(*a))
        .map(|(a, _)| a)
        .collect();
    rule(breaking, format!("Breaking change in {name}"), "#d0362b");
    rule(other, format!("Changed in {name}"), "var(--accent,#07a)");
    out.push_str("</style>");
    out
}

/// Version `at`'s Changes page (`changes/index.html`): what changed from the version before,
/// breaking changes first, each under the operation or schema it touches, linked to it.
#[must_use]
pub fn changes_page(versions: &[Version], at: usize, report: &Report, old: &Side, title: &str) -> String {
    let here = format!("{}{CHANGES}/", folder(versions, at));
    let top = up(&here);
    // The version's reference is the folder above.
    let reference = "../".to_owned();
    let name = &versions[at].name;
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"color-scheme\" content=\"light dark\"><title>Changes in {} · {}</title><link rel=\"stylesheet\" href=\"{top}theme.css\"><link rel=\"icon\" href=\"data:,\"><link rel=\"alternate\" type=\"text/markdown\" href=\"index.md\">{PAGE_STYLE}</head><body>",
        escape(name),
        escape(title),
    );
    out.push_str(STYLE);
    out.push_str(&nav(versions, at, &here, false));
    let _ = write!(
        out,
        "<main class=\"changes\"><p class=\"back\"><a href=\"{}\">← {} reference</a></p><h1>Changes in {}</h1><p class=\"since\">Since version {}: {}.</p>",
        escape(&reference),
        escape(title),
        escape(name),
        escape(if old.version.is_empty() { &old.file } else { &old.version }),
        escape(&render::summary(report)),
    );
    if report.changes.is_empty() {
        out.push_str("<p>Nothing changed.</p>");
    }
    for level in [Level::Breaking, Level::Deprecation, Level::NonBreaking] {
        let changes: Vec<&Change> = report.changes.iter().filter(|c| c.level == level).collect();
        if changes.is_empty() {
            continue;
        }
        let (id, heading) = match level {
            Level::Breaking => ("breaking", "Breaking changes"),
            Level::Deprecation => ("deprecations", "Deprecations"),
            Level::NonBreaking => ("non-breaking", "Non-breaking changes"),
        };
        let _ = write!(
            out,
            "<section id=\"{id}\" class=\"level-{id}\"><h2>{heading} <span class=\"count\">{}</span></h2>",
            changes.len()
        );
        let mut subject = String::new();
        for change in changes {
            let this = subject_html(change, &reference);
            if this != subject {
                if !subject.is_empty() {
                    out.push_str("</ul>");
                }
                let _ = write!(out, "<h3>{this}</h3><ul>");
                subject = this;
            }
            let place = if change.place.is_empty() {
                String::new()
            } else {
                format!("<span class=\"place\">{}:</span> ", escape(&change.place))
            };
            let _ = write!(
                out,
                "<li>{place}{} <code class=\"id\">{}</code></li>",
                escape(&change.message),
                change.id
            );
        }
        out.push_str("</ul></section>");
    }
    out.push_str("</main></body></html>\n");
    out
}

/// Who a change is about, linked into the reference: the operation, the shared schema (with
/// the operations it reaches), or the API as a whole.
fn subject_html(change: &Change, reference: &str) -> String {
    let link = |anchor: &str, text: &str| {
        format!("<a href=\"{}{}\">{}</a>", escape(reference), escape(&outline::href(anchor)), text)
    };
    let operation = |key: &OperationKey| {
        let text = format!(
            "<span class=\"method\">{}</span> <code>{}</code>",
            escape(&key.method),
            escape(&key.path)
        );
        let text = if key.webhook { format!("webhook {text}") } else { text };
        if matches!(change.id, "operation-removed" | "webhook-removed") {
            text
        } else {
            link(&anchor(key), &text)
        }
    };
    if let Some(schema) = &change.schema {
        let direction = match change.direction {
            Some(playground_diff::Direction::Request) => " in requests",
            Some(playground_diff::Direction::Response) => " in responses",
            None => "",
        };
        let shown: Vec<String> = change.operations.iter().take(5).map(operation).collect();
        let more = change.operations.len().saturating_sub(5);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        return format!(
            "Schema {}{direction} <small>(reaches {}{more})</small>",
            link(&outline::schema_anchor(schema), &format!("<code>{}</code>", escape(schema))),
            shown.join(", ")
        );
    }
    match change.operations.as_slice() {
        [] => "The API".to_owned(),
        keys => keys.iter().map(operation).collect::<Vec<_>>().join(", "),
    }
}

/// The Changes page's own styles (besides `theme.css`).
const PAGE_STYLE: &str = "<style>\
body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif}\
.changes{max-width:60rem;margin:0 auto;padding:1rem 1.25rem 3rem}\
.changes h1{margin:.5rem 0 .25rem;font-size:1.6rem}\
.changes .since{margin:0 0 1.5rem;color:var(--muted,#666)}\
.changes .back a{color:var(--accent,#07a);text-decoration:none}\
.changes h2{font-size:1.15rem;margin:2rem 0 .5rem;padding-bottom:.3rem;border-bottom:2px solid var(--border,#ccc)}\
.changes .level-breaking h2{border-color:#d0362b}\
.changes .level-deprecations h2{border-color:#e8a400}\
.changes .count{font-weight:400;color:var(--muted,#666)}\
.changes h3{font-size:1rem;font-weight:600;margin:1.1rem 0 .3rem;overflow-wrap:anywhere}\
.changes h3 a{color:inherit}\
.changes h3 small{font-weight:400;color:var(--muted,#666)}\
.changes ul{margin:0;padding-left:1.2rem}\
.changes li{margin:.2rem 0;overflow-wrap:anywhere}\
.changes .place{color:var(--muted,#666)}\
.changes code.id{font-size:.78rem;padding:0 .3rem;border-radius:4px;background:color-mix(in srgb,var(--fg) 8%,transparent)}\
.changes .method{font-weight:700;font-size:.8rem}\
</style>";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_name_makes_a_folder_name() {
        assert_eq!(Version::new("2.0").slug, "2.0");
        assert_eq!(Version::new(" v1 beta/2 ").slug, "v1-beta-2");
        assert_eq!(Version::new("..").slug, "version");
        assert_eq!(Version::new("<script>").slug, "-script-");
        assert_eq!(Version::new(&"9".repeat(500)).name.len(), MAX_NAME_CHARS);
        assert_eq!(link_text("1.0] (x) [y"), "1.0\\] (x) \\[y");
    }

    #[test]
    fn css_strings_cannot_end_the_rule_or_the_element() {
        assert_eq!(css_string(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(css_string("</style>"), "\"\\3c /style\\3e \"");
        assert_eq!(css_string("é"), "\"\\e9 \"");
    }

    #[test]
    fn the_switcher_links_each_version_from_where_it_stands() {
        let versions = [Version::new("2.0"), Version::new("1.1"), Version::new("1.0")];
        let top = header(&versions, 0, None);
        assert!(top.contains(r#"<a href="./" aria-current="page">2.0 (newest)</a>"#), "{top}");
        assert!(top.contains(r#"<a href="v/1.1/">1.1</a>"#), "{top}");
        assert!(!top.contains(r#"class="version-banner""#), "the newest has no banner");
        let older = header(&versions, 2, None);
        assert!(older.contains(r#"<a href="../../">2.0 (newest)</a>"#), "{older}");
        assert!(older.contains(r#"<a href="../../v/1.1/">1.1</a>"#), "{older}");
        assert!(older.contains("You are reading version 1.0."), "{older}");
    }
}
