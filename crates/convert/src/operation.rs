//! Path items and operations: parameters (path, query and header ones stay parameters, body
//! and form ones become the `requestBody`), and responses.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use super::error::ConvertError;
use super::read::{At, field, object, opt_array, opt_bool, opt_object, opt_str, opt_strings, req_str, wrong};
use super::refs::{ParamKind, unknown_location};
use super::schema::VALUE_FIELDS;
use super::{Converter, capitalized, effective, unique_texts};
use playground_openapi::pointer::escape_segment;

/// The operations a Swagger 2.0 path item can have.
const METHODS: [&str; 7] = ["get", "put", "post", "delete", "options", "head", "patch"];

const URLENCODED: &str = "application/x-www-form-urlencoded";
const MULTIPART: &str = "multipart/form-data";

/// The fields of a Swagger 2.0 operation.
const OPERATION_FIELDS: [&str; 12] = [
    "tags",
    "summary",
    "description",
    "externalDocs",
    "operationId",
    "consumes",
    "produces",
    "parameters",
    "responses",
    "schemes",
    "deprecated",
    "security",
];

/// The `collectionFormat` values of Swagger 2.0.
const COLLECTION_FORMATS: [&str; 5] = ["csv", "ssv", "tsv", "pipes", "multi"];

/// The body parameter of an operation, or of its path item.
#[derive(Debug, Clone)]
enum Body<'d> {
    /// Written in the parameter list (`pointer` is where).
    Inline { map: &'d Map<String, Value>, pointer: String },
    /// A `$ref` to the root parameter `original` (component `name`).
    Root { original: &'d str, name: String, map: &'d Map<String, Value> },
}

/// A form parameter and where it is.
#[derive(Debug, Clone)]
struct FormField<'d> {
    map: &'d Map<String, Value>,
    pointer: String,
}

/// A parameter list, sorted: what stays a parameter, the body parameter, the form fields by
/// name.
#[derive(Debug, Default)]
struct Parameters<'d> {
    parameters: Vec<Value>,
    body: Option<Body<'d>>,
    form: IndexMap<String, FormField<'d>>,
}

impl<'d> Converter<'d> {
    /// The `paths` object.
    pub(super) fn paths(
        &mut self,
        paths: &'d Map<String, Value>,
        at: &At<'_>,
    ) -> Result<Value, ConvertError> {
        let mut out = Map::new();
        for (path, item) in paths {
            if path.starts_with("x-") {
                out.insert(path.clone(), item.clone());
                continue;
            }
            let here = at.field(path);
            out.insert(path.clone(), self.path_item(object(item, &here)?, &here)?);
        }
        Ok(Value::Object(out))
    }

    fn path_item(&mut self, item: &'d Map<String, Value>, at: &At<'_>) -> Result<Value, ConvertError> {
        let mut out = Map::new();
        if let Some(reference) = field(item, "$ref") {
            out.extend(self.reference(reference, at)?.as_object().cloned().unwrap_or_default());
        }
        let shared = match opt_array(item, "parameters", at)? {
            Some(list) => self.sort_parameters(list, &at.field("parameters"))?,
            None => Parameters::default(),
        };
        if !shared.parameters.is_empty() {
            out.insert("parameters".to_owned(), Value::Array(shared.parameters.clone()));
        }
        let mut operations = 0;
        for (method, operation) in item {
            if METHODS.contains(&method.as_str()) && !operation.is_null() {
                let here = at.field(method);
                let operation = self.operation(object(operation, &here)?, &here, &shared)?;
                out.insert(method.clone(), operation);
                operations += 1;
            }
        }
        if operations == 0 && (shared.body.is_some() || !shared.form.is_empty()) {
            self.notes.push(format!(
                "{} has body or form parameters but no operation to send them; they are left out.",
                capitalized(&at.quoted())
            ));
        }
        let mut known = vec!["$ref", "parameters"];
        known.extend(METHODS);
        self.rest(item, &known, at, "path item", &mut out);
        Ok(Value::Object(out))
    }

