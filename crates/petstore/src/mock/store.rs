//! The mock's state, its invariants, the demo seed, and the versioned snapshot format.

use serde::{Deserialize, Serialize};

use super::SnapshotError;
use super::table::Table;
use crate::error::{ApiError, ErrorCode};
use crate::model::{Category, InventoryItem, Pet, PetStatus};
use playground_mock::records::{Changes, META_KEY, Record, text_of};

/// The snapshot format this mock writes and reads.
pub const SNAPSHOT_VERSION: u64 = 1;
/// The largest id the mock gives out: 2^53 - 1, the largest integer JavaScript (a frontend's
/// `JSON.parse`, this project's own JS module) reads exactly. A kind whose next id is past it
/// is full: creating one more is refused with `ids_exhausted`, never wrapped around.
pub const MAX_ID: i64 = (1 << 53) - 1;
/// Largest stock of one pet (the document's `InventoryItem.quantity.maximum`).
pub(crate) const MAX_STOCK: i32 = 1_000_000;

/// An order as stored: every field known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct StoredOrder {
    pub id: i64,
    pub pet_id: i64,
    pub quantity: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ship_date: Option<String>,
    pub complete: bool,
}

/// The next id of each kind: ids only grow, so a deleted id is never reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct NextIds {
    pub category: i64,
    pub pet: i64,
    pub order: i64,
}

impl Default for NextIds {
    fn default() -> Self {
        Self { category: 1, pet: 1, order: 1 }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Store {
    pub categories: Table<Category>,
    pub pets: Table<Pet>,
    pub orders: Table<StoredOrder>,
    /// Units in stock per pet; every pet has an entry.
    pub stock: Table<i32>,
    pub next: NextIds,
    /// The next ids as a storage last took them (`None`: never).
    saved_next: Option<NextIds>,
}

/// The record of the format version and the next ids.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Meta {
    version: u64,
    next_ids: NextIds,
}

// The records' key prefixes (the kind, a colon, the id).
const CATEGORY: &str = "category:";
const PET: &str = "pet:";
const ORDER: &str = "order:";
const STOCK: &str = "stock:";

/// The stored form of the state: read into owned records, written from borrowed ones (a save
/// copies no record).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Snapshot<C = Vec<Category>, P = Vec<Pet>, O = Vec<StoredOrder>> {
    version: u64,
    next_ids: NextIds,
    categories: C,
    pets: P,
    orders: O,
    stock: Vec<StockEntry>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StockEntry {
    pet_id: i64,
    quantity: i32,
}

impl Store {
    /// The next id of a kind (`kind`: "pet", ... for the message), and the counter moved on;
    /// `ids_exhausted` when the kind is full (the counter then stays where it is).
    pub(crate) fn take_id(next: &mut i64, kind: &str) -> Result<i64, ApiError> {
        let id = *next;
        if !(1..=MAX_ID).contains(&id) {
            return Err(ApiError::new(
                ErrorCode::IdsExhausted,
                format!(
                    "The mock has given out every {kind} id up to {MAX_ID}, the largest JavaScript reads \
                     exactly; reset the mock to start again."
                ),
            ));
        }
        *next = id + 1;
        Ok(id)
    }

    pub(crate) fn add_category(&mut self, name: &str, description: Option<&str>) -> Result<i64, ApiError> {
        let id = Self::take_id(&mut self.next.category, "category")?;
        let description = description.map(str::to_owned);
        self.categories.insert(id, Category { id, name: name.to_owned(), description });
        Ok(id)
    }

    pub(crate) fn add_pet(
        &mut self,
        name: &str,
        category_id: i64,
        status: PetStatus,
        stock: i32,
    ) -> Result<i64, ApiError> {
        let id = Self::take_id(&mut self.next.pet, "pet")?;
        self.pets.insert(id, Pet { id, name: name.to_owned(), category_id, status });
        self.stock.insert(id, stock);
        Ok(id)
    }

    /// Demo data: three categories, six pets with stock.
    pub(crate) fn seeded() -> Self {
        let mut s = Store::default();
        // An empty store is far from full: these never fail, and nothing is added if one did.
        let _ = s.seed();
        s
    }

