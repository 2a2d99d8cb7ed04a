//! Swagger 2.0 to OpenAPI 3.0: the readers of this reference read OpenAPI 3.0, and many
//! published descriptions are still Swagger 2.0 (Scalar and GitBook read both).
//!
//! [`swagger2_to_openapi3`] takes the document as a JSON value and gives the OpenAPI 3.0.3
//! document, with a note for each thing that could not be carried over exactly. It checks the
//! shape of what it reads: a field of the wrong type, or a required one missing, is a
//! [`ConvertError`] naming the field's JSON pointer. Nothing in the input can make it panic,
//! schemas are followed at most [`MAX_DEPTH`] deep, and nothing is allocated in proportion to a
//! number found in the input.
//!
//! `read` holds the pointer of each place visited and the typed reads; `refs` the components'
//! names and the `$ref` rewriting; `schema` the Schema Objects; `operation` path items,
//! operations, parameters and bodies; `response` the responses; `security` the security
//! definitions.
//!
//! What becomes what: `host`, `basePath` and `schemes` become `servers` (`//host/base` without
//! schemes, as Swagger 2.0 means the document's own scheme); `consumes` and `produces` the media
//! types (the operation's win, `application/json` when neither says); body and form parameters
//! the `requestBody`; the other parameters' type fields their `schema`, and `collectionFormat`
//! their `style` and `explode`; `definitions`, root `parameters` (body ones as `requestBodies`),
//! `responses` and `securityDefinitions` the `components`, every `$ref` following. Names OpenAPI
//! 3 refuses as component names (springfox's `Page«Pet»`) become `Page_Pet_`.
//!
//! With a note: `collectionFormat: tsv` (and `ssv`, `pipes` or `multi` where OpenAPI 3 has no
//! such style), described as comma-separated with `x-collectionFormat` keeping the original; the
//! `collectionFormat` of nested `items`; `allowEmptyValue` outside query parameters; schemes
//! without a host; a form whose `consumes` names no form media type; a `type` list other than
//! `[T, "null"]`; `required: true` inside a property; a response without `description`; fields
//! that are not Swagger 2.0 (left out). Silently: a body parameter's `name` and a `type: file`'s
//! `format` (it becomes `binary`); `$ref`s inside examples and `x-` extensions stay as they are.
//!
//! In the browser the converter is the module `dist/convert/playground_convert.js`
//! (`playground-module-convert`), loaded only for a document that needs it.
//! Tests: `tests/convert.rs`, with the fixtures in `tests/fixtures/swagger2/`.

#![deny(missing_docs)]

mod error;
mod operation;
mod read;
mod refs;
mod response;
mod schema;
mod security;

use std::collections::HashSet;

use serde_json::{Map, Value, json};

pub use error::ConvertError;
use read::{At, field, object, opt_array, opt_object, opt_str, opt_strings, req_str, wrong};
use refs::{Names, ParamKind};

/// The OpenAPI version of the converted documents.
pub const OPENAPI_VERSION: &str = "3.0.3";

/// How many schemas deep (properties, items, allOf, ...) the converter follows before it gives
/// up with [`ConvertError::TooDeep`].
pub const MAX_DEPTH: usize = 64;

/// The media type of bodies and responses when neither the operation nor the document names
/// one.
const DEFAULT_MEDIA_TYPE: &str = "application/json";

/// The fields of a Swagger 2.0 document's root.
const ROOT_FIELDS: [&str; 15] = [
    "swagger",
    "info",
    "host",
    "basePath",
    "schemes",
    "consumes",
    "produces",
    "paths",
    "definitions",
    "parameters",
    "responses",
    "securityDefinitions",
    "security",
    "tags",
    "externalDocs",
];

/// A converted document.
#[derive(Debug, Clone, PartialEq)]
pub struct Converted {
    /// The OpenAPI 3.0.3 document.
    pub document: Value,
    /// One sentence for each thing that could not be carried over exactly (each names where it
    /// is in the input), in document order, each once.
    pub notes: Vec<String>,
}

