//! The keywords that apply subschemas in place: `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/
//! `else` and `$dynamicRef`, each branch checked on its own (`branch`).

use super::*;
use playground_openapi::json::Key;

impl Validator<'_> {
    pub(crate) fn check_combinators(
        &self,
        schema: &Value,
        value: &Value,
        path: &str,
        name: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        let list = |key: &str| schema.key(key).and_then(Value::as_array);
        if let Some(reference) = schema.key("$dynamicRef").and_then(Value::as_str)
            && !self.openapi_3_0
        {
            self.check_dynamic(reference, value, path, root, walk)?;
        }
        if let Some(all) = list("allOf") {
            all.iter().try_for_each(|s| self.check_at(s, value, path, root, walk))?;
        }
        if let Some(any) = list("anyOf") {
            self.check_any(any, value, path, name, root, walk)?;
        }
        if let Some(one) = list("oneOf") {
            let (mut sure, mut unsure) = (0, 0);
            for s in one {
                match self.branch(s, value, path, root, walk) {
                    (Ok(()), false) => sure += 1,
                    (Ok(()), true) => unsure += 1,
                    (Err(_), _) => {}
                }
            }
            walk.ambiguous |= sure + unsure > 1;
            // A branch that passed only thanks to a keyword not enforced may really fail:
            // only passes that are sure can make too many.
            if sure + unsure == 0 || sure > 1 {
                return Err(Fail::new(
                    "oneOf",
                    format!(
                        "{name} must match exactly one of the allowed shapes; it matches {}.",
                        sure + unsure
                    ),
                ));
            }
            walk.lax |= unsure > 0;
        }
        if let Some(not) = schema.key("not") {
            // What `not` evaluates never counts.
            let marks = walk.marks.take();
            let outcome = self.branch(not, value, path, root, walk);
            walk.marks = marks;
            match outcome {
                (Ok(()), false) => {
                    return Err(Fail::new("not", format!("{name} has a shape that is not allowed.")));
                }
                (Ok(()), true) => walk.lax = true,
                (Err(_), _) => {}
            }
        }
        if let Some(condition) = schema.key("if") {
            self.check_if(schema, condition, value, path, root, walk)?;
        }
        Ok(())
    }

    /// `anyOf`: the first branch's problem when none passes. Every branch is tried when what
    /// they evaluate is kept (`unevaluated*`), else up to the first that passes.
    pub(crate) fn check_any(
        &self,
        any: &[Value],
        value: &Value,
        path: &str,
        name: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        let every = walk.marks.is_some();
        let (mut first, mut matched, mut sure) = (None, false, false);
        for s in any {
            match self.branch(s, value, path, root, walk) {
                (Ok(()), lax) => {
                    matched = true;
                    sure |= !lax;
                    if !every {
                        break;
                    }
                }
                (Err(e), _) => {
                    first.get_or_insert(e);
                }
            }
        }
        if !matched {
            return Err(first.unwrap_or_else(|| {
                Fail::new("anyOf", format!("{name} matches none of the allowed shapes."))
            }));
        }
        walk.lax |= !sure;
        Ok(())
    }

    /// `if`, `then` and `else`.
    pub(crate) fn check_if(
        &self,
        schema: &Value,
        condition: &Value,
        value: &Value,
        path: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        let (then, otherwise) = (schema.key("then"), schema.key("else"));
        match self.branch(condition, value, path, root, walk) {
            (Ok(()), false) => then.map_or(Ok(()), |s| self.check_at(s, value, path, root, walk)),
            (Err(_), _) => otherwise.map_or(Ok(()), |s| self.check_at(s, value, path, root, walk)),
            // The condition may only seem to hold: either branch will do.
            (Ok(()), true) => {
                walk.lax = true;
                if let Some(s) = then
                    && let Err(e) = self.check_at(s, value, path, root, walk)
                    && let Some(o) = otherwise
                {
                    self.check_at(o, value, path, root, walk).map_err(|_| e)?;
                }
                Ok(())
            }
        }
    }

    /// `$dynamicRef`: the schema it names applied in place, from the base around it.
    pub(crate) fn check_dynamic(
        &self,
        reference: &str,
        value: &Value,
        path: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> Result<(), Fail> {
        let (target, outer) = self
            .dynamic_target(reference, walk)
            .map_err(|e| Fail::new("schema", format!("The document is broken: {e}.")))?;
        let key = (std::ptr::from_ref(target), std::ptr::from_ref(value));
        if walk.active.contains(&key) {
            return Err(looped(reference));
        }
        walk.active.push(key);
        let base = self.inner_base(target, outer);
        let result = self.check_in(target, Some(base), value, path, root, walk);
        walk.active.pop();
        result
    }

    /// Checks a subschema on its own: its verdict, and whether a pass leans on a keyword that
    /// is not enforced (a loose format, a pattern that did not compile), so that a stricter
    /// reader might fail it. Failures are always sure: unenforced keywords only let through.
    pub(crate) fn branch(
        &self,
        schema: &Value,
        value: &Value,
        path: &str,
        root: &Value,
        walk: &mut Walk,
    ) -> (Result<(), Fail>, bool) {
        let outer = std::mem::take(&mut walk.lax);
        // A branch only passes or fails: its first problem is enough.
        let go_on = std::mem::replace(&mut walk.go_on, false);
        let result = self.check_at(schema, value, path, root, walk);
        walk.go_on = go_on;
        (result, std::mem::replace(&mut walk.lax, outer))
    }
}
