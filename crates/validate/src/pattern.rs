//! `pattern`s and `patternProperties` names, which are ECMA-262 regular expressions: rewritten
//! in Rust's dialect ([`ecma_to_regex`]), read into a tree ([`crate::pattern_tree`], which the
//! generator walks too), compiled ([`crate::matcher`]) once and kept ([`Patterns`]).
//!
//! The rewrite keeps ECMA's meaning where the two dialects read the same text differently:
//! `\s` and `\S` (Unicode spaces in ECMA), `.` (no line terminators), `{` and `}` that are no
//! quantifier (literal in ECMA), `[` `&` `~` and `-` inside classes (literal in ECMA, set
//! operations or ranges in Rust), `[\b]` (backspace), `\0`, `\v`, `\cX`, `\xHH`, `\uXXXX` with
//! surrogate pairs, and identity escapes of punctuation (`\/`, `\<`). `\d`, `\w` and `\b` are
//! ASCII in both. Two things are approximated and flagged: Unicode properties (`\p{L}`), which
//! become their ASCII members (so what matches the rewrite matches the pattern, not always the
//! other way round; a second, wider rewrite adds every non-ASCII character, and what it misses
//! the pattern misses too), and repetition counts above [`MAX_COUNT`], which are cut (the same
//! answer for texts up to that many characters). Look-arounds, back-references, letters escaped
//! for no reason (`\A`) and ECMA's empty classes (`[]`, `[^]`) have no rewrite.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::matcher::Program;
use crate::pattern_tree;

/// Repetition counts above this are cut to one more: texts up to this many characters are
/// read the same.
pub const MAX_COUNT: u32 = 4_096;

/// Patterns kept by one [`Patterns`]; past it the kept ones are dropped and compiled anew.
const MAX_KEPT: usize = 4_096;

/// ECMA-262 `WhiteSpace` and `LineTerminator`, what `\s` means there (the tree's `\s` is
/// ASCII only), as ranges of code points.
const ECMA_SPACE: [(u32, u32); 10] = [
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];

/// The last Unicode code point.
const LAST: u32 = 0x10_FFFF;

/// An ECMA-262 pattern in Rust's dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translation {
    /// The pattern in Rust's dialect, for [`crate::pattern_tree`].
    pub text: String,
    /// A Unicode property was read for its ASCII members: a text the translation matches is
    /// matched by the pattern, but a text it misses may still be.
    pub approximate: bool,
    /// A repetition count above [`MAX_COUNT`] was cut: texts longer than that are not read
    /// the same.
    pub cut: bool,
}

/// Rewrites an ECMA-262 pattern (without flags) in Rust's dialect (see the module's comment);
/// `None` for what has no rewrite.
#[must_use]
pub fn ecma_to_regex(pattern: &str) -> Option<Translation> {
    translate(pattern, false)
}

