//! What a value breaks, with where and which keyword: [`Validator::problems`] lists them, and a
//! [`Validator::check`] gives the first one's sentence.
//!
//! [`Validator::problems`]: crate::Validator::problems
//! [`Validator::check`]: crate::Validator::check

/// One step from a checked value down into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// An object's field, by name.
    Field(String),
    /// A list's item, by index.
    Item(usize),
}

/// One thing a value breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where, from the checked value down (empty: the value itself).
    pub at: Vec<Step>,
    /// The keyword broken, as JSON Schema names it: `type` (null where null is not allowed
    /// too), `required`, `enum`, `const`, `pattern`, `minLength`, `maxLength`, `format`,
    /// `minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`, `multipleOf`, `minItems`,
    /// `maxItems`, `uniqueItems`, `contains`, `unevaluatedItems`, `additionalProperties`,
    /// `unevaluatedProperties`, `dependentRequired`, `minProperties`, `maxProperties`, `anyOf`,
    /// `oneOf`, `not`, `false` (a `false` schema); `schema` when the fault is not the value's (a
    /// broken document, the checker's bounds).
    pub keyword: &'static str,
    /// For `type`: the first type the schema allows (`string`, `integer`, ...).
    pub expected: Option<&'static str>,
    /// The sentence [`crate::Validator::check`] gives for it, naming the value.
    pub message: String,
}

/// A failed check: its first problem, and the others when the check goes on past the first
/// ([`crate::Validator::problems`]). Boxed: a check's result stays one word on the stack, which
/// nests as deep as the schemas do.
#[derive(Debug)]
pub(crate) struct Fail(Box<Failed>);

#[derive(Debug)]
pub(crate) struct Failed {
    first: Problem,
    more: Vec<Problem>,
}

impl Fail {
    pub fn new(keyword: &'static str, message: String) -> Self {
        let first = Problem { at: Vec::new(), keyword, expected: None, message };
        Self(Box::new(Failed { first, more: Vec::new() }))
    }

    /// A type error, expecting `expected` first.
    pub fn of_type(expected: Option<&'static str>, message: String) -> Self {
        let mut fail = Self::new("type", message);
        fail.0.first.expected = expected;
        fail
    }

    /// The problems as those of the value's part `step`.
    #[must_use]
    pub fn under(mut self, step: &Step) -> Self {
        let failed = &mut *self.0;
        for problem in std::iter::once(&mut failed.first).chain(failed.more.iter_mut()) {
            problem.at.insert(0, step.clone());
        }
        self
    }

    pub fn len(&self) -> usize {
        1 + self.0.more.len()
    }

    fn extend(&mut self, other: Self) {
        self.0.more.extend(other.into_problems());
    }

    fn truncate(&mut self, limit: usize) {
        self.0.more.truncate(limit.saturating_sub(1));
    }

    pub fn into_problems(self) -> Vec<Problem> {
        let Failed { first, more } = *self.0;
        let mut all = Vec::with_capacity(1 + more.len());
        all.push(first);
        all.extend(more);
        all
    }
}

impl From<Fail> for String {
    fn from(fail: Fail) -> Self {
        fail.0.first.message
    }
}

/// The problems a check that goes on gathers in one object or list: every part's, up to a
/// bound.
#[derive(Debug, Default)]
pub(crate) struct Found(Option<Fail>);

impl Found {
    /// Keeps `result`'s problems; `Err` (all kept so far) when the check stops here: at the
    /// first problem when it does not go on, or once `limit` problems are kept.
    pub fn keep(&mut self, result: Result<(), Fail>, go_on: bool, limit: usize) -> Result<(), Fail> {
        let Err(fail) = result else { return Ok(()) };
        let all = match self.0.take() {
            None => fail,
            Some(mut kept) => {
                kept.extend(fail);
                kept
            }
        };
        if !go_on || all.len() >= limit {
            let mut all = all;
            all.truncate(limit);
            return Err(all);
        }
        self.0 = Some(all);
        Ok(())
    }

    pub fn done(self) -> Result<(), Fail> {
        self.0.map_or(Ok(()), Err)
    }
}
