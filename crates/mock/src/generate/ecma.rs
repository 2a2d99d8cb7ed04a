//! OpenAPI `pattern`s are ECMA-262 regular expressions; `regex-syntax` and `regex-lite` read
//! Rust's dialect. This rewrites what differs: Unicode properties (`\p{L}`: `regex-lite` has
//! none, and `regex-syntax` is built here without them, on wasm32 too), `\uXXXX` escapes and
//! surrogate pairs, `[` and `-` taken literally inside classes, braces that are not a
//! quantifier. A property becomes its ASCII members, which is a subset of it where the
//! pattern asks for it and, under negation, its ASCII members with every non-ASCII character,
//! a superset: either way what matches the rewrite matches the original. Repetition counts
//! above 4,096 are cut to 4,097, which changes nothing for strings of at most 4,096 characters.

/// The rewritten pattern, and whether a repetition count was cut.
pub(super) struct Rewritten {
    pub(super) text: String,
    pub(super) cut: bool,
}

/// Repetition counts above this are cut (generated strings are never longer).
const MAX_COUNT: u32 = 4_096;

/// The pattern in Rust's dialect; `None` for what has no counterpart here (look-arounds,
/// back-references, a Unicode property not in the table, unknown escapes).
pub(super) fn rewrite(pattern: &str) -> Option<Rewritten> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut cut = false;
    let mut i = 0;
    // Inside a class: whether it is negated, and whether the last item was a class escape.
    let mut class: Option<bool> = None;
    let mut after_set = false;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        if c == '\\' {
            let (text, used, is_set) = escape(&chars, i + 1, class)?;
            if class.is_some() && after_set_hyphen(&out) && is_set {
                // `[\w-\d]`: the hyphen between two sets is a literal in ECMA.
                out.insert(out.len() - 1, '\\');
            }
            out.push_str(&text);
            after_set = is_set;
            i += 1 + used;
            continue;
        }
        match (class, c) {
            (Some(_), ']') => {
                class = None;
                out.push(']');
            }
            (Some(_), '[' | '&' | '~') => {
                out.push('\\');
                out.push(c);
            }
            (Some(_), '-') => {
                let literal = after_set || next == Some(']') || next == Some('-') || out.ends_with('[');
                out.push_str(if literal { "\\-" } else { "-" });
            }
            (Some(_), _) => out.push(c),
            (None, '[') => {
                let negated = next == Some('^');
                if matches!(chars.get(i + 1 + usize::from(negated)), Some(']')) {
                    return None; // `[]` and `[^]`
                }
                class = Some(negated);
                out.push_str(if negated { "[^" } else { "[" });
                i += 1 + usize::from(negated);
                after_set = false;
                continue;
            }
            (None, '(') if next == Some('?') => {
                let rest: String = chars.get(i + 2..).unwrap_or(&[]).iter().take(2).collect();
                if rest.starts_with('=') || rest.starts_with('!') || rest == "<=" || rest == "<!" {
                    return None;
                }
                out.push(c);
            }
            (None, '{') => match quantifier(&chars, i) {
                Some((low, high, used)) => {
                    let clamp = |n: u32| n.min(MAX_COUNT + 1);
                    cut |= low > MAX_COUNT || high.is_some_and(|h| h > MAX_COUNT);
                    let high = high.map_or(String::new(), |h| clamp(h).to_string());
                    let comma = if used.1 { "," } else { "" };
                    out.push_str(&format!("{{{}{comma}{high}}}", clamp(low)));
                    i += used.0;
                    continue;
                }
                None => out.push_str("\\{"),
            },
            (None, '}') => out.push_str("\\}"),
            (None, _) => out.push(c),
        }
        after_set = false;
        i += 1;
    }
    class.is_none().then_some(Rewritten { text: out, cut })
}

/// Whether `out` (inside a class) ends with a set escape and a hyphen: `\w-`.
fn after_set_hyphen(out: &str) -> bool {
    out.ends_with('-') && !out.ends_with("\\-")
}

