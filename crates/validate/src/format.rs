//! The string formats whose definition is strict enough to enforce: `date-time` (RFC 3339, as
//! the `time` crate reads it), `date`, `time`, `uuid`, `ipv4`, `ipv6`, `uri` (a scheme, then
//! no space or control character: RFC 3986's absolute form, read leniently) and `email` (a
//! local part, `@` and a domain: RFC 5321's shape, read leniently). Every other format
//! (uri-reference, hostname, byte, binary, password, custom ones) is accepted as it is.

use std::net::{Ipv4Addr, Ipv6Addr};

use serde_json::Value;

use super::describe;

/// Checks `text` against `format` when it is one this module knows.
pub(super) fn check(format: &str, text: &str, name: &str) -> Result<(), String> {
    let (valid, what) = match format {
        "date-time" => (
            time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).is_ok(),
            "an RFC 3339 date-time such as 2026-12-01T10:00:00Z",
        ),
        "date" => (is_date(text), "an RFC 3339 date such as 2026-12-01"),
        "time" => (is_time(text), "an RFC 3339 time such as 10:00:00Z"),
        "uuid" => (is_uuid(text), "a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6"),
        "ipv4" => (text.parse::<Ipv4Addr>().is_ok(), "an IPv4 address such as 192.0.2.1"),
        "ipv6" => (text.parse::<Ipv6Addr>().is_ok(), "an IPv6 address such as 2001:db8::1"),
        "uri" => (is_uri(text), "an absolute URI such as https://example.com/a"),
        "email" | "idn-email" => (is_email(text), "an email address such as user@example.com"),
        _ => return Ok(()),
    };
    if valid { Ok(()) } else { Err(format!("{name} must be {what}; got {}.", describe(&Value::from(text)))) }
}

/// Formats that constrain values in JSON Schema or OpenAPI but are too loosely defined (or too
/// costly) to enforce here: a value passes them, but not surely.
pub(super) fn is_loose(format: &str) -> bool {
    matches!(
        format,
        "email"
            | "idn-email"
            | "hostname"
            | "idn-hostname"
            | "uri-reference"
            | "iri"
            | "iri-reference"
            | "uri-template"
            | "json-pointer"
            | "relative-json-pointer"
            | "regex"
            | "duration"
            | "byte"
    )
}

/// An absolute URI as RFC 3986 writes it, read leniently: a scheme (a letter, then letters,
/// digits, `+`, `-` or `.`) and a colon, then no space, control character, nor any of
/// `< > " { } | \ ^` and the backtick.
pub(super) fn is_uri(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !text.chars().any(|c| c.is_whitespace() || c.is_control() || "<>\"{}|\\^`".contains(c))
}

/// An email address as RFC 5321 shapes it, read leniently (a real server's checks differ, and
/// a mock should not refuse what one of them takes): a local part, `@`, then a domain with no
/// `@`, neither empty; no space or control character but inside a quoted local part
/// (`"a b"@example.com`). Whether the domain exists is not asked.
pub(super) fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else { return false };
    let plain = |s: &str| !s.is_empty() && !s.chars().any(|c| c.is_whitespace() || c.is_control());
    let quoted = local.len() >= 2
        && local.starts_with('"')
        && local.ends_with('"')
        && !local.chars().any(char::is_control);
    (quoted || plain(local) && !local.contains('@'))
        && plain(domain)
        && !domain.starts_with('.')
        && !domain.ends_with('.')
}

/// The number written by the ASCII digits `digits`, if they all are.
fn number(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |n, d| d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0')))
}

/// RFC 3339 `full-date`: `YYYY-MM-DD`, a day that exists in that month.
pub(super) fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (number(&b[..4]), number(&b[5..7]), number(&b[8..])) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let last = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=last).contains(&day)
}

/// RFC 3339 `full-time`: `HH:MM:SS`, an optional fraction and an offset (`Z`, `z` or
/// `±HH:MM`); second 60 only at 23:59 UTC, where leap seconds go.
pub(super) fn is_time(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (number(&b[..2]), number(&b[3..5]), number(&b[6..8]))
    else {
        return false;
    };
    let mut rest = &b[8..];
    if let Some(fraction) = rest.strip_prefix(b".") {
        let digits = fraction.iter().take_while(|d| d.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        rest = &fraction[digits..];
    }
    let offset: i64 = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(oh), Some(om)) = (number(&[*h1, *h2]), number(&[*m1, *m2])) else { return false };
            if oh > 23 || om > 59 {
                return false;
            }
            let minutes = i64::from(oh * 60 + om);
            if *sign == b'+' { minutes } else { -minutes }
        }
        _ => return false,
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    second < 60 || (i64::from(hour * 60 + minute) - offset).rem_euclid(24 * 60) == 23 * 60 + 59
}

/// `8-4-4-4-12` hexadecimal digits, either case.
pub(super) fn is_uuid(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}
