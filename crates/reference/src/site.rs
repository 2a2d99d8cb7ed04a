//! The configuration of a published site: what `playground build` writes into the page's
//! `<script type="application/json" id="playground-site">` and the app reads at start (site
//! mode), one type for both sides. Reading checks every value, so a site's page never puts an
//! unsafe address into a link or an image, nor anything but a colour into its style.
//!
//! It is read from a `serde_json::Value` rather than with a derived `Deserialize`: the page
//! parses JSON into values already, and a derived reader's own code costs its first download
//! several kilobytes.

use serde::Serialize;
use serde_json::{Map, Value};

/// The `id` of the element holding the configuration.
pub const CONFIG_ID: &str = "playground-site";
/// The `id` of the pre-rendered reference the build puts into `<body>` ([`crate::html::prerender`]).
pub const PRERENDERED_ID: &str = "prerendered";

/// Where a try-it panel sends its requests by default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TryIt {
    /// The in-browser mock of the document (`"mock"`).
    Mock,
    /// No try-it panel: the reference and code samples only (`"none"`).
    None,
    /// This server (`"https://…"`, or a path on the site's own origin such as `"/api"`): the
    /// panel starts on it.
    Server(String),
}

impl Serialize for TryIt {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(match self {
            Self::Mock => "mock",
            Self::None => "none",
            Self::Server(url) => url,
        })
    }
}

impl TryIt {
    /// `"mock"`, `"none"`, an http(s) address or a path on the page's origin (`/api`).
    fn read(text: &str) -> Result<Self, String> {
        match text {
            "mock" => Ok(Self::Mock),
            "none" => Ok(Self::None),
            url if is_http_url(url) || is_origin_path(url) => Ok(Self::Server(url.to_owned())),
            other => Err(format!(
                "tryIt must be \"mock\", \"none\", an http(s) server address or a path such as \"/api\", not {other:?}"
            )),
        }
    }
}

/// The links of the site's header.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Links {
    /// The product's home page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub home: Option<String>,
    /// Where to ask for help.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub support: Option<String>,
}

/// A site's configuration (the JSON keys in camelCase).
/// Absent keys read as their default and `null` as absent; a key of the wrong type, or one
/// this version does not know, is an error (a typo would otherwise go unnoticed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteConfig {
    /// The description, relative to the page (`openapi.json`) or an http(s) address.
    pub document: String,
    /// The reference's title; the description's `info.title` when absent or empty.
    pub title: Option<String>,
    /// The try-it panels' default target (`"mock"` when absent).
    pub try_it: TryIt,
    /// Whether the page shows the Mock block (the mock's data, Reset, Export, Import); false
    /// when absent.
    pub mock: bool,
    /// The header's links.
    pub links: Links,
    /// The logo beside the title, relative to the page or an http(s) address.
    pub logo: Option<String>,
    /// The accent colour (links, buttons, focus), a CSS colour.
    pub accent: Option<String>,
}

/// The keys of the configuration and of its `links`.
const KEYS: [&str; 7] = ["document", "title", "tryIt", "mock", "links", "logo", "accent"];
const LINK_KEYS: [&str; 2] = ["home", "support"];

/// The object's keys that are not `known`, as an error naming the first.
fn unknown_keys(object: &Map<String, Value>, known: &[&str], within: &str) -> Result<(), String> {
    match object.keys().find(|key| !known.contains(&key.as_str())) {
        Some(key) => Err(format!("unknown key {within}{key:?}")),
        None => Ok(()),
    }
}

/// `object[key]` as text: `None` when absent or null.
fn text(object: &Map<String, Value>, key: &str, within: &str) -> Result<Option<String>, String> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(format!("{within}{key} must be a string")),
    }
}

impl SiteConfig {
    /// A site of `document` with the defaults: the description's title, try-it on the mock, no
    /// Mock block, links, logo or accent.
    #[must_use]
    pub fn new(document: &str) -> Self {
        Self {
            document: document.to_owned(),
            title: None,
            try_it: TryIt::Mock,
            mock: false,
            links: Links::default(),
            logo: None,
            accent: None,
        }
    }

