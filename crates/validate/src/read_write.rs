//! `readOnly` and `writeOnly`: which missing `required` property may stay missing, by the
//! direction a value travels.

use super::*;
use playground_openapi::json::Key;

impl Validator<'_> {
    /// Whether a missing `required` `field` may stay missing in this direction: some schema of
    /// the value (this one, or a branch of the outermost one) flags the property `readOnly`
    /// (requests) or `writeOnly` (responses).
    pub(crate) fn exempt(&self, schema: &Value, root: &Value, field: &str) -> bool {
        let Some(direction) = self.direction else { return false };
        let flag = match direction {
            Direction::Request => "readOnly",
            Direction::Response => "writeOnly",
        };
        let mut budget = 256;
        // The flags beside a `$ref` count in every reading.
        let read = Self { strict: false, ..*self };
        let mut walk = Walk::new(0);
        read.flags(schema, field, flag, &mut budget, &mut walk)
            || read.flags(root, field, flag, &mut budget, &mut walk)
    }

    pub(crate) fn flags(
        &self,
        schema: &Value,
        field: &str,
        flag: &str,
        budget: &mut usize,
        walk: &mut Walk,
    ) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let bases = walk.bases.len();
        let found = match self.resolve_schema(schema, walk) {
            Ok((schema, _)) => self.flags_in(&schema, field, flag, budget, walk),
            Err(_) => false,
        };
        walk.bases.truncate(bases);
        found
    }

    /// [`Validator::flags`] of a schema whose references are followed.
    pub(crate) fn flags_in(
        &self,
        schema: &Value,
        field: &str,
        flag: &str,
        budget: &mut usize,
        walk: &mut Walk,
    ) -> bool {
        let flagged = |s: &Value, walk: &mut Walk| {
            let bases = walk.bases.len();
            let yes = self
                .resolve_schema(s, walk)
                .is_ok_and(|(s, _)| s.get(flag).and_then(Value::as_bool) == Some(true));
            walk.bases.truncate(bases);
            yes
        };
        if let Some(property) = schema.key("properties").and_then(|p| p.get(field)) {
            if flagged(property, walk) {
                return true;
            }
            let bases = walk.bases.len();
            let resolved = self.resolve_schema(property, walk);
            let hit = resolved.is_ok_and(|(p, _)| {
                p.key("allOf").and_then(Value::as_array).into_iter().flatten().any(|m| flagged(m, walk))
            });
            walk.bases.truncate(bases);
            if hit {
                return true;
            }
        }
        ["allOf", "anyOf", "oneOf"]
            .iter()
            .filter_map(|k| schema.key(k).and_then(Value::as_array))
            .flatten()
            .any(|branch| self.flags(branch, field, flag, budget, walk))
    }
}