    fn seed(&mut self) -> Result<(), ApiError> {
        let dogs = self.add_category("Dogs", Some("Loyal and loud."))?;
        let cats = self.add_category("Cats", Some("Independent and curious."))?;
        let birds = self.add_category("Birds", Some("They sing."))?;
        self.add_pet("Rex", dogs, PetStatus::Available, 5)?;
        self.add_pet("Bella", dogs, PetStatus::Available, 3)?;
        self.add_pet("Tom", cats, PetStatus::Available, 2)?;
        self.add_pet("Luna", cats, PetStatus::Sold, 0)?;
        self.add_pet("Tweety", birds, PetStatus::Available, 10)?;
        self.add_pet("Kiwi", birds, PetStatus::Available, 0)?;
        Ok(())
    }

    pub(crate) fn inventory_item(&self, pet: &Pet) -> InventoryItem {
        InventoryItem {
            pet_id: pet.id,
            quantity: self.stock.get(&pet.id).copied().unwrap_or(0),
            status: pet.status,
        }
    }

    /// The open order of a pet, if any.
    pub(crate) fn open_order_of(&self, pet_id: i64) -> Option<&StoredOrder> {
        self.orders.values().find(|o| o.pet_id == pet_id && !o.complete)
    }

    /// Units of a pet held by its open orders.
    pub(crate) fn held_by_open_orders(&self, pet_id: i64) -> i64 {
        self.orders
            .values()
            .filter(|o| o.pet_id == pet_id && !o.complete)
            .map(|o| i64::from(o.quantity))
            .sum()
    }

