//! Converts `openapi/petstore.yaml` to compact JSON at build time, so neither the app nor the
//! server carries a YAML parser just to read their own document.

use std::{env, fs, path::PathBuf};

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let source = manifest.join("../../openapi/petstore.yaml");
    println!("cargo::rerun-if-changed={}", source.display());

    let yaml =
        fs::read_to_string(&source).unwrap_or_else(|e| panic!("cannot read {}: {e}", source.display()));
    let value: serde_json::Value = serde_yaml_ng::from_str(&yaml)
        .unwrap_or_else(|e| panic!("{} is not valid YAML: {e}", source.display()));
    let json = serde_json::to_string(&value).expect("a JSON value always serializes");

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo")).join("petstore.json");
    fs::write(&out, json).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
