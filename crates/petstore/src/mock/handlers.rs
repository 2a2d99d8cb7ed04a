//! One function per operation: `(store, validated inputs) -> Result<Response, ApiError>`.
//! Inputs were already checked against the document, so handlers enforce only the business
//! rules (existence, uniqueness, stock and status transitions).

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::store::{MAX_STOCK, Store, StoredOrder};
use crate::error::{ApiError, ErrorCode};
use crate::model::{Category, InventoryUpdate, NewCategory, NewPet, Order, Pet, PetStatus};
use playground_http::Response;
use playground_mock::Params;

/// One operation's rules: the store and the request's checked inputs in, the answer out.
pub(crate) type Handler = fn(&mut Store, &Inputs) -> Result<Response, ApiError>;

/// The operations the mock implements, by the document's operationId.
const ROUTES: [(&str, Handler); 18] = [
    ("listPets", list_pets),
    ("createPet", create_pet),
    ("getPet", get_pet),
    ("updatePet", update_pet),
    ("deletePet", delete_pet),
    ("listCategories", list_categories),
    ("createCategory", create_category),
    ("getCategory", get_category),
    ("updateCategory", update_category),
    ("deleteCategory", delete_category),
    ("listOrders", list_orders),
    ("placeOrder", place_order),
    ("getOrder", get_order),
    ("cancelOrder", cancel_order),
    ("completeOrder", complete_order),
    ("listInventory", list_inventory),
    ("getInventoryItem", get_inventory_item),
    ("setInventory", set_inventory),
];

/// The rules of the operation `operation_id`, when the mock implements it.
pub(crate) fn handler(operation_id: &str) -> Option<Handler> {
    ROUTES.iter().find(|(id, _)| *id == operation_id).map(|&(_, handler)| handler)
}

/// Validated inputs of one request.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Inputs<'a> {
    pub params: &'a Params,
    pub body: Option<&'a Value>,
}

impl Inputs<'_> {
    fn id(&self, name: &str) -> i64 {
        self.params.get(name).and_then(Value::as_i64).unwrap_or(0)
    }

    fn opt_i64(&self, name: &str) -> Option<i64> {
        self.params.get(name).and_then(Value::as_i64)
    }

    fn statuses(&self) -> Option<Vec<PetStatus>> {
        self.params.get("status").and_then(|v| serde_json::from_value(v.clone()).ok())
    }

    /// `(offset, limit)`, defaults from the document's parameters (0 and 20).
    fn page(&self) -> (usize, usize) {
        let offset = self.opt_i64("offset").map_or(0, |o| usize::try_from(o).unwrap_or(usize::MAX));
        let limit = self.opt_i64("limit").map_or(20, |l| usize::try_from(l).unwrap_or(20));
        (offset, limit)
    }

    fn body<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        let mut body = self.body.cloned().unwrap_or(Value::Null);
        whole_numbers_as_integers(&mut body);
        serde_json::from_value(body).map_err(|e| ApiError::validation(format!("The body does not fit: {e}.")))
    }
}

