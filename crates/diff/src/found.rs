//! An operation as found in a document, and what the walks over operations share: a path
//! template's parameter names and local references followed. A leaf: it imports no module of
//! this crate but the root's types.

use playground_openapi::pointer::pointer_target;
use serde_json::Value;

use crate::OperationKey;

/// How many `$ref`s in a row are followed for a path item, parameter, body, response or header.
const MAX_CHAIN: usize = 16;

/// One operation as found in a document.
pub(crate) struct Found1<'v> {
    /// How the output names it.
    pub key: OperationKey,
    /// The path template as written (parameter names kept).
    pub path: String,
    /// Its path item (a `$ref` followed).
    pub item: &'v Value,
    /// The operation.
    pub operation: &'v Value,
    /// The pointer of the operation.
    pub pointer: String,
}

/// The parameter names of a path template, in order.
pub(crate) fn path_names(path: &str) -> Vec<&str> {
    path.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name)).collect()
}

/// An object with its `$ref`s followed (local ones), with the pointer of what was reached.
pub(crate) fn follow<'v>(doc: &'v Value, value: &'v Value, pointer: String) -> Option<(&'v Value, String)> {
    let mut current = value;
    let mut pointer = pointer;
    for _ in 0..MAX_CHAIN {
        let Some(reference) = current.get("$ref").and_then(Value::as_str) else { break };
        let target = pointer_target(doc, reference)?;
        pointer = reference.trim_start_matches('#').to_owned();
        current = target;
    }
    current.is_object().then_some((current, pointer))
}
