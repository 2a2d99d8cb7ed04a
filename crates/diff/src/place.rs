//! Where a comparison stands (the operation or shared schema, the place in words, the pointer
//! on each side, the direction) and how a change found there is written down with its level.

use std::sync::LazyLock;

use playground_openapi::pointer::escape_segment;
use serde_json::{Map, Value};

use crate::{Change, Direction, Level, OperationKey};

/// What a change does to the values a schema allows, which sets its level with the direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Fewer values: breaking in a request, not in a response.
    Narrows,
    /// More values: breaking in a response, not in a request.
    Widens,
    /// Neither fewer nor more, but other: breaking either way.
    Both,
    /// Breaking neither way.
    Neither,
    /// A level that does not follow the direction.
    Fixed(Level),
}

impl Effect {
    /// The level of this effect in `direction`.
    pub(crate) fn level(self, direction: Option<Direction>) -> Level {
        match (self, direction) {
            (Effect::Fixed(level), _) => level,
            (Effect::Both, _) => Level::Breaking,
            (Effect::Neither, _) => Level::NonBreaking,
            (Effect::Narrows, Some(Direction::Request)) | (Effect::Widens, Some(Direction::Response)) => {
                Level::Breaking
            }
            (Effect::Narrows | Effect::Widens, _) => Level::NonBreaking,
        }
    }
}

/// Who a place belongs to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Owner {
    /// One operation.
    Operation(OperationKey),
    /// A component schema compared once (its operations are filled in at the end), and
    /// whether leniently.
    Schema(String, bool),
    /// The document as a whole (servers, security schemes).
    Document,
}

/// Where a comparison stands.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    /// Whose change it is.
    pub owner: Owner,
    /// The place in words, before any property path: `response 200 application/json`.
    pub base: String,
    /// The property path under `base`: `tags[].name`.
    pub path: String,
    /// The pointer in the old description.
    pub old: String,
    /// The pointer in the new description.
    pub new: String,
    /// The direction of the data, for schemas.
    pub direction: Option<Direction>,
    /// Breaking changes here are reported as non-breaking (an experimental operation, a
    /// read-only property in a request, a write-only one in a response).
    pub lenient: bool,
    /// The pointers stay where they are on the old and the new side: the schema compared there
    /// is made of `allOf` parts merged, whose places are in no document.
    pub frozen: (bool, bool),
}

impl Place {
    /// A place at the top of `owner`.
    pub(crate) fn new(owner: Owner, base: impl Into<String>, old: String, new: String) -> Place {
        Place {
            owner,
            base: base.into(),
            path: String::new(),
            old,
            new,
            direction: None,
            lenient: false,
            frozen: (false, false),
        }
    }

    /// The same place, one pointer segment down on both sides.
    pub(crate) fn down(&self, segment: &str) -> Place {
        let escaped = escape_segment(segment);
        let mut place = self.clone();
        place.old = format!("{}/{escaped}", self.old);
        place.new = format!("{}/{escaped}", self.new);
        place
    }

    /// The same place with its property path extended by `step` (`name`, `[]`).
    pub(crate) fn property(&self, segment_path: &[&str], step: &str) -> Place {
        let mut place = self.clone();
        for segment in segment_path {
            let escaped = escape_segment(segment);
            if !self.frozen.0 {
                place.old = format!("{}/{escaped}", place.old);
            }
            if !self.frozen.1 {
                place.new = format!("{}/{escaped}", place.new);
            }
        }
        place.path = if self.path.is_empty() || step.starts_with('[') {
            format!("{}{step}", self.path)
        } else {
            format!("{}.{step}", self.path)
        };
        place
    }

    /// The place in words.
    pub(crate) fn words(&self) -> String {
        // A branch or part at the top (`(allOf User)`) is no property.
        let kind = if self.path.starts_with('(') { "" } else { "property " };
        match (self.base.is_empty(), self.path.is_empty()) {
            (_, true) => self.base.clone(),
            (true, false) => format!("{kind}{}", self.path),
            (false, false) => format!("{}, {kind}{}", self.base, self.path),
        }
    }
}

/// The changes found so far.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// Each change with its owner (the operations of a shared schema are filled in at the end).
    pub changes: Vec<(Owner, Change)>,
}

/// A change about to be written down.
pub(crate) struct Note<'p> {
    place: &'p Place,
    id: &'static str,
    effect: Effect,
    message: String,
    old: Option<Value>,
    new: Option<Value>,
    removal: bool,
}

impl<'p> Note<'p> {
    /// A change of kind `id` at `place`, with `effect` and `message`.
    pub(crate) fn new(
        place: &'p Place,
        id: &'static str,
        effect: Effect,
        message: impl Into<String>,
    ) -> Self {
        Note { place, id, effect, message: message.into(), old: None, new: None, removal: false }
    }

    /// The values compared.
    pub(crate) fn values(mut self, old: Option<Value>, new: Option<Value>) -> Self {
        self.old = old;
        self.new = new;
        self
    }

    /// What was removed: the pointer is the old description's.
    pub(crate) fn removal(mut self) -> Self {
        self.removal = true;
        self
    }

    /// Writes it down in `found`.
    pub(crate) fn add(self, found: &mut Found) {
        let place = self.place;
        let mut level = self.effect.level(place.direction);
        if place.lenient && level == Level::Breaking {
            level = Level::NonBreaking;
        }
        let operations = match &place.owner {
            Owner::Operation(key) => vec![key.clone()],
            Owner::Schema(..) | Owner::Document => Vec::new(),
        };
        let schema = match &place.owner {
            Owner::Schema(name, _) => Some(name.clone()),
            _ => None,
        };
        let change = Change {
            id: self.id,
            level,
            direction: place.direction,
            operations,
            schema,
            place: place.words(),
            pointer: if self.removal { place.old.clone() } else { place.new.clone() },
            message: self.message,
            old: self.old,
            new: self.new,
        };
        found.changes.push((place.owner.clone(), change));
    }
}

/// The object under `key`, or an empty one.
pub(crate) fn object<'v>(value: &'v Value, key: &str) -> &'v Map<String, Value> {
    static EMPTY: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);
    value.get(key).and_then(Value::as_object).unwrap_or(&EMPTY)
}