/// `7.0` as `7`: the document's checks let a number without a fraction through as an integer,
/// and the models read integers.
fn whole_numbers_as_integers(value: &mut Value) {
    match value {
        Value::Number(n) if n.is_f64() => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
            // checked whole and in range
            if x.fract() == 0.0 && (i64::MIN as f64..i64::MAX as f64).contains(&x) {
                *value = Value::from(x as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers_as_integers),
        Value::Object(fields) => fields.values_mut().for_each(whole_numbers_as_integers),
        _ => {}
    }
}

fn json<T: Serialize>(status: u16, value: &T) -> Response {
    Response {
        status,
        headers: vec![("Content-Type".into(), "application/json".into())],
        body: serde_json::to_vec(value).unwrap_or_default(),
    }
}

fn created<T: Serialize>(value: &T, location: String) -> Response {
    let mut r = json(201, value);
    r.headers.push(("Location".into(), location));
    r
}

fn no_content() -> Response {
    Response { status: 204, headers: Vec::new(), body: Vec::new() }
}

fn page<T: Serialize>(items: impl Iterator<Item = T>, inputs: &Inputs) -> Response {
    let all: Vec<T> = items.collect();
    let (offset, limit) = inputs.page();
    let total = all.len();
    let items: Vec<&T> = all.iter().skip(offset).take(limit).collect();
    let mut r = json(200, &items);
    r.headers.push(("X-Total-Count".into(), total.to_string()));
    r
}

fn pet(store: &Store, id: i64) -> Result<&Pet, ApiError> {
    store.pets.get(&id).ok_or_else(|| ApiError::not_found("Pet", id))
}

fn category(store: &Store, id: i64) -> Result<&Category, ApiError> {
    store.categories.get(&id).ok_or_else(|| ApiError::not_found("Category", id))
}

fn order(store: &Store, id: i64) -> Result<&StoredOrder, ApiError> {
    store.orders.get(&id).ok_or_else(|| ApiError::not_found("Order", id))
}

fn existing_category(store: &Store, id: i64) -> Result<(), ApiError> {
    if store.categories.contains_key(&id) {
        Ok(())
    } else {
        Err(ApiError::validation(format!("categoryId {id} does not exist.")))
    }
}

fn unique_category_name(store: &Store, name: &str, except: Option<i64>) -> Result<(), ApiError> {
    let lower = name.to_lowercase();
    match store.categories.values().find(|c| Some(c.id) != except && c.name.to_lowercase() == lower) {
        Some(c) => Err(ApiError::new(
            ErrorCode::DuplicateCategory,
            format!("A category named {:?} already exists (category {}).", c.name, c.id),
        )),
        None => Ok(()),
    }
}

fn order_view(o: &StoredOrder) -> Order {
    Order {
        id: Some(o.id),
        pet_id: Some(o.pet_id),
        quantity: Some(o.quantity),
        ship_date: o.ship_date.clone(),
        complete: Some(o.complete),
    }
}

fn list_pets(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let statuses = inputs.statuses();
    let category = inputs.opt_i64("categoryId");
    let pets = store.pets.values().filter(|p| {
        statuses.as_ref().is_none_or(|s| s.contains(&p.status)) && category.is_none_or(|c| c == p.category_id)
    });
    Ok(page(pets, inputs))
}

fn create_pet(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let new: NewPet = inputs.body()?;
    existing_category(store, new.category_id)?;
    let id = store.add_pet(new.name.trim(), new.category_id, new.status.unwrap_or_default(), 0)?;
    Ok(created(&store.pets[&id], format!("/pets/{id}")))
}

fn get_pet(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    Ok(json(200, pet(store, inputs.id("petId"))?))
}

fn update_pet(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let id = inputs.id("petId");
    let current = pet(store, id)?.clone();
    let new: NewPet = inputs.body()?;
    existing_category(store, new.category_id)?;
    let status = new.status.unwrap_or_default();
    if let Some(open) = store.open_order_of(id)
        && status != current.status
    {
        return Err(ApiError::new(
            ErrorCode::PetHasOpenOrders,
            format!(
                "Pet {id} has an open order (order {}); complete or cancel it before changing the status.",
                open.id
            ),
        ));
    }
    let updated = Pet { id, name: new.name.trim().to_owned(), category_id: new.category_id, status };
    store.pets.insert(id, updated.clone());
    Ok(json(200, &updated))
}

fn delete_pet(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let id = inputs.id("petId");
    pet(store, id)?;
    if let Some(open) = store.open_order_of(id) {
        return Err(ApiError::new(
            ErrorCode::PetHasOpenOrders,
            format!("Pet {id} has an open order (order {}); complete or cancel it first.", open.id),
        ));
    }
    store.pets.remove(&id);
    store.stock.remove(&id);
    let orders: Vec<i64> = store.orders.values().filter(|o| o.pet_id == id).map(|o| o.id).collect();
    for order in orders {
        store.orders.remove(&order);
    }
    Ok(no_content())
}

fn list_categories(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    Ok(page(store.categories.values(), inputs))
}

fn create_category(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let new: NewCategory = inputs.body()?;
    let name = new.name.trim();
    unique_category_name(store, name, None)?;
    let id = store.add_category(name, new.description.as_deref())?;
    Ok(created(&store.categories[&id], format!("/categories/{id}")))
}

fn get_category(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    Ok(json(200, category(store, inputs.id("categoryId"))?))
}

fn update_category(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let id = inputs.id("categoryId");
    category(store, id)?;
    let new: NewCategory = inputs.body()?;
    let name = new.name.trim();
    unique_category_name(store, name, Some(id))?;
    let updated = Category { id, name: name.to_owned(), description: new.description };
    store.categories.insert(id, updated.clone());
    Ok(json(200, &updated))
}

fn delete_category(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let id = inputs.id("categoryId");
    category(store, id)?;
    let users: Vec<i64> = store.pets.values().filter(|p| p.category_id == id).map(|p| p.id).collect();
    if let Some(first) = users.first() {
        let n = users.len();
        return Err(ApiError::new(
            ErrorCode::CategoryInUse,
            format!(
                "Category {id} is used by {n} pet{} (for example pet {first}); move or delete them first.",
                if n == 1 { "" } else { "s" }
            ),
        ));
    }
    store.categories.remove(&id);
    Ok(no_content())
}

fn list_orders(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let complete = inputs.params.get("complete").and_then(Value::as_bool);
    let pet_id = inputs.opt_i64("petId");
    let orders = store
        .orders
        .values()
        .filter(|o| complete.is_none_or(|c| c == o.complete) && pet_id.is_none_or(|p| p == o.pet_id))
        .map(order_view);
    Ok(page(orders, inputs))
}

fn place_order(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let new: Order = inputs.body()?;
    let pet_id = new.pet_id.ok_or_else(|| ApiError::validation("petId is required to place an order."))?;
    if new.complete == Some(true) {
        return Err(ApiError::validation("complete must be false or left out when placing an order."));
    }
    let p = store
        .pets
        .get(&pet_id)
        .ok_or_else(|| ApiError::validation(format!("petId {pet_id} does not exist.")))?;
    if p.status != PetStatus::Available {
        return Err(ApiError::new(
            ErrorCode::PetNotAvailable,
            format!("Pet {pet_id} is {}, not available.", p.status),
        ));
    }
    let quantity = new.quantity.unwrap_or(1);
    let stock = store.stock.get(&pet_id).copied().unwrap_or(0);
    if stock < quantity {
        return Err(ApiError::new(
            ErrorCode::InsufficientStock,
            format!("Pet {pet_id} has {stock} in stock; the order asks for {quantity}."),
        ));
    }
    let id = Store::take_id(&mut store.next.order, "order")?;
    let stored = StoredOrder { id, pet_id, quantity, ship_date: new.ship_date, complete: false };
    store.stock.insert(pet_id, stock - quantity);
    if let Some(p) = store.pets.get_mut(&pet_id) {
        p.status = PetStatus::Pending;
    }
    store.orders.insert(id, stored.clone());
    Ok(created(&order_view(&stored), format!("/store/orders/{id}")))
}

fn get_order(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    Ok(json(200, &order_view(order(store, inputs.id("orderId"))?)))
}

fn cancel_order(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let id = inputs.id("orderId");
    let o = order(store, id)?.clone();
    if o.complete {
        return Err(ApiError::new(
            ErrorCode::OrderCompleted,
            format!("Order {id} is complete and cannot be cancelled."),
        ));
    }
    store.orders.remove(&id);
    let stock = store.stock.get(&o.pet_id).copied().unwrap_or_default();
    store.stock.insert(o.pet_id, stock + o.quantity);
    if let Some(p) = store.pets.get_mut(&o.pet_id) {
        p.status = PetStatus::Available;
    }
    Ok(no_content())
}

fn complete_order(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let id = inputs.id("orderId");
    let o = order(store, id)?.clone();
    if o.complete {
        return Err(ApiError::new(ErrorCode::OrderCompleted, format!("Order {id} is already complete.")));
    }
    let done = StoredOrder { complete: true, ..o };
    store.orders.insert(id, done.clone());
    if let Some(p) = store.pets.get_mut(&done.pet_id) {
        p.status = PetStatus::Sold;
    }
    Ok(json(200, &order_view(&done)))
}

fn list_inventory(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let statuses = inputs.statuses();
    let items = store
        .pets
        .values()
        .filter(|p| statuses.as_ref().is_none_or(|s| s.contains(&p.status)))
        .map(|p| store.inventory_item(p));
    Ok(page(items, inputs))
}

fn get_inventory_item(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let p = pet(store, inputs.id("petId"))?;
    Ok(json(200, &store.inventory_item(p)))
}

fn set_inventory(store: &mut Store, inputs: &Inputs) -> Result<Response, ApiError> {
    let id = inputs.id("petId");
    pet(store, id)?;
    let update: InventoryUpdate = inputs.body()?;
    let held = store.held_by_open_orders(id);
    if i64::from(update.quantity) + held > i64::from(MAX_STOCK) {
        return Err(ApiError::validation(format!(
            "quantity plus the {held} units held by open orders must be at most {MAX_STOCK}; got {}.",
            update.quantity
        )));
    }
    store.stock.insert(id, update.quantity);
    Ok(json(200, &store.inventory_item(&store.pets[&id])))
}
