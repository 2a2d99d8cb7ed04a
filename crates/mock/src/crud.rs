//! Operations on stored resources (list, create, read, replace, patch, delete) and answers
//! straight from the document.
//!
//! A created item holds what the request sent, what the server makes (its id, read-only fields,
//! `createdAt` and the like at the time of the request) and nothing invented (`item.rs`); what
//! goes back is the item in the shape each operation documents: the item itself, or inside a
//! wrapper such as `{"data": [...], "total": 3}` when the document answers with one.

use playground_openapi::json::Key;
use serde_json::{Map, Value};

use super::answer;
use super::embed::{embed, embed_list};
use super::failure::Failure;
use super::generate::generate;
use super::item::Making;
use super::params::Params;
use super::resources::{self, IdKind, Resource, Role, lower_first, properties};
use super::spec::{Operation, Spec};
use super::store::{Store, size_of};
use playground_http::Response;
use playground_openapi::pointer::resolve;
use playground_openapi::schema::Direction;

/// One call on a resource.
pub(crate) struct Call<'a> {
    pub spec: &'a Spec,
    pub resources: &'a [Resource],
    pub store: &'a mut Store,
    pub seed: u64,
    pub accept: Option<&'a str>,
    /// The time of the request (milliseconds since 1970), when the mock has a clock.
    pub now: Option<i64>,
}

/// Query parameters that page a list rather than filter it.
const LIMITS: [&str; 12] = [
    "limit",
    "per_page",
    "perPage",
    "page_size",
    "pageSize",
    "size",
    "count",
    "max",
    "maxResults",
    "max_results",
    "top",
    "$top",
];
const OFFSETS: [&str; 5] = ["offset", "skip", "start", "from", "$skip"];
const PAGES: [&str; 4] = ["page", "page_number", "pageNumber", "p"];

