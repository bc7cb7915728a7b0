//! Lint configuration: rule levels, the project's own forbidden field names, thresholds and
//! budgets. Read from `catalogc.kdl` (see the `load` functions); `Default` is what rules.md
//! specifies.

use crate::diag::Level;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Config {
    /// Level set by rule ID or by category; `None` turns the rule off (`allow`). A rule ID wins
    /// over its category.
    pub levels: BTreeMap<String, Option<Level>>,
    /// Extra input field names `trust/forbidden-field` rejects, beyond the built-in list.
    pub forbidden_fields: Vec<String>,
    pub thresholds: Thresholds,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Thresholds {
    /// `selection/length`: characters.
    pub summary_max: usize,
    pub when_max: usize,
    pub description_max: usize,
    /// `bounds/depth`: deepest allowed object nesting.
    pub max_depth: usize,
    /// `bounds/field-count`.
    pub max_fields: usize,
    /// `catalog/budget`: bytes of rendered tools/list JSON.
    pub budget_catalog_bytes: usize,
    pub budget_tool_bytes: usize,
    /// `selection/confusable`: similarity in 0..=1 at which two tools are near-duplicates.
    pub confusable_similarity: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            summary_max: 200,
            when_max: 300,
            description_max: 1024,
            max_depth: 5,
            max_fields: 30,
            budget_catalog_bytes: 32 * 1024,
            budget_tool_bytes: 4 * 1024,
            confusable_similarity: 0.8,
        }
    }
}

impl Config {
    fn configured(&self, rule: &super::Rule) -> Option<Option<Level>> {
        self.levels
            .get(rule.id)
            .or_else(|| self.levels.get(rule.category()))
            .copied()
    }

    /// The level a rule runs at; `None` when it is turned off.
    pub fn level_for(&self, rule: &super::Rule) -> Option<Level> {
        self.configured(rule).unwrap_or(Some(rule.level))
    }

    /// Whether the configuration sets this rule's level (then it overrides per-finding levels).
    pub fn level_is_set(&self, rule: &super::Rule) -> bool {
        self.configured(rule).is_some()
    }
}
