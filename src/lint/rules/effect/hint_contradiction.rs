//! The `effect/hint-contradiction` rule: a tool's effect agrees with the verbs of its name;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::signals::{Verb, hints_guessed, verb};
use crate::lint::{Context, Finding};
use crate::model::Tool;

crate::lint::declare_rule! {
    /// ## What it does
    /// Compares the effect a tool declares (a catalog's `effect`; a published tool's
    /// `readOnlyHint` and `destructiveHint`) with the verbs of its name:
    ///
    /// - a name with a verb that destroys or stops (`delete`, `remove`, `drop`, `cancel`,
    ///   `kill`, `terminate`, `stop`, `pause`, `suspend`, `revoke`, `purge`, `reset`, …) on a tool
    ///   that is not destructive (read-only, or `destructiveHint: false`; a catalog's `read`,
    ///   `external-read`, `preview` or `append`) is an error;
    /// - a name whose verbs only read (`search`, `list`, `get`, `describe`, …) on a tool that may
    ///   destroy (`destructiveHint` true or absent; a catalog's `update` or `destructive`) is a
    ///   warning.
    ///
    /// A published tool that states no hint at all is `effect/missing-hints`'s, and a summary
    /// whose leading verb disagrees with the effect is `selection/effect-wording`'s; neither is
    /// reported again here.
    ///
    /// ## Why is this bad?
    /// Clients decide from the hints what to ask the user: a `pause_campaign` marked
    /// non-destructive may run without approval and stop what customers see, while a search
    /// marked destructive asks for approval on every look-up, which teaches users to approve
    /// without reading. Either way one of the two, the name or the hints, is wrong, and the
    /// model and the client each believe a different one.
    ///
    /// ## Example
    /// ```kdl
    /// tool "campaign_pause" version="1.0.0" {
    ///     summary "Stop sending one campaign until it is resumed."
    ///     effect "append"
    ///     // …
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "campaign_pause" version="1.0.0" {
    ///     summary "Stop sending one campaign until it is resumed."
    ///     effect "destructive" idempotent=#true
    ///     // …
    /// }
    /// ```
    pub static RULE = Rule {
        id: "effect/hint-contradiction",
        level: Level::Warn,
        summary: "a tool's effect agrees with the verbs of its name (no delete marked non-destructive, no search marked destructive)",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// Leading summary verbs `selection/effect-wording` reports on a read-class tool, and on a
/// write-class one.
const WORDING_WRITE: &[&str] = &["cancel", "create", "delete", "pay", "remove", "send", "submit", "transfer", "update"];
const WORDING_READ: &[&str] = &["find", "get", "list", "search", "show"];

/// The base verb the summary leads with.
fn leading(tool: &Tool) -> Option<String> {
    let summary = tool.summary.as_ref()?;
    let word = summary.value.split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty())?;
    Some(crate::lint::signals::base_verb(word))
}

/// The contradiction of `tool`'s effect with its name: (the verb, whether the name destroys
/// while the tool is not destructive).
fn contradiction(tool: &Tool) -> Option<(String, bool)> {
    let words = crate::names::words(&tool.name.value);
    let verbs: Vec<(&String, Verb)> = words.iter().filter_map(|w| Some((w, verb(w)?))).collect();
    let destructive = tool.annotations().destructive;
    let read_class = tool.effect.value.is_read_class();
    let lead = leading(tool);
    let said = |list: &[&str]| lead.as_deref().is_some_and(|l| list.contains(&l));
    if let Some((w, _)) = verbs.iter().find(|(_, v)| *v == Verb::Destructive) {
        // A read-class tool leading with a write verb is `selection/effect-wording`'s.
        let reported = read_class && said(WORDING_WRITE);
        return (!destructive && !reported).then(|| ((*w).clone(), true));
    }
    let only_reads = !verbs.is_empty() && verbs.iter().all(|(_, v)| *v == Verb::Read);
    if only_reads && destructive && !said(WORDING_READ) {
        return Some((verbs[0].0.clone(), false));
    }
    None
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            if hints_guessed(cx, catalog, tool) {
                continue;
            }
            let Some((word, destroys)) = contradiction(tool) else { continue };
            let (name, effect) = (&tool.name.value, tool.effect.value.as_str());
            let f = if destroys {
                let message = format!("tool `{name}` is marked non-destructive (effect `{effect}`), but its name's verb `{word}` destroys or stops something");
                Finding::in_tool(catalog, tool, tool.effect.span, message)
                    .level(Level::Error)
                    .help("mark it destructive (`destructiveHint: true`; in a catalog `effect \"destructive\"`, with `idempotent=#true` when repeating it changes nothing), or rename it if it only adds")
            } else {
                let message = format!("tool `{name}` may destroy data by its hints (effect `{effect}`), but its name's verbs only read (`{word}`)");
                Finding::in_tool(catalog, tool, tool.effect.span, message)
                    .help("mark it read-only (`readOnlyHint: true`; in a catalog `effect \"read\"`) if it only reads, or name the change it makes")
            };
            out.push(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::contradiction;
    use crate::lint::testkit::texts::*;
    use crate::model::Effect;

    fn with(name: &str, effect: Effect, summary: &str) -> Option<bool> {
        let mut t = summarised(name, summary);
        t.effect = sp(effect);
        contradiction(&t).map(|(_, destroys)| destroys)
    }

    #[test]
    fn names_against_effects() {
        assert_eq!(with("campaign_pause", Effect::Append, "Stop a campaign."), Some(true));
        assert_eq!(with("delete_label", Effect::Read, "Takes a label off the issue."), Some(true));
        assert_eq!(with("search_nodes", Effect::Destructive, "Use this to find nodes."), Some(false));
        // `selection/effect-wording` reports these.
        assert_eq!(with("delete_label", Effect::Read, "Delete a label."), None);
        assert_eq!(with("search_nodes", Effect::Destructive, "Search nodes."), None);
        // Agreeing, or words that are no verbs.
        assert_eq!(with("pods_delete", Effect::Destructive, "Delete a pod."), None);
        assert_eq!(with("mark_all_notifications_read", Effect::Update, "Mark all read."), None);
        assert_eq!(with("pods_list", Effect::Read, "List pods."), None);
        assert_eq!(with("resources_get_or_update", Effect::Update, "Get or update."), None);
    }
}
