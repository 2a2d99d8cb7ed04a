//! Component names and `$ref`s: Swagger 2.0's `#/definitions/X`, `#/parameters/X` and
//! `#/responses/X` become entries of `#/components`, under names OpenAPI 3 allows
//! (`^[a-zA-Z0-9.\-_]+$`), and every reference to them is rewritten to match.

use std::collections::{HashMap, HashSet};

use percent_encoding::percent_decode_str;
use serde_json::{Map, Value};

use super::error::ConvertError;
use super::read::{At, object, req_str};
use playground_openapi::pointer::escape_segment;

/// What a parameter of the root `parameters` becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ParamKind {
    /// A path, query or header parameter: `#/components/parameters`.
    Parameter,
    /// An `in: body` parameter: `#/components/requestBodies`.
    Body,
    /// An `in: formData` parameter: a field of each form that refers to it (OpenAPI 3 has no
    /// reusable form field).
    Form,
}

/// A parameter of the root `parameters`.
#[derive(Debug)]
pub(super) struct RootParam<'d> {
    /// What it becomes.
    pub(super) kind: ParamKind,
    /// Its name in its kind of components.
    pub(super) name: String,
    /// Its name in the input (`#/parameters/<original>`).
    pub(super) original: &'d str,
    /// The parameter itself.
    pub(super) map: &'d Map<String, Value>,
}

/// The components' names, from the names in the input.
#[derive(Debug, Default)]
pub(super) struct Names<'d> {
    /// `definitions` to `components.schemas`.
    pub(super) schemas: HashMap<&'d str, String>,
    /// The root `parameters`.
    pub(super) parameters: HashMap<&'d str, RootParam<'d>>,
    /// The root `responses` to `components.responses`, with the name in the input and the
    /// response.
    pub(super) responses: HashMap<&'d str, (String, &'d str, &'d Map<String, Value>)>,
    /// `securityDefinitions` to `components.securitySchemes`.
    pub(super) security: HashMap<&'d str, String>,
}

/// A named entry of a root object such as `definitions`.
type Entry<'d> = (&'d str, &'d Map<String, Value>);

/// The entries of the root field `name`, which must be an object of objects when present.
fn entries<'d>(root: &'d Map<String, Value>, name: &'d str) -> Result<Vec<Entry<'d>>, ConvertError> {
    let at = At::ROOT;
    let Some(map) = super::read::opt_object(root, name, &at)? else { return Ok(Vec::new()) };
    let at = at.field(name);
    map.iter().map(|(key, value)| Ok((key.as_str(), object(value, &at.field(key))?))).collect()
}

impl<'d> Names<'d> {
    /// Reads the names of the root `definitions`, `parameters`, `responses` and
    /// `securityDefinitions` (each an object of objects), and the kind of each root parameter.
    pub(super) fn collect(
        root: &'d Map<String, Value>,
        notes: &mut Vec<String>,
    ) -> Result<Self, ConvertError> {
        let mut names = Names::default();

        let definitions = entries(root, "definitions")?;
        let renamed = unique(definitions.iter().map(|(name, _)| *name), "definition", "schema", notes);
        names.schemas = definitions.iter().map(|(name, _)| *name).zip(renamed).collect();

        let mut kinds = Vec::new();
        for (name, map) in entries(root, "parameters")? {
            let kind = if map.contains_key("$ref") {
                ParamKind::Parameter
            } else {
                let at = At::ROOT;
                let at = at.field("parameters");
                let at = at.field(name);
                match req_str(map, "in", &at)? {
                    "query" | "header" | "path" => ParamKind::Parameter,
                    "body" => ParamKind::Body,
                    "formData" => {
                        req_str(map, "name", &at)?;
                        ParamKind::Form
                    }
                    other => return Err(unknown_location(&at, other)),
                }
            };
            kinds.push((name, kind, map));
        }
        let of = |kind: ParamKind| kinds.iter().filter(move |(_, k, _)| *k == kind);
        for (kind, what) in [(ParamKind::Parameter, "parameter"), (ParamKind::Body, "request body")] {
            let renamed = unique(of(kind).map(|(name, ..)| *name), "parameter", what, notes);
            for ((original, kind, map), name) in of(kind).zip(renamed) {
                names.parameters.insert(original, RootParam { kind: *kind, name, original, map });
            }
        }
        for (original, kind, map) in of(ParamKind::Form) {
            let name = (*original).to_owned();
            names.parameters.insert(original, RootParam { kind: *kind, name, original, map });
        }

        let responses = entries(root, "responses")?;
        let renamed = unique(responses.iter().map(|(name, _)| *name), "response", "response", notes);
        names.responses = responses
            .iter()
            .zip(renamed)
            .map(|((original, map), name)| (*original, (name, *original, *map)))
            .collect();

        let schemes = entries(root, "securityDefinitions")?;
        let renamed =
            unique(schemes.iter().map(|(name, _)| *name), "security definition", "security scheme", notes);
        names.security = schemes.iter().map(|(name, _)| *name).zip(renamed).collect();
        Ok(names)
    }

