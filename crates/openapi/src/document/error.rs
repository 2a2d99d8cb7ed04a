//! Why a document could not be shown: one sentence for the reader per problem.

/// The description versions this reference reads, in words.
pub const SUPPORTED_VERSIONS: &str = "OpenAPI 3.0 to 3.2 and Swagger 2.0";

/// Why a document could not be shown. Each message is a full sentence for the reader.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentError {
    /// The text is empty or only white space.
    #[error("The document is empty.")]
    Empty,
    /// The text starts like JSON but is not valid JSON (line and column from 1).
    #[error("The document is not valid JSON: {reason} (line {line}, column {column}).")]
    Json {
        /// What the parser expected.
        reason: String,
        /// Line of the problem, from 1.
        line: usize,
        /// Column of the problem, from 1.
        column: usize,
    },
    /// The text is neither JSON nor valid YAML (line and column from 1, when known).
    #[error("The document is neither JSON nor valid YAML: {reason}{}.", position(*.line, *.column))]
    Yaml {
        /// What the YAML parser reported.
        reason: String,
        /// Line of the problem, from 1 (0 when unknown).
        line: usize,
        /// Column of the problem, from 1 (0 when unknown).
        column: usize,
    },
    /// The YAML parser could not be loaded (network).
    #[error(
        "The document is YAML, and the YAML reader could not be loaded ({0}). Check the connection and try again, or load the document as JSON."
    )]
    YamlUnavailable(String),
    /// The top level is not an object (names what it is instead).
    #[error("The document must be an object with `openapi`, `info` and `paths` fields; this one is {0}.")]
    NotAnObject(&'static str),
    /// A Swagger document: 2.0 is read once converted to OpenAPI 3.0 (the page does it with
    /// the converter module); 1.x is not read.
    #[error(
        "This is a Swagger {0} document; this reference reads {SUPPORTED_VERSIONS} documents (Swagger 2.0 converted to OpenAPI 3.0 as it loads)."
    )]
    Swagger(String),
    /// The Swagger 2.0 converter could not be loaded (network).
    #[error(
        "The document is Swagger 2.0, and its converter could not be loaded ({0}). Check the connection and try again."
    )]
    ConverterUnavailable(String),
    /// A Swagger 2.0 document the converter refused; the message says where and why.
    #[error("The Swagger 2.0 document could not be converted: {0}")]
    Conversion(String),
    /// A document that refers to other files, whose bundler (the converter's module) could not
    /// be loaded.
    #[error(
        "The document refers to other files, and the module that reads them could not be loaded ({0}). Check the connection and try again."
    )]
    BundlerUnavailable(String),
    /// The files a document refers to could not be put together; the message says why.
    #[error("The files the document refers to could not be read: {0}")]
    Bundle(String),
    /// An OpenAPI version other than 3.0, 3.1 or 3.2.
    #[error("This is an OpenAPI {0} document; this reference reads {SUPPORTED_VERSIONS} documents only.")]
    UnsupportedVersion(String),
    /// No `openapi` field, or not a string.
    #[error(
        "The document has no `openapi` version field{0}, so it is not an OpenAPI document; this reference reads {SUPPORTED_VERSIONS} documents."
    )]
    MissingVersion(String),
    /// No `info` object.
    #[error("The document has no `info` object (with its `title` and `version`).")]
    MissingInfo,
    /// `info` lacks a string `title` or `version`.
    #[error("The document's `info` object has no `{0}` text.")]
    MissingInfoField(&'static str),
    /// No `paths` object (OpenAPI 3.0 requires one).
    #[error("The document has no `paths` object, so it describes no operation.")]
    MissingPaths,
    /// OpenAPI 3.1 and later: none of `paths`, `webhooks` and `components`.
    #[error("The document has none of `paths`, `webhooks` and `components`, so it describes nothing.")]
    Nothing,
    /// `paths` (or another field the list reads) is there but not an object; the JSON pointer
    /// of the field and what it is instead.
    #[error("The document's `{pointer}` is {found}, where an object belongs.")]
    NotAnObjectAt {
        /// The JSON pointer of the field, such as `/paths` or `/paths/~1pets`.
        pointer: String,
        /// What it is instead, such as "a list".
        found: &'static str,
    },
    /// A field the operation list reads has the wrong type.
    #[error("The document could not be listed: {0}.")]
    Shape(String),
    /// The server answered with an error status.
    #[error("The document could not be fetched from {url}: the server answered {status}{}.", status_words(*.status, .status_text))]
    Http {
        /// The address asked for.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The status text, when the server sent one.
        status_text: String,
    },
    /// No answer the page may read: offline, wrong address, or a server that does not allow
    /// this page to read the document (CORS).
    #[error(
        "The document could not be fetched from {url}: the server did not answer, or it does not allow other sites to read it (CORS). Check the address, or download the file and load it with \u{201c}File\u{201d}."
    )]
    Network {
        /// The address asked for.
        url: String,
    },
    /// The address is not a URL the page can fetch.
    #[error("\u{201c}{0}\u{201d} is not a web address (http or https).")]
    BadUrl(String),
    /// The document is larger than this reader takes.
    #[error("The document is larger than {} MB, the most this page reads.", limit >> 20)]
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The download stopped before the end of the document.
    #[error(
        "The download of {url} stopped after {received} bytes, before the end of the document. Check the connection and try again."
    )]
    Interrupted {
        /// The address asked for.
        url: String,
        /// Bytes received.
        received: usize,
    },
    /// The file could not be read.
    #[error("The file could not be read: {0}.")]
    File(String),
}

fn position(line: usize, column: usize) -> String {
    match (line, column) {
        (0, _) => String::new(),
        (l, 0) => format!(" (line {l})"),
        (l, c) => format!(" (line {l}, column {c})"),
    }
}

fn status_words(status: u16, text: &str) -> String {
    let text = text.trim();
    let text = if text.is_empty() { playground_http::reason_phrase(status) } else { text };
    if text.is_empty() { String::new() } else { format!(" {text}") }
}
