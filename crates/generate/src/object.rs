//! Objects and lists: every property of every part (the other direction's `readOnly` or
//! `writeOnly` ones left out), `additionalProperties` of each part applied to the names the
//! others declare, property counts, items and `prefixItems`, `contains`, `uniqueItems`;
//! optional properties and items stop where the depth, the recursion or the size caps say so;
//! an object a `oneOf`'s other branches would accept too is set apart from them.

use playground_openapi::json::Key;
use serde_json::{Map, Value};

use super::shape::Shape;
use super::{Ctx, MAX_DEPTH, Run, SOFT_DEPTH};

/// Lists hold at most this many items.
const MAX_ITEMS: usize = 1_000;
/// Tries for an item that differs from the others (`uniqueItems`).
const UNIQUE_TRIES: usize = 8;

/// The property names the parts of `shape` declare (`properties`, then names only `required`),
/// and the required ones, each once in first-seen order.
fn property_names<'a>(shape: &Shape<'a>) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut names: Vec<&'a str> = Vec::new();
    for properties in shape.get("properties").filter_map(Value::as_object) {
        for name in properties.keys() {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
    }
    let mut required: Vec<&'a str> = Vec::new();
    for list in shape.get("required").filter_map(Value::as_array) {
        for name in list.iter().filter_map(Value::as_str) {
            if !required.contains(&name) {
                required.push(name);
            }
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    (names, required)
}

/// What a property name is allowed and held to across the parts of an object's shape.
struct Property<'a> {
    shape: Shape<'a>,
    /// A part closes the object (`additionalProperties: false`) without declaring the name.
    forbidden: bool,
}

impl<'a> Run<'a> {
    /// The schemas a property `name` of an object of `shape` is held to: each part's
    /// `properties[name]`, else its matching `patternProperties`, else its schema-valued
    /// `additionalProperties`.
    fn property(&mut self, shape: &Shape<'a>, name: &str) -> Property<'a> {
        let mut schemas = Vec::new();
        let mut forbidden = false;
        for part in &shape.parts {
            if let Some(schema) = part.key("properties").and_then(|p| p.get(name)) {
                schemas.push(schema);
                continue;
            }
            let mut matched = false;
            for (pattern, schema) in
                part.key("patternProperties").and_then(Value::as_object).into_iter().flatten()
            {
                if self.matches(pattern, name).unwrap_or(false) {
                    schemas.push(schema);
                    matched = true;
                }
            }
            match part.key("additionalProperties") {
                _ if matched => {}
                Some(Value::Bool(false)) => forbidden = true,
                Some(schema @ Value::Object(_)) => schemas.push(schema),
                _ => {}
            }
        }
        Property { shape: Shape::all(self.doc, &schemas), forbidden }
    }

    /// Whether an optional property or item of `shape` reaches back into a schema that is
    /// already being generated twice over, or nests too deep to be worth it.
    fn recurses(&self, shape: &Shape<'a>, depth: usize) -> bool {
        let mut refs = shape.refs.clone();
        for items in shape.get("items") {
            refs.extend(Shape::of(self.doc, items).refs);
        }
        (depth >= SOFT_DEPTH && !refs.is_empty())
            || refs.iter().any(|r| self.refs.iter().filter(|s| *s == r).count() >= 2)
    }

    /// An object for `shape`: its declared properties (the required ones, and the optional ones
    /// the caps leave room for), then others until it has as many as `minProperties` asks.
    pub(super) fn object(&mut self, shape: &Shape<'a>, ctx: &Ctx<'a>) -> Value {
        let (names, required) = property_names(shape);
        let (min, max) = self.property_counts(shape);
        if ctx.depth > MAX_DEPTH {
            if !required.is_empty() || min > 0 {
                self.note(format!("the value stops at {MAX_DEPTH} levels, leaving out required properties"));
            }
            return Value::Object(Map::new());
        }
        let (mut out, skipped) = self.declared_properties(shape, &names, &required, max, ctx);
        // Too few properties: the skipped ones, then new names where the schema lets them in.
        for (name, property) in skipped {
            if out.len() >= min {
                break;
            }
            let value = self.property_value(property, name, ctx);
            out.insert(name.to_owned(), value);
        }
        let open = !shape.parts.iter().any(|p| {
            p.key("additionalProperties") == Some(&Value::Bool(false))
                || p.key("unevaluatedProperties") == Some(&Value::Bool(false))
        });
        if let Some((name, forced)) = &ctx.forced
            && open
            && !names.contains(name)
        {
            out.insert((*name).to_owned(), Value::String(forced.clone()));
        }
        if open {
            self.other_properties(shape, &mut out, min, max, ctx);
        }
        if out.len() < min {
            self.note(format!("an object needs at least {min} properties and the schema allows fewer"));
        }
        if out.len() > max {
            self.note(format!("an object may have at most {max} properties and needs more"));
        }
        Value::Object(out)
    }

    /// The fewest and most properties an object of `shape` has (`minProperties`, at most
    /// [`MAX_ITEMS`], and `maxProperties`).
    fn property_counts(&mut self, shape: &Shape<'a>) -> (usize, usize) {
        let max =
            shape.at_most("maxProperties").map_or(usize::MAX, |m| usize::try_from(m).unwrap_or(usize::MAX));
        let min_asked = shape.at_least("minProperties").unwrap_or(0);
        let mut min = usize::try_from(min_asked).unwrap_or(usize::MAX);
        if min > MAX_ITEMS {
            self.note(format!("an object of at least {min_asked} properties is cut to {MAX_ITEMS}"));
            min = MAX_ITEMS;
        }
        (min, max)
    }

    /// The values of the declared properties `names` an object of `shape` has, at most `max`
    /// but for the `required` ones, and the optional ones skipped for the depth, the recursion
    /// or `max` (to add back when the object needs more properties).
    fn declared_properties(
        &mut self,
        shape: &Shape<'a>,
        names: &[&'a str],
        required: &[&'a str],
        max: usize,
        ctx: &Ctx<'a>,
    ) -> (Map<String, Value>, Vec<(&'a str, Property<'a>)>) {
        let mut out = Map::new();
        let mut skipped: Vec<(&'a str, Property<'a>)> = Vec::new();
        for &name in names {
            let property = self.property(shape, name);
            if property.shape.excluded(self.direction) {
                continue;
            }
            let is_required = required.contains(&name);
            // An optional property no value satisfies (`false`, `not: {}`) is left out.
            if !is_required && property.shape.unsatisfiable() {
                continue;
            }
            if property.forbidden {
                if is_required {
                    self.note(format!(
                        "the required property {name} is not allowed by additionalProperties: false"
                    ));
                } else {
                    continue;
                }
            }
            if !is_required
                && (!self.roomy(ctx.depth) || self.recurses(&property.shape, ctx.depth) || out.len() >= max)
            {
                skipped.push((name, property));
                continue;
            }
            let mark = self.mark();
            let shape = (!is_required).then(|| property.shape.clone());
            let value = self.property_value(property, name, ctx);
            // An optional property whose schema contradicts itself (`type: null` beside a
            // `oneOf` of numbers and booleans, or a discriminator naming a value its property
            // refuses) is left out rather than sent invalid.
            if let Some(shape) = shape
                && !self.exact
                && (self.misnamed > mark.misnamed || !self.check_shape(&shape, &value))
            {
                self.reset(&mark);
                continue;
            }
            out.insert(name.to_owned(), value);
        }
        (out, skipped)
    }

    /// Adds properties of names the open object of `shape` does not declare
    /// (`additionalProp1`, ...) to `out` until it has `min` (at most `max`), or one when it is a
    /// map (only `additionalProperties`) with no property yet and there is room.
    fn other_properties(
        &mut self,
        shape: &Shape<'a>,
        out: &mut Map<String, Value>,
        min: usize,
        max: usize,
        ctx: &Ctx<'a>,
    ) {
        let map_like = out.is_empty()
            && shape.get("additionalProperties").any(Value::is_object)
            && shape.get("properties").next().is_none();
        let wanted = min.max(usize::from(map_like && self.roomy(ctx.depth))).min(max);
        let mut n = 0;
        while out.len() < wanted && n < wanted + 8 && self.nodes < super::MAX_NODES {
            n += 1;
            let key = format!("additionalProp{n}");
            if out.contains_key(&key) {
                continue;
            }
            let property = self.property(shape, &key);
            let value = self.value(property.shape, ctx.child(None));
            out.insert(key, value);
        }
    }

    /// An object of `branches[index]` that the other branches also accept, set apart from them:
    /// for each such branch, one property it declares and `branches[index]` does not, given a
    /// value of another type (`null` first), which that branch refuses. Open objects whose
    /// properties never conflict (`oneOf` of three search results, none with `required`) match
    /// every branch otherwise, and a client that reads a `oneOf` by trying each branch cannot
    /// tell them apart. `None` when no such properties set it apart, or the result would break
    /// `whole` (the branch merged with the rest of the schema).
    pub(super) fn set_apart(
        &mut self,
        whole: &Shape<'a>,
        branches: &'a [Value],
        index: usize,
        value: &Value,
    ) -> Option<Value> {
        const OTHER_TYPES: [fn() -> Value; 4] =
            [|| Value::Null, || Value::Bool(false), || Value::from(0), || Value::String(String::new())];
        let Value::Object(fields) = value else { return None };
        let declared = |schema: &'a Value| {
            playground_openapi::pointer::resolve(self.doc, schema)
                .ok()
                .and_then(|s| s.key("properties"))
                .and_then(Value::as_object)
        };
        let own = declared(branches.get(index)?);
        let mut out = fields.clone();
        for (j, other) in branches.iter().enumerate() {
            if j == index || !self.check(other, &Value::Object(out.clone())) {
                continue;
            }
            let mut found = None;
            for (name, schema) in declared(other)? {
                if out.contains_key(name) || own.is_some_and(|own| own.contains_key(name)) {
                    continue;
                }
                if let Some(refused) = OTHER_TYPES.iter().map(|make| make()).find(|v| !self.check(schema, v))
                {
                    found = Some((name.clone(), refused));
                    break;
                }
            }
            let (name, refused) = found?;
            out.insert(name, refused);
        }
        let apart = Value::Object(out);
        let alone = branches.iter().enumerate().all(|(j, other)| j == index || !self.check(other, &apart));
        (alone && self.check_shape(whole, &apart)).then_some(apart)
    }

    /// A property's value: the forced discriminator value when it fits, else generated.
    fn property_value(&mut self, property: Property<'a>, name: &'a str, ctx: &Ctx<'a>) -> Value {
        if let Some((forced_name, forced)) = &ctx.forced
            && *forced_name == name
        {
            let value = Value::String(forced.clone());
            if self.check_shape(&property.shape, &value) {
                self.nodes += 1;
                return value;
            }
            if ctx.chosen {
                self.note(format!(
                    "the discriminator names this shape {forced}, which property {name} does not allow"
                ));
                self.misnamed += 1;
            }
        }
        self.value(property.shape, ctx.child(Some(name)))
    }

    pub(super) fn array(&mut self, shape: &Shape<'a>, ctx: &Ctx<'a>) -> Value {
        let min_asked = shape.at_least("minItems").unwrap_or(0);
        let mut min = usize::try_from(min_asked).unwrap_or(usize::MAX);
        if min > MAX_ITEMS {
            self.note(format!("a list of at least {min_asked} items is shortened to {MAX_ITEMS}"));
            min = MAX_ITEMS;
        }
        let mut max =
            shape.at_most("maxItems").map_or(usize::MAX, |m| usize::try_from(m).unwrap_or(usize::MAX));
        if max < min {
            self.note(format!("a list cannot have at least {min} and at most {max} items"));
            max = min;
        }
        // Beyond a part's prefix, `items: false` (or the older `additionalItems: false`) ends the list.
        for part in &shape.parts {
            let prefix = prefix_of(part).map_or(0, <[Value]>::len);
            let closed = if part.key("prefixItems").is_some() || prefix_of(part).is_none() {
                part.key("items") == Some(&Value::Bool(false))
            } else {
                part.key("additionalItems") == Some(&Value::Bool(false))
            };
            if closed && prefix < max {
                max = prefix;
            }
        }
        let prefix_len =
            shape.parts.iter().filter_map(|p| prefix_of(p)).map(<[Value]>::len).max().unwrap_or(0);
        let contains: Vec<&'a Value> = shape.get("contains").collect();
        if ctx.depth > MAX_DEPTH {
            if min > 0 {
                self.note(format!("the value stops at {MAX_DEPTH} levels, leaving out required items"));
            }
            return Value::Array(Vec::new());
        }
        let first_item = self.item_shape(shape, 0);
        let optional = !self.roomy(ctx.depth) || self.recurses(&first_item, ctx.depth);
        let count = if optional {
            min.max(usize::from(!contains.is_empty()))
        } else {
            let most = max.min(3).max(min);
            let least = min.max(1).max(prefix_len.min(most));
            least + self.rng.below(most.saturating_sub(least) + 1)
        }
        .min(max)
        .min(MAX_ITEMS);
        let unique = shape.flag("uniqueItems");
        let mut items: Vec<Value> = Vec::with_capacity(count);
        for index in 0..count {
            if self.nodes >= super::MAX_NODES {
                self.note(format!(
                    "the value stops at {} nested values, leaving out items",
                    super::MAX_NODES
                ));
                break;
            }
            let mut item_shape = self.item_shape(shape, index);
            if index == prefix_len.min(count.saturating_sub(1)) {
                for c in &contains {
                    item_shape.add(self.doc, c, 0);
                }
            }
            let name = ctx.name.map(singular);
            let mark = self.mark();
            let mut value = self.value(item_shape.clone(), ctx.child(name));
            let mut tries = 0;
            while unique && items.iter().any(|i| playground_validate::same(i, &value)) && tries < UNIQUE_TRIES
            {
                tries += 1;
                self.reset(&mark);
                value = self.value(item_shape.clone(), Ctx { fresh: true, ..ctx.child(name) });
            }
            let duplicate = unique && items.iter().any(|i| playground_validate::same(i, &value));
            // Fewer items rather than a repeated one, or one whose discriminator misnames it,
            // when the list may be shorter.
            if (duplicate || self.misnamed > mark.misnamed) && items.len() >= min {
                self.reset(&mark);
                break;
            }
            if duplicate {
                self.reset(&mark);
                self.note("a list of unique items could not be filled with different values".to_owned());
            }
            items.push(value);
        }
        Value::Array(items)
    }

    /// The schemas item `index` of a list of `shape` is held to.
    fn item_shape(&self, shape: &Shape<'a>, index: usize) -> Shape<'a> {
        let mut schemas = Vec::new();
        for part in &shape.parts {
            match prefix_of(part) {
                Some(prefix) if index < prefix.len() => schemas.extend(prefix.get(index)),
                Some(_) if part.key("prefixItems").is_none() => schemas.extend(part.key("additionalItems")),
                _ => schemas.extend(part.key("items").filter(|i| !i.is_array())),
            }
        }
        Shape::all(self.doc, &schemas)
    }

    /// `value` with the properties this direction leaves out taken away, at every level the
    /// shape declares.
    pub(super) fn prune(&mut self, value: &mut Value, shape: &Shape<'a>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match value {
            Value::Object(map) => {
                let keys: Vec<String> = map.keys().cloned().collect();
                for key in keys {
                    let property = self.property(shape, &key).shape;
                    if property.excluded(self.direction) {
                        map.shift_remove(&key);
                    } else if let Some(child) = map.get_mut(&key) {
                        self.prune(child, &property, depth + 1);
                    }
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    let item_shape = self.item_shape(shape, index);
                    self.prune(item, &item_shape, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// A part's positional item schemas: 3.1's `prefixItems`, or the older list form of `items`.
fn prefix_of(part: &Value) -> Option<&[Value]> {
    part.key("prefixItems")
        .or_else(|| part.key("items").filter(|i| i.is_array()))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
}

/// "tags" → "tag", "photoUrls" → "photoUrl": the name an item of a list property goes by.
fn singular(name: &str) -> &str {
    name.strip_suffix('s').filter(|s| !s.is_empty() && !s.ends_with('s')).unwrap_or(name)
}
