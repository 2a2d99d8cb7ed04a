//! A pattern's tree: the pattern as [`crate::ecma_to_regex`] writes it (ECMA-262 in Rust's
//! dialect), read with ECMA-262's meanings: `\d`, `\w` and `\b` are ASCII, `.` is any
//! character but `\n`, a class is resolved into the ranges of characters it allows. The checker
//! compiles and runs it (`matcher`) and the generator walks it into a matching string. What this
//! reader does not know (flags, Unicode properties, back-references, a quantifier on a
//! quantifier) is `None`: the checker does not enforce the pattern, and the generator says it
//! could not read it.
//!
//! Our own reader rather than `regex-syntax` or `regex-lite`: the checker and the generator need
//! a tree of a few kinds of node and the ranges of a class, not a general parser.
//! `regex-syntax` was the largest part of the try-it and mock modules' code after Leptos (75 KB
//! of the try-it module's code before wasm-opt), and `regex-lite` 31 KB more.

/// A node of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Matches the empty string.
    Empty,
    /// One character.
    Literal(char),
    /// One character of these ranges (sorted, apart, none empty; no ranges: nothing matches).
    Class(Vec<(char, char)>),
    /// An assertion that matches no character.
    Look(Look),
    /// Each in turn.
    Concat(Vec<Node>),
    /// One of them.
    Alternation(Vec<Node>),
    /// `sub` from `min` to `max` times.
    Repeat {
        /// What is repeated.
        sub: Box<Node>,
        /// The fewest times.
        min: u32,
        /// The most times (`None`: no bound).
        max: Option<u32>,
    },
}

/// What an assertion asserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// `^` (or `\A`).
    Start,
    /// `$` (or `\z`).
    End,
    /// `\b`: a word character (ASCII) on one side only.
    WordBoundary,
    /// `\B`: word characters on both sides or on neither.
    NotWordBoundary,
}

/// Nesting deeper than this is not read (`None`): the walk is recursive.
const MAX_DEPTH: usize = 64;

/// The last Unicode scalar value.
const LAST: char = char::MAX;

/// Reads `pattern` (see the module's comment); `None` for what this reader does not know.
#[must_use]
pub fn parse(pattern: &str) -> Option<Node> {
    let mut reader = Reader { chars: pattern.chars().collect(), at: 0, depth: 0 };
    let node = reader.alternation()?;
    (reader.at == reader.chars.len()).then_some(node)
}

impl Node {
    /// Whether every match starts at the text's start (`^` first on every branch).
    #[must_use]
    pub fn anchored_start(&self) -> bool {
        self.anchored(Look::Start, <[Node]>::first)
    }

    /// Whether every match ends at the text's end (`$` last on every branch).
    #[must_use]
    pub fn anchored_end(&self) -> bool {
        self.anchored(Look::End, <[Node]>::last)
    }

    fn anchored(&self, look: Look, edge: fn(&[Node]) -> Option<&Node>) -> bool {
        match self {
            Node::Look(l) => *l == look,
            Node::Concat(items) => edge(items).is_some_and(|n| n.anchored(look, edge)),
            Node::Alternation(branches) => branches.iter().all(|b| b.anchored(look, edge)),
            Node::Repeat { sub, min, .. } => *min > 0 && sub.anchored(look, edge),
            Node::Empty | Node::Literal(_) | Node::Class(_) => false,
        }
    }

    /// The fewest characters a match has.
    #[must_use]
    pub fn minimum_len(&self) -> usize {
        match self {
            Node::Empty | Node::Look(_) => 0,
            Node::Literal(_) | Node::Class(_) => 1,
            Node::Concat(items) => items.iter().map(Node::minimum_len).fold(0, usize::saturating_add),
            Node::Alternation(branches) => branches.iter().map(Node::minimum_len).min().unwrap_or(0),
            Node::Repeat { sub, min, .. } => sub.minimum_len().saturating_mul(*min as usize),
        }
    }
}

