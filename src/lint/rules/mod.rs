//! The rule files, one folder per category.

pub mod catalog;
pub mod lint;
pub mod naming;

/// Every category's rules, in the order `catalogc rules` lists them (rules.md's order, then the
/// linter's own `lint/…` rules).
pub static CATEGORIES: &[&[&crate::lint::Rule]] = &[naming::RULES, catalog::RULES, lint::RULES];
