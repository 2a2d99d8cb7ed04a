//! What the browser mock tells its user about where its state is kept, in the shape that
//! crosses from the mock module to the page: a kind per situation and the sentence to show.

use serde::{Deserialize, Serialize};

/// The kind of a notice. On the wire (and in the page's `data-kind`) it is kebab-case:
/// `started-fresh`, `storage-unavailable`, `not-saved`, `overwritten`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoticeKind {
    /// Storage held something that is not a readable saved mock: the mock started fresh and
    /// replaced it.
    StartedFresh,
    /// The browser does not let the page use storage: changes last until the page closes.
    StorageUnavailable,
    /// The last change could not be saved (storage is full): it is kept in memory, and saving
    /// is tried again on the next change.
    NotSaved,
    /// Another tab changed the mock at the same moment, and this tab took that tab's state.
    Overwritten,
}

impl NoticeKind {
    /// The kind's wire name (`started-fresh`, ...), for styling and tests.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::StartedFresh => "started-fresh",
            Self::StorageUnavailable => "storage-unavailable",
            Self::NotSaved => "not-saved",
            Self::Overwritten => "overwritten",
        }
    }

    /// Whether it reports a current problem (storage unusable or full) rather than something
    /// that happened once.
    #[must_use]
    pub const fn is_problem(self) -> bool {
        matches!(self, Self::NotSaved | Self::StorageUnavailable)
    }
}

/// A notice as the page shows it: the mock module's `notices()` gives a list of
/// `{kind, message}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MockNotice {
    /// What happened.
    pub kind: NoticeKind,
    /// The sentence to show.
    pub message: String,
}

impl MockNotice {
    /// Whether it reports a current problem (see [`NoticeKind::is_problem`]).
    #[must_use]
    pub const fn is_problem(&self) -> bool {
        self.kind.is_problem()
    }
}