struct Reader {
    chars: Vec<char>,
    at: usize,
    depth: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        self.at += usize::from(found);
        found
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn alternation(&mut self) -> Option<Node> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let mut branches = vec![self.concat()?];
        while self.eat('|') {
            branches.push(self.concat()?);
        }
        self.depth -= 1;
        Some(if branches.len() == 1 { branches.pop()? } else { Node::Alternation(branches) })
    }

    fn concat(&mut self) -> Option<Node> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            items.push(self.quantified(atom)?);
        }
        Some(match items.len() {
            0 => Node::Empty,
            1 => items.pop()?,
            _ => Node::Concat(items),
        })
    }

    /// `atom` with the quantifier after it (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, maybe lazy:
    /// the same strings match). A second one (`a**`) is refused, as in ECMA-262: a chain of
    /// them would nest without bound.
    fn quantified(&mut self, atom: Node) -> Option<Node> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.at += 1;
                let min = self.number()?;
                let max = if self.eat(',') {
                    if self.peek() == Some('}') { None } else { Some(self.number()?) }
                } else {
                    Some(min)
                };
                if self.peek() != Some('}') || max.is_some_and(|max| max < min) {
                    return None;
                }
                (min, max)
            }
            _ => return Some(atom),
        };
        self.at += 1;
        self.eat('?');
        if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
            return None;
        }
        Some(Node::Repeat { sub: Box::new(atom), min, max })
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits: String = self.chars.get(start..self.at)?.iter().collect();
        digits.parse().ok()
    }

    fn atom(&mut self) -> Option<Node> {
        match self.next()? {
            '(' => {
                if self.eat('?') {
                    // `(?:…)` and named groups; flags and the rest are not read.
                    match self.next()? {
                        ':' => {}
                        'P' if self.eat('<') => self.name()?,
                        '<' => self.name()?,
                        _ => return None,
                    }
                }
                let inner = self.alternation()?;
                self.eat(')').then_some(inner)
            }
            '[' => self.class(),
            '.' => Some(Node::Class(complement(&[('\n', '\n')]))),
            '^' => Some(Node::Look(Look::Start)),
            '$' => Some(Node::Look(Look::End)),
            '\\' => match self.escape()? {
                Escape::Char(c) => Some(Node::Literal(c)),
                Escape::Set(ranges) => Some(Node::Class(ranges)),
                Escape::Look(look) => Some(Node::Look(look)),
            },
            '*' | '+' | '?' | '{' | ')' => None,
            c => Some(Node::Literal(c)),
        }
    }

    /// A group's name up to its `>`.
    fn name(&mut self) -> Option<()> {
        while self.next()? != '>' {}
        Some(())
    }

    /// After a `\`.
    fn escape(&mut self) -> Option<Escape> {
        const DIGITS: &[(char, char)] = &[('0', '9')];
        const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
        const SPACE: &[(char, char)] = &[('\t', '\r'), (' ', ' ')];
        let c = self.next()?;
        Some(match c {
            'd' => Escape::Set(DIGITS.to_vec()),
            'D' => Escape::Set(complement(DIGITS)),
            'w' => Escape::Set(WORD.to_vec()),
            'W' => Escape::Set(complement(WORD)),
            's' => Escape::Set(SPACE.to_vec()),
            'S' => Escape::Set(complement(SPACE)),
            'b' => Escape::Look(Look::WordBoundary),
            'B' => Escape::Look(Look::NotWordBoundary),
            'A' => Escape::Look(Look::Start),
            'z' => Escape::Look(Look::End),
            'n' => Escape::Char('\n'),
            't' => Escape::Char('\t'),
            'r' => Escape::Char('\r'),
            'f' => Escape::Char('\u{c}'),
            'v' => Escape::Char('\u{b}'),
            'a' => Escape::Char('\u{7}'),
            'e' => Escape::Char('\u{1b}'),
            'x' => {
                let digits: String = if self.eat('{') {
                    let start = self.at;
                    while self.next()? != '}' {}
                    self.chars.get(start..self.at - 1)?.iter().collect()
                } else {
                    [self.next()?, self.next()?].iter().collect()
                };
                Escape::Char(char::from_u32(u32::from_str_radix(&digits, 16).ok()?)?)
            }
            c if c.is_ascii_punctuation() || c == ' ' => Escape::Char(c),
            _ => return None,
        })
    }

    /// After a `[`: the class's ranges, negated or not.
    fn class(&mut self) -> Option<Node> {
        let negated = self.eat('^');
        let mut ranges: Vec<(char, char)> = Vec::new();
        let mut first = true;
        loop {
            let c = self.next()?;
            if c == ']' && !first {
                break;
            }
            first = false;
            let low = match c {
                '\\' => match self.escape()? {
                    Escape::Char(c) => c,
                    Escape::Set(set) => {
                        ranges.extend(set);
                        continue;
                    }
                    Escape::Look(_) => return None,
                },
                '[' => return None,
                c => c,
            };
            let range = self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|c| *c != ']');
            let high = if range {
                self.at += 1;
                match self.next()? {
                    '\\' => match self.escape()? {
                        Escape::Char(c) => c,
                        _ => return None,
                    },
                    c => c,
                }
            } else {
                low
            };
            if high < low {
                return None;
            }
            ranges.push((low, high));
        }
        let ranges = normalized(ranges);
        Some(Node::Class(if negated { complement(&ranges) } else { ranges }))
    }
}

enum Escape {
    Char(char),
    Set(Vec<(char, char)>),
    Look(Look),
}

