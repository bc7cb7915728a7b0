//! The `effect` (and `open-world`) of an imported tool, from its MCP annotations.
//!
//! MCP's hints have defaults when absent (`readOnlyHint` false, `destructiveHint` true,
//! `idempotentHint` false, `openWorldHint` true); a catalog states a class instead. With at
//! least one of the first three hints, absent ones take MCP's default and a comment says so.
//! With none, the class is guessed from the verbs of the tool's name.
//!
//! `idempotentHint: true` on a write becomes `idempotent=#true` on `append`, and on
//! `destructive` when the name's verb deletes (`delete_file`); a destructive idempotent tool
//! whose name does not delete stays `update` (same end state for the same arguments).
//!
//! A tool without `outputSchema` whose name says it returns text, Markdown or an image
//! (logs, diffs, file contents, documentation, screenshots) gets `output kind=…`
//! ([`content_kind`]) with a comment that it was guessed.

use super::ToolNotes;
use super::kdl::Node;
use crate::model::{ContentKind, Effect};
use serde_json::{Map, Value};

/// Leading verbs of tools that only read.
const READ_VERBS: &[&str] = &[
    "get", "list", "search", "read", "find", "fetch", "describe", "show", "view", "query", "count",
    "explain", "lookup", "check", "inspect", "diff", "status", "log", "logs", "top", "stats",
    "info", "retrieve", "download", "browse", "analyze", "validate", "preview",
];

/// Verbs of tools that delete or cannot be undone.
const DESTRUCTIVE_VERBS: &[&str] = &[
    "delete",
    "remove",
    "drop",
    "uninstall",
    "destroy",
    "purge",
    "revoke",
    "cancel",
    "kill",
    "terminate",
    "deactivate",
    "clear",
    "reset",
    "wipe",
    "unassign",
];

/// Verbs of tools that overwrite state to a given value.
const UPDATE_VERBS: &[&str] = &[
    "update",
    "set",
    "edit",
    "rename",
    "replace",
    "patch",
    "modify",
    "scale",
    "assign",
    "enable",
    "disable",
    "configure",
    "move",
    "upsert",
];

/// The effect the tool's name suggests, from its first word that is a known verb.
pub fn guess(name: &str) -> Option<Effect> {
    for w in crate::names::words(name) {
        let w = w.as_str();
        if READ_VERBS.contains(&w) {
            return Some(Effect::Read);
        }
        if DESTRUCTIVE_VERBS.contains(&w) {
            return Some(Effect::Destructive);
        }
        if UPDATE_VERBS.contains(&w) {
            return Some(Effect::Update);
        }
    }
    None
}

/// The effect the first word of `text` suggests (`Get the details …` → read).
fn guess_from_text(text: &str) -> Option<Effect> {
    let first = text.split_whitespace().next()?;
    guess(&first.to_lowercase()).or_else(|| {
        // Descriptions start with the third person: `Lists`, `Deletes`, `Updates`.
        let base = first.to_lowercase();
        let base = base
            .strip_suffix("es")
            .filter(|b| guess(b).is_some())
            .unwrap_or(&base);
        guess(base.strip_suffix('s').unwrap_or(base))
    })
}

/// Writes `effect` and, when the annotations state it, `open-world` into the tool `node`.
pub(super) fn effect(
    node: &mut Node,
    name: &str,
    description: Option<&str>,
    annotations: Option<&Map<String, Value>>,
    tn: &mut ToolNotes<'_>,
) {
    let hint = |key: &str| {
        annotations
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
    };
    let (read_only, destructive, idempotent) = (
        hint("readOnlyHint"),
        hint("destructiveHint"),
        hint("idempotentHint"),
    );
    let mut natural = false;
    let effect = if read_only.is_none() && destructive.is_none() && idempotent.is_none() {
        let (effect, how) = match (guess(name), description.and_then(guess_from_text)) {
            (Some(e), _) => (e, "from the verbs of its name"),
            (None, Some(e)) => (e, "from the leading verb of its description"),
            (None, None) => (
                Effect::Append,
                "as `append` (no known verb in the name or description)",
            ),
        };
        tn.add(
            node,
            "annotations",
            format!(
                "no effect hints: effect `{}` guessed {how}",
                effect.as_str()
            ),
        );
        effect
    } else if read_only == Some(true) {
        Effect::Read
    } else {
        let e = write_effect(node, read_only, destructive, idempotent, tn);
        natural = idempotent == Some(true)
            && (e == Effect::Append
                || (e == Effect::Update && guess(name) == Some(Effect::Destructive)));
        if natural && e == Effect::Update {
            Effect::Destructive
        } else {
            e
        }
    };
    let mut effect_node = Node::new("effect").arg(effect.as_str());
    if natural {
        effect_node = effect_node.prop("idempotent", true);
    }
    node.child(effect_node);
    if let Some(open) = hint("openWorldHint") {
        node.child(Node::new("open-world").arg(open));
    }
}