    fn operation(
        &mut self,
        operation: &'d Map<String, Value>,
        at: &At<'_>,
        shared: &Parameters<'d>,
    ) -> Result<Value, ConvertError> {
        let mut out = Map::new();
        if let Some(tags) = opt_strings(operation, "tags", at)? {
            out.insert("tags".to_owned(), json!(tags));
        }
        for key in ["summary", "description"] {
            if let Some(text) = opt_str(operation, key, at)? {
                out.insert(key.to_owned(), json!(text));
            }
        }
        if let Some(docs) = opt_object(operation, "externalDocs", at)? {
            out.insert("externalDocs".to_owned(), Value::Object(docs.clone()));
        }
        if let Some(id) = opt_str(operation, "operationId", at)? {
            out.insert("operationId".to_owned(), json!(id));
        }
        let consumes = opt_strings(operation, "consumes", at)?;
        let produces = opt_strings(operation, "produces", at)?;

        let own = match opt_array(operation, "parameters", at)? {
            Some(list) => self.sort_parameters(list, &at.field("parameters"))?,
            None => Parameters::default(),
        };
        if !own.parameters.is_empty() {
            out.insert("parameters".to_owned(), Value::Array(own.parameters));
        }
        let body = own.body.or_else(|| shared.body.clone());
        let mut form = shared.form.clone();
        form.extend(own.form);
        if body.is_some() && !form.is_empty() {
            self.notes.push(format!(
                "{} has both a body parameter and form parameters, which Swagger 2.0 does not allow; the body is kept and the form parameters are left out.",
                capitalized(&at.quoted())
            ));
            form.clear();
        }
        if let Some(body) = body {
            let body = self.request_body(body, consumes.as_deref())?;
            out.insert("requestBody".to_owned(), body);
        } else if !form.is_empty() {
            let body = self.form_body(&form, consumes.as_deref(), at)?;
            out.insert("requestBody".to_owned(), body);
        }

        let responses = opt_object(operation, "responses", at)?.ok_or_else(|| ConvertError::Missing {
            pointer: at.pointer(),
            field: "responses",
            what: "object",
        })?;
        let without_body = self.any_without_body(responses);
        let responses = self.responses(responses, &at.field("responses"), produces.as_deref())?;
        out.insert("responses".to_owned(), responses);
        // OpenAPI 3 has no media type for a response without a body; Swagger 2.0's `produces`
        // still says what such an answer's `Content-Type` is. Kept for the mock (and for
        // anyone reading the converted document) where some response has no body.
        let declared = unique_texts(produces.clone().unwrap_or_else(|| self.produces.clone()));
        if without_body && !declared.is_empty() {
            out.insert("x-produces".to_owned(), json!(declared));
        }
        if let Some(deprecated) = opt_bool(operation, "deprecated", at)? {
            out.insert("deprecated".to_owned(), json!(deprecated));
        }
        if let Some(security) = field(operation, "security") {
            out.insert("security".to_owned(), self.security(security, &at.field("security"))?);
        }
        if let Some(schemes) = opt_strings(operation, "schemes", at)? {
            let schemes = unique_texts(schemes);
            if schemes != self.schemes {
                let servers = self.servers(&schemes, &at.field("schemes"));
                if self.host.is_some() {
                    out.insert("servers".to_owned(), Value::Array(servers));
                }
            }
        }
        self.rest(operation, &OPERATION_FIELDS, at, "operation", &mut out);
        Ok(Value::Object(out))
    }

    /// Whether one of these Swagger 2.0 responses (a root one it refers to included) has neither
    /// a `schema` nor `examples`: no body.
    fn any_without_body(&self, responses: &'d Map<String, Value>) -> bool {
        responses.iter().filter(|(code, _)| !code.starts_with("x-")).any(|(_, value)| {
            let Some(map) = value.as_object() else { return false };
            let map = match field(map, "$ref").and_then(Value::as_str) {
                Some(reference) => match self.names.root_response(reference) {
                    Some((_, _, root)) => *root,
                    None => return false,
                },
                None => map,
            };
            field(map, "schema").is_none() && field(map, "examples").is_none()
        })
    }

