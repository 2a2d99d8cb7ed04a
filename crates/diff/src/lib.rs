//! What changed between two descriptions of one API: every change per operation and per schema,
//! each with its level by the direction it travels (narrowing what a request accepts, or
//! widening what a response may hold, breaks clients). `docs/diff.md` is the catalogue of
//! changes and their levels; this crate is its one implementation, used by `playground diff`
//! and by a versioned site's Changes pages.
//!
//! Both documents are OpenAPI 3.x (the caller converts Swagger 2.0 first). [`compare`] walks the
//! operations matched by method and path (`operations`: lifecycle, and the document's security
//! schemes and servers through `security`), what each takes and gives (`exchange`: parameters,
//! request bodies, responses and their headers), and the schemas in them (`schema`: the walk and
//! its references in `mod.rs`, a schema's own facets in `scalars.rs`, properties and items in
//! `objects.rs`, `oneOf`/`anyOf`/`allOf` and discriminators in `branches.rs`). Where each change
//! stands, and its level from its effect and direction, is `place`. A `$ref` to a component
//! schema of the same name on both sides is not walked where it stands: the pair is queued once
//! per direction and compared once (`shared`), and its changes name every operation that
//! reaches it. Every walk is bounded (depth, and pairs of references already on the way), so a
//! schema that refers to itself ends. `render` writes a report as text, Markdown or JSON.
#![deny(missing_docs)]

mod exchange;
mod found;
mod operations;
mod place;
pub mod render;
mod schema;
mod security;
mod shared;

use serde::Serialize;
use serde_json::Value;

/// How a change lands on clients of the old description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Clients of the old description keep working.
    NonBreaking,
    /// Nothing fails yet, but something is going away.
    Deprecation,
    /// A client written against the old description can fail.
    Breaking,
}

impl Level {
    /// The level as written in output and in `--fail-on`: `breaking`, `deprecation`,
    /// `non-breaking`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Level::NonBreaking => "non-breaking",
            Level::Deprecation => "deprecation",
            Level::Breaking => "breaking",
        }
    }
}

/// Which way the data a schema describes travels, which sets a schema change's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// From the client to the API (parameters, request bodies; a webhook's answer).
    Request,
    /// From the API to the client (responses, their headers; a webhook's request).
    Response,
}

impl Direction {
    /// `request` or `response`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Request => "request",
            Direction::Response => "response",
        }
    }
}

/// One operation a change touches.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OperationKey {
    /// The path template as the new description writes it (the old one's for a removal); for
    /// a webhook, its name.
    pub path: String,
    /// `GET`, `POST`, ...
    pub method: String,
    /// The operation's `operationId`, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// A webhook rather than an operation of `paths`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub webhook: bool,
}

impl OperationKey {
    /// `GET /pets/{petId}`, or `webhook POST newPet`.
    #[must_use]
    pub fn label(&self) -> String {
        if self.webhook {
            format!("webhook {} {}", self.method, self.path)
        } else {
            format!("{} {}", self.method, self.path)
        }
    }
}

/// One change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// What kind of change, from the catalogue (`property-became-optional`).
    pub id: &'static str,
    /// How it lands on clients.
    pub level: Level,
    /// The direction that set the level, for a schema's change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direction: Option<Direction>,
    /// The operations it touches (empty for a change to the document as a whole, such as a
    /// server or a security scheme).
    pub operations: Vec<OperationKey>,
    /// The component schema it is reported under, when the schema is shared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Where, in words: `response 200 application/json, property tags[].name`.
    #[serde(rename = "where")]
    pub place: String,
    /// The JSON pointer of the place in the new description (the old one's for a removal).
    pub pointer: String,
    /// The change in one sentence.
    pub message: String,
    /// The old value compared, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Value>,
    /// The new value compared, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Value>,
}

/// How to compare.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Today as `YYYY-MM-DD`, for sunset dates (a deprecated operation removed after its
    /// sunset is a deprecation, before it a breaking change); `None` counts every sunset as
    /// passed.
    pub today: Option<String>,
}

/// Every change between two descriptions, ordered: breaking first, then by operation, then by
/// place.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    /// The changes.
    pub changes: Vec<Change>,
}

impl Report {
    /// How many changes have exactly `level`.
    #[must_use]
    pub fn count(&self, level: Level) -> usize {
        self.changes.iter().filter(|c| c.level == level).count()
    }

    /// Whether any change is at `level` or above.
    #[must_use]
    pub fn any_at_least(&self, level: Level) -> bool {
        self.changes.iter().any(|c| c.level >= level)
    }
}

/// Every change from `old` to `new`, both OpenAPI 3.x documents.
#[must_use]
pub fn compare(old: &Value, new: &Value, options: &Options) -> Report {
    let mut changes = operations::compare(old, new, options);
    changes.sort_by(|a, b| {
        b.level.cmp(&a.level).then_with(|| {
            (&a.operations, a.schema.as_deref(), &a.pointer, a.id).cmp(&(
                &b.operations,
                b.schema.as_deref(),
                &b.pointer,
                b.id,
            ))
        })
    });
    Report { changes }
}
