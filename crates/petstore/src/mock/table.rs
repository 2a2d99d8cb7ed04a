//! [`Table`]: the records of one kind by id, remembering which ids changed since a storage last
//! asked, so that a save writes those records only.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Deref;

/// Records by id. Reads go through `Deref` to the map; every change goes through the methods
/// below, which note the id once a storage has asked for changes (a mock kept in memory only
/// notes nothing, so it never holds more than its records).
#[derive(Debug, Clone)]
pub(crate) struct Table<V> {
    rows: BTreeMap<i64, V>,
    /// `None` until a storage asks.
    changed: Option<BTreeSet<i64>>,
}

impl<V> Default for Table<V> {
    fn default() -> Self {
        Self { rows: BTreeMap::new(), changed: None }
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
        self.note(id);
        self.rows.insert(id, value)
    }

    pub(crate) fn remove(&mut self, id: &i64) -> Option<V> {
        let old = self.rows.remove(id);
        if old.is_some() {
            self.note(*id);
        }
        old
    }

    pub(crate) fn get_mut(&mut self, id: &i64) -> Option<&mut V> {
        if self.rows.contains_key(id) {
            self.note(*id);
        }
        self.rows.get_mut(id)
    }

    fn note(&mut self, id: i64) {
        if let Some(changed) = &mut self.changed {
            changed.insert(id);
        }
    }

    /// The ids changed since the last call, each with its record now (`None`: removed); from
    /// the first call on, changes are noted.
    pub(crate) fn take_changed(&mut self) -> impl Iterator<Item = (i64, Option<&V>)> {
        let changed = self.changed.replace(BTreeSet::new()).unwrap_or_default();
        changed.into_iter().map(|id| (id, self.rows.get(&id)))
    }

    /// Forgets what changed (the storage holds these records already), and notes changes from
    /// now on.
    pub(crate) fn mark_saved(&mut self) {
        self.changed = Some(BTreeSet::new());
    }
}

#[cfg(test)]
mod tests {
    use super::Table;

    #[test]
    fn changes_are_noted_only_once_a_storage_asks() {
        let mut table = Table::default();
        table.insert(1, "one");
        table.insert(2, "two");
        assert!(table.changed.is_none(), "a table kept in memory only notes nothing");
        assert_eq!(table.take_changed().count(), 0);
        table.insert(3, "three");
        table.remove(&1);
        *table.get_mut(&2).unwrap() = "deux";
        assert!(table.get_mut(&9).is_none());
        let changed: Vec<_> = table.take_changed().map(|(id, row)| (id, row.copied())).collect();
        assert_eq!(changed, [(1, None), (2, Some("deux")), (3, Some("three"))]);
        assert_eq!(table.take_changed().count(), 0);
    }
}
