//! Resources inferred from a document's paths: a collection path (`/things`) beside its item
//! path (`/things/{thingId}`) is a stored resource. A collection under another resource's item
//! (`/users/{userId}/posts`) is scoped to that item: each user has its own posts, and a user
//! that does not exist has none. A pair whose items cannot be created (no POST on the
//! collection, no PUT on the item) is not stored: its operations answer from the document.
//! Templates that differ only in their parameters' names (`/items/{id}` for GET beside
//! `/items/{itemId}` for PUT) are one path of the resource.

use playground_openapi::json::Key;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::spec::{Location, PathItem, Spec};
use playground_openapi::pointer::resolve;

/// What an operation does to a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    List,
    Create,
    Read,
    Replace,
    Patch,
    Delete,
}

/// How new ids are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IdKind {
    /// 1, 2, 3, ...
    Integer,
    /// A UUID made from the resource and a counter.
    Uuid,
    /// A counter as text.
    Text,
}

/// A stored resource.
#[derive(Debug, Clone)]
pub(crate) struct Resource {
    /// The collection's template, e.g. `/users/{userId}/posts`: the key of its state.
    pub collection: String,
    /// Index of the collection's path item.
    pub collection_path: usize,
    /// Index of the item's path item.
    pub item_path: usize,
    /// Every collection path item of the same shape (`/users/{id}/posts` beside
    /// `/users/{userId}/posts`), `collection_path` first.
    pub collection_paths: Vec<usize>,
    /// Every item path item of the same shape (`/items/{id}` beside `/items/{itemId}`),
    /// `item_path` first.
    pub item_paths: Vec<usize>,
    /// The item path's own parameter (`thingId`).
    pub id_param: String,
    /// The property of an item that holds its id, when the schema has one.
    pub id_field: Option<String>,
    pub id_kind: IdKind,
    /// The parameters of the collection's template, in order: the scope of an item.
    pub scope_params: Vec<String>,
    /// The resource whose item the collection sits under, if any.
    pub parent: Option<usize>,
    /// The schema of one item, as read back (`$ref`s left in place), when the document gives one.
    pub item_schema: Option<Value>,
    /// The property an item comes wrapped in (`{"api": {...}}`), in answers and in bodies.
    pub wrapper: Option<String>,
}

impl Resource {
    /// Writes `id` into the item's id field, as a number when the ids are integers.
    pub(super) fn set_id(&self, item: &mut Value, id: &str) {
        let (Some(field), Value::Object(fields)) = (&self.id_field, item) else { return };
        let value = match self.id_kind {
            IdKind::Integer => {
                id.parse::<i64>().map(Value::from).unwrap_or_else(|_| Value::String(id.to_owned()))
            }
            _ => Value::String(id.to_owned()),
        };
        fields.insert(field.clone(), value);
    }

    /// Whether one of the collection's path items has the method.
    pub(crate) fn collection_has(&self, spec: &Spec, method: &str) -> bool {
        has_any(spec, &self.collection_paths, method)
    }
}

fn has_any(spec: &Spec, paths: &[usize], method: &str) -> bool {
    paths.iter().filter_map(|i| spec.paths.get(*i)).any(|p| p.op(method).is_some())
}