/// [`ecma_to_regex`], with Unicode properties read for their ASCII members (a translation that
/// matches less than the pattern) or, when `wide`, for their ASCII members and every character
/// past ASCII (one that matches more): a text the narrow one matches is matched, and one the
/// wide one misses is not.
fn translate(pattern: &str, wide: bool) -> Option<Translation> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out =
        Translation { text: String::with_capacity(pattern.len() + 8), approximate: false, cut: false };
    // Inside a class: whether it is negated.
    let mut class: Option<bool> = None;
    // Inside a class: no item yet, and what the last item was (a range's `-`, the end of a
    // range, a class escape).
    let (mut first, mut after_dash, mut after_range, mut after_set) = (false, false, false, false);
    let set_escape_at =
        |i: usize| chars.get(i) == Some(&'\\') && chars.get(i + 1).is_some_and(|c| "dDwWsSpP".contains(*c));
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        let (mut dash, mut set) = (false, false);
        match (class, c) {
            (_, '\\') => {
                let (text, used, is_set) = escape(&chars, i + 1, class, wide, &mut out.approximate)?;
                out.text.push_str(&text);
                set = is_set;
                i += used - 1;
            }
            (Some(_), ']') => {
                class = None;
                out.text.push(']');
            }
            (Some(_), '[' | '&' | '~') => {
                out.text.push('\\');
                out.text.push(c);
            }
            // A `-` is a range's only between two single characters: after a range, beside a
            // class escape, first or last it is itself.
            (Some(_), '-') => {
                let literal = after_dash
                    || after_range
                    || after_set
                    || set_escape_at(i + 1)
                    || next == Some(']')
                    || first;
                if literal {
                    out.text.push_str(r"\-");
                } else {
                    dash = true;
                    out.text.push('-');
                }
            }
            (Some(_), _) => out.text.push(c),
            (None, '[') => {
                let negated = next == Some('^');
                // ECMA's `[]` matches nothing and `[^]` anything; to Rust `]` first is literal.
                if chars.get(i + 1 + usize::from(negated)) == Some(&']') {
                    return None;
                }
                class = Some(negated);
                out.text.push_str(if negated { "[^" } else { "[" });
                i += 1 + usize::from(negated);
                (first, after_dash, after_range, after_set) = (true, false, false, false);
                continue;
            }
            (None, '(') if next == Some('?') => {
                let rest: String = chars.get(i + 2..).unwrap_or(&[]).iter().take(2).collect();
                if rest.starts_with('=') || rest.starts_with('!') || rest == "<=" || rest == "<!" {
                    return None;
                }
                out.text.push(c);
            }
            (None, '.') => out.text.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            (None, '{') => match quantifier(&chars, i) {
                Some((low, high, used)) => {
                    let clamp = |n: u32| n.min(MAX_COUNT + 1);
                    out.cut |= low > MAX_COUNT || high.is_some_and(|h| h.is_some_and(|h| h > MAX_COUNT));
                    out.text.push_str(&match high {
                        None => format!("{{{}}}", clamp(low)),
                        Some(None) => format!("{{{},}}", clamp(low)),
                        Some(Some(h)) => format!("{{{},{}}}", clamp(low), clamp(h)),
                    });
                    i += used - 1;
                }
                None => out.text.push_str(r"\{"),
            },
            (None, '}') => out.text.push_str(r"\}"),
            (None, _) => out.text.push(c),
        }
        if class.is_some() {
            after_range = after_dash && !dash;
            (first, after_dash, after_set) = (false, dash, set);
        }
        i += 1;
    }
    class.is_none().then_some(out)
}

/// A `{n}`, `{n,}` or `{n,m}` at `at`: the low count, the high one (`None` for `{n}`,
/// `Some(None)` for `{n,}`) and the characters used. Counts past `u32` saturate: they are cut
/// anyway.
fn quantifier(chars: &[char], at: usize) -> Option<(u32, Option<Option<u32>>, usize)> {
    let digits = |from: usize| chars.get(from..).unwrap_or(&[]).iter().take_while(|c| c.is_ascii_digit());
    let count = |from: usize| {
        digits(from).fold(0_u32, |n, c| n.saturating_mul(10).saturating_add(c.to_digit(10).unwrap_or(0)))
    };
    let low_len = digits(at + 1).count();
    if low_len == 0 {
        return None;
    }
    let mut close = at + 1 + low_len;
    let high = match chars.get(close) {
        Some('}') => None,
        Some(',') => {
            let high_len = digits(close + 1).count();
            let high = (high_len > 0).then(|| count(close + 1));
            close += 1 + high_len;
            Some(high)
        }
        _ => return None,
    };
    (chars.get(close) == Some(&'}')).then(|| (count(at + 1), high, close - at + 1))
}

