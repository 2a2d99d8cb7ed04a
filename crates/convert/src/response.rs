//! Responses: a Swagger 2.0 response's `schema` and `examples` become its `content` per media
//! type, and its headers' type fields their `schema`.

use serde_json::{Map, Value, json};

use super::error::ConvertError;
use super::operation::collection_format;
use super::read::{At, field, object, opt_object, opt_str, wrong};
use super::schema::VALUE_FIELDS;
use super::{Converter, effective};
use playground_openapi::pointer::escape_segment;

impl<'d> Converter<'d> {
    /// The Responses Object at `at` of an operation whose `produces` is `produces`. A
    /// reference to a root response stays one when the operation uses the document's media
    /// types (the component has those); else the response is written out.
    pub(super) fn responses(
        &mut self,
        map: &'d Map<String, Value>,
        at: &At<'_>,
        produces: Option<&[&'d str]>,
    ) -> Result<Value, ConvertError> {
        let media = effective(produces, &self.produces);
        let same_media = media == effective(None, &self.produces);
        let mut out = Map::new();
        for (code, value) in map {
            if code.starts_with("x-") {
                out.insert(code.clone(), value.clone());
                continue;
            }
            let here = at.field(code);
            let response = object(value, &here)?;
            let converted = match field(response, "$ref") {
                Some(reference) => {
                    let text =
                        reference.as_str().ok_or_else(|| wrong(&here.field("$ref"), "a text", reference))?;
                    let root = self.names.root_response(text).map(|(_, original, map)| (*original, *map));
                    match root {
                        Some((original, root))
                            if !same_media
                                && (field(root, "schema").is_some() || field(root, "examples").is_some()) =>
                        {
                            let pointer = format!("/responses/{}", escape_segment(original));
                            self.response(root, &At::pointer_of(&pointer), &media)?
                        }
                        _ => self.reference(reference, &here)?,
                    }
                }
                None => self.response(response, &here, &media)?,
            };
            out.insert(code.clone(), converted);
        }
        Ok(Value::Object(out))
    }

    /// The Response Object at `at`, its body in each of the media types `media`.
    pub(super) fn response(
        &mut self,
        map: &'d Map<String, Value>,
        at: &At<'_>,
        media: &[&str],
    ) -> Result<Value, ConvertError> {
        let mut out = Map::new();
        let description = opt_str(map, "description", at)?.unwrap_or_else(|| {
            self.notes.push(format!(
                "The response {} has no `description`, which OpenAPI 3 requires; it is given an empty one.",
                at.quoted()
            ));
            ""
        });
        out.insert("description".to_owned(), json!(description));
        if let Some(headers) = opt_object(map, "headers", at)? {
            let headers_at = at.field("headers");
            let mut converted = Map::new();
            for (name, header) in headers {
                let here = headers_at.field(name);
                converted.insert(name.clone(), self.header(object(header, &here)?, &here)?);
            }
            out.insert("headers".to_owned(), Value::Object(converted));
        }
        let schema = field(map, "schema").map(|s| self.schema(s, &at.field("schema"), 0)).transpose()?;
        let mut content = Map::new();
        if let Some(schema) = &schema {
            for media in media {
                content.insert((*media).to_owned(), json!({ "schema": schema }));
            }
        }
        if let Some(examples) = opt_object(map, "examples", at)? {
            for (media, example) in examples {
                let entry = content.entry(media.clone()).or_insert_with(|| match &schema {
                    Some(schema) => json!({ "schema": schema }),
                    None => json!({}),
                });
                if let Value::Object(entry) = entry {
                    entry.insert("example".to_owned(), example.clone());
                }
            }
        }
        if !content.is_empty() {
            out.insert("content".to_owned(), Value::Object(content));
        }
        self.rest(map, &["description", "schema", "headers", "examples"], at, "response", &mut out);
        Ok(Value::Object(out))
    }

    /// A response header at `at`: its type fields become its `schema`.
    fn header(&mut self, map: &'d Map<String, Value>, at: &At<'_>) -> Result<Value, ConvertError> {
        let mut out = Map::new();
        if let Some(description) = opt_str(map, "description", at)? {
            out.insert("description".to_owned(), json!(description));
        }
        out.insert("schema".to_owned(), self.value_schema(map, at)?);
        if let Some(format) = collection_format(map, at)?.filter(|f| *f != "csv") {
            self.notes.push(format!(
                "`collectionFormat: {format}` of the response header {} has no OpenAPI 3 equivalent (headers are comma-separated); `x-collectionFormat: {format}` keeps the original.",
                at.quoted()
            ));
            out.insert("x-collectionFormat".to_owned(), json!(format));
        }
        let mut known = vec!["description", "collectionFormat"];
        known.extend(VALUE_FIELDS);
        if map.get("x-nullable").is_some_and(Value::is_boolean) {
            known.push("x-nullable");
        }
        self.rest(map, &known, at, "header", &mut out);
        Ok(Value::Object(out))
    }
}
