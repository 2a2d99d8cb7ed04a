//! Browser entry point: install the panic hook, move keys saved under the earlier prefix, and
//! mount the app.

fn main() {
    console_error_panic_hook::set_once();
    // Keys saved under the page's earlier prefix are read as they were (theme, try-it, mock).
    let _ = playground_browser::move_legacy_keys();
    leptos::mount::mount_to_body(playground_app::App);
}
