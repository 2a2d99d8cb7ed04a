//! An example crate whose browser tests (in `tests/`) use `petstore` (the Petstore mock) and `playground-http` (its request type) as dev-dependencies.
