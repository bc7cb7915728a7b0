//! The rule files, one folder per category.

pub mod naming;

/// Every category's rules, in the order `catalogc rules` lists them.
pub static CATEGORIES: &[&[&crate::lint::Rule]] = &[naming::RULES];
