//! Line feeds seen as a JSON text arrives, and the indentation removed from each line: an
//! error's column in the text as it came.

use std::ops::Range;

use crate::document::error::DocumentError;

/// Line feeds seen, and the indentation removed from each line.
#[derive(Debug, Default)]
pub(super) struct Lines {
    /// Lines ended so far (the line being read is this one, from 0).
    line: usize,
    /// Whether the bytes taken last ended a line: the indentation of the next is dropped.
    pub(super) at_start: bool,
    /// Indentation dropped so far from the current line.
    indent: usize,
    /// Indentation removed from each line (0-based), up to 254; [`u8::MAX`] says "see `wide`".
    indents: Vec<u8>,
    /// Indentation of 255 bytes or more: line and indentation, by line.
    wide: Vec<(usize, usize)>,
}

impl Lines {
    /// Counts the line feeds of text kept as it is.
    pub(super) fn count(&mut self, bytes: &[u8]) {
        let feeds = bytes.iter().filter(|b| **b == b'\n').count();
        if feeds > 0 {
            self.line += feeds;
            self.indents.resize(self.line, 0);
        }
    }

    /// The parts of `chunk` to keep (`keep` is given their ranges, in order): all but the
    /// spaces and tabs that start each line.
    pub(super) fn strip(&mut self, chunk: &[u8], mut keep: impl FnMut(Range<usize>)) {
        let mut at = 0;
        while at < chunk.len() {
            if self.at_start {
                let end = indentation_end(chunk, at);
                self.indent += end - at;
                at = end;
                if at == chunk.len() {
                    return;
                }
                self.at_start = false;
                self.record();
            }
            if let Some(end) = line_feed(chunk, at) {
                keep(at..end + 1);
                at = end + 1;
                self.line += 1;
                self.at_start = true;
            } else {
                keep(at..chunk.len());
                return;
            }
        }
    }

    /// Notes the indentation dropped from the current line.
    pub(super) fn record(&mut self) {
        if self.indents.len() == self.line {
            self.indents.push(0);
        } else if self.indents.len() < self.line {
            self.indents.resize(self.line + 1, 0);
        }
        let indent = std::mem::take(&mut self.indent);
        match u8::try_from(indent) {
            Ok(small) if small < u8::MAX => self.indents[self.line] = small,
            _ => {
                self.indents[self.line] = u8::MAX;
                self.wide.push((self.line, indent));
            }
        }
    }

    /// The indentation removed from line `line` (from 1).
    fn removed(&self, line: usize) -> usize {
        let index = line.saturating_sub(1);
        match self.indents.get(index) {
            Some(&u8::MAX) => {
                self.wide.binary_search_by_key(&index, |(line, _)| *line).map_or(0, |i| self.wide[i].1)
            }
            Some(&n) => usize::from(n),
            None => 0,
        }
    }

    /// `error` with its column counted in the text as it came.
    pub(super) fn restore(&self, error: DocumentError) -> DocumentError {
        match error {
            DocumentError::Json { reason, line, column } if line > 0 => {
                DocumentError::Json { reason, line, column: column + self.removed(line) }
            }
            other => other,
        }
    }
}

// Lines are searched eight bytes at a time (a third of the reading's time went to finding
// each line's end and indentation a byte at a time, in the page's WebAssembly), and the first
// byte found in a word is read off its bits rather than searched for again.

/// Eight bytes, each 1.
const ONES: u64 = u64::from_ne_bytes([1; 8]);
/// The high bit of each of eight bytes.
const HIGHS: u64 = ONES << 7;
/// Eight line feeds.
const FEEDS: u64 = ONES * b'\n' as u64;
/// Eight spaces.
const SPACES: u64 = ONES * b' ' as u64;

/// The high bit of each byte of `word` that is zero, and of no byte before the first such
/// byte (bytes after it may be marked wrongly, so only the lowest mark counts).
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGHS
}

/// The index, from 0, of the byte whose high bit is the lowest set bit of `marks`.
fn first_marked(marks: u64) -> usize {
    (marks.trailing_zeros() / 8) as usize
}

