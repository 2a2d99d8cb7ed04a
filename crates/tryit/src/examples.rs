//! The reference's Example blocks, filled in the page by the module: the reference writes them
//! with its own small generator and marks each `pre[data-example]` (its notes
//! `[data-example-note]`); the module, which carries the mock's generator, writes what
//! `playground_tryit_core::prefill::example_fills` says over them. The module does it rather than
//! the page so that the reference's first download does not carry the code.

use playground_reference::ExampleFill;

/// Writes `fills` into the Example blocks under `root`: a generated value where the document
/// has none, and the note beside each block, or none; each block filled is marked
/// `data-example-filled` (for tests and styles).
pub(crate) fn show(root: &web_sys::Element, fills: &[ExampleFill]) {
    let document = root.owner_document();
    for fill in fills {
        let at = fill.at.replace(['"', '\\'], "");
        let Ok(Some(block)) = root.query_selector(&format!(r#"pre[data-example="{at}"]"#)) else { continue };
        if let (Some(json), Some(code)) = (&fill.json, block.first_element_child()) {
            code.set_text_content(Some(json));
        }
        let _ = block.set_attribute("data-example-filled", "");
        let note = root.query_selector(&format!(r#"[data-example-note="{at}"]"#)).ok().flatten();
        match (note, &fill.note) {
            (Some(note), Some(text)) => note.set_text_content(Some(text)),
            (Some(note), None) => note.remove(),
            (None, Some(text)) => {
                let Some(p) = document.as_ref().and_then(|d| d.create_element("p").ok()) else { continue };
                p.set_class_name("hint");
                let _ = p.set_attribute("data-testid", "example-notes");
                let _ = p.set_attribute("data-example-note", &at);
                p.set_text_content(Some(text));
                let _ = block.after_with_node_1(&p);
            }
            (None, None) => {}
        }
    }
}
