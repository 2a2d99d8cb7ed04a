//! One component per file.

pub mod authorize;
pub mod document_loader;
pub mod markdown;
pub mod mock_counts;
pub mod mock_notices;
pub mod mock_panel;
pub mod mock_reset;
pub mod mock_transfer;
pub mod operation_list;
pub mod operation_view;
pub mod reference;
pub mod search;
pub mod theme;
