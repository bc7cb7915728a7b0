//! The rule files, one folder per category.

pub mod errors;
pub mod naming;
pub mod selection;

/// Every category's rules, in the order `catalogc rules` lists them.
pub static CATEGORIES: &[&[&crate::lint::Rule]] = &[naming::RULES, selection::RULES, errors::RULES];
