//! Movement on the masterboard: the compiled variant's tables
//! ([`crate::model::movement`]), here under masterplay's name too.

pub use crate::model::movement::*;
