//! Descriptions kept in many files: relative `$ref`s (`schemas/Pet.yaml`,
//! `../common.yaml#/components/responses/NotFound`) followed into the files they name, and the
//! whole bundled into one document whose references are all local.
//!
//! No input or output happens here: a [`Bundler`] says which files it wants
//! ([`Bundler::wanted`]), its caller reads them (the page fetches them, the command line reads
//! the disk) and hands them over ([`Bundler::provide`]), until nothing more is wanted; then
//! [`Bundler::finish`] writes the one document. Addresses are joined by the caller's function
//! (a URL's rules, or a path's), so this crate needs no URL parser.
//!
//! A value from another file goes where a value of its kind is kept (a schema to
//! `components/schemas`, a 2.0 schema to `definitions`), under a name made from the file or the
//! pointer, and its reference points there: a schema referred to from many places is kept once,
//! and a schema that refers to itself stays a loop of references rather than an endless copy.
//! Whatever has no such place (an operation, a path item in 3.0, a media type, any place the
//! specification does not allow a reference and real documents put one anyway) is copied where
//! the reference stands. A reference that cannot be followed (a file missing or unreadable, a
//! pointer to nothing, a loop of copies, a limit passed) stays as it was, with
//! [`UNRESOLVED`] beside it saying why, and is listed in [`Bundled::problems`]: the rest of the
//! document is still there.
//!
//! The files wanted are found as the document will be written: each part of a file a reference
//! reaches is looked through with the kind of value it is where the reference stands (a
//! response, a schema, an example...), by the same rules ([`Kind::child`]) the writer follows,
//! so every reference the writer follows names a file read, and what the writer keeps as data
//! (an example's value, a schema's `default`) is not read. A key is data only by its place:
//! `default` under `responses` is a response, under a schema a value.

mod kind;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet, VecDeque};

use serde_json::{Map, Value};

use crate::pointer::{encode_fragment as encode_pointer, escape_segment, unescape_segment};
use kind::{Dialect, Kind};

/// The member set beside a reference that could not be followed, saying why (kept with the
/// pointers, whose `resolve` gives it as its error).
pub use crate::pointer::UNRESOLVED;

/// How far a bundle may go: each is a description's doing, so each is bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Files read, the root included.
    pub files: usize,
    /// Bytes read over all files.
    pub bytes: u64,
    /// References copied inside each other (a chain of inlined values).
    pub depth: usize,
}

impl Default for Limits {
    /// 10,000 files (DigitalOcean's public description has about 2,900), 256 MiB, 64 deep.
    fn default() -> Self {
        Self { files: 10_000, bytes: 256 << 20, depth: 64 }
    }
}

/// Joins a reference's file part (`schemas/Pet.yaml`) to the address of the file it stands in,
/// giving the address of the file it names; an `Err` says why it cannot be read (an address
/// the caller does not read, for example).
pub type Join = fn(base: &str, reference: &str) -> Result<String, String>;

/// A reference that could not be followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where the reference stands in the bundled document (a JSON pointer).
    pub at: String,
    /// The reference as written.
    pub reference: String,
    /// The file it stands in.
    pub file: String,
    /// Where it stands in that file (a JSON pointer).
    pub in_file: String,
    /// Why it was not followed.
    pub reason: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.in_file.is_empty() { "/" } else { &self.in_file };
        write!(f, "{} at {at}: the reference {} {}", self.file, self.reference, self.reason)
    }
}

/// The one document a bundle made.
#[derive(Debug, Clone)]
pub struct Bundled {
    /// The document, every followed reference local.
    pub document: Value,
    /// The references not followed, in document order.
    pub problems: Vec<Problem>,
    /// The addresses of the files read, the root first.
    pub files: Vec<String>,
}

/// A file: wanted, read, or why it could not be.
#[derive(Debug)]
enum Slot {
    Wanted,
    Read(Value),
    Failed(String),
}

/// A part of a file to look through: the file's address, the JSON pointer of the part, and the
/// kind the writer writes it as (what the references in it are depends on it).
type Part = (String, String, Kind);

