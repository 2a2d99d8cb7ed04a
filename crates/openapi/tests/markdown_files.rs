//! The Markdown twins' file names (`outline::markdown_file`): readable where the name allows,
//! distinct for distinct names, and never a path out of their folder.

use std::collections::HashSet;

use playground_openapi::outline::markdown_file;

#[test]
fn plain_names_are_kept() {
    assert_eq!(markdown_file(""), "index.md");
    assert_eq!(markdown_file("schemas"), "schemas/index.md");
    assert_eq!(markdown_file("listPets"), "operations/listPets.md");
    assert_eq!(markdown_file("tag/pets"), "tags/pets.md");
    assert_eq!(markdown_file("schema/Pet"), "schemas/Pet.md");
    assert_eq!(markdown_file("repos.get-content_v2"), "operations/repos.get-content_v2.md");
}

#[test]
fn other_names_keep_their_letters_and_a_hash() {
    let file = markdown_file("get-/pets/{petId}");
    assert!(file.starts_with("operations/get-pets-petId-"), "{file}");
    assert_eq!(file.len(), "operations/get-pets-petId-".len() + 8 + 3, "{file}");
    // The same name, the same file.
    assert_eq!(file, markdown_file("get-/pets/{petId}"));
    let tag = markdown_file("tag/Pet Store");
    assert!(tag.starts_with("tags/Pet-Store-") && tag.ends_with(".md"), "{tag}");
    // Windows' reserved names and the folders' own index are hashed too.
    assert!(markdown_file("schema/index").starts_with("schemas/index-"));
    assert!(markdown_file("con").starts_with("operations/con-"));
    assert!(markdown_file("COM1").starts_with("operations/COM1-"));
}

#[test]
fn no_name_leaves_its_folder_and_distinct_names_get_distinct_files() {
    let names = [
        "..",
        ".",
        "../etc/passwd",
        "a/b",
        "a-b",
        "a b",
        "a%2Fb",
        "é",
        "ü",
        "",
        "-",
        "a.",
        ".a",
        "x".repeat(300).as_str(),
        "x".repeat(301).as_str(),
        "schema/",
        "tag/",
        "tag/..",
        "schema/../x",
    ]
    .map(str::to_owned);
    let mut seen = HashSet::new();
    for name in &names {
        let file = markdown_file(name);
        let (folder, stem) = file.split_once('/').unwrap_or(("", &file));
        assert!(!stem.contains('/') && !stem.contains('\\'), "{name:?}: {file}");
        assert!(!stem.starts_with('.'), "{name:?}: {file}");
        assert!(stem.len() <= 80 + 9 + 3, "{name:?}: {file}");
        assert!(["", "operations", "tags", "schemas"].contains(&folder), "{name:?}: {file}");
        assert!(seen.insert(file.clone()), "{name:?} shares {file}");
    }
}
