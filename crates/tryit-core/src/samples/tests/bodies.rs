use super::super::*;
use super::*;

#[test]
fn multipart_forms_use_each_languages_form_api() {
    let (request, form) = multipart();
    let s = |lang| generate_with(lang, &request, Some(&form));
    for lang in Lang::ALL {
        assert!(
            !s(lang).contains("boundary=abc"),
            "{lang:?}: the request's Content-Type is left out:\n{}",
            s(lang)
        );
        assert!(s(lang).contains("Bearer t"), "{lang:?}");
    }
    assert_eq!(
        s(Lang::Curl),
        "curl -i -X POST 'http://127.0.0.1:4010/pets/1/photo' \\\n  -H 'Authorization: Bearer t' \\\n  -F 'caption=Rex' \\\n  -F 'photo=@rex.png;type=image/png'"
    );
    let js = s(Lang::JavaScript);
    assert!(
        js.starts_with(
            "const form = new FormData();\nform.append(\"caption\", \"Rex\");\n// Choose each file"
        ),
        "{js}"
    );
    assert!(
        js.contains("\nform.append(\"photo\", new Blob([], { type: \"image/png\" }), \"rex.png\");\n"),
        "{js}"
    );
    assert!(js.contains("  body: form,\n"), "{js}");
    let py = s(Lang::Python);
    assert!(
            py.contains("    data={\n        \"caption\": \"Rex\",\n    },\n    files=[\n        (\"photo\", (\"rex.png\", open(\"rex.png\", \"rb\"), \"image/png\")),\n    ],"),
            "{py}"
        );
    let go = s(Lang::Go);
    assert!(go.contains("\tif err := form.WriteField(\"caption\", \"Rex\"); err != nil {"), "{go}");
    assert!(
            go.contains("\tif err := addFile(form, `form-data; name=\"photo\"; filename=\"rex.png\"`, \"image/png\", \"rex.png\"); err != nil {"),
            "{go}"
        );
    assert!(go.contains("\treq.Header.Set(\"Content-Type\", form.FormDataContentType())"), "{go}");
    assert!(go.contains("\n\t\"mime/multipart\"\n\t\"net/http\"\n\t\"net/textproto\"\n\t\"os\"\n)"), "{go}");
    assert!(go.contains("func addFile("), "{go}");
    let java = s(Lang::Java);
    assert!(java.contains("        body.writeBytes(partHeader(boundary, \"form-data; name=\\\"caption\\\"\", null));\n        body.writeBytes(\"Rex\".getBytes(UTF_8));\n"), "{java}");
    assert!(java.contains("        body.writeBytes(Files.readAllBytes(Path.of(\"rex.png\")));\n"), "{java}");
    assert!(
        java.contains(".header(\"Content-Type\", \"multipart/form-data; boundary=\" + boundary)"),
        "{java}"
    );
    assert!(java.contains(".POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))"), "{java}");
    let cs = s(Lang::CSharp);
    assert!(
            cs.contains("var form = new MultipartFormDataContent();\nform.Add(new StringContent(\"Rex\"), \"caption\");\nvar file1 = new ByteArrayContent(File.ReadAllBytes(\"rex.png\"));\nfile1.Headers.TryAddWithoutValidation(\"Content-Type\", \"image/png\");\nform.Add(file1, \"photo\", \"rex.png\");\nrequest.Content = form;\n"),
            "{cs}"
        );
    // Only text fields: requests still sends multipart.
    let text_only =
        SampleForm { kind: FormKind::Multipart, fields: vec![("a".into(), SampleValue::Text("b".into()))] };
    let py = generate_with(Lang::Python, &request, Some(&text_only));
    assert!(py.contains("    files=[\n        (\"a\", (None, \"b\")),\n    ],"), "{py}");
}

#[test]
fn urlencoded_forms_use_each_languages_form_api() {
    let (request, form) = urlencoded();
    let s = |lang| generate_with(lang, &request, Some(&form));
    assert_eq!(
        s(Lang::Curl),
        "curl -i -X POST 'http://127.0.0.1:4010/login' \\\n  --data-urlencode 'user=rex & co' \\\n  --data-urlencode 'tag=a' \\\n  --data-urlencode 'tag=b'"
    );
    assert!(
        s(Lang::JavaScript)
            .starts_with("const form = new URLSearchParams();\nform.append(\"user\", \"rex & co\");\n")
    );
    // A repeated name: a list of pairs, not a dict.
    assert!(s(Lang::Python).contains("    data=[\n        (\"user\", \"rex & co\"),\n        (\"tag\", \"a\"),\n        (\"tag\", \"b\"),\n    ],"), "{}", s(Lang::Python));
    let go = s(Lang::Go);
    assert!(go.contains("\tform := url.Values{}\n\tform.Add(\"user\", \"rex & co\")\n"), "{go}");
    assert!(go.contains("strings.NewReader(form.Encode())"), "{go}");
    assert!(go.contains("\treq.Header.Set(\"Content-Type\", \"application/x-www-form-urlencoded\")"), "{go}");
    let java = s(Lang::Java);
    assert!(
        java.contains(
            "        String form = String.join(\"&\",\n            field(\"user\", \"rex & co\"),\n"
        ),
        "{java}"
    );
    assert!(java.contains("URLEncoder.encode(name, UTF_8)"), "{java}");
    let cs = s(Lang::CSharp);
    assert!(cs.contains("request.Content = new FormUrlEncodedContent(new List<KeyValuePair<string, string>>\n{\n    new(\"user\", \"rex & co\"),\n"), "{cs}");
    for lang in Lang::ALL {
        assert_eq!(
            s(lang).matches("application/x-www-form-urlencoded").count(),
            usize::from(matches!(lang, Lang::Go | Lang::Java)),
            "{lang:?}"
        );
    }
}

