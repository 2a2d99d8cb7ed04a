//! `ApiError`: every failure of the Petstore's API, knowing its HTTP status and its `Error` body
//! (the document's `Error` object and its `code` enum, business rules' codes among them).

use serde::{Deserialize, Serialize};

/// The machine-readable `code` of an `Error` body (the document's `Error.code` enum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 400: the body is not JSON.
    MalformedJson,
    /// 400: a path, query or header parameter is empty or malformed.
    InvalidParameter,
    /// 404: unknown path or id.
    NotFound,
    /// 405: the path exists, the method does not.
    MethodNotAllowed,
    /// 409: the pet is pending or sold.
    PetNotAvailable,
    /// 409: not enough stock for the order.
    InsufficientStock,
    /// 409: pets still belong to the category.
    CategoryInUse,
    /// 409: the pet has an open order.
    PetHasOpenOrders,
    /// 409: another category has this name, ignoring case.
    DuplicateCategory,
    /// 409: the order is already complete.
    OrderCompleted,
    /// 409: every id of a kind up to the largest the mock gives out is taken.
    IdsExhausted,
    /// 413: the body is over the size limit.
    PayloadTooLarge,
    /// 415: a body sent with a content type other than JSON.
    UnsupportedMediaType,
    /// 422: well-formed JSON that breaks the schema or names something that does not exist.
    ValidationFailed,
}

impl ErrorCode {
    /// Every code, in the document's order.
    pub const ALL: [ErrorCode; 14] = [
        ErrorCode::MalformedJson,
        ErrorCode::InvalidParameter,
        ErrorCode::NotFound,
        ErrorCode::MethodNotAllowed,
        ErrorCode::PetNotAvailable,
        ErrorCode::InsufficientStock,
        ErrorCode::CategoryInUse,
        ErrorCode::PetHasOpenOrders,
        ErrorCode::DuplicateCategory,
        ErrorCode::OrderCompleted,
        ErrorCode::IdsExhausted,
        ErrorCode::PayloadTooLarge,
        ErrorCode::UnsupportedMediaType,
        ErrorCode::ValidationFailed,
    ];

    /// The code as the `Error` object writes it (`not_found`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::MalformedJson => "malformed_json",
            ErrorCode::InvalidParameter => "invalid_parameter",
            ErrorCode::NotFound => "not_found",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::PetNotAvailable => "pet_not_available",
            ErrorCode::InsufficientStock => "insufficient_stock",
            ErrorCode::CategoryInUse => "category_in_use",
            ErrorCode::PetHasOpenOrders => "pet_has_open_orders",
            ErrorCode::DuplicateCategory => "duplicate_category",
            ErrorCode::OrderCompleted => "order_completed",
            ErrorCode::IdsExhausted => "ids_exhausted",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::ValidationFailed => "validation_failed",
        }
    }

    /// The HTTP status that goes with the code.
    #[must_use]
    pub const fn status(self) -> u16 {
        match self {
            ErrorCode::MalformedJson | ErrorCode::InvalidParameter => 400,
            ErrorCode::NotFound => 404,
            ErrorCode::MethodNotAllowed => 405,
            ErrorCode::PetNotAvailable
            | ErrorCode::InsufficientStock
            | ErrorCode::CategoryInUse
            | ErrorCode::PetHasOpenOrders
            | ErrorCode::DuplicateCategory
            | ErrorCode::OrderCompleted
            | ErrorCode::IdsExhausted => 409,
            ErrorCode::PayloadTooLarge => 413,
            ErrorCode::UnsupportedMediaType => 415,
            ErrorCode::ValidationFailed => 422,
        }
    }
}

/// The `Error` object, exactly as it goes on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    /// Machine-readable code.
    pub code: ErrorCode,
    /// A sentence that names the field, id or rule.
    pub message: String,
    /// The HTTP status of the answer.
    pub status: u16,
}

/// A failed request: a code (which fixes the HTTP status) and a message for people.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// What went wrong, for machines.
    pub code: ErrorCode,
    /// What went wrong, for people: names the field, id or rule.
    pub message: String,
}

impl ApiError {
    /// An error with any code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }

    /// 404 for an unknown id: "Pet 42 does not exist."
    #[must_use]
    pub fn not_found(resource: &str, id: i64) -> Self {
        Self::new(ErrorCode::NotFound, format!("{resource} {id} does not exist."))
    }

    /// 422 naming the field and the rule it breaks.
    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::ValidationFailed, message)
    }

    /// The HTTP status of this error.
    #[must_use]
    pub const fn status(&self) -> u16 {
        self.code.status()
    }

    /// The `Error` object to send.
    #[must_use]
    pub fn body(&self) -> ErrorBody {
        ErrorBody { code: self.code, message: self.message.clone(), status: self.status() }
    }
}

/// A business rule's refusal, answered by the mock of the description as it is.
impl From<ApiError> for playground_mock::Failure {
    fn from(error: ApiError) -> Self {
        playground_mock::Failure::rule(error.status(), error.code.as_str(), error.message)
    }
}

impl From<ApiError> for ErrorBody {
    fn from(error: ApiError) -> Self {
        let status = error.status();
        ErrorBody { code: error.code, message: error.message, status }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn body_carries_code_message_and_matching_status() {
        let error = ApiError::not_found("Pet", 42);
        assert_eq!(error.status(), 404);
        assert_eq!(
            serde_json::to_value(error.body()).unwrap(),
            json!({"code": "not_found", "message": "Pet 42 does not exist.", "status": 404})
        );
        assert_eq!(ErrorBody::from(error.clone()), error.body());
    }

    #[test]
    fn each_code_is_written_as_serde_writes_it() {
        for code in ErrorCode::ALL {
            assert_eq!(serde_json::to_value(code).unwrap(), json!(code.as_str()));
        }
    }

    #[test]
    fn every_code_maps_to_a_client_error_status() {
        let cases = [
            (ErrorCode::MalformedJson, 400),
            (ErrorCode::InvalidParameter, 400),
            (ErrorCode::NotFound, 404),
            (ErrorCode::MethodNotAllowed, 405),
            (ErrorCode::PetNotAvailable, 409),
            (ErrorCode::InsufficientStock, 409),
            (ErrorCode::CategoryInUse, 409),
            (ErrorCode::PetHasOpenOrders, 409),
            (ErrorCode::DuplicateCategory, 409),
            (ErrorCode::OrderCompleted, 409),
            (ErrorCode::IdsExhausted, 409),
            (ErrorCode::PayloadTooLarge, 413),
            (ErrorCode::UnsupportedMediaType, 415),
            (ErrorCode::ValidationFailed, 422),
        ];
        for (code, status) in cases {
            assert_eq!(code.status(), status, "{code:?}");
        }
    }

    #[test]
    fn display_is_the_message() {
        assert_eq!(ApiError::validation("name is required.").to_string(), "name is required.");
    }
}
