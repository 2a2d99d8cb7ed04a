//! Host-name checks for custom domains: what the owner typed becomes a lower-case ASCII name
//! (internationalised labels in punycode), or a refusal that names the offending part.

use std::net::{Ipv4Addr, Ipv6Addr};

/// Converts an internationalised host name to its ASCII (punycode) form, UTS #46 style.
///
/// Injected so the wasm app can pass the browser's own URL parser (`new URL(..).hostname`)
/// instead of carrying the Unicode tables; host tests pass the `idna` crate. The error is a
/// short reason shown after "is not a valid internationalised name".
pub type ToAscii<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// Longest host name in characters (without the trailing dot).
pub const MAX_NAME_LEN: usize = 253;
/// Longest label in characters.
pub const MAX_LABEL_LEN: usize = 63;

/// Why a host name was refused. Every variant names the part at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing was typed.
    #[error("Enter a domain name, such as docs.example.com.")]
    Empty,
    /// Spaces or other blanks inside the name.
    #[error("\u{201c}{input}\u{201d} contains a space; a domain name has none.")]
    Whitespace {
        /// The name as typed.
        input: String,
    },
    /// `https://docs.example.com`.
    #[error(
        "Enter the domain name without \u{201c}{scheme}://\u{201d}: just the host, such as docs.example.com."
    )]
    Scheme {
        /// The scheme that was typed, such as `https`.
        scheme: String,
    },
    /// `user@docs.example.com`.
    #[error("\u{201c}{part}@\u{201d} is not part of a domain name; enter only the host.")]
    UserInfo {
        /// What came before the `@`.
        part: String,
    },
    /// `docs.example.com/path`, `?query` or `#fragment`.
    #[error("\u{201c}{part}\u{201d} is a path, query or fragment; enter only the domain name.")]
    Path {
        /// The part from the first `/`, `?` or `#`.
        part: String,
    },
    /// `docs.example.com:8080`.
    #[error(
        "\u{201c}:{port}\u{201d} is a port; custom domains are always served on 443, so enter the name without it."
    )]
    Port {
        /// The port that was typed.
        port: String,
    },
    /// `192.0.2.1`, `[2001:db8::1]`.
    #[error(
        "\u{201c}{address}\u{201d} is an IP address; a custom domain must be a name, such as docs.example.com."
    )]
    IpAddress {
        /// The address as typed.
        address: String,
    },
    /// The IDNA conversion refused the name.
    #[error("\u{201c}{input}\u{201d} is not a valid internationalised name: {reason}")]
    Idna {
        /// The name as typed.
        input: String,
        /// Why the converter refused it.
        reason: String,
    },
    /// `co.uk`, `github.io`: a public suffix, under which names are registered.
    #[error(
        "\u{201c}{name}\u{201d} is a public suffix: names are registered under it (such as example.{name}), so it cannot be attached itself. Enter your own domain under it."
    )]
    PublicSuffix {
        /// The normalised name.
        name: String,
    },
    /// `docs..example.com` or a leading dot.
    #[error("\u{201c}{name}\u{201d} has an empty label (two dots in a row, or a dot at the start).")]
    EmptyLabel {
        /// The normalised name.
        name: String,
    },
    /// A label over 63 characters.
    #[error("The label \u{201c}{label}\u{201d} is {len} characters long; a label has at most 63.")]
    LabelTooLong {
        /// The label (punycode form).
        label: String,
        /// Its length.
        len: usize,
    },
    /// The whole name over 253 characters.
    #[error("The name is {len} characters long; a domain name has at most 253.")]
    NameTooLong {
        /// Its length (punycode form, without the trailing dot).
        len: usize,
    },
    /// A character other than a letter, digit or hyphen.
    #[error(
        "The label \u{201c}{label}\u{201d} contains \u{201c}{character}\u{201d}; only letters, digits and hyphens are allowed."
    )]
    InvalidCharacter {
        /// The label.
        label: String,
        /// The first character at fault.
        character: char,
    },
    /// A label that starts or ends with `-`.
    #[error("The label \u{201c}{label}\u{201d} starts or ends with a hyphen, which is not allowed.")]
    HyphenAtEdge {
        /// The label.
        label: String,
    },
    /// `localhost`, `intranet`.
    #[error(
        "\u{201c}{name}\u{201d} has a single label; enter a full domain name, such as {name}.com or docs.{name}.com."
    )]
    SingleLabel {
        /// The name.
        name: String,
    },
    /// `docs.example.123`: browsers would read it as an IPv4 address.
    #[error("The last label \u{201c}{label}\u{201d} is all digits; no top-level domain is numeric.")]
    NumericTopLevel {
        /// The last label.
        label: String,
    },
    /// The platform's own domain.
    #[error("\u{201c}{name}\u{201d} is the platform's own domain; enter a domain you own.")]
    PlatformDomain {
        /// The name.
        name: String,
    },
    /// A subdomain of the platform's own domain.
    #[error(
        "\u{201c}{name}\u{201d} is under the platform's domain {platform}; the project is already published there by default. Enter a domain you own."
    )]
    PlatformSubdomain {
        /// The name.
        name: String,
        /// The platform domain.
        platform: String,
    },
    /// A stored name that is not in normal form (saved state, settings).
    #[error(
        "\u{201c}{name}\u{201d} is not in normal form (lower-case ASCII, punycode for international labels, no trailing dot)."
    )]
    NotNormalized {
        /// The name as stored.
        name: String,
    },
    /// The name is already in the project's list.
    #[error("\u{201c}{name}\u{201d} is already attached to this project.")]
    AlreadyAttached {
        /// The name.
        name: String,
    },
}

