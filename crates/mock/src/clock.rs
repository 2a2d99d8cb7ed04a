//! The time of a request, as the shell that runs the mock knows it: the server's system clock,
//! the page's `Date.now()`. The mock itself reads no clock (this crate builds for
//! `wasm32-unknown-unknown`, where the standard library has none), so that a mock without one
//! stays the same for the same seed: tests give it a fixed time, or none.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// Where a mock reads the time of a request, in milliseconds since 1970 (UTC), for the fields
/// the server makes: `createdAt`, `updated_at` and the like of a created, replaced or patched
/// item ([`crate::ApiMock::with_clock`]). Without one ([`Clock::default`]) those fields get
/// generated dates, the same for the same seed.
#[derive(Clone, Default)]
pub struct Clock(Option<Arc<dyn Fn() -> i64 + Send + Sync>>);

impl Clock {
    /// A clock read by calling `now_ms` (milliseconds since 1970, UTC), e.g. `js_sys::Date::now`
    /// in a page.
    pub fn new(now_ms: impl Fn() -> i64 + Send + Sync + 'static) -> Self {
        Self(Some(Arc::new(now_ms)))
    }

    /// A clock that always tells `ms` (tests).
    #[must_use]
    pub fn fixed(ms: i64) -> Self {
        Self::new(move || ms)
    }

    /// The system clock (not in WebAssembly, which has none: use [`Clock::new`] there).
    #[cfg(not(target_arch = "wasm32"))]
    #[must_use]
    pub fn system() -> Self {
        Self::new(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        })
    }

    /// The time now, if the mock has a clock.
    pub(crate) fn now_ms(&self) -> Option<i64> {
        self.0.as_ref().map(|now| now())
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "Clock(set)" } else { "Clock(none)" })
    }
}

/// A moment as a value of a `date-time` (`2026-11-28T22:30:00.123Z`, as JavaScript's
/// `toISOString` writes it) or `date` (`2026-11-28`) property; `None` for another format or
/// a moment out of range.
pub(crate) fn moment(ms: i64, format: &str) -> Option<Value> {
    let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).ok()?;
    let text = match format {
        "date-time" => {
            let f = time::macros::format_description!(
                "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
            );
            at.format(&f).ok()?
        }
        "date" => at.format(&time::macros::format_description!("[year]-[month]-[day]")).ok()?,
        _ => return None,
    };
    Some(Value::String(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_are_written_as_rfc_3339_in_utc() {
        assert_eq!(moment(1_796_596_200_123, "date-time"), Some(Value::from("2026-12-06T22:30:00.123Z")));
        assert_eq!(moment(0, "date-time"), Some(Value::from("1970-01-01T00:00:00.000Z")));
        assert_eq!(moment(1_796_596_200_123, "date"), Some(Value::from("2026-12-06")));
        assert_eq!(moment(0, "time"), None);
        assert_eq!(Clock::fixed(7).now_ms(), Some(7));
        assert_eq!(Clock::default().now_ms(), None);
    }
}
