//! The rule files, one folder per category.

pub mod bounds;
pub mod catalog;
pub mod effect;
pub mod errors;
pub mod header;
pub mod lint;
pub mod naming;
pub mod output;
pub mod selection;
pub mod target;
pub mod trust;

/// Every category's rules, in the order `catalogc rules` lists them (docs/rules.md's order, then the
/// linter's own `lint/…` rules).
pub static CATEGORIES: &[&[&crate::lint::Rule]] = &[
    naming::RULES,
    selection::RULES,
    bounds::RULES,
    trust::RULES,
    header::RULES,
    output::RULES,
    effect::RULES,
    errors::RULES,
    catalog::RULES,
    target::RULES,
    lint::RULES,
];
