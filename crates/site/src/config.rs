//! `playground.toml`: what a site built by `playground build` shows besides its description
//! (title, logo, accent colour, favicon, links, where try-it sends requests, the Mock block).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::description::ReadFile;

/// The largest `playground.toml` read (64 KiB).
pub const MAX_CONFIG_BYTES: u64 = 64 * 1024;

/// The largest logo or favicon copied into a site (2 MiB).
pub const MAX_IMAGE_BYTES: u64 = 2 * 1024 * 1024;

/// The longest title, link or server address taken, in characters.
const MAX_TEXT_CHARS: usize = 2048;

/// The image files a logo or favicon may be, by extension.
const IMAGE_EXTENSIONS: [&str; 8] = ["png", "svg", "jpg", "jpeg", "gif", "webp", "ico", "avif"];

/// Why `playground.toml` cannot be used; the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct ConfigError {
    /// The configuration file.
    pub path: PathBuf,
    /// What is wrong with it, naming the key.
    pub problem: String,
}

/// Where the try-it panels send requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TryIt {
    /// To the in-browser mock of the description.
    Mock,
    /// Nowhere: the panels are not shown.
    None,
    /// To this server (an absolute http or https address, or a path on the site's own origin).
    Server(String),
}

impl TryIt {
    /// The value of the site's `tryIt` key: "mock", "none" or the server's address.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            TryIt::Mock => "mock",
            TryIt::None => "none",
            TryIt::Server(url) => url,
        }
    }
}

/// A site's settings, checked; paths are resolved against the configuration file's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The page's title instead of the description's `info.title`.
    pub title: Option<String>,
    /// An image shown as the logo, copied into the site.
    pub logo: Option<PathBuf>,
    /// The accent colour (`#rgb`, `#rrggbb` or a CSS colour name).
    pub accent: Option<String>,
    /// The page's icon, copied into the site.
    pub favicon: Option<PathBuf>,
    /// The API's home page.
    pub home: Option<String>,
    /// Where readers get help.
    pub support: Option<String>,
    /// Where the try-it panels send requests.
    pub try_it: TryIt,
    /// Whether the page shows the Mock block.
    pub mock: bool,
    /// Earlier versions of the API, newest first (`[[versions]]`), published beside this one.
    pub versions: Vec<VersionEntry>,
}

/// An earlier version named in `[[versions]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionEntry {
    /// Its description, relative to the configuration's folder.
    pub spec: PathBuf,
    /// Its name as shown, instead of the description's `info.version`.
    pub name: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            title: None,
            logo: None,
            accent: None,
            favicon: None,
            home: None,
            support: None,
            try_it: TryIt::Mock,
            mock: true,
            versions: Vec::new(),
        }
    }
}

