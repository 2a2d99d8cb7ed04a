//! Code samples for a request: cURL, JavaScript (`fetch`), Python (`requests`), Go
//! (`net/http`), Java (`java.net.http`) and C# (`HttpClient`), built from the same [`Request`]
//! the try-it panel sends, so what a reader copies is exactly what the page ran.
//!
//! Every string is quoted for its language (a shell's single quotes, a Go, Java or C# string
//! literal with escapes), so no value can end a literal early. A body that is not UTF-8 is read
//! from the file [`BODY_FILE`]; a form's files are read from files named as the form names them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use playground_http::Request;
use playground_http::form::{DEFAULT_FILE_TYPE, FormKind, content_disposition, escape_disposition_name};

mod curl;
mod go;
mod java_csharp;
mod javascript;
mod python;
#[cfg(test)]
mod tests;

use curl::curl;
use go::go;
use java_csharp::{csharp, java};
use javascript::javascript;
use python::python;

/// The languages samples are generated in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// A `curl` command line for a POSIX shell.
    Curl,
    /// `fetch` in JavaScript (browsers and Node 18+).
    JavaScript,
    /// Python with the `requests` package.
    Python,
    /// A Go program with `net/http`.
    Go,
    /// A Java 11+ class with `java.net.http.HttpClient`.
    Java,
    /// C# top-level statements with `HttpClient` (.NET 6+).
    CSharp,
}

impl Lang {
    /// Every language, in the order the tabs show them.
    pub const ALL: [Lang; 6] =
        [Lang::Curl, Lang::JavaScript, Lang::Python, Lang::Go, Lang::Java, Lang::CSharp];

    /// The tab label.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Lang::Curl => "cURL",
            Lang::JavaScript => "JavaScript",
            Lang::Python => "Python",
            Lang::Go => "Go",
            Lang::Java => "Java",
            Lang::CSharp => "C#",
        }
    }
}

/// The file a sample reads a body that is not UTF-8 from.
pub const BODY_FILE: &str = "body.bin";

/// The file a form's file is read from when the form gives it no name.
const UNNAMED_FILE: &str = "file.bin";

/// A form body as the samples write it: the fields, not the encoded bytes, so each language
/// builds the form its own way (and sets the multipart boundary itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleForm {
    /// How the form is encoded.
    pub kind: FormKind,
    /// The fields, in order; a name may repeat.
    pub fields: Vec<(String, SampleValue)>,
}

/// The value of one field of a [`SampleForm`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SampleValue {
    /// A text value.
    Text(String),
    /// A file, read from the file `file_name` (a urlencoded form sends the name).
    File {
        /// The file's name.
        file_name: String,
        /// The file's media type (empty for `application/octet-stream`).
        content_type: String,
    },
}

impl SampleValue {
    /// The file to read, and its media type.
    fn file(&self) -> Option<(&str, &str)> {
        match self {
            Self::Text(_) => None,
            Self::File { file_name, content_type } => Some((
                if file_name.is_empty() { UNNAMED_FILE } else { file_name },
                if content_type.trim().is_empty() { DEFAULT_FILE_TYPE } else { content_type },
            )),
        }
    }

    /// The value a urlencoded form sends: the text, or the file's name.
    fn as_text(&self) -> &str {
        match self {
            Self::Text(text) => text,
            Self::File { file_name, .. } => file_name,
        }
    }
}

/// A request's body as the samples write it.
enum Body<'a> {
    None,
    /// JSON: written as the language's literal.
    Json(Value),
    /// Other UTF-8 text: written as a string.
    Text(String),
    /// Bytes that are not UTF-8: read from [`BODY_FILE`].
    Binary,
    /// A form, built with the language's form API.
    Form(&'a SampleForm),
}

impl<'a> Body<'a> {
    fn of(request: &Request, form: Option<&'a SampleForm>) -> Self {
        if let Some(form) = form {
            return Self::Form(form);
        }
        if request.body.is_empty() {
            return Self::None;
        }
        let Ok(text) = std::str::from_utf8(&request.body) else { return Self::Binary };
        // `from_str`, as everywhere in the page: one JSON reader in the wasm, not two.
        serde_json::from_str(text).map_or_else(|_| Self::Text(text.to_owned()), Self::Json)
    }

    /// Whether a sample sends a body.
    const fn is_some(&self) -> bool {
        !matches!(self, Self::None)
    }

    /// The request's headers a sample writes: a form's own API sets the Content-Type (with the
    /// multipart boundary), so the request's is left out.
    fn headers<'r>(&self, request: &'r Request) -> Vec<&'r (String, String)> {
        request
            .headers
            .iter()
            .filter(|(name, _)| !(matches!(self, Self::Form(_)) && name.eq_ignore_ascii_case("content-type")))
            .collect()
    }
}

/// The sample of `request` in `lang`.
#[must_use]
pub fn generate(lang: Lang, request: &Request) -> String {
    generate_with(lang, request, None)
}

/// The sample of `request` in `lang`; with `form`, the body is that form, built with the
/// language's form API, and the request's own body and Content-Type are left out.
#[must_use]
pub fn generate_with(lang: Lang, request: &Request, form: Option<&SampleForm>) -> String {
    let body = Body::of(request, form);
    match lang {
        Lang::Curl => curl(request, &body),
        Lang::JavaScript => javascript(request, &body),
        Lang::Python => python(request, &body),
        Lang::Go => go(request, &body),
        Lang::Java => java(request, &body),
        Lang::CSharp => csharp(request, &body),
    }
}

/// A JSON value as indented text; never fails for a parsed value.
fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Whether every name in `fields` is different.
fn unique_names(fields: &[(String, SampleValue)]) -> bool {
    fields.iter().enumerate().all(|(i, (name, _))| fields.iter().take(i).all(|(other, _)| other != name))
}
