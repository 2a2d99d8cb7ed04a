//! Strings that match a `pattern`: the pattern, rewritten in Rust's dialect by
//! `playground_validate` (look-around groups taken out first), is read into a tree
//! ([`playground_validate::pattern_tree`]; anchors and word boundaries ignored), walked with
//! repetition counts picked by seed and stretched towards `minLength`, and the result confirmed by
//! `playground_validate` against the pattern as written (ECMA-262 patterns are unanchored, so
//! text around a match is free where the pattern is not anchored).

use super::Run;
use super::scalar::{MAX_STRING, cut, fits};
use playground_validate::pattern_tree::{self, Node};

/// Tries before giving up on a pattern.
const TRIES: usize = 24;
/// Extra repetitions of an open-ended repetition (`+`, `*`, `{2,}`) unless length asks more.
const OPEN_EXTRA: u32 = 4;

/// Characters picked first, in tiers: letters and digits, then other printable ASCII, then a
/// space, then anything the class allows.
const TIERS: [&[(char, char)]; 3] =
    [&[('0', '9'), ('A', 'Z'), ('a', 'z')], &[('!', '/'), (':', '@'), ('[', '`'), ('{', '~')], &[(' ', ' ')]];

impl Run<'_> {
    /// A string matching `pattern` and every one of `more`, `min..=max` characters long.
    pub(super) fn patterned(&mut self, pattern: &str, more: &[&str], min: usize, max: usize) -> String {
        let cleaned = without_lookaround(pattern);
        let parsed = playground_validate::ecma_to_regex(&cleaned).and_then(|r| pattern_tree::parse(&r.text));
        let tree = match parsed {
            Some(tree) => tree,
            None => {
                self.note(format!("the pattern {pattern:?} could not be read; the string ignores it"));
                return cut(self.word().to_owned(), max);
            }
        };
        let (anchored_start, anchored_end) = (tree.anchored_start(), tree.anchored_end());
        let natural = tree.minimum_len();
        let mut best: Option<String> = None;
        for attempt in 0..TRIES {
            // Half the tries aim at a length inside min..=max, the others walk freely.
            let target = if attempt % 2 == 0 && min > natural {
                Some(min + self.rng.below(max.saturating_sub(min).min(8) + 1))
            } else {
                None
            };
            let mut text = String::new();
            self.walk(&tree, &mut text, target, &mut 0);
            let mut count = text.chars().count();
            while count < min && count < MAX_STRING && !(anchored_start && anchored_end) {
                let c = char::from(b'a' + u8::try_from(self.rng.below(26)).unwrap_or(0));
                if anchored_end {
                    text.insert(0, c);
                } else {
                    text.push(c);
                }
                count += 1;
            }
            let confirmed =
                std::iter::once(&pattern).chain(more).all(|p| self.matches(p, &text) != Some(false));
            if confirmed && fits(&text, min, max) {
                let readable =
                    std::iter::once(&pattern).chain(more).all(|p| self.matches(p, &text).is_some());
                if !readable {
                    self.note(format!(
                        "the string for the pattern {pattern:?} could not be confirmed (this engine cannot read the pattern)"
                    ));
                }
                return text;
            }
            if best.is_none() && confirmed {
                best = Some(text);
            }
        }
        self.note(format!(
            "no string of {min} to {max} characters was found that matches the pattern {pattern:?}"
        ));
        let fallback = best.unwrap_or_else(|| self.word().to_owned());
        cut(fallback, max)
    }

    /// Appends a string matching `node` to `out`; `target` asks repetitions to stretch until
    /// the string is that long. `steps` bounds the walk.
    fn walk(&mut self, node: &Node, out: &mut String, target: Option<usize>, steps: &mut usize) {
        *steps += 1;
        if out.len() > MAX_STRING || *steps > 20 * MAX_STRING {
            return;
        }
        match node {
            Node::Empty | Node::Look(_) => {}
            Node::Literal(c) => out.push(*c),
            Node::Class(ranges) => {
                if let Some(c) = self.pick_char(ranges) {
                    out.push(c);
                }
            }
            Node::Concat(items) => items.iter().for_each(|n| self.walk(n, out, target, steps)),
            Node::Alternation(branches) => {
                if let Some(branch) = branches.get(self.rng.below(branches.len())) {
                    self.walk(branch, out, target, steps);
                }
            }
            Node::Repeat { sub, min, max } => {
                let cap = u32::try_from(MAX_STRING).unwrap_or(u32::MAX);
                let small = max.is_some_and(|m| m <= 16);
                let max = max.unwrap_or(u32::MAX).min(cap);
                let min = (*min).min(cap);
                let free = max.saturating_sub(min).min(OPEN_EXTRA);
                let mut times = min + u32::try_from(self.rng.below(free as usize + 1)).unwrap_or(0);
                if small {
                    times = min + u32::try_from(self.rng.below((max - min) as usize + 1)).unwrap_or(0);
                }
                let start = out.chars().count();
                for i in 0..max {
                    let grown = target.is_some_and(|t| out.chars().count() < t);
                    if i >= times && !(grown && i >= min) || out.len() > MAX_STRING {
                        break;
                    }
                    self.walk(sub, out, target, steps);
                    if i >= min && out.chars().count() == start {
                        break; // an empty-matching repetition grows nothing
                    }
                }
            }
        }
    }

    /// A character of the class, letters and digits first.
    fn pick_char(&mut self, ranges: &[(char, char)]) -> Option<char> {
        for tier in TIERS {
            let mut inside = Vec::new();
            for &(a, b) in ranges {
                for &(c, d) in tier {
                    let (from, to) = (a.max(c), b.min(d));
                    if from <= to {
                        inside.push((from, to));
                    }
                }
            }
            if let Some(c) = self.nth_char(&inside) {
                return Some(c);
            }
        }
        self.nth_char(ranges)
    }

    fn nth_char(&mut self, ranges: &[(char, char)]) -> Option<char> {
        let total: usize = ranges.iter().map(|(a, b)| (u32::from(*b) - u32::from(*a)) as usize + 1).sum();
        if total == 0 {
            return None;
        }
        let mut index = self.rng.below(total);
        for &(a, b) in ranges {
            let size = (u32::from(b) - u32::from(a)) as usize + 1;
            if index < size {
                let code = u32::from(a) + u32::try_from(index).unwrap_or(0);
                return Some(char::from_u32(code).unwrap_or(a));
            }
            index -= size;
        }
        ranges.first().map(|r| r.0)
    }
}

/// The pattern without its look-around groups (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`), which
/// the tree does not read; escapes and classes are skipped over.
fn without_lookaround(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    let mut i = 0;
    let mut in_class = false;
    while let Some(&c) = chars.get(i) {
        let rest = chars.get(i..).unwrap_or(&[]);
        let lookaround = !in_class
            && c == '('
            && [&['(', '?', '='][..], &['(', '?', '!'], &['(', '?', '<', '='], &['(', '?', '<', '!']]
                .iter()
                .any(|p| rest.starts_with(p));
        if lookaround {
            i = group_end(&chars, i);
            continue;
        }
        match c {
            '\\' => {
                out.push(c);
                if let Some(&next) = chars.get(i + 1) {
                    out.push(next);
                }
                i += 2;
                continue;
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The index just past the group that opens at `open`.
fn group_end(chars: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    let mut in_class = false;
    let mut i = open;
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => i += 1,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    chars.len()
}