/// Where the first line feed at or after `from` is.
fn line_feed(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut words = rest.chunks_exact(8);
    let mut offset = from;
    for word in &mut words {
        let Ok(word) = <[u8; 8]>::try_from(word) else { break };
        let marks = zero_bytes(u64::from_le_bytes(word) ^ FEEDS);
        if marks != 0 {
            return Some(offset + first_marked(marks));
        }
        offset += 8;
    }
    words.remainder().iter().position(|b| *b == b'\n').map(|i| offset + i)
}

/// Where the spaces and tabs from `from` end.
fn indentation_end(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    for word in bytes.get(from..).unwrap_or_default().chunks_exact(8) {
        let Ok(word) = <[u8; 8]>::try_from(word) else { break };
        let others = u64::from_le_bytes(word) ^ SPACES;
        if others != 0 {
            // The first byte that is not a space: the lowest that is not zero here (a tab,
            // maybe: read on byte by byte below).
            at += (others.trailing_zeros() / 8) as usize;
            break;
        }
        at += 8;
    }
    at + bytes.get(at..).unwrap_or_default().iter().take_while(|b| matches!(b, b' ' | b'\t')).count()
}

#[cfg(test)]
mod tests {
    use super::{Lines, indentation_end, line_feed};

    #[test]
    fn line_ends_and_indentation_are_found_at_every_offset() {
        for len in 0..40 {
            for place in 0..len {
                let mut bytes = vec![b' '; len];
                bytes[place] = b'\n';
                for from in 0..=len {
                    let expected = (from <= place).then_some(place);
                    assert_eq!(line_feed(&bytes, from), expected, "len {len}, feed at {place}, from {from}");
                    let blank_end = if from <= place { place } else { len };
                    assert_eq!(indentation_end(&bytes, from), blank_end, "len {len}, from {from}");
                }
            }
        }
        // Bytes one away from a line feed or a space are neither.
        assert_eq!(line_feed(b"\x0b\x09\x0b\x0b\x0b\x0b\x0b\x0b\x0b\x0b", 0), None);
        assert_eq!(indentation_end(b"\t \t   \t \x21!\x1f", 0), 8);
        assert_eq!(indentation_end("        \u{a0}".as_bytes(), 0), 8);
        // The first match in a word is the one found, whatever follows it in the word (a byte
        // one above a line feed, right after one, is the trick's false match).
        assert_eq!(line_feed(b"ab\n\x0b\ncd\nefgh", 0), Some(2));
        assert_eq!(line_feed(b"abcdefgh\x0bj\n\x0b\nmnop", 0), Some(10));
        assert_eq!(indentation_end(b"   x    \n", 0), 3);
        assert_eq!(indentation_end(b"          \t\tx     ", 0), 12);
        assert_eq!(indentation_end(b"  !\x21  \x20       ", 1), 2);
    }

    #[test]
    fn a_text_cut_anywhere_keeps_the_same_bytes_and_indentation() {
        let text = b"{\n  \"a\": [\n\t\t1,\n                    2\n  ],\n          \"b\": \"x  y\"\n}\n   ";
        let whole = strip_in_chunks(text, text.len());
        assert_eq!(whole.0, b"{\n\"a\": [\n1,\n2\n],\n\"b\": \"x  y\"\n}\n");
        for size in 1..text.len() {
            assert_eq!(strip_in_chunks(text, size), whole, "chunks of {size}");
        }
        assert_eq!(whole.1, [0, 2, 2, 20, 2, 10, 0, 3]);
    }

    fn strip_in_chunks(text: &[u8], size: usize) -> (Vec<u8>, Vec<usize>) {
        let mut lines = Lines::default();
        let mut kept = Vec::new();
        for chunk in text.chunks(size) {
            lines.strip(chunk, |range| kept.extend_from_slice(&chunk[range]));
        }
        if lines.at_start {
            lines.record();
        }
        let removed = (1..=lines.indents.len()).map(|line| lines.removed(line)).collect();
        (kept, removed)
    }
}