/// A `{n}`, `{n,}` or `{n,m}` at `at`: the counts and (characters used, has a comma).
fn quantifier(chars: &[char], at: usize) -> Option<(u32, Option<u32>, (usize, bool))> {
    let close = (at..chars.len().min(at + 24)).find(|&j| chars.get(j) == Some(&'}'))?;
    let inside: String = chars.get(at + 1..close)?.iter().collect();
    let (low, high) = match inside.split_once(',') {
        Some((low, high)) => (low, Some(high)),
        None => (inside.as_str(), None),
    };
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<u32>().ok()).flatten()
    };
    let low = number(low)?;
    let high = match high {
        Some("") => None,
        Some(h) => Some(number(h)?),
        None => Some(low),
    };
    let has_comma = inside.contains(',');
    Some((low, if has_comma { high } else { None }, (close - at + 1, has_comma)))
}

/// The escape after the backslash at `at`: its text in Rust's dialect, how many characters
/// it used, and whether it stands for a set (`\d`, `\p{L}`).
fn escape(chars: &[char], at: usize, class: Option<bool>) -> Option<(String, usize, bool)> {
    let c = *chars.get(at)?;
    let hex = |from: usize, len: usize| -> Option<u32> {
        let text: String = chars.get(from..from + len)?.iter().collect();
        (text.len() == len).then(|| u32::from_str_radix(&text, 16).ok()).flatten()
    };
    let code = |n: u32| format!("\\x{{{n:X}}}");
    Some(match c {
        'd' | 'D' | 'w' | 'W' | 's' | 'S' => (format!("\\{c}"), 1, true),
        'b' if class.is_some() => (code(8), 1, false),
        'b' | 'B' | 't' | 'n' | 'r' | 'f' => (format!("\\{c}"), 1, false),
        'v' => (code(0x0B), 1, false),
        '0' if !chars.get(at + 1).is_some_and(char::is_ascii_digit) => (code(0), 1, false),
        'x' => (code(hex(at + 1, 2)?), 3, false),
        'c' => {
            let letter = chars.get(at + 1).filter(|l| l.is_ascii_alphabetic())?;
            (code(u32::from(*letter) % 32), 2, false)
        }
        'u' if chars.get(at + 1) == Some(&'{') => {
            let close = (at + 2..chars.len().min(at + 10)).find(|&j| chars.get(j) == Some(&'}'))?;
            (code(hex(at + 2, close - at - 2)?), close - at + 1, false)
        }
        'u' => {
            let high = hex(at + 1, 4)?;
            let low = (chars.get(at + 5) == Some(&'\\') && chars.get(at + 6) == Some(&'u'))
                .then(|| hex(at + 7, 4))
                .flatten()
                .filter(|low| (0xDC00..=0xDFFF).contains(low));
            match low {
                Some(low) if (0xD800..=0xDBFF).contains(&high) => {
                    (code(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)), 11, false)
                }
                // A lone surrogate matches no character of a Rust string.
                _ if (0xD800..=0xDFFF).contains(&high) => (code(0xFFFD), 5, false),
                _ => (code(high), 5, false),
            }
        }
        'p' | 'P' => {
            let (name, used) = if chars.get(at + 1) == Some(&'{') {
                let close = (at + 2..chars.len()).find(|&j| chars.get(j) == Some(&'}'))?;
                (chars.get(at + 2..close)?.iter().collect::<String>(), close - at + 1)
            } else {
                (chars.get(at + 1)?.to_string(), 2)
            };
            let members = ascii_members(&name)?;
            // Negated once (`\P`, or inside `[^...]`): a superset, so its negation is a subset.
            let negative = (c == 'P') != class.unwrap_or(false);
            let mut set = if c == 'P' { complement(&members) } else { members };
            if negative {
                set.push((0x80, 0x10_FFFF));
            }
            let ranges: String = set.iter().map(|&(a, b)| format!("{}-{}", code(a), code(b))).collect();
            let text = match (class.is_some(), ranges.is_empty()) {
                (true, _) => ranges,
                (false, false) => format!("[{ranges}]"),
                (false, true) => "[^\\x{0}-\\x{10FFFF}]".to_owned(),
            };
            (text, used, true)
        }
        c if !c.is_ascii_alphanumeric() => {
            let meta = "\\.+*?()|[]{}^$#&-~".contains(c);
            (if meta { format!("\\{c}") } else { c.to_string() }, 1, false)
        }
        _ => return None, // back-references and escapes ECMA reads as plain letters
    })
}