/// Each operation's role: `(path index, method)` → `(resource index, role)`.
pub(crate) type Roles = HashMap<(usize, &'static str), (usize, Role)>;

/// A template with its parameters' names left out (`/users/{}/posts`), so that templates that
/// differ only in those names are one shape.
pub(crate) fn shape(template: &str) -> String {
    let mut out = String::new();
    let mut in_param = false;
    for c in template.trim_end_matches('/').chars() {
        match c {
            '{' if !in_param => {
                in_param = true;
                out.push_str("{}");
            }
            '}' if in_param => in_param = false,
            _ if in_param => {}
            c => out.push(c),
        }
    }
    out
}

/// Finds the resources of a document and each operation's role in them.
pub(crate) fn infer(spec: &Spec) -> (Vec<Resource>, Roles) {
    let shapes: Vec<String> = spec.paths.iter().map(|p| shape(&p.template)).collect();
    // The paths of each shape, in the document's order: built once, so that inferring stays
    // linear in the number of paths.
    let mut of_shape: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, shape) in shapes.iter().enumerate() {
        of_shape.entry(shape.as_str()).or_default().push(index);
    }
    let mut tried: HashSet<&str> = HashSet::new();
    let mut resources: Vec<Resource> = Vec::new();
    for (collection_path, collection) in spec.paths.iter().enumerate() {
        let base = shapes[collection_path].as_str();
        // A shape is tried once, with its first path that lists or creates.
        if !(collection.op("GET").is_some() || collection.op("POST").is_some()) || !tried.insert(base) {
            continue;
        }
        let collection_paths = of_shape.get(base).cloned().unwrap_or_default();
        let item_paths = of_shape.get(format!("{base}/{{}}").as_str()).cloned().unwrap_or_default();
        let Some(&item_path) = item_paths.first() else { continue };
        // Items must be able to come into being (POST on the collection, or PUT on an item);
        // a read-only pair is answered from the document instead, or it would only ever 404.
        if !["GET", "PUT", "PATCH", "DELETE"].iter().any(|m| has_any(spec, &item_paths, m))
            || !(has_any(spec, &collection_paths, "POST") || has_any(spec, &item_paths, "PUT"))
        {
            continue;
        }
        let Some(id_param) = last_param(spec, item_path) else { continue };
        let (item_schema, wrapper) = match item_schema(spec, &collection_paths, &item_paths) {
            Some(schema) => match unwrapped(spec, &schema, &id_param) {
                Some((name, inner)) => (Some(inner), Some(name)),
                None => (Some(schema), None),
            },
            None => (None, None),
        };
        let id_field = item_schema.as_ref().and_then(|s| id_field(spec, s, &id_param));
        let id_kind = id_kind(spec, &item_paths, item_schema.as_ref(), id_field.as_deref());
        let scope_params =
            super::routes::Template::parse(&collection.template).params().map(str::to_owned).collect();
        resources.push(Resource {
            collection: collection.template.clone(),
            collection_path,
            item_path,
            collection_paths,
            item_paths,
            id_param,
            id_field,
            id_kind,
            scope_params,
            parent: None,
            item_schema,
            wrapper,
        });
    }
    // A collection's parent is the resource with the longest item shape its own shape extends:
    // `/a/{}/b/{}/c` belongs to `/a/{}/b`, not to `/a`.
    let items = item_index(&shapes, &resources);
    for i in 0..resources.len() {
        let own = shapes[resources[i].collection_path].as_str();
        resources[i].parent =
            prefixes(own).filter(|p| p.len() < own.len()).find_map(|p| items.get(p)).copied();
    }
    let mut roles = Roles::new();
    for (index, r) in resources.iter().enumerate() {
        let collection_roles =
            [("GET", Role::List), ("POST", Role::Create)].map(|m| (m, &r.collection_paths));
        let item_roles =
            [("GET", Role::Read), ("PUT", Role::Replace), ("PATCH", Role::Patch), ("DELETE", Role::Delete)]
                .map(|m| (m, &r.item_paths));
        for ((method, role), paths) in collection_roles.into_iter().chain(item_roles) {
            for &path in paths {
                if spec.paths[path].op(method).is_some() {
                    // The first resource to claim an operation keeps it.
                    roles.entry((path, method)).or_insert((index, role));
                }
            }
        }
    }
    (resources, roles)
}

/// Each resource's item shape (`/things/{}`), to its index.
fn item_index<'a>(shapes: &'a [String], resources: &[Resource]) -> HashMap<&'a str, usize> {
    resources.iter().enumerate().map(|(index, r)| (shapes[r.item_path].as_str(), index)).collect()
}

/// A shape and each of its shorter prefixes that ends before a `/`, the longest first.
fn prefixes(shape: &str) -> impl Iterator<Item = &str> {
    std::iter::once(shape).chain(shape.rmatch_indices('/').map(move |(at, _)| &shape[..at]))
}

/// The name of the last parameter of a path's template.
fn last_param(spec: &Spec, path: usize) -> Option<String> {
    let template = super::routes::Template::parse(&spec.paths.get(path)?.template);
    template.params().last().map(str::to_owned)
}