/// The text form of a parameter value: `5` for the number 5, the string itself for a string.
pub(crate) fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Call<'_> {
    /// Runs one role; the answer and whether the state changed. `path_names` are the names of
    /// the matched template's parameters, in order: the scope, then the id.
    pub(crate) fn run(
        &mut self,
        index: usize,
        role: Role,
        op: &Operation,
        params: &Params,
        path_names: &[&str],
        body: Option<Value>,
    ) -> Result<(Response, bool), Failure> {
        let resource = &self.resources[index];
        // A body in the wrapper the document gives items (`{"api": {...}}`) is the item inside.
        let body = match (body, &resource.wrapper) {
            (Some(Value::Object(mut fields)), Some(wrapper))
                if fields.len() == 1 && fields.contains_key(wrapper) =>
            {
                fields.remove(wrapper)
            }
            (body, _) => body,
        };
        let (scope, id) = locate(resource, params, path_names);
        self.check_parent(resource, &scope)?;
        let scope = scope.join("/");
        let collection = resource.collection.as_str();
        let absent = |id: &str| missing(resource, &scope, id);
        match (role, id) {
            (Role::List, _) => Ok((self.list(resource, op, &scope, params), false)),
            (Role::Create, _) => {
                let (id, item) = self.create(resource, op, &scope, body)?;
                let (status, response) = answer::stored_success(op, 201);
                let mut answer = self.item_answer(resource, op, status, response, &item);
                let location =
                    format!("{}/{}", fill(collection, &resource.scope_params, &scope), percent(&id));
                // The created item's address, in place of a value generated for a documented
                // `Location` header.
                answer.headers.retain(|(name, _)| !name.eq_ignore_ascii_case("location"));
                answer.headers.push(("Location".to_owned(), location));
                Ok((answer, true))
            }
            (Role::Read, Some(id)) => {
                let item = self.store.get(collection, &scope, &id).ok_or_else(|| absent(&id))?.clone();
                let (status, response) = answer::stored_success(op, 200);
                Ok((self.item_answer(resource, op, status, response, &item), false))
            }
            (Role::Replace, Some(id)) => {
                let old = self.store.get(collection, &scope, &id).cloned();
                if old.is_none() && !upserts(self.spec, resource) {
                    return Err(absent(&id));
                }
                let making = Making::new(self.spec, resource, op, self.now, self.seed);
                let item = making.item(&id, body, old.as_ref());
                self.store_item(collection, &scope, &id, item.clone())?;
                let (status, response) = answer::stored_success(op, 200);
                Ok((self.item_answer(resource, op, status, response, &item), true))
            }
            (Role::Patch, Some(id)) => {
                let old = self.store.get(collection, &scope, &id).ok_or_else(|| absent(&id))?.clone();
                let mut merged = super::patch::patched(self.spec, resource, &old, body.as_ref(), &id)?;
                resource.set_id(&mut merged, &id);
                Making::new(self.spec, resource, op, self.now, self.seed).touch(&mut merged, body.as_ref());
                if let Some(schema) = &resource.item_schema {
                    self.spec.validator().direction(Direction::Response).check(schema, &merged, "").map_err(
                        |e| Failure::validation(op, format!("After the patch, {}", lower_first(&e))),
                    )?;
                }
                self.store_item(collection, &scope, &id, merged.clone())?;
                let (status, response) = answer::stored_success(op, 200);
                Ok((self.item_answer(resource, op, status, response, &merged), true))
            }
            (Role::Delete, Some(id)) => {
                let old = self.store.remove(collection, &scope, &id).ok_or_else(|| absent(&id))?;
                self.remove_children(index, &scope, &id);
                let (status, response) = answer::stored_success(op, 204);
                Ok((self.item_answer(resource, op, status, response, &old), true))
            }
            (_, None) => {
                Err(Failure::parameter(format!("Path parameter {} is required.", resource.id_param)))
            }
        }
    }

    /// A nested collection's parent item must exist, when items of that parent can be created.
    fn check_parent(&self, resource: &Resource, scope: &[String]) -> Result<(), Failure> {
        let Some(parent) = resource.parent.and_then(|p| self.resources.get(p)) else { return Ok(()) };
        let depth = parent.scope_params.len();
        let (Some(parent_scope), Some(parent_id)) = (scope.get(..depth), scope.get(depth)) else {
            return Ok(());
        };
        let parent_id = percent_encoding::percent_decode_str(parent_id).decode_utf8_lossy();
        self.check_item(parent, parent_scope, &parent_id)
    }

    /// The item must exist, when items of its resource can be created.
    fn check_item(&self, resource: &Resource, scope: &[String], id: &str) -> Result<(), Failure> {
        if !can_create(self.spec, resource) {
            return Ok(());
        }
        let scope = scope.join("/");
        match self.store.get(&resource.collection, &scope, id) {
            Some(_) => Ok(()),
            None => Err(missing(resource, &scope, id)),
        }
    }

    /// A path under a stored item (`/things/{id}/anything`, or an operation of the item's own
    /// path that is not one of the resource's) is answered only while that item exists.
    pub(crate) fn check_owner(
        &self,
        index: usize,
        params: &Params,
        path_names: &[&str],
    ) -> Result<(), Failure> {
        let Some(resource) = self.resources.get(index) else { return Ok(()) };
        let (scope, id) = locate(resource, params, path_names);
        let Some(id) = id else { return Ok(()) };
        self.check_parent(resource, &scope)?;
        self.check_item(resource, &scope, &id)
    }

    fn remove_children(&mut self, index: usize, scope: &str, id: &str) {
        let child_scope = if scope.is_empty() { percent(id) } else { format!("{scope}/{}", percent(id)) };
        for (child, resource) in self.resources.iter().enumerate() {
            if resource.parent != Some(index) {
                continue;
            }
            let ids: Vec<String> = self
                .store
                .scope(&resource.collection, &child_scope)
                .map(|items| items.keys().cloned().collect())
                .unwrap_or_default();
            for child_id in ids {
                self.store.remove(&resource.collection, &child_scope, &child_id);
                self.remove_children(child, &child_scope, &child_id);
            }
        }
    }

    fn store_item(&mut self, collection: &str, scope: &str, id: &str, item: Value) -> Result<(), Failure> {
        let new = usize::from(self.store.get(collection, scope, id).is_none());
        self.store.fits(new, size_of(&item)).map_err(Failure::storage_full)?;
        self.store.put(collection, scope, id.to_owned(), item);
        Ok(())
    }

    fn create(
        &mut self,
        resource: &Resource,
        op: &Operation,
        scope: &str,
        body: Option<Value>,
    ) -> Result<(String, Value), Failure> {
        let collection = resource.collection.as_str();
        let making = Making::new(self.spec, resource, op, self.now, self.seed);
        // The client's id, when the request's schema lets it send one (FastAPI's `BookIn` has
        // no `id`: one sent is ignored) and the item's does not mark it read-only.
        let given = resource
            .id_field
            .as_ref()
            .filter(|f| making.settable(f))
            .and_then(|f| body.as_ref()?.get(f))
            .filter(|v| !v.is_null())
            .map(text);
        let id = match given {
            Some(id) if !self.id_read_only(resource) => {
                if self.store.get(collection, scope, &id).is_some() {
                    return Err(Failure::conflict(format!("{} {id} already exists.", singular(collection))));
                }
                id
            }
            _ => self.new_id(resource, scope),
        };
        let item = making.item(&id, body, None);
        self.store_item(collection, scope, &id, item.clone())?;
        Ok((id, item))
    }

    fn id_read_only(&self, resource: &Resource) -> bool {
        let (Some(schema), Some(field)) = (&resource.item_schema, &resource.id_field) else { return true };
        properties(self.spec, schema)
            .into_iter()
            .find(|(n, _)| n == field)
            .and_then(|(_, s)| resolve(&self.spec.doc, s).ok())
            .and_then(|s| s.key("readOnly"))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    /// A fresh id: the next number (or a UUID made from it), skipping any taken; when that
    /// does not fit the id's schemas (a pattern, a length, a minimum), a value generated from
    /// them that does.
    fn new_id(&mut self, resource: &Resource, scope: &str) -> String {
        let schemas = resources::resource_id_schemas(self.spec, resource);
        let validator = self.spec.validator().direction(Direction::Request);
        let fits = |id: &str| {
            let value = match resource.id_kind {
                IdKind::Integer => {
                    id.parse::<i64>().map_or_else(|_| Value::String(id.to_owned()), Value::from)
                }
                IdKind::Uuid | IdKind::Text => Value::String(id.to_owned()),
            };
            schemas.iter().all(|schema| validator.check(schema, &value, "").is_ok())
        };
        loop {
            let n = self.store.next_number(&resource.collection);
            let mut id = match resource.id_kind {
                IdKind::Integer | IdKind::Text => n.to_string(),
                IdKind::Uuid => {
                    let h = super::hash(&format!("{}#{n}", resource.collection));
                    format!(
                        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
                        h >> 32,
                        (h >> 16) & 0xffff,
                        h & 0xfff,
                        n & 0xfff,
                        n
                    )
                }
            };
            if !fits(&id) {
                let seed = super::hash(&format!("{}#{n}", resource.collection));
                // Each schema in turn (the path parameter's often has the pattern), a few seeds.
                let tries = schemas.iter().flat_map(|schema| (0..4u64).map(move |k| (*schema, k)));
                let generated = tries.into_iter().find_map(|(schema, k)| {
                    let text = match generate(&self.spec.doc, schema, seed ^ k, Direction::Request).value {
                        Value::String(text) => text,
                        Value::Number(number) => number.to_string(),
                        _ => return None,
                    };
                    let unique = self.store.get(&resource.collection, scope, &text).is_none();
                    (unique && !text.is_empty() && fits(&text)).then_some(text)
                });
                if let Some(generated) = generated {
                    id = generated;
                }
            }
            if self.store.get(&resource.collection, scope, &id).is_none() || n == u64::MAX {
                return id;
            }
        }
    }

    fn list(&self, resource: &Resource, op: &Operation, scope: &str, params: &Params) -> Response {
        let all: Vec<&Value> = self
            .store
            .scope(&resource.collection, scope)
            .map(|items| items.values().collect())
            .unwrap_or_default();
        let paging: Vec<&str> = LIMITS.iter().chain(&OFFSETS).chain(&PAGES).copied().collect();
        let filtered: Vec<&Value> = all
            .into_iter()
            .filter(|item| {
                op.params
                    .iter()
                    .filter(|p| {
                        p.location == super::spec::Location::Query && !paging.contains(&p.name.as_str())
                    })
                    .all(|p| match (params.get(&p.name), item.get(&p.name)) {
                        (Some(wanted), Some(have)) if !have.is_object() && !have.is_array() => match wanted {
                            Value::Array(options) => options.iter().any(|o| text(o) == text(have)),
                            Value::Object(_) => true,
                            one => text(one) == text(have),
                        },
                        _ => true,
                    })
            })
            .collect();
        let total = filtered.len();
        let number = |names: &[&str]| {
            names
                .iter()
                .find_map(|n| params.get(*n))
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
        };
        let limit = number(&LIMITS).unwrap_or(usize::MAX);
        let offset = number(&OFFSETS).unwrap_or_else(|| {
            // Pages count from 1, unless the parameter's minimum is 0.
            let zero_based = PAGES
                .iter()
                .find_map(|n| op.params.iter().find(|p| p.name == *n))
                .and_then(|p| resolve(&self.spec.doc, &p.schema).ok())
                .and_then(|s| s.key("minimum"))
                .and_then(Value::as_u64)
                == Some(0);
            let first_page = usize::from(!zero_based);
            number(&PAGES).map_or(0, |page| {
                page.saturating_sub(first_page).saturating_mul(if limit == usize::MAX { 0 } else { limit })
            })
        });
        let page: Vec<Value> =
            filtered.into_iter().skip(offset).take(limit).map(|item| self.outward(resource, item)).collect();
        let (status, response) = answer::stored_success(op, 200);
        let mut answer = self.shaped(op, status, response, |spec, schema, seed| match schema {
            // No schema to fit: the items as they are.
            Value::Bool(true) => Value::Array(page.clone()),
            _ => embed_list(spec, schema, page.clone(), total, seed),
        });
        answer.headers.push(("X-Total-Count".to_owned(), total.to_string()));
        answer
    }

    /// A stored item as answers show it: without its `writeOnly` fields.
    fn outward(&self, resource: &Resource, item: &Value) -> Value {
        let mut shown = item.clone();
        if let Some(schema) = &resource.item_schema {
            super::generate::prune(&self.spec.doc, schema, &mut shown, Direction::Response);
        }
        shown
    }

    fn item_answer(
        &self,
        resource: &Resource,
        op: &Operation,
        status: u16,
        response: Option<&Value>,
        item: &Value,
    ) -> Response {
        let shown = self.outward(resource, item);
        let item = match &resource.wrapper {
            Some(wrapper) => &Value::Object(Map::from_iter([(wrapper.clone(), shown)])),
            None => &shown,
        };
        self.shaped(op, status, response, |spec, schema, seed| embed(spec, schema, item, seed))
    }

    /// An answer with a documented response's headers and a body made by `make` for its JSON
    /// schema (none when the response has no content).
    fn shaped(
        &self,
        _op: &Operation,
        status: u16,
        response: Option<&Value>,
        make: impl Fn(&Spec, &Value, u64) -> Value,
    ) -> Response {
        let mut headers = response.map(|r| answer::headers(self.spec, r, self.seed)).unwrap_or_default();
        let content =
            response.and_then(|r| r.key("content")).and_then(Value::as_object).filter(|c| !c.is_empty());
        // A success the operation does not document (it lists only errors): the value as JSON.
        if response.is_none() && status != 204 {
            let value = make(self.spec, &Value::Bool(true), self.seed);
            headers.insert(0, ("Content-Type".to_owned(), "application/json".to_owned()));
            return Response { status, headers, body: answer::json_bytes(&value) };
        }
        let body = match content.and_then(|c| answer::pick_media(c, self.accept)) {
            Some((media, entry)) => {
                let value = match entry.key("schema") {
                    Some(schema) => make(self.spec, schema, self.seed),
                    None => make(self.spec, &Value::Bool(true), self.seed),
                };
                let media = answer::concrete_media(media, self.accept);
                let body = answer::encode(&media, &value);
                headers.insert(0, ("Content-Type".to_owned(), media));
                body
            }
            None => Vec::new(),
        };
        Response { status, headers, body }
    }
}