    /// Reads and checks the configuration's JSON text.
    ///
    /// # Errors
    /// A sentence naming the key at fault: not JSON of this shape, an address that is neither
    /// relative nor http(s), an accent that is not a plain CSS colour.
    pub fn parse(json: &str) -> Result<Self, String> {
        let value: Value = serde_json::from_str(json).map_err(|e| format!("it is not JSON ({e})"))?;
        let Value::Object(object) = value else { return Err("it is not a JSON object".to_owned()) };
        unknown_keys(&object, &KEYS, "")?;
        let links = match object.get("links") {
            None | Some(Value::Null) => Links::default(),
            Some(Value::Object(links)) => {
                unknown_keys(links, &LINK_KEYS, "links.")?;
                Links { home: text(links, "home", "links.")?, support: text(links, "support", "links.")? }
            }
            Some(_) => return Err("links must be an object".to_owned()),
        };
        let config = Self {
            document: text(&object, "document", "")?.ok_or("document is missing")?,
            title: text(&object, "title", "")?,
            try_it: text(&object, "tryIt", "")?.map_or(Ok(TryIt::Mock), |t| TryIt::read(&t))?,
            mock: match object.get("mock") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(mock)) => *mock,
                Some(_) => return Err("mock must be true or false".to_owned()),
            },
            links,
            logo: text(&object, "logo", "")?,
            accent: text(&object, "accent", "")?,
        };
        config.check()?;
        Ok(config)
    }

    /// Checks the values serde cannot: addresses and the accent colour.
    ///
    /// # Errors
    /// As [`SiteConfig::parse`].
    pub fn check(&self) -> Result<(), String> {
        if self.document.trim().is_empty() || !is_page_address(&self.document) {
            return Err(format!(
                "document must be an address relative to the page or an http(s) one, not {:?}",
                self.document
            ));
        }
        if let Some(logo) = self.logo.as_deref().filter(|logo| !is_page_address(logo)) {
            return Err(format!(
                "logo must be an address relative to the page or an http(s) one, not {logo:?}"
            ));
        }
        for (key, link) in [("links.home", &self.links.home), ("links.support", &self.links.support)] {
            if let Some(link) = link.as_deref().filter(|link| !is_http_url(link)) {
                return Err(format!("{key} must be an http(s) address, not {link:?}"));
            }
        }
        if let Some(accent) = self.accent.as_deref().filter(|accent| !is_colour(accent)) {
            return Err(format!(
                "accent must be a CSS colour such as \"#0b7285\" or \"rgb(11 114 133)\", not {accent:?}"
            ));
        }
        Ok(())
    }

    /// The value of the page's `--accent` CSS variable (`www/theme.css`) for the site's accent:
    /// the colour as given in the light theme, lightened in the dark one as the default accent
    /// is, so links stay readable on the dark background. `None` without an accent, or for one
    /// that is not a plain colour (only those reach a style).
    #[must_use]
    pub fn accent_value(&self) -> Option<String> {
        let accent = self.accent.as_deref().map(str::trim).filter(|accent| is_colour(accent))?;
        Some(format!("light-dark({accent}, color-mix(in srgb, {accent} 60%, white))"))
    }

    /// The title to show: the configured one, else `document_title` (`info.title`).
    #[must_use]
    pub fn title_or<'a>(&'a self, document_title: &'a str) -> &'a str {
        self.title.as_deref().map(str::trim).filter(|t| !t.is_empty()).unwrap_or(document_title)
    }
}

/// `http://…` or `https://…` with something after the scheme.
fn is_http_url(text: &str) -> bool {
    let lower = text.trim().to_ascii_lowercase();
    ["http://", "https://"]
        .iter()
        .any(|scheme| lower.strip_prefix(scheme).is_some_and(|rest| !rest.is_empty()))
        && !text.chars().any(|c| c.is_control() || c.is_whitespace())
}

/// A path on the page's own origin (`/api`): one `/` first, then no whitespace or control
/// characters (`//host` would name another origin).
fn is_origin_path(text: &str) -> bool {
    text.starts_with('/')
        && !text.starts_with("//")
        && !text.chars().any(|c| c.is_control() || c.is_whitespace() || c == '\\')
}

/// An http(s) address, or one relative to the page (no scheme): never `javascript:` or `data:`.
fn is_page_address(text: &str) -> bool {
    if text.chars().any(char::is_control) {
        return false;
    }
    is_http_url(text)
        || (crate::markdown::safe_url(text) && !text.trim().to_ascii_lowercase().starts_with("mailto:"))
}