/// The file as written; every key is optional and no other is taken.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    title: Option<String>,
    logo: Option<PathBuf>,
    accent: Option<String>,
    favicon: Option<PathBuf>,
    links: Option<RawLinks>,
    try_it: Option<String>,
    mock: Option<bool>,
    versions: Option<Vec<RawVersion>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVersion {
    spec: PathBuf,
    name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLinks {
    home: Option<String>,
    support: Option<String>,
}

/// Reads and checks the configuration at `path`, and the images it names, with `read`.
///
/// # Errors
/// A [`ConfigError`] naming the file, and the key at fault: the file cannot be read or is too
/// large, is not TOML, has a key this tool does not know, or a value that is not valid (a link
/// that is not an http(s) address, a colour that is not one, an image that is missing, too
/// large or not an image).
pub fn read(path: &Path, read: &mut ReadFile<'_>) -> Result<Config, ConfigError> {
    let fail = |problem: String| ConfigError { path: path.to_owned(), problem };
    let bytes = read(path, MAX_CONFIG_BYTES).map_err(|e| fail(format!("it {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| fail("it is not UTF-8 text".to_owned()))?;
    let base = path.parent().unwrap_or(Path::new("."));
    parse(&text, base, read).map_err(fail)
}

/// Checks the text of a configuration; `base` is the folder its paths are relative to.
fn parse(text: &str, base: &Path, read: &mut ReadFile<'_>) -> Result<Config, String> {
    let raw: RawConfig = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_owned())?;
    let links = raw.links.unwrap_or_default();
    let try_it = match raw.try_it.as_deref().map(str::trim) {
        None | Some("mock") => TryIt::Mock,
        Some("none") => TryIt::None,
        Some(other) => TryIt::Server(origin_path(other).or_else(|| web_address(other).ok()).ok_or_else(|| {
            let why = web_address(other).err().unwrap_or_default();
            format!("`try_it` must be \"mock\", \"none\", a server's address or a path such as \"/api\": {why}")
        })?),
    };
    Ok(Config {
        title: raw.title.map(|t| checked_title(&t)).transpose()?,
        logo: raw.logo.map(|p| image(base, &p, "logo", read)).transpose()?,
        accent: raw.accent.map(|c| colour(&c)).transpose()?,
        favicon: raw.favicon.map(|p| image(base, &p, "favicon", read)).transpose()?,
        home: links
            .home
            .map(|l| web_address(&l).map_err(|why| format!("`links.home`: {why}")))
            .transpose()?,
        support: links
            .support
            .map(|l| web_address(&l).map_err(|why| format!("`links.support`: {why}")))
            .transpose()?,
        try_it,
        mock: raw.mock.unwrap_or(true),
        versions: (raw.versions.unwrap_or_default().into_iter().enumerate())
            .map(|(i, v)| {
                let name = v.name.map(|n| n.trim().to_owned());
                if name.as_ref().is_some_and(|n| n.is_empty() || n.chars().count() > 64) {
                    return Err(format!("`versions[{i}].name` must be 1 to 64 characters"));
                }
                Ok(VersionEntry { spec: base.join(v.spec), name })
            })
            .collect::<Result<_, _>>()?,
    })
}

fn checked_title(title: &str) -> Result<String, String> {
    let title = title.trim();
    if title.is_empty() {
        return Err("`title` is empty".to_owned());
    }
    if title.chars().count() > MAX_TEXT_CHARS {
        return Err(format!("`title` is longer than {MAX_TEXT_CHARS} characters"));
    }
    Ok(title.to_owned())
}

/// An absolute http or https address with a host, with nothing that needs escaping in HTML.
///
/// # Errors
/// Why it is not one, in a sentence that quotes it.
pub fn web_address(text: &str) -> Result<String, String> {
    let text = text.trim();
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
        .ok_or_else(|| format!("\u{201c}{text}\u{201d} is not an http or https address"))?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty() {
        return Err(format!("\u{201c}{text}\u{201d} has no host"));
    }
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(format!("the address is longer than {MAX_TEXT_CHARS} characters"));
    }
    if let Some(bad) = text.chars().find(|c| c.is_whitespace() || c.is_control() || "\"'<>\\`".contains(*c)) {
        return Err(format!("\u{201c}{text}\u{201d} contains {bad:?}, which an address does not"));
    }
    Ok(text.to_owned())
}

/// A path on the site's own origin (`/api`), where the API is served beside the site.
fn origin_path(text: &str) -> Option<String> {
    let text = text.trim();
    let plain = text.starts_with('/')
        && !text.starts_with("//")
        && text.chars().count() <= MAX_TEXT_CHARS
        && !text.chars().any(|c| c.is_whitespace() || c.is_control() || "\"'<>\\`".contains(c));
    plain.then(|| text.to_owned())
}

/// A CSS colour: `#rgb`, `#rrggbb`, or a name made of letters (`teal`, `rebeccapurple`).
fn colour(text: &str) -> Result<String, String> {
    let text = text.trim();
    let valid = match text.strip_prefix('#') {
        Some(hex) => matches!(hex.len(), 3 | 6) && hex.chars().all(|c| c.is_ascii_hexdigit()),
        None => (1..=32).contains(&text.len()) && text.chars().all(|c| c.is_ascii_alphabetic()),
    };
    if valid {
        Ok(text.to_ascii_lowercase())
    } else {
        Err(format!(
            "`accent` is \u{201c}{text}\u{201d}, not a colour such as \"#0a7\", \"#00aa77\" or \"teal\""
        ))
    }
}

/// An image file the site copies: it exists, is at most [`MAX_IMAGE_BYTES`], and its
/// extension is an image's.
fn image(base: &Path, path: &Path, key: &str, read: &mut ReadFile<'_>) -> Result<PathBuf, String> {
    let full = base.join(path);
    if image_extension(&full).is_none() {
        return Err(format!("`{key}` is {}, not an image ({})", path.display(), IMAGE_EXTENSIONS.join(", ")));
    }
    read(&full, MAX_IMAGE_BYTES).map_err(|e| format!("`{key}`: {} {e}", full.display()))?;
    Ok(full)
}

/// The lower-case extension of an image file, when it is one this tool copies.
#[must_use]
pub fn image_extension(path: &Path) -> Option<String> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    IMAGE_EXTENSIONS.contains(&extension.as_str()).then_some(extension)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, base: &Path) -> Result<Config, String> {
        super::parse(text, base, &mut |path: &Path, _| std::fs::read(path).map_err(|e| e.to_string()))
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        assert_eq!(parse("", Path::new(".")), Ok(Config::default()));
    }

    #[test]
    fn values_are_checked() {
        let config = parse(
            "title = ' Shop '\naccent = '#0A7'\ntry_it = 'https://api.example.com/v1'\nmock = false\n[links]\nhome = 'https://example.com'\n",
            Path::new("."),
        );
        assert_eq!(
            config,
            Ok(Config {
                title: Some("Shop".to_owned()),
                accent: Some("#0a7".to_owned()),
                try_it: TryIt::Server("https://api.example.com/v1".to_owned()),
                mock: false,
                home: Some("https://example.com".to_owned()),
                ..Config::default()
            })
        );
    }

    #[test]
    fn try_it_may_send_to_a_path_of_the_site() {
        let config = parse("try_it = '/api/v1'", Path::new(".")).expect("a path of the site's origin");
        assert_eq!(config.try_it, TryIt::Server("/api/v1".to_owned()));
    }

    #[test]
    fn bad_values_name_their_key() {
        for (text, key) in [
            ("titel = 'x'", "titel"),
            ("accent = 'red;x'", "accent"),
            ("accent = '#12'", "accent"),
            ("try_it = 'ftp://x'", "try_it"),
            ("try_it = '//other.example/api'", "try_it"),
            ("[links]\nhome = 'javascript:alert(1)'", "links.home"),
            ("[links]\nsupport = 'https://x.example/\"'", "links.support"),
            ("[links]\nblog = 'https://x.example'", "blog"),
            ("logo = 'logo.txt'", "logo"),
            ("favicon = 'missing.png'", "favicon"),
        ] {
            let error = parse(text, Path::new(".")).expect_err(text);
            assert!(error.contains(key), "{text}: {error}");
        }
    }
}