/// Converts the Swagger 2.0 document `doc` to OpenAPI 3.0.3.
///
/// `host`, `basePath` and `schemes` become `servers`; `consumes` and `produces` the media
/// types of request bodies and responses (`application/json` when neither the operation nor
/// the document names one); body and form parameters a `requestBody`; the other parameters'
/// type fields their `schema` and `collectionFormat` their `style` and `explode`;
/// `definitions`, root `parameters` and `responses`, and `securityDefinitions` the matching
/// `components`, with every `$ref` rewritten. `info`, `tags`, `externalDocs`, `security` and
/// every `x-` extension are kept.
///
/// # Errors
/// The first problem found, with its JSON pointer: not an object, not `swagger: "2.0"`, no
/// `info` (with `title` and `version`) or `paths`, a field of the wrong type, a required field
/// missing (a parameter's `name` or `in`, a body parameter's `schema`, an operation's
/// `responses`, what a security definition needs), a value Swagger 2.0 does not define (a
/// parameter's `in`, a `collectionFormat`, a security definition's `type` or `flow`), or
/// schemas nested deeper than [`MAX_DEPTH`].
pub fn swagger2_to_openapi3(doc: &Value) -> Result<Converted, ConvertError> {
    let Value::Object(root) = doc else {
        return Err(ConvertError::NotAnObject(error::kind(doc)));
    };
    check_version(root)?;
    let at = At::ROOT;
    let info = opt_object(root, "info", &at)?.ok_or(ConvertError::Missing {
        pointer: String::new(),
        field: "info",
        what: "object",
    })?;
    let info_at = at.field("info");
    req_str(info, "title", &info_at)?;
    req_str(info, "version", &info_at)?;
    opt_str(info, "description", &info_at)?;
    let paths = opt_object(root, "paths", &at)?.ok_or(ConvertError::Missing {
        pointer: String::new(),
        field: "paths",
        what: "object",
    })?;

    let mut notes = Vec::new();
    let names = Names::collect(root, &mut notes)?;
    let mut converter = Converter {
        root,
        names,
        consumes: opt_strings(root, "consumes", &at)?.unwrap_or_default(),
        produces: opt_strings(root, "produces", &at)?.unwrap_or_default(),
        host: opt_str(root, "host", &at)?,
        base_path: base_path(opt_str(root, "basePath", &at)?),
        schemes: unique_texts(opt_strings(root, "schemes", &at)?.unwrap_or_default()),
        notes,
    };

    let mut out = Map::new();
    out.insert("openapi".to_owned(), json!(OPENAPI_VERSION));
    out.insert("info".to_owned(), Value::Object(info.clone()));
    if let Some(docs) = opt_object(root, "externalDocs", &at)? {
        out.insert("externalDocs".to_owned(), Value::Object(docs.clone()));
    }
    let schemes = converter.schemes.clone();
    let servers = converter.servers(&schemes, &at.field("schemes"));
    if !servers.is_empty() {
        out.insert("servers".to_owned(), Value::Array(servers));
    }
    if let Some(tags) = opt_array(root, "tags", &at)? {
        out.insert("tags".to_owned(), tags_of(tags, &at.field("tags"))?);
    }
    out.insert("paths".to_owned(), converter.paths(paths, &at.field("paths"))?);
    let components = converter.components()?;
    if !components.is_empty() {
        out.insert("components".to_owned(), Value::Object(components));
    }
    if let Some(security) = field(root, "security") {
        out.insert("security".to_owned(), converter.security(security, &at.field("security"))?);
    }
    converter.rest(root, &ROOT_FIELDS, &at, "document root", &mut out);

    let mut seen = HashSet::new();
    let mut notes = converter.notes;
    notes.retain(|note| seen.insert(note.clone()));
    Ok(Converted { document: Value::Object(out), notes })
}

/// Checks that the root says `swagger: "2.0"` (and is not OpenAPI already).
fn check_version(root: &Map<String, Value>) -> Result<(), ConvertError> {
    if let Some(Value::String(version)) = root.get("openapi") {
        return Err(ConvertError::AlreadyOpenApi(version.clone()));
    }
    match root.get("swagger") {
        None | Some(Value::Null) => Err(ConvertError::NotSwagger),
        Some(Value::String(version)) if version == "2.0" => Ok(()),
        Some(Value::String(version)) => Err(ConvertError::UnsupportedVersion(version.clone())),
        Some(other) => Err(wrong(&At::ROOT.field("swagger"), "the text \"2.0\"", other)),
    }
}

/// `basePath` as the path part of a server URL: with its leading `/`, without a trailing one
/// (the paths that follow start with theirs); empty for `/` or none.
fn base_path(path: Option<&str>) -> String {
    let path = path.unwrap_or_default().trim_end_matches('/');
    if path.is_empty() || path.starts_with('/') { path.to_owned() } else { format!("/{path}") }
}

