//! Lint configuration: rule levels, the project's own forbidden field names, thresholds and
//! budgets. Read from `catalogc.kdl` by [`crate::config`]; `Default` is what docs/rules.md
//! specifies.

use crate::diag::Level;
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Default)]
/// What `catalogc.kdl`'s `lint` section sets: levels, forbidden fields and thresholds.
pub struct Config {
    /// Level set by rule ID or by category; `None` turns the rule off (`allow`). A rule ID wins
    /// over its category.
    pub levels: BTreeMap<String, Option<Level>>,
    /// Extra input field names `trust/forbidden-field` rejects, beyond the built-in list.
    pub forbidden_fields: Vec<String>,
    /// Limits of the rules that measure something.
    pub thresholds: Thresholds,
    /// The targets the `target/*` rules check against (`lint --target`); none: they find
    /// nothing.
    pub targets: Vec<crate::contract::targets::Target>,
    /// The naming convention `naming/tool-name` and `naming/field-name` require; `None`
    /// (`naming "auto"`): each catalog's own, the one most of its names follow.
    pub naming: Option<crate::names::Convention>,
    /// The day `catalog/sunset-approaching` measures sunsets from; `None`: the rule finds
    /// nothing. The command line sets it (`CATALOGC_TODAY` or the UTC date), never the file.
    pub today: Option<chrono::NaiveDate>,
    /// The catalogs are published MCP tools/lists imported in memory (`catalogc lint
    /// FILE.json`), not catalogs an author wrote: rules whose fix needs a catalog-only
    /// construct narrow their test or lower their level ([`super::published`]).
    pub published: bool,
}

#[derive(Debug, Clone, PartialEq)]
/// The numeric limits rules check against; `Default` is docs/rules.md's values.
pub struct Thresholds {
    /// `selection/length`: characters.
    pub summary_max: usize,
    /// `selection/length`: characters of `when` (and of `when-not`).
    pub when_max: usize,
    /// `selection/length`: characters of the rendered description.
    pub description_max: usize,
    /// `bounds/depth`: deepest allowed object nesting.
    pub max_depth: usize,
    /// `bounds/field-count`.
    pub max_fields: usize,
    /// `catalog/budget`: bytes of rendered tools/list JSON.
    pub budget_catalog_bytes: usize,
    /// `catalog/budget`: bytes of one tool's rendered tools/list JSON.
    pub budget_tool_bytes: usize,
    /// `selection/confusable`: similarity in 0..=1 at which two tools are near-duplicates.
    pub confusable_similarity: f64,
    /// `selection/confusable`: the similarity at which two list tools whose names are
    /// variants (one name's words a subset of the other's) are near-duplicates.
    pub confusable_list_similarity: f64,
    /// `catalog/sunset-approaching`: days before a sunset from which to warn.
    pub sunset_warning_days: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            summary_max: 560,
            when_max: 300,
            description_max: 1024,
            max_depth: 5,
            max_fields: 30,
            budget_catalog_bytes: 32 * 1024,
            budget_tool_bytes: 4 * 1024,
            confusable_similarity: 0.8,
            confusable_list_similarity: 0.54,
            sunset_warning_days: 30,
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
