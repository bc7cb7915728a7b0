//! Linting a published MCP tools/list (`catalogc lint FILE.json`): the list is imported in
//! memory ([`crate::import`]) and linted like a catalog, except for the rules below. Each
//! checks a fact that only a catalog states — `when` / `when-not`, examples, result limits,
//! idempotency, confirmation, timeout recovery, declared errors, versions — so on an
//! imported list it would report the import's blanks, not the server's defects.

use super::Config;

/// The rules a published tool list cannot satisfy, in registry order.
pub const CATALOG_ONLY: &[&str] = &[
    "selection/missing-text",
    "selection/missing-examples",
    "output/unbounded-result",
    "effect/write-idempotency",
    "effect/idempotency-key",
    "effect/destructive-confirm",
    "effect/timeout-recovery",
    "errors/undeclared",
    "catalog/version",
];

/// `config` with the [`CATALOG_ONLY`] rules turned off, and their IDs for the summary.
pub fn config(config: &Config) -> (Config, Vec<String>) {
    let mut config = config.clone();
    for id in CATALOG_ONLY {
        config.levels.insert((*id).to_string(), None);
    }
    (config, CATALOG_ONLY.iter().map(|s| s.to_string()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_skipped_rule_exists_in_registry_order() {
        let order: Vec<&str> = super::super::registry().map(|r| r.id).collect();
        let positions: Vec<usize> = CATALOG_ONLY
            .iter()
            .map(|id| order.iter().position(|r| r == id).unwrap_or(usize::MAX))
            .collect();
        assert!(positions.iter().all(|p| *p != usize::MAX), "{positions:?}");
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
    }

    #[test]
    fn the_skipped_rules_are_off() {
        let (c, skipped) = config(&Config::default());
        assert_eq!(skipped.len(), CATALOG_ONLY.len());
        for id in CATALOG_ONLY {
            let rule = super::super::rule(id);
            assert!(rule.is_some_and(|r| c.level_for(r).is_none()), "{id}");
        }
    }
}
