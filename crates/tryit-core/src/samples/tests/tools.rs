use super::super::*;
use super::*;

/// Runs `script` with `sh`; `None` where there is no `sh`.
fn run_sh(script: &str) -> Option<Vec<u8>> {
    let output = std::process::Command::new("sh").arg("-c").arg(script).output().ok()?;
    assert!(output.status.success(), "{script}\n{}", String::from_utf8_lossy(&output.stderr));
    Some(output.stdout)
}

#[test]
fn curl_arguments_survive_a_real_shell() {
    for fixture in fixtures() {
        let command = sample(Lang::Curl, &fixture);
        let Some(rest) = command.strip_prefix("curl ") else { panic!("{command}") };
        // `printf '%s\0'` prints each argument as the shell passed it.
        let Some(out) = run_sh(&format!("printf '%s\\0' {rest}")) else { return };
        let args: Vec<String> = out
            .split(|&b| b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8(a.to_vec()).unwrap())
            .collect();
        assert_eq!(args.first().map(String::as_str), Some("-i"), "{}", fixture.0);
        assert!(args.contains(&fixture.1.target), "{}: {args:?}", fixture.0);
        for (name, value) in
            fixture.1.headers.iter().filter(|(n, _)| fixture.2.is_none() || n != "Content-Type")
        {
            assert!(args.contains(&format!("{name}: {value}")), "{}: {args:?}", fixture.0);
        }
    }
    let Some(out) =
        run_sh(&format!("printf '%s\\0' {}", generate(Lang::Curl, &hostile()).trim_start_matches("curl ")))
    else {
        return;
    };
    let args: Vec<&[u8]> = out.split(|&b| b == 0).collect();
    let expected: Vec<String> = vec![
        "-i".into(),
        "-X".into(),
        "POST".into(),
        format!("http://x/a?q={HOSTILE}"),
        "-H".into(),
        format!("X-Note: {HOSTILE}"),
        "-H".into(),
        "Content-Type: text/plain".into(),
        "--data-raw".into(),
        HOSTILE.into(),
        String::new(),
    ];
    assert_eq!(args, expected.iter().map(|a| a.as_bytes()).collect::<Vec<_>>());
    // curl's own -F syntax, as the shell hands it over.
    let (request, form) = hostile_form(FormKind::Multipart);
    let command = generate_with(Lang::Curl, &request, Some(&form));
    let Some(out) = run_sh(&format!("printf '%s\\0' {}", command.trim_start_matches("curl "))) else {
        return;
    };
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains(&format!("\0-F\0{HOSTILE}={HOSTILE}\0--form-string\0@x;y=<z;type=a\0")), "{out:?}");
    assert!(
        out.contains("\0-F\0file=@\"a \\\"b\\\";c,d\\\\e.txt\";type=\"text/plain; charset=utf-8\"\0"),
        "{out:?}"
    );
}

/// Checks a sample's syntax with a tool, when the tool is there.
fn syntax_ok(program: &str, args: &[&str], source: &str, file: &str) {
    let dir = std::env::temp_dir().join(format!("petstore-samples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file);
    std::fs::write(&path, source).unwrap();
    let Ok(output) = std::process::Command::new(program).args(args).arg(&path).output() else { return };
    assert!(output.status.success(), "{source}\n{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn javascript_and_python_samples_parse() {
    for (i, fixture) in fixtures().iter().enumerate() {
        syntax_ok("node", &["--check"], &sample(Lang::JavaScript, fixture), &format!("sample{i}.mjs"));
        syntax_ok(
            "python3",
            &["-c", "import ast, sys; ast.parse(open(sys.argv[1], encoding='utf-8').read())"],
            &sample(Lang::Python, fixture),
            &format!("sample{i}.py"),
        );
    }
}

#[test]
fn every_fixture_in_every_language() {
    for fixture in fixtures() {
        for lang in Lang::ALL {
            let text = sample(lang, &fixture);
            assert!(!text.is_empty());
            if matches!(lang, Lang::Go | Lang::Java | Lang::CSharp) {
                // The source is ASCII: escapes carry everything else.
                assert!(text.is_ascii(), "{lang:?} {}: {text}", fixture.0);
            }
        }
    }
}

#[test]
#[ignore = "writes the samples to a folder to try with each language's tools"]
fn dump_samples() {
    let dir: std::path::PathBuf = std::env::var_os("SAMPLES_DIR")
        .map_or_else(|| std::env::temp_dir().join("petstore-samples"), Into::into);
    for fixture in fixtures() {
        for (lang, ext) in [
            (Lang::Curl, "sh"),
            (Lang::JavaScript, "mjs"),
            (Lang::Python, "py"),
            (Lang::Go, "go"),
            (Lang::Java, "java"),
            (Lang::CSharp, "cs"),
        ] {
            let folder = std::path::Path::new(&dir).join(fixture.0).join(lang.label().replace('#', "sharp"));
            std::fs::create_dir_all(&folder).unwrap();
            let name = if lang == Lang::Java { "Main.java".to_owned() } else { format!("main.{ext}") };
            std::fs::write(folder.join(name), sample(lang, &fixture)).unwrap();
        }
    }
}
