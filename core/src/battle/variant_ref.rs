//! How a battle holds its variant: borrowed (a battle fought and dropped
//! within a caller's scope) or shared (a battle a game keeps alive between
//! actions, which cannot borrow the variant the game itself holds).

use std::ops::Deref;
use std::sync::Arc;

use crate::model::Variant;

/// A variant a [`super::Battle`] reads, borrowed or shared; derefs to it.
#[derive(Debug, Clone)]
pub enum VariantRef<'v> {
    Borrowed(&'v Variant),
    Shared(Arc<Variant>),
}

impl Deref for VariantRef<'_> {
    type Target = Variant;
    fn deref(&self) -> &Variant {
        match self {
            VariantRef::Borrowed(v) => v,
            VariantRef::Shared(v) => v,
        }
    }
}

impl<'v> From<&'v Variant> for VariantRef<'v> {
    fn from(v: &'v Variant) -> Self {
        VariantRef::Borrowed(v)
    }
}

impl<'v> From<&'v Arc<Variant>> for VariantRef<'v> {
    fn from(v: &'v Arc<Variant>) -> Self {
        VariantRef::Borrowed(v)
    }
}

impl From<Arc<Variant>> for VariantRef<'static> {
    fn from(v: Arc<Variant>) -> Self {
        VariantRef::Shared(v)
    }
}
