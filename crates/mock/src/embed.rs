//! Stored items in the shapes the document answers with: an item inside a wrapper object, a
//! list as an array or inside a wrapper with its totals.

use playground_openapi::json::Key;
use serde_json::Value;

use super::generate::generate;
use super::item::required;
use super::resources::properties;
use super::spec::Spec;
use playground_openapi::pointer::resolve;
use playground_openapi::schema::Direction;

/// Integer fields of a list wrapper that hold the total.
const TOTALS: [&str; 8] = [
    "total",
    "count",
    "totalCount",
    "total_count",
    "totalItems",
    "total_items",
    "totalResults",
    "total_results",
];

/// The item in the shape of `schema`: itself when it fits, else inside the generated wrapper's
/// property that takes it, else itself with the properties the schema requires and it lacks
/// (an answer's schema may ask for more than the stored item holds) filled from generated
/// data, else generated data of the schema.
pub(super) fn embed(spec: &Spec, schema: &Value, item: &Value, seed: u64) -> Value {
    let validator = spec.validator().direction(Direction::Response);
    if validator.check(schema, item, "").is_ok() {
        return item.clone();
    }
    let mut wrapper = generate(&spec.doc, schema, seed, Direction::Response).value;
    let declared = properties(spec, schema);
    if let Value::Object(fields) = &mut wrapper {
        for (name, prop) in &declared {
            if validator.check(prop, item, "").is_ok() {
                fields.insert((*name).to_owned(), item.clone());
                return wrapper;
            }
        }
    }
    // Filled only when the item is of the schema's kind (it has one of its properties), not
    // an item that belongs inside a wrapper.
    if let (Value::Object(own), Value::Object(generated)) = (item, &wrapper)
        && declared.iter().any(|(name, _)| own.contains_key(*name))
    {
        let mut filled = own.clone();
        for name in required(spec, schema) {
            if !filled.contains_key(name)
                && let Some(value) = generated.get(name)
            {
                filled.insert(name.to_owned(), value.clone());
            }
        }
        let filled = Value::Object(filled);
        if validator.check(schema, &filled, "").is_ok() {
            return filled;
        }
    }
    wrapper
}

/// Items in the shape of a list `schema`: the array itself, or a wrapper whose array property
/// holds them and whose total fields say how many there are in all.
pub(super) fn embed_list(spec: &Spec, schema: &Value, items: Vec<Value>, total: usize, seed: u64) -> Value {
    let validator = spec.validator().direction(Direction::Response);
    let resolved = resolve(&spec.doc, schema).unwrap_or(schema);
    let fit = |items_schema: Option<&Value>, items: &[Value]| -> Value {
        Value::Array(
            items
                .iter()
                .map(|item| items_schema.map_or_else(|| item.clone(), |s| embed(spec, s, item, seed)))
                .collect(),
        )
    };
    if playground_openapi::schema::primary_type(resolved) == Some("array") {
        let list = fit(resolved.key("items"), &items);
        if validator.check(schema, &list, "").is_ok() {
            return list;
        }
        return generate(&spec.doc, schema, seed, Direction::Response).value;
    }
    let mut wrapper = generate(&spec.doc, schema, seed, Direction::Response).value;
    if let Value::Object(fields) = &mut wrapper {
        let props = properties(spec, schema);
        let array = props.iter().find(|(_, p)| {
            resolve(&spec.doc, p).is_ok_and(|p| playground_openapi::schema::primary_type(p) == Some("array"))
        });
        if let Some((name, prop)) = array {
            let items_schema = resolve(&spec.doc, prop).ok().and_then(|p| p.key("items"));
            fields.insert((*name).to_owned(), fit(items_schema, &items));
            for (field, _) in props.iter().filter(|(n, _)| TOTALS.contains(n)) {
                if fields.get(*field).is_some_and(Value::is_number) {
                    fields.insert((*field).to_owned(), Value::from(total));
                }
            }
            if validator.check(schema, &wrapper, "").is_err() {
                return generate(&spec.doc, schema, seed, Direction::Response).value;
            }
        }
    }
    wrapper
}
