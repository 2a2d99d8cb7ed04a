//! Browser entry point: install the panic hook and mount the app. (`index.html` has already
//! moved the keys an earlier version saved under `petstore-playground/`.)

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(playground_app::App);
}
