//! [`Notice`]: what a [`crate::PersistentMock`] tells the user about where its state is kept,
//! and its sentence.

use std::fmt;

use playground_mock::{MockNotice, NoticeKind};

/// Something the user should know about where the mock's state is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Storage held something that is not a readable saved mock (not JSON, another version,
    /// inconsistent): the mock started fresh and replaced it.
    StartedFresh {
        /// Why the saved state was refused.
        reason: String,
    },
    /// The browser does not let the page use storage: changes last until the page closes.
    StorageUnavailable {
        /// What the browser said.
        reason: String,
    },
    /// The last change could not be saved (storage is full): it is kept in memory, and saving
    /// is tried again on the next change.
    NotSaved {
        /// What the store said.
        reason: String,
    },
    /// Another tab changed the mock at the same moment as this one (or while this one could not
    /// save); this tab took the other tab's state, and its own change is gone.
    Overwritten,
}

impl Notice {
    /// The kind of notice, which names it on the wire (`started-fresh`, ...).
    #[must_use]
    pub fn kind(&self) -> NoticeKind {
        match self {
            Self::StartedFresh { .. } => NoticeKind::StartedFresh,
            Self::StorageUnavailable { .. } => NoticeKind::StorageUnavailable,
            Self::NotSaved { .. } => NoticeKind::NotSaved,
            Self::Overwritten => NoticeKind::Overwritten,
        }
    }

    /// Whether the notice reports a current problem (rather than something that happened once).
    #[must_use]
    pub fn is_problem(&self) -> bool {
        self.kind().is_problem()
    }
}

impl From<&Notice> for MockNotice {
    fn from(notice: &Notice) -> Self {
        Self { kind: notice.kind(), message: notice.to_string() }
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::StartedFresh { reason } => {
                write!(f, "The saved mock data could not be read, so the mock started fresh. {reason}")
            }
            Self::StorageUnavailable { reason } => {
                write!(f, "Changes to the mock are kept only until this page closes: {reason}.")
            }
            Self::NotSaved { reason } => write!(
                f,
                "Changes to the mock are not being saved: {reason}. They are kept while this page is \
                 open, and saving is tried again on the next change."
            ),
            Self::Overwritten => f.write_str(
                "Another tab changed the mock at the same moment. This tab now shows that tab's data; \
                 its own last change was discarded.",
            ),
        }
    }
}