/// Whether items of a resource can be made: its collection takes POST, or PUT creates.
fn can_create(spec: &Spec, resource: &Resource) -> bool {
    resource.collection_has(spec, "POST") || upserts(spec, resource)
}

/// PUT on an item that does not exist creates it when the collection has no POST.
fn upserts(spec: &Spec, resource: &Resource) -> bool {
    !resource.collection_has(spec, "POST")
}

/// The scope (percent-encoded values) and the id of a request on a resource, read from its
/// parameters by their place in the matched template, so that templates that name them
/// otherwise (`/items/{itemId}` beside `/items/{id}`) read the same.
pub(crate) fn locate(
    resource: &Resource,
    params: &Params,
    path_names: &[&str],
) -> (Vec<String>, Option<String>) {
    let depth = resource.scope_params.len();
    let value = |place: usize, own: Option<&String>| {
        let name = path_names.get(place).copied().or(own.map(String::as_str))?;
        params.get(name).map(text)
    };
    // Scope values are kept percent-encoded, so that a `/` in one cannot be taken for a
    // separator; ids are kept as they are.
    let scope = (0..depth)
        .map(|place| percent(&value(place, resource.scope_params.get(place)).unwrap_or_default()))
        .collect();
    (scope, value(depth, Some(&resource.id_param)))
}

