//! The document's `pattern`s and `patternProperties` names, which are ECMA-262 regular
//! expressions, rewritten where `regex-lite` reads the same text differently and compiled once.

use std::collections::HashMap;

use serde_json::Value;

/// ECMA-262 `WhiteSpace` and `LineTerminator`, what `\s` means there (regex-lite's `\s` is
/// ASCII only), as the inside of a character class.
const ECMA_SPACE: &str =
    r"\t\n\x0B\x0C\r\x20\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// Compiles every `pattern` string and every `patternProperties` name found anywhere in the
/// document, whatever its siblings. Gives the compiled ones, keyed by the document's text, and
/// the ones that could not be (look-arounds, back-references, `\p{..}`, ...), which the
/// validator then does not enforce. Strings under `pattern` keys of examples are read too: an
/// extra regex is harmless.
pub fn compile_patterns(doc: &Value) -> (HashMap<String, regex_lite::Regex>, Vec<String>) {
    fn add(pattern: &str, out: &mut HashMap<String, regex_lite::Regex>, skipped: &mut Vec<String>) {
        if out.contains_key(pattern) || skipped.iter().any(|s| s == pattern) {
            return;
        }
        match ecma_to_regex(pattern).and_then(|p| regex_lite::Regex::new(&p).ok()) {
            Some(re) => {
                out.insert(pattern.to_owned(), re);
            }
            None => skipped.push(pattern.to_owned()),
        }
    }
    fn walk(
        v: &Value,
        depth: usize,
        out: &mut HashMap<String, regex_lite::Regex>,
        skipped: &mut Vec<String>,
    ) {
        // Parsed documents are at most 128 deep; a built one could be deeper.
        if depth > 256 {
            return;
        }
        match v {
            Value::Object(map) => {
                if let Some(Value::String(p)) = map.get("pattern") {
                    add(p, out, skipped);
                }
                if let Some(Value::Object(named)) = map.get("patternProperties") {
                    named.keys().for_each(|p| add(p, out, skipped));
                }
                map.values().for_each(|c| walk(c, depth + 1, out, skipped));
            }
            Value::Array(items) => items.iter().for_each(|c| walk(c, depth + 1, out, skipped)),
            _ => {}
        }
    }
    let mut out = HashMap::new();
    let mut skipped = Vec::new();
    walk(doc, 0, &mut out, &mut skipped);
    (out, skipped)
}

/// Rewrites an ECMA-262 pattern (without flags) for regex-lite, or `None` when it holds a
/// construct whose meaning differs and cannot be rewritten (`[]`, `[^]`, `\S` in a negated
/// class). Rewritten: `\s`/`\S` (Unicode spaces), `.` (no line terminators), a `{` that does
/// not start a quantifier (literal in ECMA), `[` `&` `~` and `--` inside classes (literal in
/// ECMA, set operations in regex-lite), `-` next to a class escape (`[\w-.]`), `[\b]`
/// (backspace), `\0`, `\cX`, `\<` and `\>` (literal). `\d`, `\w`, `\b` are ASCII in both.
/// What regex-lite rejects (look-arounds, back-references) fails to compile afterwards.
pub(crate) fn ecma_to_regex(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let class_escape =
        |i: usize| chars.get(i) == Some(&'\\') && chars.get(i + 1).is_some_and(|c| "dDwWsS".contains(*c));
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut in_class = false;
    let mut negated = false;
    // Inside a class: the last item was a `-` that makes a range, or a class escape.
    let mut previous_dash = false;
    let mut previous_escape = false;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        let (mut dash, mut escape) = (false, false);
        match c {
            '\\' => {
                let escaped = *chars.get(i)?;
                i += 1;
                escape = in_class && "dDwWsS".contains(escaped);
                match escaped {
                    's' if in_class => out.push_str(ECMA_SPACE),
                    's' => {
                        out.push('[');
                        out.push_str(ECMA_SPACE);
                        out.push(']');
                    }
                    // regex-lite cannot nest classes: inside one, its ASCII `\S` is kept, which
                    // lets more through; negated, that would keep valid values out.
                    'S' if in_class && negated => return None,
                    'S' if in_class => out.push_str(r"\S"),
                    'S' => {
                        out.push_str("[^");
                        out.push_str(ECMA_SPACE);
                        out.push(']');
                    }
                    'b' if in_class => out.push_str(r"\x08"),
                    '0' if !chars.get(i).is_some_and(char::is_ascii_digit) => out.push_str(r"\x00"),
                    'c' if chars.get(i).is_some_and(char::is_ascii_alphabetic) => {
                        out.push_str(&format!(r"\x{{{:X}}}", u32::from(chars[i]) % 32));
                        i += 1;
                    }
                    '<' | '>' => out.push(escaped),
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
            }
            '[' if in_class => out.push_str(r"\["),
            '[' => {
                in_class = true;
                out.push('[');
                negated = chars.get(i) == Some(&'^');
                if negated {
                    out.push('^');
                    i += 1;
                }
                // ECMA's `[]` matches nothing and `[^]` anything; to regex-lite `]` first is literal.
                if chars.get(i) == Some(&']') {
                    return None;
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
            }
            // A `-` after a range's `-`, or beside a class escape, is a literal in ECMA.
            '-' if in_class && (previous_dash || previous_escape || class_escape(i)) => out.push_str(r"\-"),
            '-' if in_class => {
                dash = true;
                out.push('-');
            }
            '.' if !in_class => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            '{' if !in_class && !is_quantifier(&chars[i..]) => out.push_str(r"\{"),
            _ => out.push(c),
        }
        previous_dash = dash;
        previous_escape = escape;
    }
    Some(out)
}

/// Whether `rest` (what follows a `{`) is `n}`, `n,}` or `n,m}`: otherwise ECMA reads the `{`
/// as itself.
fn is_quantifier(rest: &[char]) -> bool {
    let digits = |from: usize| rest[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let low = digits(0);
    if low == 0 {
        return false;
    }
    match rest.get(low) {
        Some('}') => true,
        Some(',') => rest.get(low + 1 + digits(low + 1)) == Some(&'}'),
        _ => false,
    }
}
