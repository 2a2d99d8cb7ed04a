//! A pattern's tree ([`crate::pattern_tree`]) compiled into a program of steps, and run by
//! moving every thread of it over the text together (a Pike VM, without captures: only whether
//! there is a match is asked). A match costs at most the text's length times the program's
//! size, whatever the pattern: there is no backtracking, so `(a+)+$` cannot hang a check.
//!
//! Counted repetitions are written out, so the program's size is bounded
//! ([`MAX_PATTERN_STEPS`]); a pattern past it is not compiled, and not enforced.

use std::collections::HashMap;

use crate::pattern_tree::{Look, Node};

/// Steps a program may have (and nodes its compiling may visit): `(a{1000}){1000}` would be a
/// million, and the checker's memory for one match grows with it.
pub const MAX_PATTERN_STEPS: usize = 1 << 18;

/// One step of a program.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// This character, then the next step.
    Char(char),
    /// A character of the class at this index of [`Program::classes`], then the next step.
    Class(u32),
    /// Both of these steps.
    Fork(u32, u32),
    /// This step.
    Jump(u32),
    /// The next step, where this assertion holds.
    Assert(Look),
    /// A match.
    Match,
}

/// A compiled pattern.
#[derive(Debug)]
pub struct Program {
    steps: Vec<Step>,
    /// Each class's ranges (sorted, apart), once however often its node is written out.
    classes: Vec<Vec<(char, char)>>,
    /// Every match starts at the text's start: no thread is started later.
    anchored: bool,
}

impl Program {
    /// `tree` compiled; `None` past [`MAX_PATTERN_STEPS`].
    #[must_use]
    pub fn new(tree: &Node) -> Option<Self> {
        let mut compiler =
            Compiler { steps: Vec::new(), classes: Vec::new(), known: HashMap::new(), visits: 0 };
        compiler.node(tree)?;
        compiler.push(Step::Match)?;
        Some(Self { steps: compiler.steps, classes: compiler.classes, anchored: tree.anchored_start() })
    }

    /// Whether the pattern matches somewhere in `text`.
    #[must_use]
    pub fn is_match(&self, text: &str) -> bool {
        let mut now = Threads::new(self.steps.len());
        let mut next = Threads::new(self.steps.len());
        let mut stack = Vec::new();
        let mut chars = text.chars().peekable();
        let mut before = None;
        loop {
            let here = chars.peek().copied();
            if (before.is_none() || !self.anchored) && self.add(&mut now, &mut stack, 0, before, here) {
                return true;
            }
            let Some(c) = chars.next() else { return false };
            if now.list.is_empty() && self.anchored {
                return false;
            }
            let after = chars.peek().copied();
            next.clear();
            for &at in &now.list {
                let takes = match self.steps[at as usize] {
                    Step::Char(wanted) => wanted == c,
                    Step::Class(class) => self.classes[class as usize]
                        .binary_search_by(|&(low, high)| {
                            if high < c {
                                std::cmp::Ordering::Less
                            } else if low > c {
                                std::cmp::Ordering::Greater
                            } else {
                                std::cmp::Ordering::Equal
                            }
                        })
                        .is_ok(),
                    _ => false,
                };
                if takes && self.add(&mut next, &mut stack, at + 1, Some(c), after) {
                    return true;
                }
            }
            std::mem::swap(&mut now, &mut next);
            before = Some(c);
        }
    }

    /// Adds the thread at step `at` and every step it reaches without a character, between
    /// `before` and `here`; whether one of them is the match.
    fn add(
        &self,
        threads: &mut Threads,
        stack: &mut Vec<u32>,
        at: u32,
        before: Option<char>,
        here: Option<char>,
    ) -> bool {
        stack.push(at);
        while let Some(at) = stack.pop() {
            if !threads.insert(at) {
                continue;
            }
            match self.steps[at as usize] {
                Step::Match => {
                    stack.clear();
                    return true;
                }
                Step::Jump(to) => stack.push(to),
                Step::Fork(first, second) => stack.extend([second, first]),
                Step::Assert(look) if holds(look, before, here) => stack.push(at + 1),
                Step::Assert(_) | Step::Char(_) | Step::Class(_) => {}
            }
        }
        false
    }
}

