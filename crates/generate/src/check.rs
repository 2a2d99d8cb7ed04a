//! The generator's questions to `playground_validate`, the project's one schema checker: whether
//! a value satisfies a schema, or a shape (every schema it was built from), to accept a
//! schema's own examples, keep a `oneOf` value out of the other branches and call a generated
//! value exact. Values are read in the generation's direction and strictly
//! ([`Validator::strict`]: loose formats asserted, OpenAPI 3.0's `$ref` siblings ignored); a
//! pass that leans on a keyword the checker does not read in full, or a check past the
//! generation's budget, counts as a pass and leaves the value unverified.

use std::sync::OnceLock;

use serde_json::Value;

use playground_validate::{Patterns, Validator, Verdict};

use super::Run;
use super::shape::Shape;

/// Schema visits the checks of one generation make together (the check of the finished value
/// has as many again); past them every check passes, unverified.
pub(super) const CHECK_BUDGET: usize = 200_000;

/// Patterns compiled for every generation: a document's patterns are met again and again.
fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(Patterns::default)
}

impl<'a> Run<'a> {
    /// Whether `value` satisfies `schema` (an unsure pass counts, and leaves the run
    /// unverified).
    pub(super) fn check(&mut self, schema: &Value, value: &Value) -> bool {
        self.passes(&[schema], value)
    }

    /// Whether `value` satisfies every schema of `shape`, as [`Run::check`] tells.
    pub(super) fn check_shape(&mut self, shape: &Shape<'a>, value: &Value) -> bool {
        if shape.never || !shape.problems.is_empty() {
            return false;
        }
        self.passes(&shape.roots, value)
    }

    fn passes(&mut self, schemas: &[&Value], value: &Value) -> bool {
        let validator = Validator::new(self.doc, patterns()).direction(self.direction).strict();
        let mut unsure = false;
        for schema in schemas {
            match validator.verdict(schema, value, &mut self.budget) {
                Verdict::Valid => {}
                Verdict::Unsure => unsure = true,
                Verdict::Invalid => return false,
            }
        }
        self.unverified |= unsure;
        true
    }

    /// Whether `pattern` surely finds a match in `text`; `None` when the pattern cannot be read.
    pub(super) fn matches(&self, pattern: &str, text: &str) -> Option<bool> {
        patterns().get(pattern).map(|p| p.matches(text) == Some(true))
    }
}
