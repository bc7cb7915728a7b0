//! Whole-catalog checks: versions, the size of what the model reads, dead declarations.

crate::lint::declare_rules! {
    version,
    budget,
    unused_type,
    sunset_approaching,
}
