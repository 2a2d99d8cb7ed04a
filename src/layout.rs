//! The operation list's geometry, which the list (`ui::operation_list`) lays out and the
//! document's load reads (how many rows to show first).

/// Height of every row, in CSS pixels (`.list-row` in `www/style.css` says the same).
pub const ROW_PX: usize = 52;
/// [`ROW_PX`] as a float, for scroll positions.
#[allow(clippy::cast_precision_loss)] // a small constant
pub const ROW_HEIGHT: f64 = ROW_PX as f64;

/// How many rows a list as tall as the window shows: the rows a list opened at its top
/// shows first.
#[must_use]
pub fn rows_in_view() -> usize {
    let height =
        web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(900.0);
    // A window's height in rows: small and non-negative.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let rows = (height.max(0.0) / ROW_HEIGHT).ceil() as usize;
    rows + 1
}