/// The ASCII members of a Unicode general category or of the POSIX-style classes some
/// documents write (`Alpha`, `Punct`...), as ranges of code points.
fn ascii_members(name: &str) -> Option<Vec<(u32, u32)>> {
    let key: String = name
        .trim_start_matches("General_Category=")
        .trim_start_matches("gc=")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '&')
        .collect::<String>()
        .to_ascii_lowercase();
    let key = key.strip_prefix("is").filter(|k| k.len() > 1).unwrap_or(&key);
    let set: &[(u8, u8)] = match key {
        "l" | "l&" | "lc" | "letter" | "alpha" | "alphabetic" | "casedletter" => {
            &[(b'A', b'Z'), (b'a', b'z')]
        }
        "lu" | "uppercaseletter" | "upper" | "uppercase" => &[(b'A', b'Z')],
        "ll" | "lowercaseletter" | "lower" | "lowercase" => &[(b'a', b'z')],
        "n" | "number" | "nd" | "decimalnumber" | "digit" => &[(b'0', b'9')],
        "alnum" => &[(b'0', b'9'), (b'A', b'Z'), (b'a', b'z')],
        "xdigit" | "hexdigit" | "asciihexdigit" => &[(b'0', b'9'), (b'A', b'F'), (b'a', b'f')],
        "p" | "punctuation" => &[
            (b'!', b'#'),
            (b'%', b'*'),
            (b',', b'/'),
            (b':', b';'),
            (b'?', b'@'),
            (b'[', b']'),
            (b'_', b'_'),
            (b'{', b'{'),
            (b'}', b'}'),
        ],
        "pc" | "connectorpunctuation" => &[(b'_', b'_')],
        "pd" | "dashpunctuation" => &[(b'-', b'-')],
        "ps" | "openpunctuation" => &[(b'(', b'('), (b'[', b'['), (b'{', b'{')],
        "pe" | "closepunctuation" => &[(b')', b')'), (b']', b']'), (b'}', b'}')],
        "po" | "otherpunctuation" => &[
            (b'!', b'#'),
            (b'%', b'\''),
            (b'*', b'*'),
            (b',', b','),
            (b'.', b'/'),
            (b':', b';'),
            (b'?', b'@'),
            (b'\\', b'\\'),
        ],
        "punct" => &[(b'!', b'/'), (b':', b'@'), (b'[', b'`'), (b'{', b'~')],
        "s" | "symbol" => &[
            (b'$', b'$'),
            (b'+', b'+'),
            (b'<', b'>'),
            (b'^', b'^'),
            (b'`', b'`'),
            (b'|', b'|'),
            (b'~', b'~'),
        ],
        "sm" | "mathsymbol" => &[(b'+', b'+'), (b'<', b'>'), (b'|', b'|'), (b'~', b'~')],
        "sc" | "currencysymbol" => &[(b'$', b'$')],
        "sk" | "modifiersymbol" => &[(b'^', b'^'), (b'`', b'`')],
        "z" | "separator" | "zs" | "spaceseparator" => &[(b' ', b' ')],
        "c" | "other" | "cc" | "control" | "cntrl" => &[(0, 0x1F), (0x7F, 0x7F)],
        "space" | "whitespace" => &[(b'\t', b'\r'), (b' ', b' ')],
        "blank" => &[(b'\t', b'\t'), (b' ', b' ')],
        "graph" => &[(b'!', b'~')],
        "print" => &[(b' ', b'~')],
        "ascii" | "any" | "all" => &[(0, 0x7F)],
        "lt" | "titlecaseletter" | "lm" | "modifierletter" | "lo" | "otherletter" | "m" | "mark"
        | "combiningmark" | "mn" | "nonspacingmark" | "mc" | "spacingmark" | "me" | "enclosingmark"
        | "nl" | "letternumber" | "no" | "othernumber" | "pi" | "initialpunctuation" | "pf"
        | "finalpunctuation" | "so" | "othersymbol" | "zl" | "lineseparator" | "zp"
        | "paragraphseparator" | "cf" | "format" | "co" | "privateuse" | "cs" | "surrogate" | "cn"
        | "unassigned" => &[],
        _ => return None,
    };
    Some(set.iter().map(|&(a, b)| (u32::from(a), u32::from(b))).collect())
}

/// The ASCII characters not in `set`.
fn complement(set: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut sorted = set.to_vec();
    sorted.sort_unstable();
    for (a, b) in sorted {
        if a > start {
            out.push((start, a - 1));
        }
        start = start.max(b + 1);
    }
    if start <= 0x7F {
        out.push((start, 0x7F));
    }
    out
}