    /// Checks every invariant; the message names the first one broken.
    pub(crate) fn check(&self) -> Result<(), String> {
        let max_id = |ids: &mut dyn Iterator<Item = i64>| ids.max().unwrap_or(0);
        for (kind, next, max) in [
            ("category", self.next.category, max_id(&mut self.categories.keys().copied())),
            ("pet", self.next.pet, max_id(&mut self.pets.keys().copied())),
            ("order", self.next.order, max_id(&mut self.orders.keys().copied())),
        ] {
            if next > MAX_ID + 1 {
                return Err(format!(
                    "the next {kind} id is {next}, past {MAX_ID}, the largest id the mock gives out (the \
                     largest integer JavaScript reads exactly)"
                ));
            }
            if next <= max || next < 1 {
                return Err(format!("the next {kind} id is {next}, but ids up to {max} are taken"));
            }
        }
        for (id, c) in &self.categories {
            if *id != c.id || *id < 1 {
                return Err(format!("category {id} is stored with id {}", c.id));
            }
            check_name(&c.name).map_err(|e| format!("category {id}: {e}"))?;
            if c.description.as_ref().is_some_and(|d| d.chars().count() > 1000) {
                return Err(format!("category {id}: the description is longer than 1000 characters"));
            }
        }
        let mut names: Vec<String> = self.categories.values().map(|c| c.name.to_lowercase()).collect();
        names.sort();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("two categories are named {:?}", w[0]));
        }
        for (id, p) in &self.pets {
            if *id != p.id || *id < 1 {
                return Err(format!("pet {id} is stored with id {}", p.id));
            }
            check_name(&p.name).map_err(|e| format!("pet {id}: {e}"))?;
            if !self.categories.contains_key(&p.category_id) {
                return Err(format!("pet {id} belongs to category {}, which does not exist", p.category_id));
            }
            match self.stock.get(id) {
                None => return Err(format!("pet {id} has no stock entry")),
                Some(q) if !(0..=MAX_STOCK).contains(q) => {
                    return Err(format!("pet {id} has a stock of {q}, outside 0..={MAX_STOCK}"));
                }
                Some(_) => {}
            }
            let open = self.orders.values().filter(|o| o.pet_id == *id && !o.complete).count();
            if open > 1 {
                return Err(format!("pet {id} has {open} open orders"));
            }
            if open == 1 && p.status != PetStatus::Pending {
                return Err(format!("pet {id} has an open order but is {}", p.status));
            }
            if i64::from(self.stock[id]) + self.held_by_open_orders(*id) > i64::from(MAX_STOCK) {
                return Err(format!("pet {id} has more than {MAX_STOCK} units with its open orders"));
            }
        }
        if let Some(pet_id) = self.stock.keys().find(|id| !self.pets.contains_key(id)) {
            return Err(format!("there is stock for pet {pet_id}, which does not exist"));
        }
        for (id, o) in &self.orders {
            if *id != o.id || *id < 1 {
                return Err(format!("order {id} is stored with id {}", o.id));
            }
            if !self.pets.contains_key(&o.pet_id) {
                return Err(format!("order {id} is for pet {}, which does not exist", o.pet_id));
            }
            if !(1..=1000).contains(&o.quantity) {
                return Err(format!("order {id} has a quantity of {}, outside 1..=1000", o.quantity));
            }
        }
        Ok(())
    }

    pub(crate) fn snapshot(&self) -> String {
        let snapshot = Snapshot {
            version: SNAPSHOT_VERSION,
            next_ids: self.next,
            categories: self.categories.values().collect::<Vec<_>>(),
            pets: self.pets.values().collect::<Vec<_>>(),
            orders: self.orders.values().collect::<Vec<_>>(),
            stock: self.stock.iter().map(|(&pet_id, &quantity)| StockEntry { pet_id, quantity }).collect(),
        };
        serde_json::to_string(&snapshot).unwrap_or_default()
    }

    pub(crate) fn from_snapshot(text: &str) -> Result<Self, SnapshotError> {
        // Read the version first, so a newer format is named as such rather than as malformed.
        #[derive(Deserialize)]
        struct Version {
            version: Option<u64>,
        }
        let version: Version =
            serde_json::from_str(text).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        check_version(version.version)?;
        let s: Snapshot = serde_json::from_str(text).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        Self::from_parsed(s)
    }

    fn from_parsed(s: Snapshot) -> Result<Self, SnapshotError> {
        let mut store = Store { next: s.next_ids, ..Store::default() };
        for c in s.categories {
            if store.categories.insert(c.id, c.clone()).is_some() {
                return Err(SnapshotError::Inconsistent(format!("category {} appears twice", c.id)));
            }
        }
        for p in s.pets {
            if store.pets.insert(p.id, p.clone()).is_some() {
                return Err(SnapshotError::Inconsistent(format!("pet {} appears twice", p.id)));
            }
        }
        for o in s.orders {
            if store.orders.insert(o.id, o.clone()).is_some() {
                return Err(SnapshotError::Inconsistent(format!("order {} appears twice", o.id)));
            }
        }
        for e in s.stock {
            if store.stock.insert(e.pet_id, e.quantity).is_some() {
                return Err(SnapshotError::Inconsistent(format!(
                    "the stock of pet {} appears twice",
                    e.pet_id
                )));
            }
        }
        store.check().map_err(SnapshotError::Inconsistent)?;
        Ok(store)
    }

    /// The whole state as records: `meta` (version and next ids), then one per category, pet,
    /// stock entry and order.
    pub(crate) fn records(&self) -> Vec<Record> {
        let mut records =
            Vec::with_capacity(1 + self.categories.len() + 2 * self.pets.len() + self.orders.len());
        records.push((META_KEY.to_owned(), self.meta_text()));
        records.extend(self.categories.iter().map(|(id, c)| (format!("{CATEGORY}{id}"), text_of(c))));
        records.extend(self.pets.iter().map(|(id, p)| (format!("{PET}{id}"), text_of(p))));
        records.extend(self.stock.iter().map(|(id, q)| (format!("{STOCK}{id}"), q.to_string())));
        records.extend(self.orders.iter().map(|(id, o)| (format!("{ORDER}{id}"), text_of(o))));
        records
    }

    /// The records changed since the last call.
    pub(crate) fn take_changes(&mut self) -> Changes {
        let mut changes = Vec::new();
        if self.saved_next != Some(self.next) {
            self.saved_next = Some(self.next);
            changes.push((META_KEY.to_owned(), Some(self.meta_text())));
        }
        changes.extend(
            self.categories.take_changed().map(|(id, c)| (format!("{CATEGORY}{id}"), c.map(text_of))),
        );
        changes.extend(self.pets.take_changed().map(|(id, p)| (format!("{PET}{id}"), p.map(text_of))));
        changes
            .extend(self.stock.take_changed().map(|(id, q)| (format!("{STOCK}{id}"), q.map(i32::to_string))));
        changes.extend(self.orders.take_changed().map(|(id, o)| (format!("{ORDER}{id}"), o.map(text_of))));
        Changes::Records(changes)
    }

    /// Forgets what changed: a storage holds this state already.
    pub(crate) fn mark_saved(&mut self) {
        self.saved_next = Some(self.next);
        self.categories.mark_saved();
        self.pets.mark_saved();
        self.stock.mark_saved();
        self.orders.mark_saved();
    }

    /// Reads the records [`Store::records`] writes, in any order, with a snapshot's checks.
    pub(crate) fn from_records(records: Vec<Record>) -> Result<Self, SnapshotError> {
        fn read<T: serde::de::DeserializeOwned>(key: &str, text: &str) -> Result<T, SnapshotError> {
            serde_json::from_str(text)
                .map_err(|e| SnapshotError::Malformed(format!("the record {key:?}: {e}")))
        }
        let mut meta = None;
        let mut s = Snapshot {
            version: SNAPSHOT_VERSION,
            next_ids: NextIds::default(),
            categories: Vec::new(),
            pets: Vec::new(),
            orders: Vec::new(),
            stock: Vec::new(),
        };
        for (key, text) in &records {
            if key == META_KEY {
                let value: serde_json::Value = read(key, text)?;
                check_version(value.get("version").and_then(serde_json::Value::as_u64))?;
                meta = Some(read::<Meta>(key, text)?);
                continue;
            }
            let (kind, id) =
                key.split_once(':').and_then(|(kind, id)| Some((kind, id.parse::<i64>().ok()?))).ok_or_else(
                    || SnapshotError::Malformed(format!("the record {key:?} is not one of the Petstore's")),
                )?;
            // A record's key and its id must agree, or a later write would leave the old one behind.
            let held = match kind {
                "category" => push(&mut s.categories, read(key, text)?, |c: &Category| c.id),
                "pet" => push(&mut s.pets, read(key, text)?, |p: &Pet| p.id),
                "order" => push(&mut s.orders, read(key, text)?, |o: &StoredOrder| o.id),
                "stock" => {
                    s.stock.push(StockEntry { pet_id: id, quantity: read(key, text)? });
                    id
                }
                _ => {
                    return Err(SnapshotError::Malformed(format!(
                        "the record {key:?} is not one of the Petstore's"
                    )));
                }
            };
            if held != id {
                return Err(SnapshotError::Inconsistent(format!("the record {key:?} holds id {held}")));
            }
        }
        let Some(meta) = meta else {
            return Err(SnapshotError::Malformed("the records have no meta record".to_owned()));
        };
        s.next_ids = meta.next_ids;
        let mut store = Self::from_parsed(s)?;
        store.mark_saved();
        Ok(store)
    }

    fn meta_text(&self) -> String {
        text_of(&Meta { version: SNAPSHOT_VERSION, next_ids: self.next })
    }
}

/// Adds a record read back to its list; returns the id it holds.
fn push<T>(list: &mut Vec<T>, record: T, id: impl Fn(&T) -> i64) -> i64 {
    let held = id(&record);
    list.push(record);
    held
}

/// Refuses another version than this mock's, naming it; a missing version is malformed.
fn check_version(version: Option<u64>) -> Result<(), SnapshotError> {
    match version {
        Some(SNAPSHOT_VERSION) => Ok(()),
        Some(found) => Err(SnapshotError::UnsupportedVersion { found, expected: SNAPSHOT_VERSION }),
        None => Err(SnapshotError::Malformed("it has no version field".into())),
    }
}

/// Names are 1..=100 characters with no leading or trailing spaces (they are trimmed).
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    let len = name.chars().count();
    if name.trim() != name || !(1..=100).contains(&len) {
        return Err(format!("the name {name:?} is not 1 to 100 characters without surrounding spaces"));
    }
    Ok(())
}