/// Bundles a description from its root file and the files its references name. See the
/// module's documentation.
#[derive(Debug)]
pub struct Bundler {
    root: String,
    join: Join,
    limits: Limits,
    /// The root's dialect, which places some kinds (a 2.0 parameter's `items` is a schema).
    dialect: Dialect,
    files: HashMap<String, Slot>,
    /// The addresses of `files`, in the order they were first named.
    order: Vec<String>,
    /// Addresses wanted and not yet handed back by [`Bundler::wanted`].
    new_wants: Vec<String>,
    /// Parts of files to look through for references, once their file is read.
    pending: VecDeque<Part>,
    /// Parts already looked through.
    scanned: HashSet<Part>,
    bytes: u64,
}

impl Bundler {
    /// A bundle of the description whose root file, at `address`, reads as `root` (`bytes` long).
    #[must_use]
    pub fn new(address: &str, root: Value, bytes: u64, join: Join, limits: Limits) -> Self {
        let dialect = Dialect::of(&root);
        let mut files = HashMap::new();
        files.insert(address.to_owned(), Slot::Read(root));
        let mut bundler = Self {
            root: address.to_owned(),
            join,
            limits,
            dialect,
            files,
            order: vec![address.to_owned()],
            new_wants: Vec::new(),
            pending: VecDeque::from([(address.to_owned(), String::new(), Kind::Root)]),
            scanned: HashSet::new(),
            bytes,
        };
        bundler.scan_pending();
        bundler
    }

    /// The addresses of the files to read next, each asked for once; call it again once each
    /// has been handed over with [`Bundler::provide`]. None when the bundle has every file it
    /// can have and [`Bundler::finish`] may be called.
    pub fn wanted(&mut self) -> Vec<String> {
        self.scan_pending();
        std::mem::take(&mut self.new_wants)
    }

    /// Hands over the file at `address`, exactly as [`Bundler::wanted`] gave it: its value,
    /// `bytes` long, or why it could not be read. A file not asked for, or handed over already,
    /// is ignored: the bundle reads only what it asked for, each file once, within its limits.
    pub fn provide(&mut self, address: &str, read: Result<Value, String>, bytes: u64) {
        let Some(slot @ Slot::Wanted) = self.files.get_mut(address) else { return };
        self.bytes = self.bytes.saturating_add(bytes);
        *slot = match read {
            _ if self.bytes > self.limits.bytes => Slot::Failed(format!(
                "was not read: the description's files together pass the limit of {}",
                size(self.limits.bytes)
            )),
            Ok(value) => Slot::Read(value),
            Err(reason) => Slot::Failed(reason),
        };
    }

    /// Looks through the parts of read files that references reach, asking for the files their
    /// references name.
    fn scan_pending(&mut self) {
        let mut waiting = VecDeque::new();
        while let Some(part) = self.pending.pop_front() {
            if self.scanned.contains(&part) {
                continue;
            }
            let (file, pointer, kind) = &part;
            let found = match self.files.get(file) {
                Some(Slot::Read(value)) => match value.pointer(pointer) {
                    Some(value) => references(value, *kind, self.dialect),
                    None => continue,
                },
                Some(Slot::Wanted) => {
                    waiting.push_back(part);
                    continue;
                }
                Some(Slot::Failed(_)) | None => continue,
            };
            for (reference, kind) in found {
                // As the writer does: a reference within the root, or back into it, stays local
                // (the root is looked through whole, each part with the kind of its place).
                if *file == self.root && reference.starts_with('#') {
                    continue;
                }
                let Ok((target, pointer)) = self.target(file, &reference) else { continue };
                if target == self.root {
                    continue;
                }
                self.want(&target);
                self.pending.push_back((target, pointer, kind));
            }
            self.scanned.insert(part);
        }
        self.pending = waiting;
    }

    /// Asks for the file at `address` unless it was asked for already, or refuses it when the
    /// bundle has as many files as it may.
    fn want(&mut self, address: &str) {
        if self.files.contains_key(address) {
            return;
        }
        let slot = if self.files.len() >= self.limits.files {
            Slot::Failed(format!(
                "was not read: the description has more files than the limit of {}",
                self.limits.files
            ))
        } else {
            self.new_wants.push(address.to_owned());
            self.order.push(address.to_owned());
            Slot::Wanted
        };
        self.files.insert(address.to_owned(), slot);
    }

