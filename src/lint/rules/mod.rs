//! The rule files, one folder per category.

pub mod bounds;
pub mod effect;
pub mod naming;
pub mod output;
pub mod trust;

/// Every category's rules, in the order `catalogc rules` lists them.
pub static CATEGORIES: &[&[&crate::lint::Rule]] = &[
    naming::RULES,
    bounds::RULES,
    trust::RULES,
    output::RULES,
    effect::RULES,
];