/// `texts` without repetitions, in order.
fn unique_texts(texts: Vec<&str>) -> Vec<&str> {
    let mut seen = HashSet::new();
    texts.into_iter().filter(|t| seen.insert(*t)).collect()
}

/// The media types an operation uses: its own list when it has one, else the document's, and
/// [`DEFAULT_MEDIA_TYPE`] when that list is empty.
fn effective<'d>(own: Option<&[&'d str]>, document: &[&'d str]) -> Vec<&'d str> {
    let list = unique_texts(own.unwrap_or(document).to_vec());
    if list.is_empty() { vec![DEFAULT_MEDIA_TYPE] } else { list }
}

/// The root `tags`, kept as they are once checked (objects with a `name` text).
fn tags_of(tags: &[Value], at: &At<'_>) -> Result<Value, ConvertError> {
    for (i, tag) in tags.iter().enumerate() {
        let here = at.index(i);
        let tag = object(tag, &here)?;
        req_str(tag, "name", &here)?;
        opt_str(tag, "description", &here)?;
        opt_object(tag, "externalDocs", &here)?;
    }
    Ok(Value::Array(tags.to_vec()))
}

/// The conversion under way: the input's root, the components' names, the document-wide
/// settings operations inherit, and the notes so far.
#[derive(Debug)]
struct Converter<'d> {
    root: &'d Map<String, Value>,
    names: Names<'d>,
    /// The root `consumes` (empty when absent).
    consumes: Vec<&'d str>,
    /// The root `produces` (empty when absent).
    produces: Vec<&'d str>,
    host: Option<&'d str>,
    /// See [`base_path`].
    base_path: String,
    /// The root `schemes`, each once.
    schemes: Vec<&'d str>,
    notes: Vec<String>,
}

impl<'d> Converter<'d> {
    /// One server per scheme on `host` and `basePath`; without schemes, a URL without one
    /// (`//host/base`: the scheme of wherever the document is read from, as Swagger 2.0 says).
    /// Without a host, the server is `basePath`, relative to where the document is served (and
    /// none when there is no `basePath` either: OpenAPI 3's default server is `/`); schemes
    /// cannot be said then, which gets a note (`at`: the `schemes` that say them).
    fn servers(&mut self, schemes: &[&str], at: &At<'_>) -> Vec<Value> {
        let base = &self.base_path;
        match self.host {
            Some(host) if schemes.is_empty() => vec![json!({ "url": format!("//{host}{base}") })],
            Some(host) => schemes.iter().map(|s| json!({ "url": format!("{s}://{host}{base}") })).collect(),
            None => {
                if !schemes.is_empty() {
                    self.notes.push(format!(
                        "{} names the schemes {} but the document has no `host`; an OpenAPI 3 server URL cannot give a scheme without a host, so the server is relative to where the document is served.",
                        capitalized(&at.quoted()),
                        schemes.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
                    ));
                }
                if base.is_empty() { Vec::new() } else { vec![json!({ "url": base })] }
            }
        }
    }

