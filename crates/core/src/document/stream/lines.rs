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
                let n = chunk[at..].iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
                self.indent += n;
                at += n;
                if at == chunk.len() {
                    return;
                }
                self.at_start = false;
                self.record();
            }
            if let Some(end) = chunk[at..].iter().position(|b| *b == b'\n') {
                keep(at..at + end + 1);
                at += end + 1;
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
        if self.indents.len() <= self.line {
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
