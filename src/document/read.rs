//! Reading a document's bytes: pasted text at once, anything else as it arrives, its list
//! handed to the page as soon as it can be shown.

use super::*;

/// The bytes handed to the reader at a time: a chunk larger than this (a file's, or a body
/// that arrived before the app asked) is split, so that the page can paint between two and
/// its memory holds no second copy of it.
const PIECE: u32 = 1 << 18;

/// The piece until the list is shown when its first rows may be shown alone: smaller, so the
/// first rows are found with little more than them read.
const FIRST_PIECE: u32 = 1 << 16;

/// Reading goes on in one task for at most this many milliseconds, shorter than the page's
/// other long work (`modules::SLICE_MS`): while the page is busy the browser stops taking the
/// body once its buffer is full, so a long task holds the download up. GitHub's 13 MB fetched
/// by a page that does nothing else arrives in 70-100 ms; with 30 ms tasks and a 1 ms gap
/// between two, in 250 ms; with 8 ms tasks, in 125 ms.
const READ_SLICE_MS: f64 = 8.0;

/// What JavaScript's `readDocument` and `openDocument` take for `input`.
fn js_input(input: &Input) -> (&'static str, JsValue) {
    match input {
        Input::Url(address) => ("url", JsValue::from_str(address)),
        Input::File(file) => ("file", file.into()),
        Input::Text(text) => ("text", JsValue::from_str(text)),
        Input::Builtin => ("url", JsValue::from_str(BUILTIN_PATH)),
    }
}

/// The error JavaScript answered for `input` (see `openDocument`).
fn read_error(result: &JsValue, input: &JsValue) -> DocumentError {
    let url = text(result, "url");
    match text(result, "error").as_str() {
        "bad-url" => DocumentError::BadUrl(input.as_string().unwrap_or_default()),
        "http" => DocumentError::Http {
            url,
            status: u16::try_from(number(result, "status")).unwrap_or_default(),
            status_text: text(result, "statusText"),
        },
        "file" => DocumentError::File(text(result, "message")),
        _ => DocumentError::Network { url },
    }
}

/// `readDocument`'s answer for `input`: all its bytes at once (pasted text, and a document's
/// text read again for "Download the document").
pub(super) async fn read_js(input: &Input) -> JsValue {
    let (kind, value) = js_input(input);
    JsFuture::from(read_document_js(kind, &value)).await.unwrap_or(JsValue::UNDEFINED)
}

/// Reads a document. Pasted text is read whole. Anything else is read as it arrives
/// (`playground_openapi::document::DocumentStream`): with `early`, its list goes to `early` as soon
/// as it can be shown, with the document still arriving, and the page paints it before the
/// reading goes on; the whole document then replaces the arriving one in the same signal.
/// With `first_rows`, the list goes to `early` as soon as that many of its first rows are
/// final, and the whole list of `paths` follows (the same arriving document, a second call).
/// With `hold_ms` (a deep link), the list waits that long for the rest of the document: when
/// the rest is read within it, nothing goes to `early`, and the page is painted once, with
/// the operation asked for, rather than with the list first and the operation a moment later.
/// The reading stops when `alive` says the load was superseded.
pub(super) async fn read(
    input: &Input,
    early: Option<&dyn Fn(Loaded)>,
    first_rows: usize,
    hold_ms: f64,
    alive: &dyn Fn() -> bool,
) -> Result<Loaded, DocumentError> {
    let (kind, value) = js_input(input);
    if let Input::Text(_) = input {
        let result = read_js(input).await;
        let Some(bytes) = bytes(&result) else { return Err(read_error(&result, &value)) };
        // The text kept has no indentation: "Download the document" gives the pasted text.
        return Ok(Loaded { reread: Some(input.clone()), ..Loaded::parse(bytes, Source::Pasted).await? });
    }
    let opened = JsFuture::from(open_document_js(kind, &value)).await.unwrap_or(JsValue::UNDEFINED);
    let reader = field(&opened, "reader");
    if reader.is_undefined() {
        return Err(read_error(&opened, &value));
    }
    let label = text(&opened, "label");
    let source = match input {
        Input::Url(_) => Source::Url(label.clone()),
        Input::File(_) => Source::File(label.clone()),
        Input::Text(_) => Source::Pasted,
        Input::Builtin => Source::Builtin,
    };
    let mut reading = Reading {
        input,
        source,
        early,
        first_rows,
        hold_ms,
        stream: DocumentStream::new(number(&opened, "size")).list_first(first_rows),
        shown: None,
        held: None,
        chunk: Vec::new(),
        slice: js_sys::Date::now(),
    };
    loop {
        let pending = next_chunk_js(&reader);
        reading.show_held_unless(&pending).await;
        let next = JsFuture::from(pending).await.unwrap_or(JsValue::FALSE);
        if next.is_null() {
            break;
        }
        if !alive() {
            cancel_read_js(&reader);
            return Err(DocumentError::Network { url: label });
        }
        let Some(array) = next.dyn_ref::<js_sys::Uint8Array>() else {
            return Err(match input {
                Input::File(_) => DocumentError::File("it stopped before its end".to_owned()),
                _ => DocumentError::Interrupted { url: label, received: reading.stream.received() },
            });
        };
        reading.take(array).await.inspect_err(|_| cancel_read_js(&reader))?;
    }
    reading.finish().await
}

