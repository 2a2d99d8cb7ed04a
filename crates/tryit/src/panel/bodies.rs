//! The bodies beyond JSON (feature `extras`): form fields from the body's schema, URL-encoded and
//! multipart bodies, files read as they are sent, and the form the code samples show.

use leptos::prelude::*;
use playground_http::Request;
use playground_http::form::{
    DEFAULT_FILE_TYPE, FormField, FormFieldSpec, FormKind, SpecKind, boundary_for, encode_multipart,
    encode_urlencoded, multipart_content_type,
};
use playground_tryit_core::samples::{SampleForm, SampleValue};
use wasm_bindgen_futures::JsFuture;

use playground_tryit_core::FieldError;

use super::form::{BodyKind, MAX_FILES, TryItForm};

impl TryItForm {
    /// The fields of a form body of the chosen media type.
    #[must_use]
    pub fn form_fields(&self) -> Vec<FormFieldSpec> {
        let media = self.media.get();
        self.view.with_value(|v| playground_tryit_core::request::form_fields(v, &media))
    }

    /// The text of the form field `spec` (its example until the reader types).
    #[must_use]
    pub fn field_text(&self, spec: &FormFieldSpec) -> String {
        self.form_text
            .with(|t| t.get(&spec.name).cloned())
            .unwrap_or_else(|| spec.example.clone().unwrap_or_default())
    }

    /// A body that is not JSON, written into `request` (its problems into `errors`).
    pub(super) fn body_beyond_json(
        &self,
        kind: BodyKind,
        body: String,
        request: &mut Request,
        errors: &mut Vec<FieldError>,
    ) {
        let Some((required, media)) = self
            .view
            .with_value(|v| v.request_body.as_ref().map(|b| b.required))
            .map(|r| (r, self.media.get()))
        else {
            return;
        };
        if kind == BodyKind::Json {
            return;
        }
        // Not JSON: the core's check of the JSON text does not apply; the body is the kind's.
        errors.retain(|e| e.field != "body");
        let missing = |what: &str| FieldError {
            field: "body".to_owned(),
            message: format!("This operation needs {what}."),
        };
        let content_type = match kind {
            // JSON returned above.
            BodyKind::Json | BodyKind::Text => {
                if required && body.is_empty() {
                    errors.push(missing("a request body"));
                }
                request.body = body.into_bytes();
                media
            }
            BodyKind::File => {
                if required && self.files.with(|f| f.get("").is_none_or(Vec::is_empty)) {
                    errors.push(missing("a file to send"));
                }
                media
            }
            BodyKind::Form(form_kind) => {
                let fields = self.form_fields();
                for spec in &fields {
                    let given = match spec.kind {
                        SpecKind::Text => !self.field_text(spec).is_empty(),
                        SpecKind::File | SpecKind::Files => {
                            self.files.with(|f| f.get(&spec.name).is_some_and(|l| !l.is_empty()))
                        }
                    };
                    if spec.required && !given {
                        errors.push(FieldError {
                            field: format!("form:{}", spec.name),
                            message: format!("{} is required.", spec.name),
                        });
                    }
                }
                if form_kind == FormKind::UrlEncoded {
                    request.body = encode_urlencoded(&self.text_fields(&fields));
                }
                // A multipart body is written when it is sent, with its files read.
                form_kind.media_type().to_owned()
            }
        };
        request.headers.retain(|(n, _)| !n.eq_ignore_ascii_case("content-type"));
        request.headers.insert(0, ("Content-Type".to_owned(), content_type));
    }

    /// The form's text fields (a file field as its files' names, for a URL-encoded body).
    pub(super) fn text_fields(&self, fields: &[FormFieldSpec]) -> Vec<FormField> {
        let mut out = Vec::new();
        for spec in fields {
            match spec.kind {
                SpecKind::Text => {
                    let text = self.field_text(spec);
                    if !text.is_empty() {
                        out.extend(
                            spec.values_of(&text).into_iter().map(|value| FormField::text(&spec.name, value)),
                        );
                    }
                }
                SpecKind::File | SpecKind::Files => self.files.with(|f| {
                    for file in f.get(&spec.name).into_iter().flatten() {
                        out.push(FormField::text(&spec.name, file.name()));
                    }
                }),
            }
        }
        out
    }