/// The escape after the backslash at `at`: its text in Rust's dialect, how many characters it
/// used with the backslash, and whether it stands for a set (`\d`, `\p{L}`).
fn escape(
    chars: &[char],
    at: usize,
    class: Option<bool>,
    wide: bool,
    approximate: &mut bool,
) -> Option<(String, usize, bool)> {
    let c = *chars.get(at)?;
    let hex = |from: usize, len: usize| -> Option<u32> {
        let text: String = chars.get(from..from + len)?.iter().collect();
        (text.len() == len).then(|| u32::from_str_radix(&text, 16).ok()).flatten()
    };
    let code = |n: u32| format!("\\x{{{n:X}}}");
    let set = |ranges: &[(u32, u32)]| {
        let text = ranges_text(ranges);
        match (class.is_some(), text.is_empty()) {
            (true, _) => text,
            (false, false) => format!("[{text}]"),
            (false, true) => format!(r"[^\x{{0}}-\x{{{LAST:X}}}]"),
        }
    };
    Some(match c {
        'd' | 'D' | 'w' | 'W' => (format!("\\{c}"), 2, true),
        's' => (set(&ECMA_SPACE), 2, true),
        'S' => (set(&complement(&ECMA_SPACE, LAST)), 2, true),
        'b' if class.is_some() => (code(8), 2, false),
        'B' if class.is_some() => return None,
        'b' | 'B' | 't' | 'n' | 'r' | 'f' => (format!("\\{c}"), 2, false),
        'v' => (code(0x0B), 2, false),
        '0' if !chars.get(at + 1).is_some_and(char::is_ascii_digit) => (code(0), 2, false),
        'x' => (code(hex(at + 1, 2)?), 4, false),
        'c' => {
            let letter = chars.get(at + 1).filter(|l| l.is_ascii_alphabetic())?;
            (code(u32::from(*letter) % 32), 3, false)
        }
        'u' if chars.get(at + 1) == Some(&'{') => {
            let close = (at + 2..chars.len().min(at + 10)).find(|&j| chars.get(j) == Some(&'}'))?;
            let point = hex(at + 2, close - at - 2).filter(|p| *p <= LAST)?;
            (code(point), close - at + 2, false)
        }
        'u' => {
            let high = hex(at + 1, 4)?;
            let low = (chars.get(at + 5) == Some(&'\\') && chars.get(at + 6) == Some(&'u'))
                .then(|| hex(at + 7, 4))
                .flatten()
                .filter(|low| (0xDC00..=0xDFFF).contains(low));
            match low {
                Some(low) if (0xD800..=0xDBFF).contains(&high) => {
                    (code(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)), 12, false)
                }
                // A lone surrogate is no character of a Rust string: U+FFFD stands in.
                _ if (0xD800..=0xDFFF).contains(&high) => (code(0xFFFD), 6, false),
                _ => (code(high), 6, false),
            }
        }
        'p' | 'P' => {
            let (name, used) = if chars.get(at + 1) == Some(&'{') {
                let close = (at + 2..chars.len()).find(|&j| chars.get(j) == Some(&'}'))?;
                (chars.get(at + 2..close)?.iter().collect::<String>(), close - at + 2)
            } else {
                (chars.get(at + 1)?.to_string(), 3)
            };
            let members = ascii_members(&name)?;
            *approximate = true;
            // The ASCII members are a subset of the property (and the other ASCII characters of
            // its negation); inside a negated class the set must be a superset instead, so it
            // takes every non-ASCII character too. The wide reading turns both round.
            let mut ranges = if c == 'P' { complement(&members, 0x7F) } else { members };
            if (class == Some(true)) != wide {
                ranges.push((0x80, LAST));
            }
            (set(&ranges), used, true)
        }
        c if !c.is_ascii_alphanumeric() => {
            let meta = "\\.+*?()|[]{}^$#&-~".contains(c);
            (if meta { format!("\\{c}") } else { c.to_string() }, 2, false)
        }
        // Back-references, and letters ECMA reads as themselves only in its legacy grammar.
        _ => return None,
    })
}

/// Ranges of code points as the inside of a class: `\x{30}-\x{39}\x{5F}`.
fn ranges_text(ranges: &[(u32, u32)]) -> String {
    let mut out = String::new();
    for &(a, b) in ranges {
        out.push_str(&format!("\\x{{{a:X}}}"));
        if b > a {
            out.push_str(&format!("-\\x{{{b:X}}}"));
        }
    }
    out
}

/// The code points up to `last` that are not in `set`.
fn complement(set: &[(u32, u32)], last: u32) -> Vec<(u32, u32)> {
    let mut sorted = set.to_vec();
    sorted.sort_unstable();
    let mut out = Vec::new();
    let mut start = 0;
    for (a, b) in sorted {
        if a > start {
            out.push((start, a - 1));
        }
        start = start.max(b + 1);
    }
    if start <= last {
        out.push((start, last));
    }
    out
}

/// The ASCII members of a Unicode general category or of the POSIX-style classes some
/// documents write (`Alpha`, `Punct`...), as ranges of code points; `None` for a name not
/// known here.
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

