//! Helpers that rules of more than one category use, so that no category imports another's
//! files: listing an example's violations, the length a pattern bounds, vague tool names.

/// The violations of an example, each as `POINTER reason`, joined by `; `.
pub(crate) fn listed(violations: &[crate::runtime::Violation]) -> String {
    let list: Vec<String> = violations
        .iter()
        .map(|v| {
            format!(
                "{} {}",
                if v.path.is_empty() { "/" } else { &v.path },
                v.reason
            )
        })
        .collect();
    list.join("; ")
}

/// The most bytes (so also characters) a value matching the anchored `pattern` can have, or
/// `None` when the pattern is not anchored as a whole, does not parse or repeats without end.
/// `^[0-9a-f]{40}$` bounds a value as well as `max-length=40` does.
pub(crate) fn pattern_max_len(pattern: &str) -> Option<usize> {
    use regex_syntax::hir::Look;
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .ok()?;
    let props = hir.properties();
    let anchored = props.look_set_prefix().contains(Look::Start)
        && props.look_set_suffix().contains(Look::End);
    if anchored { props.maximum_len() } else { None }
}

/// Words that say nothing about the resource or the business action.
const GENERIC: &[&str] = &[
    "process", "handle", "manage", "do", "run", "execute", "data", "request", "query", "exec",
    "shell", "command", "call", "invoke", "tool", "util", "utils", "helper", "misc",
];

/// Verbs that are fine next to a resource (`invoice_get`) but add nothing to generic words.
const WEAK: &[&str] = &[
    "get", "set", "fetch", "send", "make", "perform", "do", "api",
];

/// General infrastructure: with only generic or weak words beside them, the tool is a
/// general-purpose capability.
const INFRA: &[&str] = &[
    "http", "https", "sql", "shell", "url", "bash", "curl", "eval", "cmd",
];

/// How a tool name is vague ([`vague_name`]).
#[derive(Debug, PartialEq)]
pub(crate) enum Vague {
    /// Generic words only (`process_data`).
    Generic,
    /// General infrastructure (`run_sql`, `http_request`).
    Infrastructure,
}

/// Whether tool name `name` is made only of generic, weak and infrastructure words, and which
/// kind of vague it is then.
pub(crate) fn vague_name(name: &str) -> Option<Vague> {
    let words: Vec<String> = crate::names::words(name);
    if words.is_empty() {
        return None;
    }
    let known = |w: &str| GENERIC.contains(&w) || WEAK.contains(&w) || INFRA.contains(&w);
    if !words.iter().all(|w| known(w)) {
        return None;
    }
    if words.iter().any(|w| INFRA.contains(&w.as_str())) {
        Some(Vague::Infrastructure)
    } else if words.iter().any(|w| GENERIC.contains(&w.as_str())) {
        Some(Vague::Generic)
    } else {
        None
    }
}

/// Verbs of writes a repeated call leaves as the first one did: a delete, a state set or
/// switched (`issue_delete`, `flag_set`, `monitor_pause`).
const IDEMPOTENT_VERBS: &[&str] = &[
    "delete",
    "remove",
    "set",
    "unset",
    "put",
    "replace",
    "archive",
    "unarchive",
    "close",
    "reopen",
    "cancel",
    "revoke",
    "disable",
    "enable",
    "pause",
    "resume",
    "stop",
    "clear",
    "dismiss",
    "deactivate",
    "activate",
    "mark",
    "lock",
    "unlock",
];

/// A write that reads as naturally idempotent: a verb of [`IDEMPOTENT_VERBS`] on a target a
/// required input names (an id, a name, a key): the help of the rules that ask for an
/// idempotency key or a timeout recovery then leads with `idempotent=#true`.
pub(crate) fn reads_idempotent(tool: &crate::model::Tool) -> bool {
    let verb = crate::names::words(&tool.name.value)
        .iter()
        .any(|w| IDEMPOTENT_VERBS.contains(&w.as_str()));
    let target = tool.input.fields.iter().filter(|f| f.required).any(|f| {
        let w = crate::names::words(&f.name.value);
        matches!(
            w.last().map(String::as_str),
            Some("id" | "ids" | "name" | "key" | "slug" | "number")
        )
    });
    verb && target
}

#[cfg(test)]
mod tests {
    use super::{Vague, pattern_max_len, vague_name};

    #[test]
    fn an_anchored_finite_pattern_bounds_the_length() {
        assert_eq!(pattern_max_len("^[0-9a-f]{40}$"), Some(40));
        assert_eq!(pattern_max_len("^(a|bc)$"), Some(2));
        assert_eq!(pattern_max_len("^[a-z]+$"), None);
        assert_eq!(pattern_max_len("[0-9]{3}"), None);
        assert_eq!(pattern_max_len("^a|bb$"), None);
        assert_eq!(pattern_max_len("^("), None);
    }

    #[test]
    fn flags_generic_names() {
        for name in [
            "process_data",
            "get_data",
            "run_command",
            "handle_request",
            "do_it_tool",
            "misc_util",
        ] {
            let expected = if name == "do_it_tool" {
                None
            } else {
                Some(Vague::Generic)
            };
            assert_eq!(vague_name(name), expected, "{name}");
        }
        assert_eq!(vague_name("execute"), Some(Vague::Generic));
    }

    #[test]
    fn flags_infrastructure() {
        for name in [
            "http_request",
            "run_sql",
            "shell_exec",
            "fetch_url",
            "sql_query",
            "runSql",
        ] {
            assert_eq!(vague_name(name), Some(Vague::Infrastructure), "{name}");
        }
    }

    #[test]
    fn accepts_named_resources() {
        for name in [
            "invoice_get",
            "invoice_url_get",
            "report_run",
            "payment_transfer_submit",
            "data_export_schedule",
        ] {
            assert_eq!(vague_name(name), None, "{name}");
        }
    }
}