/// The answer for an item that does not exist.
fn missing(resource: &Resource, scope: &str, id: &str) -> Failure {
    let collection = resource.collection.as_str();
    let place = if scope.is_empty() {
        String::new()
    } else {
        format!(" in {}", fill(collection, &resource.scope_params, scope))
    };
    Failure::not_found(format!("{} {id} does not exist{place}.", singular(collection)))
}

/// `/users/{userId}/posts` with the scope's values in place.
fn fill(template: &str, names: &[String], scope: &str) -> String {
    let values: Vec<&str> = if scope.is_empty() { Vec::new() } else { scope.split('/').collect() };
    let mut out = template.trim_end_matches('/').to_owned();
    for (name, value) in names.iter().zip(values) {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// What a path segment cannot hold as it is.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}');

fn percent(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, SEGMENT).to_string()
}

/// "Post" for `/users/{userId}/posts`: the last literal segment, singular, capitalized.
fn singular(collection: &str) -> String {
    let last = collection.rsplit('/').find(|s| !s.is_empty() && !s.starts_with('{')).unwrap_or("Item");
    let word = last
        .strip_suffix("ies")
        .map(|s| format!("{s}y"))
        .or_else(|| last.strip_suffix('s').map(str::to_owned))
        .unwrap_or_else(|| last.to_owned());
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
