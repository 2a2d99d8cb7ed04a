//! String formats: the ones enforced (dates and times, UUIDs, IP addresses, URIs, email
//! addresses) and the loose ones let through.

use serde_json::json;

use super::{check, error, table};

// A table of cases.
#[allow(clippy::too_many_lines)]
#[test]
fn formats() {
    let format = |f: &str| json!({"type": "string", "format": f});
    table(&[
        (
            format("date-time"),
            vec![
                json!("2026-12-01T10:00:00Z"),
                json!("2026-12-01T10:00:00.123+02:00"),
                json!("2026-12-01t10:00:00z"),
                json!("2024-02-29T00:00:00-00:00"),
                json!("1998-12-31T23:59:60Z"),
            ],
            vec![
                json!("2026-12-01"),
                json!("2026-02-29T10:00:00Z"),
                json!("2026-12-01T10:00:00"),
                json!("2026-12-01T24:00:00Z"),
            ],
        ),
        (
            format("date"),
            vec![json!("2026-12-01"), json!("2024-02-29"), json!("2000-02-29")],
            vec![
                json!("2026-02-29"),
                json!("1900-02-29"),
                json!("2026-13-01"),
                json!("2026-12-1"),
                json!("2026-12-01T10:00:00Z"),
                json!("٢٠٢٦-12-01"),
            ],
        ),
        (
            format("time"),
            vec![
                json!("10:00:00Z"),
                json!("10:00:00.5+02:00"),
                json!("23:59:60Z"),
                json!("15:59:60-08:00"),
                json!("01:29:60+01:30"),
                json!("08:30:06z"),
            ],
            vec![
                json!("10:00:00"),
                json!("22:59:60Z"),
                json!("24:00:00Z"),
                json!("10:00Z"),
                json!("10:00:00.Z"),
                json!("10:00:00+24:00"),
            ],
        ),
        (
            format("uuid"),
            vec![
                json!("3fa85f64-5717-4562-b3fc-2c963f66afa6"),
                json!("3FA85F64-5717-4562-B3FC-2C963F66AFA6"),
            ],
            vec![json!("3fa85f645717-4562-b3fc-2c963f66afa6"), json!("3fa85f64-5717-4562-b3fc-2c963f66afag")],
        ),
        (
            format("ipv4"),
            vec![json!("192.0.2.1"), json!("0.0.0.0")],
            vec![json!("256.0.0.1"), json!("01.2.3.4"), json!("1.2.3")],
        ),
        (
            format("ipv6"),
            vec![json!("::1"), json!("2001:db8::1"), json!("::ffff:192.0.2.1")],
            vec![json!("1::2::3"), json!("fe80::1%eth0"), json!("192.0.2.1")],
        ),
        (json!({"format": "date"}), vec![json!(20261201), json!(null)], vec![json!("20261201")]),
        (
            format("uri"),
            vec![json!("https://example.com/a"), json!("urn:isbn:0451450523"), json!("x-app+v1.2:path")],
            vec![json!(""), json!("/a"), json!("not a uri"), json!("https://a b"), json!("9p:x")],
        ),
        (
            format("email"),
            vec![
                json!("user@example.com"),
                json!("a+b.c@sub.example.org"),
                json!("\"a b\"@example.com"),
                json!("x@localhost"),
                json!("\u{e9}l\u{e8}ve@\u{e9}cole.fr"),
            ],
            vec![
                json!(""),
                json!("user"),
                json!("@example.com"),
                json!("user@"),
                json!("a b@example.com"),
                json!("user@example.com."),
                json!("user@exa mple.com"),
            ],
        ),
    ]);
    for loose in ["uri-reference", "hostname", "byte", "binary", "password", "x-custom", "float"] {
        assert_eq!(check(format(loose), json!("not really ~ anything")), Ok(()), "{loose}");
    }
    assert_eq!(
        error(format("date"), json!("2026-02-30")),
        "The body must be an RFC 3339 date such as 2026-12-01; got \"2026-02-30\"."
    );
    assert_eq!(
        error(format("uuid"), json!("x")),
        "The body must be a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6; got \"x\"."
    );
}