/// `ranges` sorted, overlapping and touching ones merged.
fn normalized(mut ranges: Vec<(char, char)>) -> Vec<(char, char)> {
    ranges.sort_unstable();
    let mut out: Vec<(char, char)> = Vec::with_capacity(ranges.len());
    for (low, high) in ranges {
        match out.last_mut() {
            Some(last) if u32::from(low) <= u32::from(last.1).saturating_add(1) => last.1 = last.1.max(high),
            _ => out.push((low, high)),
        }
    }
    out
}

/// Every character that is in none of `ranges` (surrogates are no characters).
fn complement(ranges: &[(char, char)]) -> Vec<(char, char)> {
    let mut out = Vec::new();
    let mut next = Some('\0');
    for &(low, high) in &normalized(ranges.to_vec()) {
        if let Some(start) = next
            && start < low
        {
            out.extend(span(start, before(low)));
        }
        next = after(high);
    }
    if let Some(start) = next {
        out.extend(span(start, LAST));
    }
    out
}

/// `low..=high` as ranges of characters: split around the surrogates.
fn span(low: char, high: char) -> Vec<(char, char)> {
    let (gap_low, gap_high) = ('\u{D7FF}', '\u{E000}');
    if low <= gap_low && high >= gap_high {
        vec![(low, gap_low), (gap_high, high)]
    } else {
        vec![(low, high)]
    }
}

fn before(c: char) -> char {
    match c {
        '\u{E000}' => '\u{D7FF}',
        c => char::from_u32(u32::from(c) - 1).unwrap_or(c),
    }
}

fn after(c: char) -> Option<char> {
    match c {
        '\u{D7FF}' => Some('\u{E000}'),
        LAST => None,
        c => char::from_u32(u32::from(c) + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(ranges: &[(char, char)]) -> Node {
        Node::Class(ranges.to_vec())
    }

    #[test]
    fn literals_classes_groups_and_repetitions_are_read() {
        assert_eq!(
            parse(r"^a[b-d\d]+(?:x|yz){2,3}?$"),
            Some(Node::Concat(vec![
                Node::Look(Look::Start),
                Node::Literal('a'),
                Node::Repeat { sub: Box::new(class(&[('0', '9'), ('b', 'd')])), min: 1, max: None },
                Node::Repeat {
                    sub: Box::new(Node::Alternation(vec![
                        Node::Literal('x'),
                        Node::Concat(vec![Node::Literal('y'), Node::Literal('z')])
                    ])),
                    min: 2,
                    max: Some(3),
                },
                Node::Look(Look::End),
            ]))
        );
        assert_eq!(parse("(?<year>a){4}"), parse("(?P<year>a){4}"));
        assert_eq!(parse(r"\x{41}\x42\-\."), parse(r"AB-\."));
        assert_eq!(parse(""), Some(Node::Empty));
        assert_eq!(
            parse("a{3,}"),
            Some(Node::Repeat { sub: Box::new(Node::Literal('a')), min: 3, max: None })
        );
    }

    #[test]
    fn negated_classes_and_escapes_are_resolved_into_ranges_without_surrogates() {
        let Some(Node::Class(ranges)) = parse(r"[^\x{0}-\x{10FFFF}]") else { panic!() };
        assert!(ranges.is_empty());
        let Some(Node::Class(ranges)) = parse(r"[^a]") else { panic!() };
        assert_eq!(ranges, vec![('\0', '`'), ('b', '\u{D7FF}'), ('\u{E000}', char::MAX)]);
        assert_eq!(parse(r"\W"), parse(r"[^0-9A-Z_a-z]"));
        assert_eq!(parse(r"[a-cb-e\-]"), Some(class(&[('-', '-'), ('a', 'e')])));
        assert_eq!(parse(r"."), parse(r"[^\n]"));
    }

    #[test]
    fn anchors_and_the_shortest_match() {
        let read = |p: &str| parse(p).expect(p);
        assert!(read("^a|^b").anchored_start() && !read("^a|b").anchored_start());
        assert!(read("(?:a$)+").anchored_end() && !read("(?:a$)*").anchored_end());
        assert_eq!(read(r"a{3}(?:bc|d)?e+").minimum_len(), 4);
    }

    #[test]
    fn what_is_not_read_is_none() {
        for pattern in [
            "(?i)a",
            r"\p{L}",
            r"\1",
            "a{3,2}",
            "a**",
            "a+?+",
            "a{2}{3}",
            "(a",
            "a)",
            "[a",
            "*a",
            r"[b-a]",
            r"\x{D800}",
            r"[\b]",
        ] {
            assert_eq!(parse(pattern), None, "{pattern}");
        }
        assert_eq!(parse(&"(".repeat(100)), None, "too deep");
    }
}
