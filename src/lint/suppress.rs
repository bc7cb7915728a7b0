//! `allow "RULE-ID" reason="…"` in a tool: dropping the findings it covers, then reporting
//! the allows that covered nothing (`lint/unused-allow`).

use super::Config;
use super::rules::lint::unused_allow;
use crate::diag::{Diagnostic, FileId};
use crate::model::{Allow, Project};
use std::collections::HashMap;
use std::sync::Arc;

/// A tool by its file and name (tool names are unique within a file).
type ToolKey = (FileId, Arc<str>);

/// Remove the findings that a tool's `allow` covers, and add a `lint/unused-allow` finding for
/// each allow of a running rule that covered none. `lint/…` findings are never suppressed.
pub fn apply(project: &Project, config: &Config, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    // (file, tool) → its allows with a "used" mark; tool names are unique within a file. Keys
    // are owned so lookups need not borrow from the diagnostics.
    let mut allows: HashMap<ToolKey, Vec<(&Allow, bool)>> = HashMap::new();
    let mut catalog_of: HashMap<ToolKey, &str> = HashMap::new();
    for catalog in &project.catalogs {
        for tool in &catalog.tools {
            if !tool.allows.is_empty() {
                let key = (catalog.file, Arc::from(tool.name.value.as_str()));
                allows.insert(
                    key.clone(),
                    tool.allows.iter().map(|a| (a, false)).collect(),
                );
                catalog_of.insert(key, &catalog.name.value);
            }
        }
    }

    // Filtered in place: a second list beside a hostile catalog's findings doubled them.
    let mut kept = diagnostics;
    kept.retain(|d| match &d.tool {
        Some(tool) if !allows.is_empty() && !d.rule.starts_with("lint/") => allows
            .get_mut(&(d.file, tool.clone()))
            .and_then(|list| list.iter_mut().find(|(a, _)| a.rule.value == d.rule))
            .map(|(_, used)| *used = true)
            .is_none(),
        _ => true,
    });

    let mut unused = Vec::new();
    if let Some(level) = config.level_for(&unused_allow::RULE) {
        let mut keys: Vec<_> = allows.keys().cloned().collect();
        keys.sort();
        for key in keys {
            let mut seen_ids = Vec::new();
            for (allow, used) in &allows[&key] {
                let id = allow.rule.value.as_str();
                let duplicate = seen_ids.contains(&id);
                seen_ids.push(id);
                // Unknown rules, `lint/…` rules and rules turned off are reported by the rule's
                // own check, before any finding exists.
                let runs = super::rule(id)
                    .is_some_and(|r| r.category() != "lint" && config.level_for(r).is_some());
                if *used || !runs {
                    continue;
                }
                let message = if duplicate {
                    format!(
                        "`allow \"{id}\"` repeats an earlier allow of the same rule in this tool"
                    )
                } else {
                    format!(
                        "`allow \"{id}\"` suppresses nothing: the rule reports no finding for this tool"
                    )
                };
                let mut d = Diagnostic::new(
                    unused_allow::RULE.id,
                    level,
                    key.0,
                    allow.rule.span,
                    message,
                )
                .with_help("remove the allow");
                d.catalog = catalog_of.get(&key).map(|&c| c.into());
                d.tool = Some(key.1.clone());
                d.path = Some(format!("allow.{id}"));
                unused.push(d);
            }
        }
    }
    kept.reserve_exact(unused.len());
    kept.append(&mut unused);
    kept
}
