//! Tests of the samples: the fixtures they share, then each language's shape, form and
//! binary bodies with hostile strings, and the samples run through real tools.
#![allow(clippy::unwrap_used)]

mod bodies;
mod languages;
mod tools;

use super::*;
use serde_json::json;

pub(super) fn post() -> Request {
    Request::new("POST", "http://127.0.0.1:4010/pets")
        .json(&json!({"name": "O'Brien", "categoryId": 1, "ok": true, "tag": null}))
        .header("Authorization", "Bearer it's")
}

/// The hostile text: every character a language's quoting must get right.
pub(super) const HOSTILE: &str = "it's \"quoted\" \\back\\ $HOME `tick` $(x) \\u0041 \n\r\ttab é 😀 */";

pub(super) fn get() -> Request {
    Request::new("GET", "http://127.0.0.1:4010/pets?status=available&limit=5")
        .header("Accept", "application/json")
        .header("X-Api-Key", "k1")
}

pub(super) fn multipart() -> (Request, SampleForm) {
    let request = Request::new("POST", "http://127.0.0.1:4010/pets/1/photo")
        .header("Content-Type", "multipart/form-data; boundary=abc")
        .header("Authorization", "Bearer t");
    let form = SampleForm {
        kind: FormKind::Multipart,
        fields: vec![
            ("caption".into(), SampleValue::Text("Rex".into())),
            (
                "photo".into(),
                SampleValue::File { file_name: "rex.png".into(), content_type: "image/png".into() },
            ),
        ],
    };
    (request, form)
}

pub(super) fn urlencoded() -> (Request, SampleForm) {
    let request = Request::new("POST", "http://127.0.0.1:4010/login")
        .header("Content-Type", "application/x-www-form-urlencoded");
    let form = SampleForm {
        kind: FormKind::UrlEncoded,
        fields: vec![
            ("user".into(), SampleValue::Text("rex & co".into())),
            ("tag".into(), SampleValue::Text("a".into())),
            ("tag".into(), SampleValue::Text("b".into())),
        ],
    };
    (request, form)
}

pub(super) fn binary() -> Request {
    Request::new("PUT", "http://127.0.0.1:4010/blobs/1")
        .header("Content-Type", "application/octet-stream")
        .body(vec![0x89, 0xff, 0x00, 0xfe])
}

pub(super) fn hostile() -> Request {
    Request::new("POST", format!("http://x/a?q={HOSTILE}"))
        .header("X-Note", HOSTILE)
        .header("Content-Type", "text/plain")
        .body(HOSTILE)
}

pub(super) fn hostile_form(kind: FormKind) -> (Request, SampleForm) {
    let form = SampleForm {
        kind,
        fields: vec![
            (HOSTILE.into(), SampleValue::Text(HOSTILE.into())),
            ("@x;y".into(), SampleValue::Text("<z;type=a".into())),
            (
                "file".into(),
                SampleValue::File {
                    file_name: "a \"b\";c,d\\e.txt".into(),
                    content_type: "text/plain; charset=utf-8".into(),
                },
            ),
            ("file".into(), SampleValue::File { file_name: String::new(), content_type: String::new() }),
        ],
    };
    (Request::new("POST", "http://x/upload"), form)
}

/// Every fixture with its form.
pub(super) fn fixtures() -> Vec<(&'static str, Request, Option<SampleForm>)> {
    let (mp, mp_form) = multipart();
    let (ue, ue_form) = urlencoded();
    let (hm, hm_form) = hostile_form(FormKind::Multipart);
    let (hu, hu_form) = hostile_form(FormKind::UrlEncoded);
    vec![
        ("get", get(), None),
        ("json", post(), None),
        ("multipart", mp, Some(mp_form)),
        ("urlencoded", ue, Some(ue_form)),
        ("binary", binary(), None),
        ("hostile", hostile(), None),
        ("hostile_multipart", hm, Some(hm_form)),
        ("hostile_urlencoded", hu, Some(hu_form)),
        ("delete", Request::new("DELETE", "http://x/pets/1"), None),
        ("odd_method", Request::new("PURGE it", "http://x/"), None),
        (
            "empty_multipart",
            Request::new("POST", "http://x/"),
            Some(SampleForm { kind: FormKind::Multipart, fields: vec![] }),
        ),
    ]
}

pub(super) fn sample(lang: Lang, fixture: &(&str, Request, Option<SampleForm>)) -> String {
    generate_with(lang, &fixture.1, fixture.2.as_ref())
}
