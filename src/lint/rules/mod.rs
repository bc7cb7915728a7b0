//! The rule files, one folder per category.

pub mod catalog;
pub mod errors;
pub mod lint;
pub mod naming;
pub mod selection;

/// Every category's rules, in the order `catalogc rules` lists them (rules.md's order, then the
/// linter's own `lint/…` rules).
pub static CATEGORIES: &[&[&crate::lint::Rule]] = &[
    naming::RULES,
    selection::RULES,
    errors::RULES,
    catalog::RULES,
    lint::RULES,
];