fn write_effect(
    node: &mut Node,
    read_only: Option<bool>,
    destructive: Option<bool>,
    idempotent: Option<bool>,
    tn: &mut ToolNotes<'_>,
) -> Effect {
    let mut assumed = Vec::new();
    if read_only.is_none() {
        assumed.push("readOnlyHint false");
    }
    if destructive.is_none() {
        assumed.push("destructiveHint true");
    }
    if idempotent.is_none() {
        assumed.push("idempotentHint false");
    }
    if !assumed.is_empty() {
        tn.add(
            node,
            "annotations",
            format!("absent hints take MCP's defaults: {}", assumed.join(", ")),
        );
    }
    match (destructive.unwrap_or(true), idempotent.unwrap_or(false)) {
        (true, true) => Effect::Update,
        (true, false) => Effect::Destructive,
        (false, false) => Effect::Append,
        (false, true) => Effect::Append,
    }
}

/// Words of a tool name that mark an unstructured result, and its kind.
const CONTENT_WORDS: &[(&str, ContentKind)] = &[
    ("screenshot", ContentKind::Image),
    ("markdown", ContentKind::Markdown),
    ("doc", ContentKind::Markdown),
    ("docs", ContentKind::Markdown),
    ("documentation", ContentKind::Markdown),
    ("guide", ContentKind::Markdown),
    ("log", ContentKind::Text),
    ("logs", ContentKind::Text),
    ("diff", ContentKind::Text),
    ("blame", ContentKind::Text),
    ("html", ContentKind::Text),
    ("content", ContentKind::Text),
    ("contents", ContentKind::Text),
    ("csv", ContentKind::Text),
    ("pcap", ContentKind::Text),
    ("stacktrace", ContentKind::Text),
    ("breadcrumbs", ContentKind::Text),
];

/// The unstructured result a tool without `outputSchema` likely has, from the words of its
/// name: a listed word (first match in list order), or `image` for a read of an image
/// (`get_tiny_image`; an `upload_…_image` returns no image).
pub fn content_kind(name: &str) -> Option<ContentKind> {
    let words = crate::names::words(name);
    let has = |w: &str| words.iter().any(|x| x == w);
    if let Some((_, kind)) = CONTENT_WORDS.iter().find(|(w, _)| has(w)) {
        return Some(*kind);
    }
    (has("image") && guess(name) == Some(Effect::Read)).then_some(ContentKind::Image)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_guess_by_their_first_known_verb() {
        assert_eq!(guess("list_pods"), Some(Effect::Read));
        assert_eq!(guess("pods-delete"), Some(Effect::Destructive));
        assert_eq!(guess("setLevel"), Some(Effect::Update));
        assert_eq!(guess("puppeteer_navigate"), None);
        assert_eq!(
            guess_from_text("Get the details of a detection"),
            Some(Effect::Read)
        );
        assert_eq!(guess_from_text("Lists pods"), Some(Effect::Read));
        assert_eq!(guess_from_text("Navigate to a URL"), None);
    }

    #[test]
    fn result_kinds_guess_from_the_name() {
        assert_eq!(content_kind("pods_log"), Some(ContentKind::Text));
        assert_eq!(
            content_kind("get_url_markdown"),
            Some(ContentKind::Markdown)
        );
        assert_eq!(content_kind("get-tiny-image"), Some(ContentKind::Image));
        assert_eq!(
            content_kind("puppeteer_screenshot"),
            Some(ContentKind::Image)
        );
        assert_eq!(content_kind("upload_brand_theme_logo_image"), None);
        assert_eq!(content_kind("list_issues"), None);
    }
}
