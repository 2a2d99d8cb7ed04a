//! Real answers kept as the mock's state: an item a real API read, created or replaced becomes
//! a stored item of its resource, a list's items each one, a delete removes the item. The mock
//! then serves them as it serves the items it made (its snapshot is the format they are kept
//! in), so a recording replays offline.

use serde_json::Value;

use super::ApiMock;
use super::crud::{locate, text};
use super::params::{self, Raw};
use super::resources::{Resource, Role};
use super::split_target;
use super::store::size_of;
use playground_http::{Request, Response};

/// What one recorded answer changed in the store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Recorded {
    /// Items stored (new or replaced).
    pub stored: usize,
    /// Items removed.
    pub removed: usize,
}

/// Why an answer was not recorded although it names items.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The store is at one of its limits ([`crate::MAX_ITEMS`], [`crate::MAX_STORED_BYTES`]).
    #[error("{0}")]
    Full(String),
}

impl ApiMock {
    /// Keeps what a real answer to `request` says of the stored resources: a success (2XX)
    /// of an operation on a resource stores the item it reads, creates, replaces or patches
    /// (its id from the path, else from its id field, else from `Location`), every item of a
    /// list (by its id field; items without one are passed over), or removes the item a DELETE
    /// names. Other answers change nothing. The revision increases when the store changed.
    ///
    /// # Errors
    /// When the items do not fit the store's limits; what fitted before the limit is kept.
    pub fn record(&mut self, request: &Request, response: &Response) -> Result<Recorded, RecordError> {
        let mut recorded = Recorded::default();
        if !(200..300).contains(&response.status) {
            return Ok(recorded);
        }
        let spec = std::sync::Arc::clone(&self.spec);
        let (path, query) = split_target(&request.target);
        let Ok((path_index, path_params, op)) = super::route(&spec, &self.api, &request.method, path) else {
            return Ok(recorded);
        };
        let Some(&(index, role)) = self.roles.get(&(path_index, op.method)) else { return Ok(recorded) };
        let resources = std::sync::Arc::clone(&self.resources);
        let resource = &resources[index];
        let query_pairs: Vec<(String, String)> =
            form_urlencoded::parse(query.as_bytes()).into_owned().collect();
        let raw = Raw { path: &path_params, query: &query_pairs, request };
        // Unchecked: the request reached the real API, whatever the description says of it.
        let Ok(params) = params::read_params(&spec, op, &raw, false) else { return Ok(recorded) };
        let names: Vec<&str> = path_params.iter().map(|(name, _)| name.as_str()).collect();
        let (scope, id) = locate(resource, &params, &names);
        let scope = scope.join("/");
        let collection = resource.collection.as_str();
        if role == Role::Delete {
            if let Some(id) = id
                && self.store.remove(collection, &scope, &id).is_some()
            {
                recorded.removed += 1;
                self.revision += 1;
            }
            return Ok(recorded);
        }
        let Some(body) = response.json() else { return Ok(recorded) };
        let items: Vec<(String, Value)> = match role {
            Role::List => list_items(resource, &body)
                .into_iter()
                .filter_map(|item| Some((item_id(resource, item)?, item.clone())))
                .collect(),
            _ => {
                let Some(item) = one_item(resource, &body) else { return Ok(recorded) };
                let from_location = || {
                    let location = response.header_value("Location")?;
                    let last = location.split(['?', '#']).next()?.trim_end_matches('/').rsplit('/').next()?;
                    let decoded = percent_encoding::percent_decode_str(last).decode_utf8_lossy().into_owned();
                    (!decoded.is_empty()).then_some(decoded)
                };
                let id = match role {
                    Role::Create => item_id(resource, item).or_else(from_location),
                    _ => id.or_else(|| item_id(resource, item)),
                };
                id.map(|id| vec![(id, item.clone())]).unwrap_or_default()
            }
        };
        let result = (|| {
            for (id, item) in items {
                let new = usize::from(self.store.get(collection, &scope, &id).is_none());
                self.store.fits(new, size_of(&item)).map_err(RecordError::Full)?;
                self.store.put(collection, &scope, id, item);
                recorded.stored += 1;
            }
            Ok(())
        })();
        if recorded.stored > 0 {
            self.revision += 1;
        }
        result.map(|()| recorded)
    }
}

/// The id of an item as its id field holds it (a number or a string).
fn item_id(resource: &Resource, item: &Value) -> Option<String> {
    let field = resource.id_field.as_deref()?;
    item.get(field).filter(|v| v.is_string() || v.is_number()).map(text).filter(|id| !id.is_empty())
}

/// The item an answer carries: the body itself, or inside the resource's wrapper
/// (`{"api": {...}}`), or inside the one field of a wrapper object that holds the item (one
/// with the id field).
fn one_item<'v>(resource: &Resource, body: &'v Value) -> Option<&'v Value> {
    let fields = body.as_object()?;
    if let Some(inner) = resource.wrapper.as_ref().and_then(|w| fields.get(w)).filter(|v| v.is_object()) {
        return Some(inner);
    }
    let Some(field) = resource.id_field.as_deref() else { return Some(body) };
    if fields.contains_key(field) {
        return Some(body);
    }
    let mut holding = fields.values().filter(|v| v.get(field).is_some());
    match (holding.next(), holding.next()) {
        (Some(inner), None) => Some(inner),
        _ => None,
    }
}

/// The items of a list answer: the array itself, or the first array field of a wrapper
/// (`{"data": [...], "total": 3}`), each unwrapped as [`one_item`] does.
fn list_items<'v>(resource: &Resource, body: &'v Value) -> Vec<&'v Value> {
    let list = match body {
        Value::Array(items) => Some(items),
        Value::Object(fields) => fields.values().find_map(Value::as_array),
        _ => None,
    };
    list.into_iter().flatten().filter_map(|item| one_item(resource, item)).collect()
}