/// For each path, the resource whose item it is or sits under (`/things/{id}/parts` under
/// `/things/{id}`), the deepest one: that item must exist for the path to be answered.
pub(crate) fn owners(spec: &Spec, resources: &[Resource]) -> Vec<Option<usize>> {
    let shapes: Vec<String> = spec.paths.iter().map(|p| shape(&p.template)).collect();
    let items = item_index(&shapes, resources);
    shapes
        .iter()
        .map(|own| {
            // A custom method on an item (`/things/{id}:archive`, as Google's APIs write them)
            // sits under that item too.
            let verbless = own.rsplit_once(':').map(|(head, _)| head).filter(|head| head.ends_with("{}"));
            prefixes(own).chain(verbless).find_map(|p| items.get(p)).copied()
        })
        .collect()
}

/// The JSON schema of the first 2XX response of an operation, if any.
pub(crate) fn success_schema<'a>(spec: &'a Spec, path: &'a PathItem, method: &str) -> Option<&'a Value> {
    let op = path.op(method)?;
    let mut statuses: Vec<&(String, Value)> =
        op.responses.iter().filter(|(s, _)| s.starts_with('2')).collect();
    statuses.sort_by(|a, b| a.0.cmp(&b.0));
    statuses.into_iter().find_map(|(_, response)| json_schema(spec, response.key("content")?))
}

/// The schema of the JSON media type of a `content` object.
pub(crate) fn json_schema<'a>(_spec: &Spec, content: &'a Value) -> Option<&'a Value> {
    let content = content.as_object()?;
    content
        .iter()
        .find(|(media, _)| playground_http::form::is_json(media))
        .and_then(|(_, entry)| entry.key("schema"))
}

/// The schema of one item: the item's GET answer, else what PUT or POST take.
fn item_schema(spec: &Spec, collections: &[usize], items: &[usize]) -> Option<Value> {
    let paths =
        |indices: &[usize]| -> Vec<&PathItem> { indices.iter().filter_map(|i| spec.paths.get(*i)).collect() };
    let (collections, items) = (paths(collections), paths(items));
    let body = |paths: &[&PathItem], method: &str| {
        paths.iter().find_map(|path| {
            let body = path.op(method)?.body.as_ref()?;
            body.content.iter().find(|(m, _)| playground_http::form::is_json(m)).and_then(|(_, s)| s.clone())
        })
    };
    items
        .iter()
        .find_map(|item| success_schema(spec, item, "GET"))
        .cloned()
        .filter(|s| is_object_schema(spec, s))
        .or_else(|| body(&items, "PUT"))
        .or_else(|| body(&collections, "POST"))
        .filter(|s| is_object_schema(spec, s))
}

/// An item schema that wraps the item in one property (`{"api": {"id": .., ..}}`): that
/// property's name and schema, when the wrapper has no id of its own and exactly one of its
/// object properties has one.
fn unwrapped(spec: &Spec, schema: &Value, id_param: &str) -> Option<(String, Value)> {
    if id_field(spec, schema, id_param).is_some() {
        return None;
    }
    let mut inner = properties(spec, schema)
        .into_iter()
        .filter(|(_, prop)| is_object_schema(spec, prop) && id_field(spec, prop, id_param).is_some());
    let (name, prop) = inner.next()?;
    inner.next().is_none().then(|| (name.to_owned(), prop.clone()))
}

/// Whether a schema describes an object (its type, its properties, or an `allOf` of those).
pub(crate) fn is_object_schema(spec: &Spec, schema: &Value) -> bool {
    let Ok(schema) = resolve(&spec.doc, schema) else { return false };
    playground_openapi::schema::primary_type(schema) == Some("object")
        || schema
            .key("allOf")
            .and_then(Value::as_array)
            .is_some_and(|parts| parts.iter().any(|p| is_object_schema_shallow(spec, p)))
}

fn is_object_schema_shallow(spec: &Spec, schema: &Value) -> bool {
    resolve(&spec.doc, schema).is_ok_and(|s| playground_openapi::schema::primary_type(s) == Some("object"))
}

