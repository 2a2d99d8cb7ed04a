//! Wire models for every schema of `openapi/petstore.yaml`: camelCase JSON, int64 ids as `i64`.
//!
//! Request shapes (`NewPet`, `NewCategory`, `InventoryUpdate`, `Order`) refuse unknown fields,
//! as the document's `additionalProperties: false` says.

use serde::{Deserialize, Serialize};

/// Where a pet is in the store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PetStatus {
    /// Can be ordered.
    #[default]
    Available,
    /// Taken by an open order.
    Pending,
    /// Taken by a completed order.
    Sold,
}

impl PetStatus {
    /// Every status, in the document's order.
    pub const ALL: [PetStatus; 3] = [PetStatus::Available, PetStatus::Pending, PetStatus::Sold];

    /// The value as it appears on the wire.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            PetStatus::Available => "available",
            PetStatus::Pending => "pending",
            PetStatus::Sold => "sold",
        }
    }
}

impl std::fmt::Display for PetStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A pet as sent by a client (`POST /pets`, `PUT /pets/{petId}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewPet {
    /// The animal's name.
    pub name: String,
    /// The category the animal belongs to.
    pub category_id: i64,
    /// Defaults to `available` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<PetStatus>,
}

/// A pet in the store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Pet {
    /// Assigned on creation.
    pub id: i64,
    /// The animal's name.
    pub name: String,
    /// The category the animal belongs to.
    pub category_id: i64,
    /// Where the pet is in the store (`available` when a document leaves it out).
    #[serde(default)]
    pub status: PetStatus,
}

/// A list of pets.
pub type Pets = Vec<Pet>;

/// A category as sent by a client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewCategory {
    /// Unique, ignoring case.
    pub name: String,
    /// A short description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A kind of animal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Category {
    /// Assigned on creation.
    pub id: i64,
    /// Unique, ignoring case.
    pub name: String,
    /// A short description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// An order of a pet. Every field is optional on the wire, as the spec says; placing an order
/// needs `pet_id`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Order {
    /// Assigned by the store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// The pet ordered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pet_id: Option<i64>,
    /// Units ordered (1 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantity: Option<i32>,
    /// Expected or actual ship date, RFC 3339.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ship_date: Option<String>,
    /// Whether the order has been fulfilled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complete: Option<bool>,
}

/// The stock of one pet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InventoryItem {
    /// The pet this entry tracks.
    pub pet_id: i64,
    /// Units in stock.
    pub quantity: i32,
    /// The pet's status.
    pub status: PetStatus,
}

/// A new stock count (`PUT /store/inventory/{petId}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InventoryUpdate {
    /// The new stock count.
    pub quantity: i32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pet_round_trips_in_camel_case_with_full_int64_ids() {
        let pet = Pet { id: i64::MAX, name: "Rex".into(), category_id: 1, status: PetStatus::Sold };
        let wire = serde_json::to_value(&pet).unwrap();
        assert_eq!(
            wire,
            json!({"id": 9_223_372_036_854_775_807_i64, "name": "Rex", "categoryId": 1, "status": "sold"})
        );
        assert_eq!(serde_json::from_value::<Pet>(wire).unwrap(), pet);
    }

    #[test]
    fn request_shapes_refuse_unknown_fields() {
        let err = serde_json::from_value::<NewPet>(json!({"name": "Rex", "categoryId": 1, "colour": "red"}))
            .unwrap_err();
        assert!(err.to_string().contains("colour"), "{err}");
    }

    #[test]
    fn optional_order_fields_stay_off_the_wire() {
        let order = Order { pet_id: Some(2), ..Order::default() };
        assert_eq!(serde_json::to_string(&order).unwrap(), r#"{"petId":2}"#);
    }

    #[test]
    fn status_parses_only_the_three_values() {
        for status in PetStatus::ALL {
            let wire = serde_json::to_value(status).unwrap();
            assert_eq!(wire, json!(status.as_str()));
        }
        assert!(serde_json::from_value::<PetStatus>(json!("Available")).is_err());
    }
}