    /// `request` with the chosen files read into its body (a multipart form, or a body that
    /// is a file); as it is for other bodies.
    ///
    /// # Errors
    /// A file could not be read, or the files are too large.
    pub async fn with_files(&self, mut request: Request) -> Result<Request, String> {
        let kind = self.body_kind();
        let files = self.files.get_untracked();
        let total: f64 = files.values().flatten().map(|f| f.size()).sum();
        if total > MAX_FILES {
            return Err(format!(
                "The files are {} MB in all; at most {} MB are sent.",
                (total / 1_048_576.0).round(),
                MAX_FILES / 1_048_576.0
            ));
        }
        match kind {
            BodyKind::File => {
                if let Some(file) = files.get("").and_then(|l| l.first()) {
                    request.body = read_file(file).await?;
                    // A range such as `image/*` takes the file's own type.
                    if self.media.get_untracked().contains('*') && !file.type_().is_empty() {
                        request.headers.retain(|(n, _)| !n.eq_ignore_ascii_case("content-type"));
                        request.headers.insert(0, ("Content-Type".to_owned(), file.type_()));
                    }
                }
            }
            BodyKind::Form(FormKind::Multipart) => {
                let specs = self.form_fields_untracked();
                let mut fields = Vec::new();
                for spec in &specs {
                    match spec.kind {
                        SpecKind::Text => {
                            let text = self
                                .form_text
                                .with_untracked(|t| t.get(&spec.name).cloned())
                                .unwrap_or_else(|| spec.example.clone().unwrap_or_default());
                            if !text.is_empty() {
                                let values = spec.values_of(&text);
                                fields.extend(
                                    values.into_iter().map(|value| FormField::text(&spec.name, value)),
                                );
                            }
                        }
                        SpecKind::File | SpecKind::Files => {
                            for file in files.get(&spec.name).into_iter().flatten() {
                                let content_type = if file.type_().is_empty() {
                                    DEFAULT_FILE_TYPE.to_owned()
                                } else {
                                    file.type_()
                                };
                                fields.push(FormField::file(
                                    &spec.name,
                                    file.name(),
                                    content_type,
                                    read_file(file).await?,
                                ));
                            }
                        }
                    }
                }
                let boundary = boundary_for(&fields);
                request.body = encode_multipart(&fields, &boundary);
                request.headers.retain(|(n, _)| !n.eq_ignore_ascii_case("content-type"));
                request.headers.insert(0, ("Content-Type".to_owned(), multipart_content_type(&boundary)));
            }
            _ => {}
        }
        Ok(request)
    }

    pub(super) fn form_fields_untracked(&self) -> Vec<FormFieldSpec> {
        untrack(|| self.form_fields())
    }

    /// A form body as the code samples write it: the fields, files by name.
    #[must_use]
    pub fn sample_form(&self) -> Option<SampleForm> {
        let BodyKind::Form(kind) = self.body_kind() else { return None };
        let mut fields = Vec::new();
        for spec in self.form_fields() {
            match spec.kind {
                SpecKind::Text => {
                    let text = self.field_text(&spec);
                    let values = if text.is_empty() { vec![text] } else { spec.values_of(&text) };
                    fields.extend(
                        values.into_iter().map(|value| (spec.name.clone(), SampleValue::Text(value))),
                    );
                }
                SpecKind::File | SpecKind::Files => {
                    let chosen = self.files.with(|f| f.get(&spec.name).cloned().unwrap_or_default());
                    if chosen.is_empty() {
                        fields.push((
                            spec.name.clone(),
                            SampleValue::File {
                                file_name: format!("{}.bin", spec.name),
                                content_type: DEFAULT_FILE_TYPE.to_owned(),
                            },
                        ));
                    }
                    for file in chosen {
                        let content_type =
                            if file.type_().is_empty() { DEFAULT_FILE_TYPE.to_owned() } else { file.type_() };
                        fields.push((
                            spec.name.clone(),
                            SampleValue::File { file_name: file.name(), content_type },
                        ));
                    }
                }
            }
        }
        Some(SampleForm { kind, fields })
    }
}

/// The bytes of `file`.
async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("The file {} could not be read: {}.", file.name(), crate::message_of(&e)))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}