    /// Sorts the parameter list at `at`: path, query and header parameters (and references to
    /// them) converted, the body parameter and the form parameters kept for the request body.
    fn sort_parameters(&mut self, list: &'d [Value], at: &At<'_>) -> Result<Parameters<'d>, ConvertError> {
        let mut out = Parameters::default();
        for (i, value) in list.iter().enumerate() {
            let here = at.index(i);
            let map = object(value, &here)?;
            if let Some(reference) = field(map, "$ref") {
                let text =
                    reference.as_str().ok_or_else(|| wrong(&here.field("$ref"), "a text", reference))?;
                let root =
                    self.names.root_parameter(text).map(|p| (p.kind, p.original, p.name.clone(), p.map));
                match root {
                    Some((ParamKind::Body, original, name, map)) => {
                        self.set_body(&mut out, Body::Root { original, name, map }, &here);
                    }
                    Some((ParamKind::Form, original, _, map)) => {
                        let name = map.get("name").and_then(Value::as_str).unwrap_or_default();
                        let pointer = format!("/parameters/{}", escape_segment(original));
                        out.form.insert(name.to_owned(), FormField { map, pointer });
                    }
                    _ => out.parameters.push(self.reference(reference, &here)?),
                }
                continue;
            }
            match req_str(map, "in", &here)? {
                location @ ("query" | "header" | "path") => {
                    out.parameters.push(self.parameter(map, &here, location)?);
                }
                "body" => self.set_body(&mut out, Body::Inline { map, pointer: here.pointer() }, &here),
                "formData" => {
                    let name = req_str(map, "name", &here)?;
                    out.form.insert(name.to_owned(), FormField { map, pointer: here.pointer() });
                }
                other => return Err(unknown_location(&here, other)),
            }
        }
        Ok(out)
    }

    fn set_body(&mut self, parameters: &mut Parameters<'d>, body: Body<'d>, at: &At<'_>) {
        if parameters.body.is_some() {
            self.notes.push(format!(
                "{} is a second body parameter, which Swagger 2.0 does not allow; it is left out.",
                capitalized(&at.quoted())
            ));
        } else {
            parameters.body = Some(body);
        }
    }

    /// A path, query or header parameter at `at`.
    pub(super) fn parameter(
        &mut self,
        map: &'d Map<String, Value>,
        at: &At<'_>,
        location: &str,
    ) -> Result<Value, ConvertError> {
        let name = req_str(map, "name", at)?;
        let mut out = Map::new();
        out.insert("name".to_owned(), json!(name));
        out.insert("in".to_owned(), json!(location));
        if let Some(description) = opt_str(map, "description", at)? {
            out.insert("description".to_owned(), json!(description));
        }
        let required = opt_bool(map, "required", at)?;
        if location == "path" {
            if required != Some(true) {
                self.notes.push(format!(
                    "The path parameter `{name}` ({}) is not marked `required: true`; path parameters always are, and it is marked so.",
                    at.quoted()
                ));
            }
            out.insert("required".to_owned(), json!(true));
        } else if let Some(required) = required {
            out.insert("required".to_owned(), json!(required));
        }
        if let Some(deprecated) = opt_bool(map, "deprecated", at)? {
            out.insert("deprecated".to_owned(), json!(deprecated));
        }
        if let Some(allow) = opt_bool(map, "allowEmptyValue", at)? {
            if location == "query" {
                out.insert("allowEmptyValue".to_owned(), json!(allow));
            } else {
                self.notes.push(format!(
                    "`allowEmptyValue` of the {location} parameter `{name}` ({}) is for query parameters only; it is left out.",
                    at.quoted()
                ));
            }
        }
        if location == "header"
            && ["accept", "content-type", "authorization"].contains(&name.to_ascii_lowercase().as_str())
        {
            self.notes.push(format!(
                "The header parameter `{name}` ({}) is ignored by OpenAPI 3 tools: media types and security schemes say it there.",
                at.quoted()
            ));
        }
        if let Some(format) = collection_format(map, at)? {
            let query = location == "query";
            let (style, explode) = match (query, format) {
                (true, "csv") => (Some("form"), false),
                (true, "multi") => (Some("form"), true),
                (true, "ssv") => (Some("spaceDelimited"), false),
                (true, "pipes") => (Some("pipeDelimited"), false),
                (false, "csv") => (Some("simple"), false),
                _ => (None, false),
            };
            let style = style.unwrap_or_else(|| {
                let shown = if query { "`style: form`, `explode: false`" } else { "`style: simple`" };
                self.notes.push(format!(
                    "`collectionFormat: {format}` of the {location} parameter `{name}` ({}) has no OpenAPI 3 equivalent; it is described as comma-separated ({shown}), and `x-collectionFormat: {format}` keeps the original.",
                    at.quoted()
                ));
                out.insert("x-collectionFormat".to_owned(), json!(format));
                if query { "form" } else { "simple" }
            });
            out.insert("style".to_owned(), json!(style));
            if query {
                out.insert("explode".to_owned(), json!(explode));
            }
        }
        out.insert("schema".to_owned(), self.value_schema(map, at)?);
        if let Some(example) = field(map, "example") {
            out.insert("example".to_owned(), example.clone());
        }
        let mut known = vec![
            "name",
            "in",
            "description",
            "required",
            "deprecated",
            "allowEmptyValue",
            "collectionFormat",
            "example",
        ];
        known.extend(VALUE_FIELDS);
        if map.get("x-nullable").is_some_and(Value::is_boolean) {
            known.push("x-nullable");
        }
        self.rest(map, &known, at, &format!("{location} parameter"), &mut out);
        Ok(Value::Object(out))
    }

    /// The request body of an operation whose `consumes` is `consumes`, from its body
    /// parameter: a reference to the root one when the operation uses the document's media
    /// types (the component has those), else the body written out.
    fn request_body(&mut self, body: Body<'d>, consumes: Option<&[&'d str]>) -> Result<Value, ConvertError> {
        let media = effective(consumes, &self.consumes);
        match body {
            Body::Inline { map, pointer } => self.body(map, &At::pointer_of(&pointer), &media),
            Body::Root { name, .. } if media == effective(None, &self.consumes) => {
                Ok(json!({ "$ref": format!("#/components/requestBodies/{}", escape_segment(&name)) }))
            }
            Body::Root { original, map, .. } => {
                let pointer = format!("/parameters/{}", escape_segment(original));
                self.body(map, &At::pointer_of(&pointer), &media)
            }
        }
    }

    /// The Request Body Object of the body parameter at `at`, for the media types `media`.
    pub(super) fn body(
        &mut self,
        map: &'d Map<String, Value>,
        at: &At<'_>,
        media: &[&str],
    ) -> Result<Value, ConvertError> {
        let schema =
            field(map, "schema").ok_or_else(|| ConvertError::BodyWithoutSchema { pointer: at.pointer() })?;
        let schema = self.schema(schema, &at.field("schema"), 0)?;
        opt_str(map, "name", at)?;
        let mut out = Map::new();
        if let Some(description) = opt_str(map, "description", at)? {
            out.insert("description".to_owned(), json!(description));
        }
        let content: Map<String, Value> =
            media.iter().map(|m| ((*m).to_owned(), json!({ "schema": schema.clone() }))).collect();
        out.insert("content".to_owned(), Value::Object(content));
        if let Some(required) = opt_bool(map, "required", at)? {
            out.insert("required".to_owned(), json!(required));
        }
        self.rest(map, &["name", "in", "description", "required", "schema"], at, "body parameter", &mut out);
        Ok(Value::Object(out))
    }

    /// The request body of the operation at `at` from its form parameters: an object schema
    /// with a property per field, for the form media types its `consumes` names.
    fn form_body(
        &mut self,
        fields: &IndexMap<String, FormField<'d>>,
        consumes: Option<&[&'d str]>,
        at: &At<'_>,
    ) -> Result<Value, ConvertError> {
        let media = self.form_media(fields, consumes, at);
        let multipart = media.iter().any(|m| is_media(m, MULTIPART));

        let mut properties = Map::new();
        let mut required = Vec::new();
        let mut encoding = Map::new();
        for (name, form_field) in fields {
            let here = At::pointer_of(&form_field.pointer);
            let map = form_field.map;
            let schema = self.value_schema(map, &here)?;
            let mut property = Map::new();
            if let Some(description) = opt_str(map, "description", &here)? {
                property.insert("description".to_owned(), json!(description));
            }
            property.extend(schema.as_object().cloned().unwrap_or_default());
            if opt_bool(map, "required", &here)? == Some(true) {
                required.push(json!(name));
            }
            if opt_bool(map, "allowEmptyValue", &here)?.is_some() {
                self.notes.push(format!(
                    "`allowEmptyValue` of the form parameter `{name}` ({}) has no OpenAPI 3 equivalent for a form field; it is left out.",
                    here.quoted()
                ));
            }
            if let Some(format) = collection_format(map, &here)? {
                encoding.insert(name.clone(), self.form_encoding(name, format, &here, multipart));
            }
            let mut known =
                vec!["name", "in", "description", "required", "allowEmptyValue", "collectionFormat"];
            known.extend(VALUE_FIELDS);
            if map.get("x-nullable").is_some_and(Value::is_boolean) {
                known.push("x-nullable");
            }
            self.rest(map, &known, &here, "form parameter", &mut property);
            properties.insert(name.clone(), Value::Object(property));
        }
        Ok(form_request_body(media, properties, required, &encoding))
    }

    /// The form media types of the operation at `at`: those its `consumes` (else the
    /// document's) names, or, when it names none, multipart for a form with a file and
    /// urlencoded for one without, with a note.
    fn form_media(
        &mut self,
        fields: &IndexMap<String, FormField<'d>>,
        consumes: Option<&[&'d str]>,
        at: &At<'_>,
    ) -> Vec<&'d str> {
        let listed = consumes.map_or_else(|| self.consumes.clone(), <[&str]>::to_vec);
        let mut media: Vec<&str> = unique_texts(listed)
            .into_iter()
            .filter(|m| is_media(m, URLENCODED) || is_media(m, MULTIPART))
            .collect();
        if media.is_empty() {
            let has_file = fields.values().any(|f| f.map.get("type").and_then(Value::as_str) == Some("file"));
            let chosen = if has_file { MULTIPART } else { URLENCODED };
            self.notes.push(format!(
                "{} has form parameters, but its `consumes` names neither `{URLENCODED}` nor `{MULTIPART}`; the form is described as `{chosen}`.",
                capitalized(&at.quoted())
            ));
            media.push(chosen);
        }
        media
    }

    /// The Encoding Object of the array form field `name` at `here` whose `collectionFormat`
    /// is `format`, with notes for what OpenAPI 3 cannot say (`tsv`, and any format but
    /// `multi` in a `multipart` form).
    fn form_encoding(&mut self, name: &str, format: &str, here: &At<'_>, multipart: bool) -> Value {
        let (style, explode) = match format {
            "multi" => ("form", true),
            "ssv" => ("spaceDelimited", false),
            "pipes" => ("pipeDelimited", false),
            _ => ("form", false),
        };
        let mut entry = Map::new();
        entry.insert("style".to_owned(), json!(style));
        entry.insert("explode".to_owned(), json!(explode));
        if format == "tsv" {
            self.notes.push(format!(
                "`collectionFormat: tsv` of the form parameter `{name}` ({}) has no OpenAPI 3 equivalent; it is described as comma-separated (`style: form`, `explode: false`), and `x-collectionFormat: tsv` in its encoding keeps the original.",
                here.quoted()
            ));
            entry.insert("x-collectionFormat".to_owned(), json!(format));
        }
        if multipart && format != "multi" {
            self.notes.push(format!(
                "`collectionFormat: {format}` of the form parameter `{name}` ({}) cannot be said for `{MULTIPART}`, which sends each item as a part of its own.",
                here.quoted()
            ));
        }
        Value::Object(entry)
    }
}