/// A colour CSS can read and nothing else: a `#` hex colour, a name, or a colour function of
/// numbers (`rgb(…)`, `hsl(…)`, `oklch(…)`). No `;`, braces, quotes, `url(` or `var(` can get
/// through into the style.
pub(crate) fn is_colour(text: &str) -> bool {
    let text = text.trim();
    if let Some(hex) = text.strip_prefix('#') {
        return matches!(hex.len(), 3 | 4 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    if text.is_empty() || text.len() > 64 {
        return false;
    }
    if let Some((name, rest)) = text.split_once('(') {
        let args = rest.strip_suffix(')').unwrap_or("\u{0}");
        return matches!(name, "rgb" | "rgba" | "hsl" | "hsla" | "hwb" | "lab" | "lch" | "oklab" | "oklch")
            && args.bytes().all(|b| b.is_ascii_alphanumeric() || b" .,%/+-".contains(&b));
    }
    text.bytes().all(|b| b.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builds_example_reads() {
        let json = r##"{"document":"openapi.json","title":"Acme","tryIt":"mock","mock":true,"links":{"home":"https://acme.example","support":"https://acme.example/help"},"logo":"logo.png","accent":"#0b7285"}"##;
        let config = SiteConfig::parse(json).expect("valid");
        assert_eq!(config.document, "openapi.json");
        assert_eq!(config.title_or("Other"), "Acme");
        assert_eq!(config.try_it, TryIt::Mock);
        assert!(config.mock);
        assert_eq!(config.links.support.as_deref(), Some("https://acme.example/help"));
        assert_eq!(config.logo.as_deref(), Some("logo.png"));
        // What the build writes reads back the same.
        let again = serde_json::to_string(&config).expect("serializes");
        assert_eq!(SiteConfig::parse(&again), Ok(config));
    }

    #[test]
    fn defaults_and_nulls() {
        let config =
            SiteConfig::parse(r#"{"document":"openapi.json","logo":null,"accent":null}"#).expect("valid");
        assert_eq!(config, SiteConfig::new("openapi.json"));
        assert_eq!(config.title_or("Info title"), "Info title");
        let blank = SiteConfig { title: Some("  ".to_owned()), ..config };
        assert_eq!(blank.title_or("Info title"), "Info title");
    }

    #[test]
    fn try_it_targets() {
        let read =
            |v: &str| SiteConfig::parse(&format!(r#"{{"document":"a.json","tryIt":{v}}}"#)).map(|c| c.try_it);
        assert_eq!(read(r#""none""#), Ok(TryIt::None));
        assert_eq!(
            read(r#""https://api.acme.example/v1""#),
            Ok(TryIt::Server("https://api.acme.example/v1".to_owned()))
        );
        assert_eq!(read(r#""/mock""#), Ok(TryIt::Server("/mock".to_owned())));
        assert!(read(r#""ftp://x""#).is_err());
        assert!(read(r#""javascript:alert(1)""#).is_err());
        assert!(read(r#""//evil.example/api""#).is_err(), "another origin, written as a path");
        assert!(read(r#""api""#).is_err());
        assert_eq!(read("true"), Err("tryIt must be a string".to_owned()));
    }

    #[test]
    fn bad_values_are_named() {
        let err = |json: &str| SiteConfig::parse(json).expect_err("refused");
        assert!(err("not json").starts_with("it is not JSON"));
        assert_eq!(err("[]"), "it is not a JSON object");
        assert_eq!(err("{}"), "document is missing");
        assert_eq!(err(r#"{"document":1}"#), "document must be a string");
        assert_eq!(err(r#"{"document":"a.json","mock":"yes"}"#), "mock must be true or false");
        assert_eq!(err(r#"{"document":"a.json","colour":"red"}"#), "unknown key \"colour\"");
        assert!(err(r#"{"document":"javascript:alert(1)"}"#).starts_with("document"));
        assert!(err(r#"{"document":"a.json","logo":"data:image/png;base64,AA"}"#).starts_with("logo"));
        assert!(err(r#"{"document":"a.json","links":{"home":"/relative"}}"#).starts_with("links.home"));
        assert_eq!(
            err(r#"{"document":"a.json","links":{"blog":"https://x"}}"#),
            "unknown key links.\"blog\""
        );
        assert_eq!(err(r#"{"document":"a.json","links":[]}"#), "links must be an object");
        for accent in ["red;background:url(x)", "var(--x)", "url(x)", "#12", "\"red\"", "rgb(1,2,3", ""] {
            assert!(
                err(&format!(r#"{{"document":"a.json","accent":{accent:?}}}"#)).starts_with("accent"),
                "{accent}"
            );
        }
        for accent in ["#0b7285", "#abc", "teal", "rgb(11 114 133)", "oklch(0.5 0.1 200 / 80%)"] {
            assert!(
                SiteConfig::parse(&format!(r#"{{"document":"a.json","accent":{accent:?}}}"#)).is_ok(),
                "{accent}"
            );
        }
    }
}