/// A document read as it arrives: its stream, and the list handed to `early` or held.
struct Reading<'a> {
    input: &'a Input,
    source: Source,
    early: Option<&'a dyn Fn(Loaded)>,
    first_rows: usize,
    hold_ms: f64,
    stream: DocumentStream,
    /// The arriving document handed to `early`.
    shown: Option<Arc<Arriving>>,
    /// The list read while `hold_ms` runs, and when it was read.
    held: Option<(Listing, f64)>,
    /// The piece of a chunk being read.
    chunk: Vec<u8>,
    /// When the reading's task began.
    slice: f64,
}

impl Reading<'_> {
    /// Shows a held list when its time is up, whether or not the `pending` chunk came.
    async fn show_held_unless(&mut self, pending: &js_sys::Promise) {
        let (Some(early), Some((_, since))) = (self.early, &self.held) else { return };
        let left = self.hold_ms - (js_sys::Date::now() - since);
        let came = left > 0.0
            && JsFuture::from(settled_within_js(pending, left)).await.is_ok_and(|came| came.is_truthy());
        if let Some((listing, _)) = self.held.take_if(|_| !came) {
            hand(listing, &mut self.shown, early, &self.source, self.input).await;
            self.slice = js_sys::Date::now();
        }
    }

    /// Reads a chunk. A chunk can be the whole body when it had arrived before the app asked:
    /// it is copied into the page's memory a piece at a time, not all at once.
    async fn take(&mut self, array: &js_sys::Uint8Array) -> Result<(), DocumentError> {
        let length = array.length();
        let mut at = 0;
        while at < length {
            let piece = if self.first_rows > 0 && self.shown.is_none() { FIRST_PIECE } else { PIECE };
            let end = length.min(at.saturating_add(piece));
            self.chunk.resize((end - at) as usize, 0);
            array.subarray(at, end).copy_to(&mut self.chunk);
            at = end;
            let pushed = self.stream.push(&self.chunk)?;
            let now = js_sys::Date::now();
            // The list read now (held with `hold_ms`), or a held one whose time is up.
            let listing = match pushed {
                Some(listing) if self.hold_ms > 0.0 && self.shown.is_none() => {
                    self.held = Some((listing, now));
                    None
                }
                listing => listing.or_else(|| {
                    let hold_ms = self.hold_ms;
                    self.held.take_if(|(_, since)| now - *since >= hold_ms).map(|(listing, _)| listing)
                }),
            };
            if let (Some(listing), Some(early)) = (listing, self.early) {
                hand(listing, &mut self.shown, early, &self.source, self.input).await;
                self.slice = js_sys::Date::now();
            } else if now - self.slice > READ_SLICE_MS {
                // Reading goes on in the same task for at most a slice before the page (and the
                // download) gets a turn.
                crate::modules::next_task().await;
                self.slice = js_sys::Date::now();
            }
        }
        Ok(())
    }

    /// The whole document, which the arriving one shown takes. A list still held is not
    /// shown: the whole document is.
    async fn finish(self) -> Result<Loaded, DocumentError> {
        drop(self.held);
        let mut loaded = match self.stream.finish()? {
            Streamed::Json(read) => Loaded::from_read(read, self.source, None).await?,
            Streamed::Yaml(bytes) => Loaded::parse(bytes, self.source).await?,
        };
        loaded.reread = Some(self.input.clone());
        if let Some(arriving) = self.shown {
            arriving.arrive(loaded.value.clone());
        }
        Ok(loaded)
    }
}

/// Hands a list to `early`: the first one (the page then paints it before the reading goes
/// on), or, after the first rows, the whole list of `paths` (the same arriving document).
async fn hand(
    listing: Listing,
    shown: &mut Option<Arc<Arriving>>,
    early: &dyn Fn(Loaded),
    source: &Source,
    input: &Input,
) {
    let first = shown.is_none();
    let value = shown.get_or_insert_with(|| Arc::new(Arriving::new(listing.root)));
    early(Loaded {
        value: AnyDocument::Arriving(Arc::clone(value)),
        catalog: listing.catalog,
        source: source.clone(),
        converted: None,
        original: None,
        reread: Some(input.clone()),
    });
    if first {
        crate::modules::after_paint().await;
    }
}