/// Whether `look` holds between `before` and `here` (`None`: the text's edge).
fn holds(look: Look, before: Option<char>, here: Option<char>) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    match look {
        Look::Start => before.is_none(),
        Look::End => here.is_none(),
        Look::WordBoundary => word(before) != word(here),
        Look::NotWordBoundary => word(before) == word(here),
    }
}

/// The steps threads are at, each once, in the order they were added (a sparse set).
struct Threads {
    list: Vec<u32>,
    /// For each step, where it is in `list` (if it is there).
    index: Vec<u32>,
}

impl Threads {
    fn new(steps: usize) -> Self {
        Self { list: Vec::new(), index: vec![0; steps] }
    }

    /// Adds `at`; whether it was not there yet.
    fn insert(&mut self, at: u32) -> bool {
        let place = self.index[at as usize] as usize;
        if self.list.get(place) == Some(&at) {
            return false;
        }
        self.index[at as usize] = self.list.len() as u32;
        self.list.push(at);
        true
    }

    fn clear(&mut self) {
        self.list.clear();
    }
}

struct Compiler {
    steps: Vec<Step>,
    classes: Vec<Vec<(char, char)>>,
    /// Classes already kept, by their ranges' address in the tree.
    known: HashMap<*const (char, char), u32>,
    visits: usize,
}

impl Compiler {
    /// Pushes `step`; its index.
    fn push(&mut self, step: Step) -> Option<u32> {
        if self.steps.len() >= MAX_PATTERN_STEPS {
            return None;
        }
        self.steps.push(step);
        u32::try_from(self.steps.len() - 1).ok()
    }

    /// The index the next step gets.
    fn here(&self) -> u32 {
        self.steps.len() as u32
    }

    /// Points the fork or jump at `at` to `to` (a fork's second way).
    fn land(&mut self, at: u32, to: u32) {
        match &mut self.steps[at as usize] {
            Step::Fork(_, second) | Step::Jump(second) => *second = to,
            _ => {}
        }
    }

    fn node(&mut self, node: &Node) -> Option<()> {
        self.visits += 1;
        if self.visits > MAX_PATTERN_STEPS {
            return None;
        }
        match node {
            Node::Empty => {}
            Node::Literal(c) => {
                self.push(Step::Char(*c))?;
            }
            Node::Class(ranges) => {
                let next = u32::try_from(self.classes.len()).ok()?;
                let class = *self.known.entry(ranges.as_ptr()).or_insert(next);
                if class == next {
                    self.classes.push(ranges.clone());
                }
                self.push(Step::Class(class))?;
            }
            Node::Look(look) => {
                self.push(Step::Assert(*look))?;
            }
            Node::Concat(items) => items.iter().try_for_each(|item| self.node(item))?,
            Node::Alternation(branches) => {
                let mut ends = Vec::new();
                for (i, branch) in branches.iter().enumerate() {
                    if i + 1 == branches.len() {
                        self.node(branch)?;
                    } else {
                        let fork = self.push(Step::Fork(self.here() + 1, 0))?;
                        self.node(branch)?;
                        ends.push(self.push(Step::Jump(0))?);
                        self.land(fork, self.here());
                    }
                }
                let end = self.here();
                ends.into_iter().for_each(|at| self.land(at, end));
            }
            Node::Repeat { sub, min, max } => {
                for _ in 0..*min {
                    self.node(sub)?;
                }
                match max {
                    None => {
                        let fork = self.push(Step::Fork(self.here() + 1, 0))?;
                        self.node(sub)?;
                        self.push(Step::Jump(fork))?;
                        self.land(fork, self.here());
                    }
                    Some(max) => {
                        let mut forks = Vec::new();
                        for _ in *min..*max {
                            forks.push(self.push(Step::Fork(self.here() + 1, 0))?);
                            self.node(sub)?;
                        }
                        let end = self.here();
                        forks.into_iter().for_each(|at| self.land(at, end));
                    }
                }
            }
        }
        Some(())
    }
}
