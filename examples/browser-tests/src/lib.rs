//! An example crate whose browser tests (in `tests/`) use `petstore-core` as a dev-dependency.
