//! Tests of form bodies: encoding, reading back, and fields from schemas.
#![allow(clippy::unwrap_used)]

use super::*;
use serde_json::json;

fn sample() -> Vec<FormField> {
    vec![
        FormField::text("name", "Rex \"the dog\"\r\nline two"),
        FormField::file(
            "photo",
            "rex.png",
            "image/png",
            vec![0x89, b'P', b'N', b'G', 0xff, 0x00, b'\r', b'\n'],
        ),
        FormField::file("photo", "rex 2.jpg", "", vec![0xfe, 0xed]),
        FormField::text("say \"hi\"\nnow", "é ✓"),
        FormField::file("notes", "a \"quoted\".txt", "text/plain", b"plain text".to_vec()),
    ]
}

#[test]
fn multipart_is_written_as_browsers_write_it() {
    let fields = vec![FormField::text("say \"hi\"", "a"), FormField::file("f", "x\ny.bin", "", vec![1, 2])];
    let body = encode_multipart(&fields, "B");
    let mut expected = b"--B\r\nContent-Disposition: form-data; name=\"say %22hi%22\"\r\n\r\na\r\n--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x%0Ay.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n".to_vec();
    expected.extend_from_slice(&[1, 2]);
    expected.extend_from_slice(b"\r\n--B--\r\n");
    assert_eq!(body, expected);
    assert_eq!(encode_multipart(&[], "B"), b"--B--\r\n");
    assert_eq!(multipart_content_type("B"), "multipart/form-data; boundary=B");
}

#[test]
fn multipart_round_trips_text_binary_files_repeated_names_and_quotes() {
    let fields = sample();
    let boundary = boundary_for(&fields);
    let body = encode_multipart(&fields, &boundary);
    let parsed = parse_multipart(&multipart_content_type(&boundary), &body).unwrap();
    let mut expected = fields.clone();
    // An empty type is sent as application/octet-stream.
    expected[2] = FormField::file("photo", "rex 2.jpg", DEFAULT_FILE_TYPE, vec![0xfe, 0xed]);
    assert_eq!(parsed, expected);
}

#[test]
fn the_boundary_avoids_the_content() {
    let plain = vec![FormField::text("a", "b")];
    let boundary = boundary_for(&plain);
    let hostile = vec![FormField::text("a", format!("x\r\n--{boundary}\r\ny"))];
    let other = boundary_for(&hostile);
    assert_ne!(boundary, other);
    let body = encode_multipart(&hostile, &other);
    assert_eq!(parse_multipart(&multipart_content_type(&other), &body).unwrap(), hostile);
}

#[test]
fn the_reader_is_tolerant() {
    // LF line ends, a preamble and epilogue, a quoted boundary, backslash-escaped quotes,
    // filename*, no closing `--`.
    let body = "preamble\n--xy\nContent-Disposition: form-data; name=\"a\\\"b\"\n\n1\n--xy\nContent-Disposition: form-data; name=f; filename*=UTF-8''na%C3%AFve.txt\nContent-Type: text/plain\n\nhi\n--xy\n";
    let parsed = parse_multipart("Multipart/Form-Data; boundary=\"xy\"", body.as_bytes()).unwrap();
    assert_eq!(
        parsed,
        vec![FormField::text("a\"b", "1"), FormField::file("f", "naïve.txt", "text/plain", "hi")]
    );
    // A part without a file name whose content is not UTF-8 is a file.
    let body = b"--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n\xff\r\n--b--";
    assert_eq!(
        parse_multipart("multipart/form-data; boundary=b", body).unwrap(),
        vec![FormField::file("x", "", DEFAULT_FILE_TYPE, vec![0xff])]
    );
    assert_eq!(parse_multipart("multipart/form-data; boundary=b", b"--b--\r\n").unwrap(), vec![]);
}