/// The names of an object schema's properties, `allOf` parts included, with their schemas.
pub(crate) fn properties<'a>(spec: &'a Spec, schema: &'a Value) -> Vec<(&'a str, &'a Value)> {
    let mut out = Vec::new();
    collect_properties(spec, schema, &mut out, 0);
    out
}

fn collect_properties<'a>(
    spec: &'a Spec,
    schema: &'a Value,
    out: &mut Vec<(&'a str, &'a Value)>,
    depth: usize,
) {
    let Ok(schema) = resolve(&spec.doc, schema) else { return };
    if depth > 8 {
        return;
    }
    for (name, prop) in schema.key("properties").and_then(Value::as_object).into_iter().flatten() {
        if !out.iter().any(|(n, _)| *n == name) {
            out.push((name.as_str(), prop));
        }
    }
    for part in schema.key("allOf").and_then(Value::as_array).into_iter().flatten() {
        collect_properties(spec, part, out, depth + 1);
    }
}

/// The property holding an item's id: the path parameter's own name, `id`, `uuid`, `_id`,
/// `key`, else a read-only property whose name ends in `id`.
fn id_field(spec: &Spec, schema: &Value, id_param: &str) -> Option<String> {
    let props = properties(spec, schema);
    let names: Vec<&str> = props.iter().map(|(n, _)| *n).collect();
    // The parameter's last word (`uid` of `mock_uid`), when it is not just `id`.
    let last_word = id_param
        .rsplit(['_', '-'])
        .next()
        .map(|w| w.rfind(|c: char| c.is_ascii_uppercase()).map_or(w, |at| &w[at..]))
        .map(str::to_ascii_lowercase)
        .filter(|w| w != "id" && w.len() < id_param.len())
        .unwrap_or_default();
    for wanted in [id_param, last_word.as_str(), "id", "uuid", "_id", "ID", "Id", "key"] {
        if wanted.is_empty() {
            continue;
        }
        if names.contains(&wanted) {
            return Some(wanted.to_owned());
        }
    }
    props
        .iter()
        .find(|(name, prop)| {
            let lower = name.to_ascii_lowercase();
            let read_only =
                resolve(&spec.doc, prop).ok().and_then(|p| p.key("readOnly")).and_then(Value::as_bool);
            (lower.ends_with("id") || lower.ends_with("_id")) && read_only == Some(true)
        })
        .map(|(name, _)| (*name).to_owned())
}

/// How ids look: from the id property's schema, else the path parameter's.
fn id_kind(spec: &Spec, items: &[usize], schema: Option<&Value>, field: Option<&str>) -> IdKind {
    for schema in id_schemas(spec, items, schema, field) {
        match (playground_openapi::schema::primary_type(schema), schema.key("format").and_then(Value::as_str))
        {
            (Some("integer" | "number"), _) => return IdKind::Integer,
            (Some("string"), Some("uuid")) => return IdKind::Uuid,
            (Some("string"), _) => return IdKind::Text,
            _ => {}
        }
    }
    IdKind::Integer
}

/// The schemas an id must fit, `$ref`s followed: the id field's in the item, then the item
/// path parameter's.
fn id_schemas<'a>(
    spec: &'a Spec,
    items: &[usize],
    schema: Option<&'a Value>,
    field: Option<&str>,
) -> Vec<&'a Value> {
    let from_field = schema.zip(field).and_then(|(schema, field)| {
        properties(spec, schema).into_iter().find(|(n, _)| *n == field).map(|(_, s)| s)
    });
    let from_param = items.iter().find_map(|&item| {
        let id_param = last_param(spec, item)?;
        spec.paths[item]
            .ops
            .iter()
            .flat_map(|o| &o.params)
            .find(|p| p.location == Location::Path && p.name == id_param)
            .map(|p| &p.schema)
    });
    from_field.into_iter().chain(from_param).filter_map(|s| resolve(&spec.doc, s).ok()).collect()
}

/// The schemas a new id of the resource must fit.
pub(crate) fn resource_id_schemas<'a>(spec: &'a Spec, resource: &'a Resource) -> Vec<&'a Value> {
    id_schemas(spec, &resource.item_paths, resource.item_schema.as_ref(), resource.id_field.as_deref())
}

/// `text` with its first letter in lower case, to continue a sentence.
pub(super) fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}