/// Normalises a host name: trims blanks, drops one trailing dot, converts internationalised
/// labels with `to_ascii`, lower-cases, and checks the DNS rules (labels 1..=63 letters, digits
/// or hyphens, not at either end; total <= 253; at least two labels; no IP address, scheme,
/// user, port, path, query or fragment). Idempotent on what it accepts.
///
/// # Errors
/// The first rule the input breaks, naming the offending part.
pub fn normalize_host(input: &str, to_ascii: ToAscii<'_>) -> Result<String, NameError> {
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return Err(NameError::Empty);
    }
    if trimmed.chars().any(char::is_whitespace) {
        return Err(NameError::Whitespace { input: trimmed.to_owned() });
    }
    if let Some((scheme, _)) = trimmed.split_once("://") {
        return Err(NameError::Scheme { scheme: scheme.to_owned() });
    }
    if let Some((user, _)) = trimmed.rsplit_once('@') {
        return Err(NameError::UserInfo { part: user.to_owned() });
    }
    if let Some(at) = trimmed.find(['/', '?', '#', '\\']) {
        return Err(NameError::Path { part: trimmed[at..].to_owned() });
    }
    let host = host_without_port(trimmed)?;
    let host = host.strip_suffix('.').unwrap_or(host);
    let host = host.strip_suffix('\u{3002}').unwrap_or(host);
    if host.is_empty() {
        return Err(NameError::EmptyLabel { name: trimmed.to_owned() });
    }
    let ascii = if host.is_ascii() {
        host.to_ascii_lowercase()
    } else {
        let converted =
            to_ascii(host).map_err(|reason| NameError::Idna { input: host.to_owned(), reason })?;
        let converted = converted.strip_suffix('.').unwrap_or(&converted).to_ascii_lowercase();
        if !converted.is_ascii() {
            return Err(NameError::Idna {
                input: host.to_owned(),
                reason: "the converter did not return an ASCII name.".to_owned(),
            });
        }
        converted
    };
    check_ascii_host(&ascii)?;
    Ok(ascii)
}

/// Splits off `:port` and refuses IP addresses (v4, v6 with or without brackets).
fn host_without_port(text: &str) -> Result<&str, NameError> {
    if text.starts_with('[') || text.parse::<Ipv6Addr>().is_ok() {
        let inner = text.trim_start_matches('[');
        let inner = inner.split(']').next().unwrap_or(inner);
        return Err(NameError::IpAddress { address: inner.to_owned() });
    }
    match text.split_once(':') {
        Some((_, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
            Err(NameError::Port { port: port.to_owned() })
        }
        Some((host, _)) => Err(NameError::InvalidCharacter { label: host.to_owned(), character: ':' }),
        None => Ok(text),
    }
}

/// The DNS rules on an already lower-case ASCII name without a trailing dot.
fn check_ascii_host(name: &str) -> Result<(), NameError> {
    if name.parse::<Ipv4Addr>().is_ok() {
        return Err(NameError::IpAddress { address: name.to_owned() });
    }
    for label in name.split('.') {
        check_label(label, name)?;
    }
    if name.len() > MAX_NAME_LEN {
        return Err(NameError::NameTooLong { len: name.len() });
    }
    let mut labels = name.rsplit('.');
    let last = labels.next().unwrap_or(name);
    if labels.next().is_none() {
        return Err(NameError::SingleLabel { name: name.to_owned() });
    }
    if last.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NameError::NumericTopLevel { label: last.to_owned() });
    }
    Ok(())
}

fn check_label(label: &str, name: &str) -> Result<(), NameError> {
    if label.is_empty() {
        return Err(NameError::EmptyLabel { name: name.to_owned() });
    }
    if let Some(character) = label.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '-')) {
        return Err(NameError::InvalidCharacter { label: label.to_owned(), character });
    }
    if label.len() > MAX_LABEL_LEN {
        return Err(NameError::LabelTooLong { label: label.to_owned(), len: label.len() });
    }
    if label.starts_with('-') || label.ends_with('-') {
        return Err(NameError::HyphenAtEdge { label: label.to_owned() });
    }
    Ok(())
}

