//! References: `$ref` chains followed with their siblings laid over, the base URI each
//! schema resource gives, and `$dynamicRef` through the dynamic scope.

use super::*;
use playground_openapi::json::Key;

impl<'a> Validator<'a> {
    /// Follows `$ref`s one at a time, laying each reference's constraining siblings over its
    /// target (or, in the strict reading, ignoring them in 3.0 and adding them to the target
    /// as an `allOf` in 3.1; a boolean target with siblings, or siblings or a target with
    /// [`MODERN`] keywords in 3.1, make such an `allOf` in both readings). Each
    /// target's base URI is pushed on `walk.bases` (the caller pops them). Also gives the last
    /// target entered and its reference, to spot cycles.
    pub(crate) fn resolve_schema<'s>(
        &self,
        schema: &'s Value,
        walk: &mut Walk,
    ) -> Result<Resolved<'s, 'a>, String>
    where
        'a: 's,
    {
        let mut current = Cow::Borrowed(schema);
        let mut last = None;
        for _ in 0..32 {
            let Some(reference) = current.key("$ref").and_then(Value::as_str) else {
                return Ok((current, last));
            };
            let (target, outer) = self.locate(reference, walk)?;
            let annotations_only = current.as_object().is_some_and(|fields| {
                fields.keys().all(|k| {
                    k == "$ref"
                        || k.starts_with("x-")
                        || ANNOTATIONS.contains(&k.as_str())
                        || (!self.openapi_3_0 && IDENTIFIERS.contains(&k.as_str()))
                })
            });
            let modern = |v: &Value| v.as_object().is_some_and(|m| MODERN.iter().any(|k| m.key(k).is_some()));
            let in_place = if self.openapi_3_0 {
                !self.strict && target.is_boolean()
            } else {
                self.strict || target.is_boolean() || modern(&current) || modern(target)
            };
            if !annotations_only && in_place {
                // `{$ref, ...siblings}` as `{...siblings, allOf: [{$ref}, ...]}`: the target is
                // entered from the `allOf`, so `last` stays the schema holding the siblings.
                let mut both = current.as_object().cloned().unwrap_or_default();
                both.remove("$ref");
                let mut all = match both.remove("allOf") {
                    Some(Value::Array(all)) => all,
                    _ => Vec::new(),
                };
                all.insert(0, serde_json::json!({ "$ref": reference }));
                both.insert("allOf".to_owned(), Value::Array(all));
                return Ok((Cow::Owned(Value::Object(both)), last));
            }
            self.enter(target, outer, walk);
            last = Some((target, reference.to_owned()));
            current = match playground_openapi::schema::with_siblings(&current, target) {
                Some(merged) if !annotations_only && !self.strict => Cow::Owned(merged),
                _ => Cow::Borrowed(target),
            };
        }
        Err("a chain of more than 32 references".into())
    }

    /// Pushes the base URI of a schema entered from elsewhere: its own when it has an `$id`,
    /// else `outer`, the one around it. Either way that schema resource joins the dynamic
    /// scope; the ones around it that were not entered do not.
    pub(crate) fn enter(&self, target: &Value, outer: String, walk: &mut Walk) {
        walk.bases.push(self.inner_base(target, outer));
    }

    /// The base URI inside `schema`, from `outer`, the one around it.
    pub(crate) fn inner_base(&self, schema: &Value, outer: String) -> String {
        if self.openapi_3_0 { outer } else { scope::own_base(schema, &outer).unwrap_or(outer) }
    }

    /// The schema `reference` names from the current base URI, and the base around it.
    pub(crate) fn locate(&self, reference: &str, walk: &mut Walk) -> Result<(&'a Value, String), String> {
        let missing = || {
            if reference.starts_with('#') {
                format!("the reference {reference} does not resolve")
            } else {
                format!(
                    "the reference {reference} is to another document, which this reference does not read"
                )
            }
        };
        let absolute = uri::resolve(walk.base(), reference);
        let (address, fragment) = uri::split(&absolute);
        let fragment = fragment.ok_or_else(missing)?;
        let ids = !self.openapi_3_0;
        let pointer = scope::segments(&fragment);
        let place = |walk: &mut Walk, key: &str| {
            let index = walk.index.get_or_insert_with(|| Index::new(self.doc, self.resources, ids));
            index.get(key).cloned()
        };
        let Some(path) = pointer else {
            // An anchor.
            let found = place(walk, &format!("{address}#{fragment}")).ok_or_else(missing)?;
            return Ok((self.place_value(&found).ok_or_else(missing)?, found.outer));
        };
        let (root, outer) = if address.is_empty() {
            (self.doc, String::new())
        } else {
            let found = place(walk, address).ok_or_else(missing)?;
            (self.place_value(&found).ok_or_else(missing)?, found.outer)
        };
        if path.is_empty() {
            return Ok((root, outer));
        }
        let inside = if ids { scope::own_base(root, &outer).unwrap_or(outer) } else { outer };
        scope::descend(root, &inside, &path, ids).ok_or_else(missing)
    }

    /// The schema at `place`.
    pub(crate) fn place_value(&self, place: &Place) -> Option<&'a Value> {
        let root = match place.doc {
            0 => self.doc,
            n => self.resources?.document(n - 1)?,
        };
        scope::descend(root, "", &place.path, false).map(|(value, _)| value)
    }

    /// What a `$dynamicRef` names: as a `$ref` would, but when that is a `$dynamicAnchor`, the
    /// outermost schema resource of the dynamic scope with a `$dynamicAnchor` of that name
    /// gives it instead.
    pub(crate) fn dynamic_target(
        &self,
        reference: &str,
        walk: &mut Walk,
    ) -> Result<(&'a Value, String), String> {
        let first = self.locate(reference, walk)?;
        let absolute = uri::resolve(walk.base(), reference);
        let (address, fragment) = uri::split(&absolute);
        let Some(name) = fragment.filter(|f| !f.is_empty() && !f.starts_with('/')) else {
            return Ok(first);
        };
        let Some(index) = walk.index.as_ref() else { return Ok(first) };
        if !index.get(&format!("{address}#{name}")).is_some_and(|p| p.dynamic) {
            return Ok(first);
        }
        let scope = std::iter::once("").chain(walk.bases.iter().map(String::as_str));
        for base in scope {
            if let Some(place) = index.get(&format!("{base}#{name}")).filter(|p| p.dynamic)
                && let Some(target) = self.place_value(place)
            {
                return Ok((target, place.outer.clone()));
            }
        }
        Ok(first)
    }
}