    /// The file and JSON pointer a reference standing in `file` names.
    fn target(&self, file: &str, reference: &str) -> Result<(String, String), String> {
        let (path, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let target = if path.is_empty() { file.to_owned() } else { (self.join)(file, path)? };
        let pointer = percent_encoding::percent_decode_str(fragment).decode_utf8_lossy().into_owned();
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return Err(format!("has the fragment #{fragment}, which is not a JSON pointer"));
        }
        Ok((target, pointer))
    }

    /// The one document: see the module's documentation.
    #[must_use]
    pub fn finish(self) -> Bundled {
        let files = (self.order.iter())
            .filter(|address| matches!(self.files.get(*address), Some(Slot::Read(_))))
            .cloned()
            .collect();
        let root = match self.files.get(&self.root) {
            Some(Slot::Read(value)) => value.clone(),
            _ => Value::Null,
        };
        let dialect = Dialect::of(&root);
        let mut writer = Writer {
            bundler: &self,
            dialect,
            hoisted: HashMap::new(),
            taken: taken_names(&root, dialect),
            sections: Vec::new(),
            inlining: Vec::new(),
            problems: Vec::new(),
        };
        let mut document = writer.write(&root, &self.root, Kind::Root, Place::default(), 0);
        let Writer { sections, problems, .. } = writer;
        for (section, name, value) in sections {
            place(&mut document, section, name, value);
        }
        Bundled { document, problems, files }
    }
}

/// Whether a description has references to other files (a `$ref` whose value does not start
/// with `#`, where a reference is followed), that is, whether it needs a [`Bundler`].
#[must_use]
pub fn refers_to_other_files(value: &Value) -> bool {
    references(value, Kind::Root, Dialect::of(value)).iter().any(|(reference, _)| !reference.starts_with('#'))
}

/// A size limit in words: `256 MiB`, or bytes below one MiB.
fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 { format!("{} MiB", bytes >> 20) } else { format!("{bytes} bytes") }
}

/// Whether a JSON text may have references to other files: a `"$ref"` member whose string does
/// not start with `#`. Reads the bytes only (no parse), so a large document costs one pass; a
/// `false` is certain, a `true` is checked on the parsed value ([`refers_to_other_files`]).
#[must_use]
pub fn text_may_refer_to_other_files(json: &str) -> bool {
    const KEY: &str = "\"$ref\"";
    let mut rest = json;
    // `str::find` of the key (a two-way search, which skips by the key's bytes), where
    // comparing the whole key at every byte took 34 ms of the page's time for Stripe's 2.5 MB.
    while let Some(at) = rest.find(KEY) {
        rest = &rest[at + KEY.len()..];
        let mut after = rest.bytes().skip_while(u8::is_ascii_whitespace);
        if after.next() != Some(b':') {
            continue;
        }
        let mut after = after.skip_while(u8::is_ascii_whitespace);
        if after.next() == Some(b'"') && after.next() != Some(b'#') {
            return true;
        }
    }
    false
}