/// Checks a name that is stored rather than typed (saved state, settings): it must already be
/// in normal form. No IDNA conversion is needed because normal form is ASCII.
///
/// # Errors
/// The rule it breaks.
pub fn check_normalized(name: &str) -> Result<(), NameError> {
    let not_normal = || NameError::NotNormalized { name: name.to_owned() };
    if !name.is_ascii() {
        return Err(not_normal());
    }
    let normal = normalize_host(name, &|_| Err("not ASCII".to_owned()))?;
    if normal == name { Ok(()) } else { Err(not_normal()) }
}

/// Validates a name typed into "Add domain": [`normalize_host`], then not the platform's own
/// domain nor under it, and not already attached (`attached` holds normalised names).
///
/// # Errors
/// The first rule the input breaks.
pub fn validate_new_domain(
    input: &str,
    to_ascii: ToAscii<'_>,
    platform_domain: &str,
    attached: &[&str],
) -> Result<String, NameError> {
    let name = normalize_host(input, to_ascii)?;
    let platform = platform_domain.trim_end_matches('.').to_ascii_lowercase();
    if name == platform {
        return Err(NameError::PlatformDomain { name });
    }
    if is_under(&name, &platform) {
        return Err(NameError::PlatformSubdomain { name, platform });
    }
    if attached.contains(&name.as_str()) {
        return Err(NameError::AlreadyAttached { name });
    }
    if is_public_suffix(&name) {
        return Err(NameError::PublicSuffix { name });
    }
    Ok(name)
}

/// Whether `name` is a proper subdomain of `zone` (both normalised).
#[must_use]
pub fn is_under(name: &str, zone: &str) -> bool {
    name.len() > zone.len() + 1
        && name.ends_with(zone)
        && name.as_bytes().get(name.len() - zone.len() - 1) == Some(&b'.')
}

/// The registrable zone of a normalised name: the public suffix it is under (Mozilla's Public
/// Suffix List, ICANN and private sections) plus one label (`docs.example.co.uk` ->
/// `example.co.uk`, `docs.myproject.github.io` -> `myproject.github.io`). A name the list
/// does not place (a public suffix itself) is its own zone.
#[must_use]
pub fn registrable_zone(name: &str) -> &str {
    psl2::lookup(name).and_then(|d| d.registrable_domain()).unwrap_or(name)
}

/// Whether a normalised name is itself a public suffix (`co.uk`, `github.io`): names are
/// registered under it, and no one can attach it.
#[must_use]
pub fn is_public_suffix(name: &str) -> bool {
    psl2::lookup(name).is_some_and(|d| d.is_public_suffix())
}

/// Whether a normalised name is an apex (the registrable zone itself, no subdomain).
#[must_use]
pub fn is_apex(name: &str) -> bool {
    registrable_zone(name) == name
}

/// The labels of a normalised name relative to its registrable zone (`api.docs` for
/// `api.docs.example.com`); `None` for an apex.
#[must_use]
pub fn subdomain_part(name: &str) -> Option<&str> {
    let zone = registrable_zone(name);
    if zone.len() == name.len() { None } else { Some(&name[..name.len() - zone.len() - 1]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_idna(_: &str) -> Result<String, String> {
        Err("no converter".to_owned())
    }

    #[test]
    fn zones() {
        assert_eq!(registrable_zone("example.com"), "example.com");
        assert_eq!(registrable_zone("docs.example.com"), "example.com");
        assert_eq!(registrable_zone("a.b.example.co.uk"), "example.co.uk");
        assert_eq!(registrable_zone("example.co.uk"), "example.co.uk");
        assert_eq!(subdomain_part("api.docs.example.com"), Some("api.docs"));
        assert_eq!(subdomain_part("example.com"), None);
    }

    #[test]
    fn ipv6_and_ports() {
        assert!(matches!(normalize_host("[2001:db8::1]:443", &no_idna), Err(NameError::IpAddress { .. })));
        assert!(matches!(normalize_host("2001:db8::1", &no_idna), Err(NameError::IpAddress { .. })));
        assert_eq!(
            normalize_host("docs.example.com:8080", &no_idna),
            Err(NameError::Port { port: "8080".to_owned() })
        );
        assert_eq!(check_normalized("docs.example.com"), Ok(()));
        assert_eq!(
            check_normalized("Docs.example.com"),
            Err(NameError::NotNormalized { name: "Docs.example.com".to_owned() })
        );
        assert!(matches!(check_normalized("bücher.example"), Err(NameError::NotNormalized { .. })));
        assert!(check_normalized("docs.example.com.").is_err());
    }
}
