//! [`Table`]: the records of one kind by id, remembering which ids changed since a storage last
//! asked, so that a save writes those records only.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Deref;

/// Records by id. Reads go through `Deref` to the map; every change goes through the methods
/// below, which note the id.
#[derive(Debug, Clone)]
pub(crate) struct Table<V> {
    rows: BTreeMap<i64, V>,
    changed: BTreeSet<i64>,
}

impl<V> Default for Table<V> {
    fn default() -> Self {
        Self { rows: BTreeMap::new(), changed: BTreeSet::new() }
    }
}

impl<V: PartialEq> PartialEq for Table<V> {
    /// Two tables are equal when they hold the same records, whatever changed in each.
    fn eq(&self, other: &Self) -> bool {
        self.rows == other.rows
    }
}

impl<V: Eq> Eq for Table<V> {}

impl<V> Deref for Table<V> {
    type Target = BTreeMap<i64, V>;

    fn deref(&self) -> &Self::Target {
        &self.rows
    }
}

impl<'a, V> IntoIterator for &'a Table<V> {
    type Item = (&'a i64, &'a V);
    type IntoIter = std::collections::btree_map::Iter<'a, i64, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.rows.iter()
    }
}

impl<V> Table<V> {
    pub(crate) fn insert(&mut self, id: i64, value: V) -> Option<V> {
        self.changed.insert(id);
        self.rows.insert(id, value)
    }

    pub(crate) fn remove(&mut self, id: &i64) -> Option<V> {
        let old = self.rows.remove(id);
        if old.is_some() {
            self.changed.insert(*id);
        }
        old
    }

    pub(crate) fn get_mut(&mut self, id: &i64) -> Option<&mut V> {
        let row = self.rows.get_mut(id);
        if row.is_some() {
            self.changed.insert(*id);
        }
        row
    }

    /// The ids changed since the last call, each with its record now (`None`: removed).
    pub(crate) fn take_changed(&mut self) -> impl Iterator<Item = (i64, Option<&V>)> {
        let changed = std::mem::take(&mut self.changed);
        changed.into_iter().map(|id| (id, self.rows.get(&id)))
    }

    /// Forgets what changed (the storage holds these records already).
    pub(crate) fn mark_saved(&mut self) {
        self.changed.clear();
    }
}