    /// The root parameter a `$ref` of a parameter list points to (`#/parameters/<name>`).
    pub(super) fn root_parameter(&self, reference: &str) -> Option<&RootParam<'d>> {
        let (kind, name) = local_component(reference)?;
        (kind == "parameters").then(|| self.lookup(&self.parameters, &name, reference)).flatten()
    }

    /// The root response a `$ref` points to (`#/responses/<name>`): its component name, its
    /// name in the input and the response.
    pub(super) fn root_response(
        &self,
        reference: &str,
    ) -> Option<&(String, &'d str, &'d Map<String, Value>)> {
        let (kind, name) = local_component(reference)?;
        (kind == "responses").then(|| self.lookup(&self.responses, &name, reference)).flatten()
    }

    /// `name` in `map`, or (for a name with a literal `%`, which percent-decoding changed) the
    /// name as written in `reference`.
    fn lookup<'m, V>(&self, map: &'m HashMap<&'d str, V>, name: &str, reference: &str) -> Option<&'m V> {
        map.get(name).or_else(|| {
            let raw = reference.split_once('#')?.1;
            let (_, raw_name, _) = component(raw)?;
            map.get(raw_name.as_str())
        })
    }

    /// `reference` rewritten for OpenAPI 3: `#/definitions/X` to `#/components/schemas/X`,
    /// `#/parameters/X` to `#/components/parameters/X` (or `requestBodies` for a body
    /// parameter), `#/responses/X` to `#/components/responses/X`, with the component's new name
    /// and whatever follows it kept. The fragment is read percent-decoded and its `~0`/`~1`
    /// escapes undone, and written as a plain JSON pointer. References into other documents
    /// get the same rewriting (those documents are expected to be converted too); other
    /// references are kept as they are. A local reference to nothing gets a note.
    pub(super) fn rewrite(&self, reference: &str, at: &At<'_>, notes: &mut Vec<String>) -> String {
        let Some((document, fragment)) = reference.split_once('#') else { return reference.to_owned() };
        let Ok(pointer) = percent_decode_str(fragment).decode_utf8() else { return reference.to_owned() };
        let Some((kind, name, tail)) = component(&pointer) else {
            return match pointer.strip_prefix('/') {
                Some("definitions") => format!("{document}#/components/schemas"),
                Some("responses") => format!("{document}#/components/responses"),
                Some("parameters") => format!("{document}#/components/parameters"),
                _ => reference.to_owned(),
            };
        };
        let local = document.is_empty();
        let (target, found) = match kind {
            "definitions" => ("schemas", self.lookup(&self.schemas, &name, reference).cloned()),
            "responses" => ("responses", self.lookup(&self.responses, &name, reference).map(|r| r.0.clone())),
            "parameters" => match self.lookup(&self.parameters, &name, reference) {
                Some(p) if p.kind == ParamKind::Body => ("requestBodies", Some(p.name.clone())),
                Some(p) if p.kind == ParamKind::Form && local => {
                    notes.push(format!(
                        "The reference `{reference}` at {} points to a form parameter, which OpenAPI 3 cannot refer to outside a parameter list; it is written as `#/components/parameters/{}`.",
                        at.quoted(),
                        escape_segment(&p.name)
                    ));
                    ("parameters", Some(p.name.clone()))
                }
                found => ("parameters", found.map(|p| p.name.clone())),
            },
            _ => return reference.to_owned(),
        };
        let name = found.unwrap_or_else(|| {
            let name = component_name(&name);
            if local {
                notes.push(format!(
                    "The reference `{reference}` at {} points to nothing in the document; it is written as `#/components/{target}/{}`.",
                    at.quoted(),
                    escape_segment(&name)
                ));
            }
            name
        });
        format!("{document}#/components/{target}/{}{tail}", escape_segment(&name))
    }
}

/// The kind and name of a local reference to a component (`#/<kind>/<name>`, nothing after).
fn local_component(reference: &str) -> Option<(String, String)> {
    let fragment = reference.strip_prefix('#')?;
    let pointer = percent_decode_str(fragment).decode_utf8().ok()?;
    let (kind, name, tail) = component(&pointer)?;
    tail.is_empty().then(|| (kind.to_owned(), name))
}

/// A JSON pointer's first segment, its second (unescaped) and the rest from its `/`.
fn component(pointer: &str) -> Option<(&str, String, &str)> {
    let rest = pointer.strip_prefix('/')?;
    let (kind, rest) = rest.split_once('/')?;
    let (name, tail) = rest.find('/').map_or((rest, ""), |i| rest.split_at(i));
    Some((kind, playground_openapi::pointer::unescape_segment(name), tail))
}

/// Whether OpenAPI 3 allows `name` as a component name.
fn is_component_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
}

/// `name` with every character OpenAPI 3 does not allow in a component name replaced by `_`.
fn component_name(name: &str) -> String {
    if name.is_empty() {
        return "_".to_owned();
    }
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' })
        .collect()
}

/// A component name for each of `names`, in order: itself when OpenAPI 3 allows it, else
/// [`component_name`], with `_2`, `_3`, ... added when another component has that name. Each
/// rename gets a note (`what` is the input's word for the entry, `becomes` the output's).
fn unique<'n>(
    names: impl Iterator<Item = &'n str> + Clone,
    what: &str,
    becomes: &str,
    notes: &mut Vec<String>,
) -> Vec<String> {
    let mut taken: HashSet<String> =
        names.clone().filter(|n| is_component_name(n)).map(str::to_owned).collect();
    let mut next: HashMap<String, usize> = HashMap::new();
    names
        .map(|name| {
            if is_component_name(name) {
                return name.to_owned();
            }
            let base = component_name(name);
            let mut candidate = base.clone();
            let counter = next.entry(base.clone()).or_insert(2);
            while taken.contains(&candidate) {
                candidate = format!("{base}_{counter}");
                *counter += 1;
            }
            taken.insert(candidate.clone());
            notes.push(format!(
                "The {what} `{name}` is the {becomes} `{candidate}`: OpenAPI 3 component names have only letters, digits, `.`, `-` and `_`."
            ));
            candidate
        })
        .collect()
}

/// The error for a parameter whose `in` is not one Swagger 2.0 defines.
pub(super) fn unknown_location(at: &At<'_>, value: &str) -> ConvertError {
    ConvertError::UnknownValue {
        pointer: at.pointer(),
        field: "in",
        value: value.to_owned(),
        allowed: "query, header, path, formData and body",
    }
}
