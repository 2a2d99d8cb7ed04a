//! The mock modules across the boundary: loading them and opening their mock objects (what
//! crosses to the objects afterwards is `playground_seam`'s).

use super::*;

/// The JavaScript value of a serde type, for the module.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, String> {
    let text = serde_json::to_string(value).map_err(|e| e.to_string())?;
    js_sys::JSON::parse(&text).map_err(|e| message_of(&e))
}

pub(super) async fn load_petstore() -> Result<MockHandle, String> {
    let module = crate::modules::load(MODULE_PATH).await?;
    let class: Function =
        Reflect::get(&module, &"PetstoreMock".into()).map_err(|e| message_of(&e))?.unchecked_into();
    let options = to_js(&Options { seed: true, storage_key: STORAGE_KEY })?;
    let instance = Reflect::construct(&class, &Array::of1(&options)).map_err(|e| message_of(&e))?;
    Ok(instance.unchecked_into())
}

/// Opens the `ApiMock` of a document's JSON text, saved under its default key (the document's
/// title and version), so a page of the reader's own that mocks the same document shares its
/// state. As bytes: a long text crosses into the module far faster than a string.
pub(super) async fn load_api(bytes: Uint8Array) -> Result<MockHandle, String> {
    let module = crate::modules::load(API_MODULE_PATH).await?;
    let class: Function =
        Reflect::get(&module, &"ApiMock".into()).map_err(|e| message_of(&e))?.unchecked_into();
    let instance = Reflect::construct(&class, &Array::of1(&bytes)).map_err(|e| message_of(&e))?;
    Ok(instance.unchecked_into())
}