#[test]
fn the_reader_refuses_with_a_sentence() {
    let cases: [(&str, &[u8]); 6] = [
        ("application/json", b"{}"),
        ("multipart/form-data", b"--b--"),
        ("multipart/form-data; boundary=b", b"nothing here"),
        ("multipart/form-data; boundary=b", b"--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--"),
        ("multipart/form-data; boundary=b", b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\nno end"),
        ("multipart/form-data; boundary=b", b"--b\r\nContent-Disposition: form-data; name=a"),
    ];
    for (content_type, body) in cases {
        let error = parse_multipart(content_type, body).unwrap_err();
        assert!(error.ends_with('.'), "{error}");
    }
    let many: Vec<FormField> = (0..=MAX_FIELDS).map(|i| FormField::text(i.to_string(), "")).collect();
    let body = encode_multipart(&many, "b");
    assert!(parse_multipart("multipart/form-data; boundary=b", &body).unwrap_err().contains("more than 200"));
}

#[test]
fn urlencoded_writes_pairs_and_files_as_their_names() {
    let fields = vec![
        FormField::text("a b", "c&d=e"),
        FormField::file("f", "x y.png", "image/png", vec![0xff]),
        FormField::text("é", "✓"),
    ];
    assert_eq!(encode_urlencoded(&fields), b"a+b=c%26d%3De&f=x+y.png&%C3%A9=%E2%9C%93");
    assert_eq!(encode_urlencoded(&[]), b"");
}

#[test]
fn form_kinds_know_their_media_types() {
    assert_eq!(FormKind::of_media_type("Multipart/Form-Data; boundary=x"), Some(FormKind::Multipart));
    assert_eq!(FormKind::of_media_type("application/x-www-form-urlencoded"), Some(FormKind::UrlEncoded));
    assert_eq!(FormKind::of_media_type("application/json"), None);
}

#[test]
fn fields_are_read_from_the_schema() {
    let schema = json!({
        "type": "object",
        "required": ["name", "photo"],
        "properties": {
            "name": {"type": "string", "description": "The pet's name.", "example": "Rex"},
            "photo": {"type": "string", "format": "binary"},
            "scan": {"type": "string", "format": "base64"},
            "doc": {"type": "string", "contentMediaType": "application/pdf"},
            "album": {"type": "array", "items": {"type": "string", "format": "binary"}},
            "tags": {"type": "array", "items": {"type": "string"}, "example": ["a", "b"]},
            "meta": {"type": "object", "default": {"k": 1}},
            "status": {"type": "string", "enum": ["available", "sold"]},
            "age": {"type": "integer", "default": 3},
            "nickname": {"type": "string", "examples": ["Rexy"]},
            "plain": {"type": "string"},
            "ref": {"$ref": "#/components/schemas/X"}
        }
    });
    let fields = fields_from_schema(&schema);
    let summary: Vec<(&str, bool, SpecKind, Option<&str>)> =
        fields.iter().map(|f| (f.name.as_str(), f.required, f.kind, f.example.as_deref())).collect();
    assert_eq!(
        summary,
        vec![
            ("name", true, SpecKind::Text, Some("Rex")),
            ("photo", true, SpecKind::File, None),
            ("scan", false, SpecKind::File, None),
            ("doc", false, SpecKind::File, None),
            ("album", false, SpecKind::Files, None),
            ("tags", false, SpecKind::Text, Some("[\"a\",\"b\"]")),
            ("meta", false, SpecKind::Text, Some("{\"k\":1}")),
            ("status", false, SpecKind::Text, Some("available")),
            ("age", false, SpecKind::Text, Some("3")),
            ("nickname", false, SpecKind::Text, Some("Rexy")),
            ("plain", false, SpecKind::Text, None),
            ("ref", false, SpecKind::Text, None),
        ]
    );
    assert_eq!(fields[0].description.as_deref(), Some("The pet's name."));
    assert!(fields_from_schema(&json!({"type": "string"})).is_empty());
    assert!(fields_from_schema(&json!(null)).is_empty());
    let many: serde_json::Map<String, Value> = (0..300).map(|i| (format!("p{i}"), json!({}))).collect();
    assert_eq!(fields_from_schema(&json!({"properties": many})).len(), MAX_FIELDS);
}

#[test]
fn a_list_field_is_sent_as_one_field_per_item() {
    let fields = fields_from_schema(&json!({"type": "object", "properties": {
        "ids": {"type": "array", "items": {"type": "integer"}},
        "tags": {"type": ["array", "null"], "items": {"type": "string"}},
        "name": {"type": "string"},
        "files": {"type": "array", "items": {"type": "string", "format": "binary"}}
    }}));
    let by_name = |name: &str| fields.iter().find(|f| f.name == name).unwrap();
    assert!(by_name("ids").list && by_name("tags").list);
    assert!(!by_name("name").list && !by_name("files").list, "files are their own kind");
    assert_eq!(by_name("ids").values_of("[1, 2]"), ["1", "2"]);
    assert_eq!(by_name("tags").values_of(r#"["a b", {"x": 1}]"#), ["a b", r#"{"x":1}"#]);
    // Text that is not a JSON list is sent as it is, and a field that is not a list never splits.
    assert_eq!(by_name("ids").values_of("7"), ["7"]);
    assert_eq!(by_name("name").values_of("[1, 2]"), ["[1, 2]"]);
}