/// One pattern, compiled.
#[derive(Debug)]
pub struct Pattern {
    program: Program,
    /// For an approximated pattern, the translation that matches more ([`translate`]'s wide
    /// one): its misses are sure.
    wide: Option<Program>,
    approximate: bool,
    cut: bool,
}

impl Pattern {
    /// The ECMA-262 `pattern` compiled; `None` when it has no rewrite, or the rewrite is not
    /// read ([`crate::pattern_tree`]) or too large ([`crate::MAX_PATTERN_STEPS`]).
    #[must_use]
    pub fn new(pattern: &str) -> Option<Self> {
        let compile = |text: &str| pattern_tree::parse(text).and_then(|tree| Program::new(&tree));
        let translation = ecma_to_regex(pattern)?;
        let program = compile(&translation.text)?;
        let wide = if translation.approximate {
            translate(pattern, true).and_then(|wide| compile(&wide.text))
        } else {
            None
        };
        Some(Self { program, wide, approximate: translation.approximate, cut: translation.cut })
    }

    /// Whether the pattern finds a match in `text` (patterns are not anchored); `None` when the
    /// compiled form cannot tell (a miss of an approximated pattern, a text past a cut count).
    #[must_use]
    pub fn matches(&self, text: &str) -> Option<bool> {
        if self.cut && text.chars().count() > MAX_COUNT as usize {
            return None;
        }
        match self.program.is_match(text) {
            false if self.approximate => match &self.wide {
                Some(wide) if !wide.is_match(text) => Some(false),
                _ => None,
            },
            found => Some(found),
        }
    }
}

/// Compiled patterns, kept by their text; a pattern not met before is compiled when asked for.
/// Shared between threads; at most 4,096 are kept.
#[derive(Debug, Default)]
pub struct Patterns {
    kept: Mutex<HashMap<String, Option<Arc<Pattern>>>>,
}

impl Patterns {
    /// `pattern` compiled (`None`: it cannot be, and is not enforced).
    #[must_use]
    pub fn get(&self, pattern: &str) -> Option<Arc<Pattern>> {
        if let Some(found) = self.kept.lock().unwrap_or_else(PoisonError::into_inner).get(pattern) {
            return found.clone();
        }
        // Compiled without holding the lock: other threads keep reading meanwhile.
        let made = Pattern::new(pattern).map(Arc::new);
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() >= MAX_KEPT {
            kept.clear();
        }
        kept.insert(pattern.to_owned(), made.clone());
        made
    }

    /// Whether `pattern` finds a match in `text`; `None` when that cannot be told here (the
    /// pattern does not compile, or is approximated and misses).
    #[must_use]
    pub fn matches(&self, pattern: &str, text: &str) -> Option<bool> {
        self.get(pattern)?.matches(text)
    }
}

/// Compiles every `pattern` string and every `patternProperties` name found anywhere in the
/// document, whatever its siblings (strings under `pattern` keys of examples too: an extra
/// regex is harmless). Gives them kept, and the ones values are not held to in full: those
/// that cannot be compiled (look-arounds, back-references, ...), which are not enforced, and
/// the approximated ones (`\p{..}`), whose misses are not.
#[must_use]
pub fn compile_patterns(doc: &Value) -> (Patterns, Vec<String>) {
    fn walk(v: &Value, depth: usize, patterns: &Patterns, skipped: &mut Vec<String>) {
        // Parsed documents are at most 128 deep; a built one could be deeper.
        if depth > 256 {
            return;
        }
        let mut add = |pattern: &str| {
            let held = patterns.get(pattern).is_some_and(|p| !p.approximate);
            if !held && !skipped.iter().any(|s| s == pattern) {
                skipped.push(pattern.to_owned());
            }
        };
        match v {
            Value::Object(map) => {
                if let Some(Value::String(p)) = map.get("pattern") {
                    add(p);
                }
                if let Some(Value::Object(named)) = map.get("patternProperties") {
                    named.keys().for_each(|p| add(p));
                }
                map.values().for_each(|c| walk(c, depth + 1, patterns, skipped));
            }
            Value::Array(items) => items.iter().for_each(|c| walk(c, depth + 1, patterns, skipped)),
            _ => {}
        }
    }
    let patterns = Patterns::default();
    let mut skipped = Vec::new();
    walk(doc, 0, &patterns, &mut skipped);
    (patterns, skipped)
}