/// The references the writer follows in `value`, a value of `kind`, in document order: each
/// `$ref` string with the kind of the value it stands for. The walk is the writer's
/// ([`Writer::write`]): members by [`Kind::child`], items by [`Kind::item`], nothing in data
/// ([`Kind::Literal`]: an example's value, a schema's `default`, `enum` or `const`).
fn references(value: &Value, kind: Kind, dialect: Dialect) -> Vec<(String, Kind)> {
    let mut found = Vec::new();
    let mut stack = vec![(value, kind)];
    while let Some((value, kind)) = stack.pop() {
        if kind == Kind::Literal {
            continue;
        }
        match value {
            Value::Object(map) => {
                let reference = match map.get("$ref") {
                    Some(Value::String(reference)) => {
                        found.push((reference.clone(), kind));
                        true
                    }
                    _ => false,
                };
                for (key, child) in map.iter().rev() {
                    if !(reference && key == "$ref") {
                        stack.push((child, kind.child(key, dialect)));
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter().rev().map(|item| (item, kind.item()))),
            _ => {}
        }
    }
    found
}

/// The names already used in the root's sections, so a hoisted value does not take one.
fn taken_names(root: &Value, dialect: Dialect) -> HashSet<(&'static str, String)> {
    let mut taken = HashSet::new();
    let kinds = [
        Kind::Schema,
        Kind::Parameter,
        Kind::Response,
        Kind::RequestBody,
        Kind::Header,
        Kind::Example,
        Kind::Link,
        Kind::Callback,
        Kind::SecurityScheme,
    ];
    for kind in kinds {
        let Some(section) = kind.section(dialect) else { continue };
        if let Some(Value::Object(map)) = root.pointer(section) {
            taken.extend(map.keys().map(|name| (section, name.clone())));
        }
    }
    taken
}

/// Puts `value` at `section`/`name` of `document`, making the section's objects as needed.
fn place(document: &mut Value, section: &str, name: String, value: Value) {
    let mut at = document;
    for segment in section.split('/').skip(1) {
        let Value::Object(map) = at else { return };
        at = map.entry(segment.to_owned()).or_insert_with(|| Value::Object(Map::new()));
    }
    if let Value::Object(map) = at {
        map.insert(name, value);
    }
}

/// Writes the bundled document: one walk over the root, into the files references name.
struct Writer<'a> {
    bundler: &'a Bundler,
    dialect: Dialect,
    /// Each (section, file, pointer) hoisted, and its name in its section.
    hoisted: HashMap<(&'static str, String, String), String>,
    /// Names used per section.
    taken: HashSet<(&'static str, String)>,
    /// Hoisted values, to put in their sections at the end.
    sections: Vec<(&'static str, String, Value)>,
    /// The (file, pointer)s being copied inside each other, to tell a loop.
    inlining: Vec<(String, String)>,
    problems: Vec<Problem>,
}

/// How deep one walk may go into a value (values nest at most 128 deep as parsed, but copies
/// nest inside each other).
const MAX_NESTING: usize = 1024;

/// Where a value stands: in the bundled document, and in the file it comes from (JSON pointers).
#[derive(Debug, Clone, Default)]
struct Place {
    at: String,
    in_file: String,
}

impl Place {
    /// The place of the member `key` (or the item, for a number) of the value here.
    fn child(&self, key: &str) -> Self {
        let key = escape_segment(key);
        Self { at: format!("{}/{key}", self.at), in_file: format!("{}/{key}", self.in_file) }
    }
}

impl<'a> Writer<'a> {
    /// `value` (standing in `file`, of `kind`, at `place`) with its references followed.
    fn write(&mut self, value: &Value, file: &str, kind: Kind, place: Place, nesting: usize) -> Value {
        if nesting > MAX_NESTING {
            return value.clone();
        }
        match value {
            Value::Object(map) => {
                if kind != Kind::Literal
                    && let Some(Value::String(reference)) = map.get("$ref")
                {
                    return self.reference(map, reference, file, kind, &place, nesting);
                }
                Value::Object(self.members(map, file, kind, &place, nesting, false))
            }
            Value::Array(items) => Value::Array(
                (items.iter().enumerate())
                    .map(|(i, item)| {
                        self.write(item, file, kind.item(), place.child(&i.to_string()), nesting + 1)
                    })
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// The members of an object of `kind` (but `$ref` when `beside_ref`), written.
    fn members(
        &mut self,
        map: &Map<String, Value>,
        file: &str,
        kind: Kind,
        place: &Place,
        nesting: usize,
        beside_ref: bool,
    ) -> Map<String, Value> {
        let mut out = Map::with_capacity(map.len());
        for (key, child) in map.iter().filter(|(key, _)| !beside_ref || *key != "$ref") {
            let written =
                self.write(child, file, kind.child(key, self.dialect), place.child(key), nesting + 1);
            out.insert(key.clone(), written);
        }
        out
    }

    /// A `$ref` object: kept local, pointed at a hoisted value, replaced by a copy, or kept
    /// with why it could not be followed. The members beside `$ref` (3.1's summary and
    /// description, a schema's keywords) are kept.
    fn reference(
        &mut self,
        map: &Map<String, Value>,
        reference: &str,
        file: &str,
        kind: Kind,
        place: &Place,
        nesting: usize,
    ) -> Value {
        let bundler: &'a Bundler = self.bundler;
        let local = |writer: &mut Self, local: String| {
            let mut out = writer.members(map, file, kind, place, nesting, true);
            out.insert("$ref".to_owned(), Value::String(local));
            Value::Object(out)
        };
        if file == bundler.root && reference.starts_with('#') {
            return local(self, reference.to_owned());
        }
        let found = bundler.target(file, reference).and_then(|(target, pointer)| {
            let value = match bundler.files.get(&target) {
                Some(Slot::Read(value)) => value,
                Some(Slot::Failed(reason)) => return Err(reason.clone()),
                Some(Slot::Wanted) => {
                    return Err("was asked for and never handed over: the bundle was finished \
                        before every file it wanted was read"
                        .to_owned());
                }
                // The walk that asks for files is the writer's: it cannot miss one.
                None => return Err("was never asked for (a fault of the bundler)".to_owned()),
            };
            match value.pointer(&pointer) {
                Some(value) => Ok((target, pointer, value)),
                None => Err(format!("points to nothing: {target} has no #{pointer}")),
            }
        });
        let (target, pointer, value) = match found {
            Ok(found) => found,
            Err(reason) => return self.unresolved(map, reference, file, place, reason),
        };
        // Back into the root: a local reference.
        if target == bundler.root {
            return local(self, format!("#{}", encode_pointer(&pointer)));
        }
        let key = (target, pointer);
        if let Some(section) = kind.section(self.dialect) {
            // Per section: a value referred to as two kinds is kept in each one's section.
            let hoisted_key = (section, key.0.clone(), key.1.clone());
            let name = match self.hoisted.get(&hoisted_key) {
                Some(name) => name.clone(),
                None => {
                    let name = self.name(section, &key.0, &key.1);
                    // Named before it is written: a value that refers to itself finds its name.
                    self.hoisted.insert(hoisted_key, name.clone());
                    let at = format!("{section}/{}", escape_segment(&name));
                    let hoisted = Place { at, in_file: key.1.clone() };
                    let written = self.write(value, &key.0, kind, hoisted, nesting + 1);
                    self.sections.push((section, name.clone(), written));
                    name
                }
            };
            return local(self, format!("#{section}/{}", encode_pointer(&escape_segment(&name))));
        }
        if self.inlining.contains(&key) {
            let reason = "refers back to itself through copies of what has no section of its own".to_owned();
            return self.unresolved(map, reference, file, place, reason);
        }
        if self.inlining.len() >= bundler.limits.depth {
            let depth = bundler.limits.depth;
            let reason = format!("was not followed: more than {depth} references inside each other");
            return self.unresolved(map, reference, file, place, reason);
        }
        self.inlining.push(key.clone());
        let copied = Place { at: place.at.clone(), in_file: key.1.clone() };
        let written = self.write(value, &key.0, kind, copied, nesting + 1);
        self.inlining.pop();
        match written {
            Value::Object(mut copy) => {
                // The members beside the reference win over the copy's (3.1 overrides).
                copy.extend(self.members(map, file, kind, place, nesting, true));
                Value::Object(copy)
            }
            other => other,
        }
    }

    /// A reference kept as written, with why it was not followed beside it.
    fn unresolved(
        &mut self,
        map: &Map<String, Value>,
        reference: &str,
        file: &str,
        place: &Place,
        reason: String,
    ) -> Value {
        let mut out = map.clone();
        out.insert(UNRESOLVED.to_owned(), Value::String(format!("{reference} {reason}")));
        self.problems.push(Problem {
            at: place.at.clone(),
            reference: reference.to_owned(),
            file: file.to_owned(),
            in_file: place.in_file.clone(),
            reason,
        });
        Value::Object(out)
    }

    /// A free name in `section` for the value at `pointer` of `file`: the pointer's last part, or
    /// the file's name without its extension; made of letters, digits, `.`, `-` and `_` (as
    /// OpenAPI's component names must be), with `-2`, `-3`... when taken.
    fn name(&mut self, section: &'static str, file: &str, pointer: &str) -> String {
        let from_pointer = pointer.rsplit('/').next().filter(|last| !last.is_empty()).map(unescape_segment);
        let stem = || {
            let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
            let name = name.split(['?', '#']).next().unwrap_or(name);
            name.rsplit_once('.').map_or(name, |(stem, _)| stem).to_owned()
        };
        let raw = from_pointer.unwrap_or_else(stem);
        let mut base: String = (raw.chars())
            .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' })
            .take(100)
            .collect();
        if base.is_empty() {
            base.push_str("unnamed");
        }
        let mut name = base.clone();
        let mut n = 1;
        while self.taken.contains(&(section, name.clone())) {
            n += 1;
            name = format!("{base}-{n}");
        }
        self.taken.insert((section, name.clone()));
        name
    }
}