    /// `components`: `schemas` from `definitions`, `responses`, `parameters` and
    /// `requestBodies` from the root `parameters` and `responses`, `securitySchemes` from
    /// `securityDefinitions`; empty kinds left out.
    fn components(&mut self) -> Result<Map<String, Value>, ConvertError> {
        let root = self.root;
        let entries = |name: &str| field(root, name).and_then(Value::as_object).into_iter().flatten();
        let mut out = Map::new();

        let mut schemas = Map::new();
        for (original, schema) in entries("definitions") {
            let Some(name) = self.names.schemas.get(original.as_str()).cloned() else { continue };
            let at = At::ROOT;
            let at = at.field("definitions");
            schemas.insert(name, self.schema(schema, &at.field(original), 0)?);
        }

        let mut responses = Map::new();
        let produces = effective(None, &self.produces);
        for (original, response) in entries("responses") {
            let at = At::ROOT;
            let at = at.field("responses");
            let at = at.field(original);
            let Some((name, _, _)) = self.names.responses.get(original.as_str()).cloned() else { continue };
            let response = object(response, &at)?;
            let converted = match field(response, "$ref") {
                Some(reference) => self.reference(reference, &at)?,
                None => self.response(response, &at, &produces)?,
            };
            responses.insert(name, converted);
        }

        let mut parameters = Map::new();
        let mut bodies = Map::new();
        let consumes = effective(None, &self.consumes);
        for (original, parameter) in entries("parameters") {
            let at = At::ROOT;
            let at = at.field("parameters");
            let at = at.field(original);
            let Some(found) = self.names.parameters.get(original.as_str()) else { continue };
            let (kind, name) = (found.kind, found.name.clone());
            let parameter = object(parameter, &at)?;
            match kind {
                ParamKind::Parameter => {
                    let converted = match field(parameter, "$ref") {
                        Some(reference) => self.reference(reference, &at)?,
                        None => {
                            let location = req_str(parameter, "in", &at)?;
                            self.parameter(parameter, &at, location)?
                        }
                    };
                    parameters.insert(name, converted);
                }
                ParamKind::Body => {
                    bodies.insert(name, self.body(parameter, &at, &consumes)?);
                }
                ParamKind::Form => self.notes.push(format!(
                    "{} is a form parameter; OpenAPI 3 has no reusable form field, so it is copied into each form that refers to it.",
                    capitalized(&at.quoted())
                )),
            }
        }

        let mut schemes = Map::new();
        for (original, scheme) in entries("securityDefinitions") {
            let Some(name) = self.names.security.get(original.as_str()).cloned() else { continue };
            let at = At::ROOT;
            let at = at.field("securityDefinitions");
            let at = at.field(original);
            schemes.insert(name, self.security_scheme(object(scheme, &at)?, &at)?);
        }

        for (kind, entries) in [
            ("schemas", schemas),
            ("responses", responses),
            ("parameters", parameters),
            ("requestBodies", bodies),
            ("securitySchemes", schemes),
        ] {
            if !entries.is_empty() {
                out.insert(kind.to_owned(), Value::Object(entries));
            }
        }
        Ok(out)
    }

    /// `{"$ref": ...}` for the `$ref` field of the object at `at`, rewritten.
    fn reference(&mut self, reference: &Value, at: &At<'_>) -> Result<Value, ConvertError> {
        let here = at.field("$ref");
        let text = reference.as_str().ok_or_else(|| wrong(&here, "a text", reference))?;
        Ok(json!({ "$ref": self.names.rewrite(text, &here, &mut self.notes) }))
    }

    /// A list of Security Requirement Objects, with the schemes' new names.
    fn security(&mut self, value: &Value, at: &At<'_>) -> Result<Value, ConvertError> {
        let list = value.as_array().ok_or_else(|| wrong(at, "a list", value))?;
        let mut out = Vec::new();
        for (i, requirement) in list.iter().enumerate() {
            let here = at.index(i);
            let mut converted = Map::new();
            for (name, scopes) in object(requirement, &here)? {
                let scopes_at = here.field(name);
                let scopes_list = scopes.as_array().ok_or_else(|| wrong(&scopes_at, "a list", scopes))?;
                for (j, scope) in scopes_list.iter().enumerate() {
                    scope.as_str().ok_or_else(|| wrong(&scopes_at.index(j), "a text", scope))?;
                }
                let renamed = self.names.security.get(name.as_str()).cloned().unwrap_or_else(|| {
                    self.notes.push(format!(
                        "The security requirement {} names `{name}`, which `securityDefinitions` does not define.",
                        here.quoted()
                    ));
                    name.clone()
                });
                converted.insert(renamed, scopes.clone());
            }
            out.push(Value::Object(converted));
        }
        Ok(Value::Array(out))
    }

    /// Copies the `x-` extensions of `map` (other than those in `known`) into `out`, and notes
    /// every other field not in `known`: it is not Swagger 2.0, and left out.
    fn rest(
        &mut self,
        map: &Map<String, Value>,
        known: &[&str],
        at: &At<'_>,
        what: &str,
        out: &mut Map<String, Value>,
    ) {
        for (key, value) in map {
            if known.contains(&key.as_str()) {
                continue;
            }
            if key.starts_with("x-") {
                out.insert(key.clone(), value.clone());
            } else {
                self.notes.push(format!(
                    "{} is not a field of a Swagger 2.0 {what}; it is left out.",
                    capitalized(&at.field(key).quoted())
                ));
            }
        }
    }
}

/// `text` with its first letter in upper case (a note that starts with "the document").
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
