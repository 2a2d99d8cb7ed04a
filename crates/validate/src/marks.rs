//! What the schemas applied to one object or list evaluated, for `unevaluatedProperties` and
//! `unevaluatedItems`: JSON Schema 2020-12's annotations, kept only while some schema of the
//! value has one of the two. A schema's marks join those of the schema that applied it in place
//! (`allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`, `$ref`, `$dynamicRef`)
//! when it passes, and never from `not`; a failed branch's are dropped.

use serde_json::Value;

/// The fields and items of one value evaluated so far.
#[derive(Debug)]
pub(crate) struct Marks {
    /// The value they are about (a part of the checked value, compared by address).
    of: *const Value,
    /// Sorted.
    fields: Vec<String>,
    all_fields: bool,
    /// Items `0..items` are evaluated.
    items: usize,
    all_items: bool,
    /// Items evaluated one by one (`contains`).
    /// Sorted.
    picked: Vec<usize>,
}

impl Marks {
    pub fn of(value: &Value) -> Self {
        Self {
            of: std::ptr::from_ref(value),
            fields: Vec::new(),
            all_fields: false,
            items: 0,
            all_items: false,
            picked: Vec::new(),
        }
    }

    pub fn is_of(&self, value: &Value) -> bool {
        std::ptr::eq(self.of, value)
    }

    pub fn field(&mut self, name: &str) {
        if self.all_fields {
            return;
        }
        if let Err(at) = self.fields.binary_search_by(|f| f.as_str().cmp(name)) {
            self.fields.insert(at, name.to_owned());
        }
    }

    pub fn all_fields(&mut self) {
        self.all_fields = true;
        self.fields.clear();
    }

    pub fn has_field(&self, name: &str) -> bool {
        self.all_fields || self.fields.binary_search_by(|f| f.as_str().cmp(name)).is_ok()
    }

    pub fn items_up_to(&mut self, count: usize) {
        self.items = self.items.max(count);
    }

    pub fn all_items(&mut self) {
        self.all_items = true;
    }

    pub fn item(&mut self, index: usize) {
        if let Err(at) = self.picked.binary_search(&index) {
            self.picked.insert(at, index);
        }
    }

    pub fn has_item(&self, index: usize) -> bool {
        self.all_items || index < self.items || self.picked.binary_search(&index).is_ok()
    }

    /// Adds what `other` (of the same value) evaluated.
    pub fn join(&mut self, other: Self) {
        if other.all_fields {
            self.all_fields();
        } else if !self.all_fields {
            other.fields.iter().for_each(|f| self.field(f));
        }
        self.items = self.items.max(other.items);
        self.all_items |= other.all_items;
        other.picked.into_iter().for_each(|i| self.item(i));
    }
}
