//! PATCH bodies: a list of RFC 6902 operations (the `json-patch` crate, applied to a copy) or
//! an RFC 7396 merge patch, laid over a stored item.

use playground_openapi::json::Key;
use serde_json::{Map, Value};

use super::failure::Failure;
use super::resources::{Resource, lower_first};
use super::spec::Spec;
use playground_openapi::schema::Direction;

/// The item `old` after the PATCH body `body`: RFC 6902 operations (409 when they cannot be
/// applied or would leave the item invalid), else a merge patch (see [`merge_fitting`]).
pub(super) fn patched(
    spec: &Spec,
    resource: &Resource,
    old: &Value,
    body: Option<&Value>,
    id: &str,
) -> Result<Value, Failure> {
    match body {
        Some(Value::Array(ops)) if is_json_patch(ops) => {
            let mut patched = json_patch_applied(old, ops)
                .map_err(|e| Failure::conflict(format!("The patch cannot be applied to {id}: {e}")))?;
            resource.set_id(&mut patched, id);
            if let Some(schema) = &resource.item_schema {
                spec.validator().direction(Direction::Response).check(schema, &patched, "").map_err(|e| {
                    Failure::conflict(format!("The patch would leave {id} invalid: {}", lower_first(&e)))
                })?;
            }
            Ok(patched)
        }
        Some(patch) => Ok(merge_fitting(spec, resource, old, patch, id)),
        None => Ok(old.clone()),
    }
}

/// The item after an RFC 7396 merge patch. A patch the document's request schema allows
/// can still set a field to a shape the item's schema does not have (the request and the
/// answer are different schemas): such fields keep their value, the others are patched,
/// as a server that reads what it knows would do. A removal (`null`) of a field the item
/// needs is not skipped: the result is refused.
fn merge_fitting(spec: &Spec, resource: &Resource, old: &Value, patch: &Value, id: &str) -> Value {
    let mut merged = old.clone();
    merge_patch(&mut merged, patch);
    let (Some(schema), Value::Object(fields)) = (&resource.item_schema, patch) else { return merged };
    // Each field is tried on its own (a copy and a check of the item): a bounded number.
    if fields.len() > MAX_FITTED_FIELDS {
        return merged;
    }
    let validator = spec.validator().direction(Direction::Response);
    let fits = |item: &mut Value| {
        resource.set_id(item, id);
        validator.check(schema, item, "").is_ok()
    };
    if fits(&mut merged) {
        return merged;
    }
    let mut fitted = old.clone();
    for (key, value) in fields {
        let mut attempt = fitted.clone();
        let mut one = Map::new();
        one.insert(key.clone(), value.clone());
        merge_patch(&mut attempt, &Value::Object(one));
        if fits(&mut attempt) {
            fitted = attempt;
        } else if value.is_null() {
            // Removing what the item needs is refused, as the client asked for exactly that.
            return merged;
        }
    }
    fitted
}

/// The most fields of a merge patch tried one by one when the whole patch breaks the item.
const MAX_FITTED_FIELDS: usize = 256;

/// Whether a PATCH body is an RFC 6902 list of operations: objects with an `op` and a `path`.
fn is_json_patch(ops: &[Value]) -> bool {
    ops.iter()
        .all(|op| op.key("op").is_some_and(Value::is_string) && op.key("path").is_some_and(Value::is_string))
}

/// `item` with the RFC 6902 operations applied, or why they cannot be (a `path` not in the
/// item, a failed `test`). Applied to a copy: the stored item is untouched on failure.
fn json_patch_applied(item: &Value, ops: &[Value]) -> Result<Value, String> {
    let ops: json_patch::Patch =
        serde_json::from_value(Value::Array(ops.to_vec())).map_err(|e| format!("the operations: {e}"))?;
    let mut patched = item.clone();
    json_patch::patch_unsafe(&mut patched, &ops).map_err(|e| e.to_string())?;
    Ok(patched)
}

/// RFC 7396: objects merge, `null` removes, anything else replaces.
fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(fields) = target {
        for (key, value) in patch {
            if value.is_null() {
                fields.remove(key);
            } else {
                merge_patch(fields.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
    }
}
