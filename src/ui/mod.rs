//! One component per file.

pub mod operation_list;
pub mod reference;