/// Whether `media` is the form media type `form`, its parameters aside.
fn is_media(media: &str, form: &str) -> bool {
    media.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case(form))
}

/// The Request Body Object of a form: an object schema of `properties`, `required` naming the
/// required ones, for each of the media types `media`, with the fields' `encoding` for a
/// urlencoded one.
fn form_request_body(
    media: Vec<&str>,
    properties: Map<String, Value>,
    required: Vec<Value>,
    encoding: &Map<String, Value>,
) -> Value {
    let mut schema = Map::new();
    schema.insert("type".to_owned(), json!("object"));
    schema.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".to_owned(), Value::Array(required.clone()));
    }
    let schema = Value::Object(schema);
    let mut content = Map::new();
    for media in media {
        let mut entry = Map::new();
        entry.insert("schema".to_owned(), schema.clone());
        if is_media(media, URLENCODED) && !encoding.is_empty() {
            entry.insert("encoding".to_owned(), Value::Object(encoding.clone()));
        }
        content.insert(media.to_owned(), Value::Object(entry));
    }
    let mut out = Map::new();
    out.insert("content".to_owned(), Value::Object(content));
    if !required.is_empty() {
        out.insert("required".to_owned(), json!(true));
    }
    Value::Object(out)
}

/// The `collectionFormat` of an array parameter or header at `at` (`csv` when it has none);
/// `None` when it is not an array.
pub(super) fn collection_format<'v>(
    map: &'v Map<String, Value>,
    at: &At<'_>,
) -> Result<Option<&'v str>, ConvertError> {
    let format = opt_str(map, "collectionFormat", at)?;
    if field(map, "type").and_then(Value::as_str) != Some("array") {
        return Ok(None);
    }
    let format = format.unwrap_or("csv");
    if COLLECTION_FORMATS.contains(&format) {
        Ok(Some(format))
    } else {
        Err(ConvertError::UnknownValue {
            pointer: at.pointer(),
            field: "collectionFormat",
            value: format.to_owned(),
            allowed: "csv, ssv, tsv, pipes and multi",
        })
    }
}
