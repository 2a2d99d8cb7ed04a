//! String formats, read as [`Formats`] says. Enforced unless formats are ignored:
//! `date-time` (RFC 3339, as the `time` crate reads it), `date`, `time`, `uuid`, `ipv4`, `ipv6`
//! and `uri` (a scheme, then no space or control character: RFC 3986's absolute form, read
//! leniently). Loose formats, whose definitions leave room, pass unsurely in the lenient
//! reading (`email` after a lenient check: a local part, `@` and a domain) and are asserted in
//! the strict one where this module can read them: `email` (RFC 5321's dot-atom), `hostname`
//! (RFC 1123), `uri-reference`, `iri`, `duration` (RFC 3339's ISO 8601 durations) and `byte`
//! (RFC 4648 base64). Every other format (binary, password, custom ones) is accepted as it is.

use std::net::{Ipv4Addr, Ipv6Addr};

use serde_json::Value;

use super::{Formats, describe};

/// Checks `text` against `format` in the reading `formats`: whether the pass is sure, or why
/// the text fails.
pub(super) fn check(format: &str, text: &str, name: &str, formats: Formats) -> Result<bool, String> {
    let strict = match formats {
        Formats::Ignored => return Ok(true),
        Formats::Lenient => false,
        Formats::Strict => true,
    };
    let Some((valid, what)) = reading(format, text, strict) else { return Ok(!is_loose(format)) };
    if !valid {
        return Err(format!("{name} must be {what}; got {}.", describe(&Value::from(text))));
    }
    // A loose format read leniently passes, but not surely.
    Ok(strict || !is_loose(format))
}

/// Whether `text` is of `format`, and what the format asks for, when this module reads the
/// format: the enforced ones always, the loose ones strictly only when `strict`.
fn reading(format: &str, text: &str, strict: bool) -> Option<(bool, &'static str)> {
    const URI: &str = "an absolute URI such as https://example.com/a";
    const EMAIL: &str = "an email address such as user@example.com";
    Some(match format {
        "date-time" => (
            time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).is_ok(),
            "an RFC 3339 date-time such as 2026-12-01T10:00:00Z",
        ),
        "date" => (is_date(text), "an RFC 3339 date such as 2026-12-01"),
        "time" => (is_time(text), "an RFC 3339 time such as 10:00:00Z"),
        "uuid" => (is_uuid(text), "a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6"),
        "ipv4" => (text.parse::<Ipv4Addr>().is_ok(), "an IPv4 address such as 192.0.2.1"),
        "ipv6" => (text.parse::<Ipv6Addr>().is_ok(), "an IPv6 address such as 2001:db8::1"),
        "uri" => (is_uri(text), URI),
        "email" | "idn-email" if strict => (is_dot_atom_email(text), EMAIL),
        "email" | "idn-email" => (is_email(text), EMAIL),
        "iri" if strict => (is_uri(text), URI),
        "hostname" | "idn-hostname" if strict => (is_hostname(text), "a host name such as api.example.com"),
        "uri-reference" | "iri-reference" if strict => {
            (is_uri_reference(text), "a URI reference such as /pets?limit=10")
        }
        "duration" if strict => (is_duration(text), "an ISO 8601 duration such as P3DT4H"),
        "byte" if strict => (is_base64(text), "base64 text such as aGVsbG8="),
        _ => return None,
    })
}

/// Formats that constrain values in JSON Schema or OpenAPI but are too loosely defined (or too
/// costly) to enforce in the lenient reading: a value passes them, but not surely.
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

/// An email address as RFC 5321 writes it without quotes: a dot-atom local part of at most 64
/// characters, `@`, and a host name.
fn is_dot_atom_email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else { return false };
    !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~.".contains(c))
        && is_hostname(domain)
}

/// A host name as RFC 1123 writes it: dot-separated labels of 1 to 63 letters, digits and
/// inner hyphens, 253 characters in all.
fn is_hostname(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 253
        && text.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// A URI reference, read leniently: no space, control character, nor any of `< > " { } | \ ^`
/// and the backtick.
fn is_uri_reference(text: &str) -> bool {
    !text.chars().any(|c| c.is_whitespace() || c.is_control() || "<>\"{}|\\^`".contains(c))
}

/// RFC 3339's ISO 8601 duration: `P1Y2M`, `P3D`, `PT4H5M`, `P2W`; each unit once, in order,
/// with no gaps (`P1Y1D` is not one).
fn is_duration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('P') else { return false };
    if let Some(weeks) = rest.strip_suffix('W') {
        return !weeks.is_empty() && weeks.bytes().all(|b| b.is_ascii_digit());
    }
    let (date, time) = rest.split_once('T').map_or((rest, None), |(d, t)| (d, Some(t)));
    let units_ok = |text: &str, units: &[char]| -> bool {
        let mut last: Option<usize> = None;
        let mut digits = 0;
        for c in text.chars() {
            if c.is_ascii_digit() {
                digits += 1;
                continue;
            }
            let Some(at) = units.iter().position(|u| *u == c) else { return false };
            if digits == 0 || last.is_some_and(|l| at != l + 1) {
                return false;
            }
            (last, digits) = (Some(at), 0);
        }
        digits == 0 && last.is_some()
    };
    (!date.is_empty() || time.is_some())
        && (date.is_empty() || units_ok(date, &['Y', 'M', 'D']))
        && time.is_none_or(|t| units_ok(t, &['H', 'M', 'S']))
}

/// RFC 4648 base64 with its padding, and no bits set past the data.
fn is_base64(text: &str) -> bool {
    let b = text.as_bytes();
    let padding = b.iter().rev().take_while(|c| **c == b'=').count();
    let Some(data) = b.get(..b.len() - padding) else { return false };
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let spare = match padding {
        0 => 0,
        1 => 0b11,
        2 => 0b1111,
        _ => return false,
    };
    b.len().is_multiple_of(4)
        && data.iter().all(|c| value(*c).is_some())
        && data.last().and_then(|c| value(*c)).is_none_or(|last| last & spare == 0)
}