#[test]
fn a_body_that_is_not_utf8_is_read_from_a_file() {
    let r = binary();
    let s = |lang| generate(lang, &r);
    assert!(
        s(Lang::Curl)
            .ends_with("  -H 'Content-Type: application/octet-stream' \\\n  --data-binary @body.bin"),
        "{}",
        s(Lang::Curl)
    );
    assert!(s(Lang::JavaScript).contains("const body = new Blob([]);\nconst response = await fetch("));
    assert!(s(Lang::Python).starts_with("from pathlib import Path\n\nimport requests\n"));
    assert!(s(Lang::Python).contains("    data=Path(\"body.bin\").read_bytes(),"));
    assert!(s(Lang::Go).contains("\tbody, err := os.ReadFile(\"body.bin\")\n"));
    assert!(s(Lang::Go).contains("bytes.NewReader(body)"));
    assert!(s(Lang::Java).contains(".PUT(HttpRequest.BodyPublishers.ofFile(Path.of(\"body.bin\")))"));
    assert!(
        s(Lang::CSharp).contains("request.Content = new ByteArrayContent(File.ReadAllBytes(\"body.bin\"));")
    );
    for lang in Lang::ALL {
        assert!(!s(lang).contains('\u{fffd}'), "{lang:?}");
    }
}

#[test]
fn hostile_strings_stay_quoted() {
    let r = hostile();
    let go = generate(Lang::Go, &r);
    let go_lit = r#""it's \"quoted\" \\back\\ $HOME `tick` $(x) \\u0041 \n\r\ttab \u00e9 \U0001f600 */""#;
    assert!(go.contains(&format!("\treq.Header.Add(\"X-Note\", {go_lit})")), "{go}");
    assert!(go.contains(&format!("strings.NewReader({go_lit})")), "{go}");
    let c_lit = r#""it's \"quoted\" \\back\\ $HOME `tick` $(x) \\u0041 \n\r\ttab \u00e9 \ud83d\ude00 */""#;
    let java = generate(Lang::Java, &r);
    assert!(java.contains(&format!(".header(\"X-Note\", {c_lit})")), "{java}");
    // A multi-line text is split after each line break.
    assert!(java.contains("String body = \"it's \\\"quoted\\\" \\\\back\\\\ $HOME `tick` $(x) \\\\u0041 \\n\"\n            + \"\\r\\ttab \\u00e9 \\ud83d\\ude00 */\";"), "{java}");
    let cs = generate(Lang::CSharp, &r);
    assert!(cs.contains(&format!("request.Headers.TryAddWithoutValidation(\"X-Note\", {c_lit});")), "{cs}");
    let json_lit = r#""it's \"quoted\" \\back\\ $HOME `tick` $(x) \\u0041 \n\r\ttab é 😀 */""#;
    assert!(generate(Lang::JavaScript, &r).contains(&format!("    \"X-Note\": {json_lit},")));
    assert!(generate(Lang::Python, &r).contains(&format!("    data={json_lit},")));
    let curl = generate(Lang::Curl, &r);
    assert!(
        curl.contains(
            "  -H 'X-Note: it'\\''s \"quoted\" \\back\\ $HOME `tick` $(x) \\u0041 \n\r\ttab é 😀 */'"
        ),
        "{curl}"
    );
    // A method that is not a token is quoted too.
    assert!(
        generate(Lang::Curl, &Request::new("PURGE it", "http://x/")).starts_with("curl -i -X 'PURGE it' ")
    );
    // Names and file names in curl's -F syntax, and names curl would not encode.
    let (request, form) = hostile_form(FormKind::Multipart);
    let curl = generate_with(Lang::Curl, &request, Some(&form));
    assert!(curl.contains("  --form-string '@x;y=<z;type=a'"), "{curl}");
    assert!(curl.contains("  -F 'it'\\''s \"quoted\" \\back\\ $HOME"), "{curl}");
    assert!(curl.contains(r#"  -F 'file=@"a \"b\";c,d\\e.txt";type="text/plain; charset=utf-8"'"#), "{curl}");
    assert!(curl.contains("  -F 'file=@file.bin;type=application/octet-stream'"), "{curl}");
    let (request, form) = hostile_form(FormKind::UrlEncoded);
    let curl = generate_with(Lang::Curl, &request, Some(&form));
    assert!(curl.contains("  --data-urlencode '%40x%3By=<z;type=a'"), "{curl}");
    // Browsers' escaping of a multipart name, then the language's.
    let (request, form) = hostile_form(FormKind::Multipart);
    let go = generate_with(Lang::Go, &request, Some(&form));
    assert!(
        go.contains(
            r#"form.WriteField("it's %22quoted%22 \\back\\ $HOME `tick` $(x) \\u0041 %0A%0D\ttab \u00e9"#
        ),
        "{go}"
    );
    let cs = generate_with(Lang::CSharp, &request, Some(&form));
    assert!(
        cs.contains(r#"var file1 = new ByteArrayContent(File.ReadAllBytes("a \"b\";c,d\\e.txt"));"#),
        "{cs}"
    );
    assert!(cs.contains(r#"form.Add(file1, "file", "a %22b%22;c,d\\e.txt");"#), "{cs}");
    let java = generate_with(Lang::Java, &request, Some(&form));
    assert!(java.contains(r#"body.writeBytes(partHeader(boundary, "form-data; name=\"file\"; filename=\"a %22b%22;c,d\\e.txt\"", "text/plain; charset=utf-8"));"#), "{java}");
}
