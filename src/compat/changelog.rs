//! `catalogc changelog`: every change of a [`Report`], not only the breaking ones, grouped
//! per catalog and tool with old → new versions, in Markdown (a pull-request comment or a
//! GitHub run summary), JSON and HTML.

use super::{Change, Report, Standing, Status, Versioned};
use crate::contract::markdown::code;
use serde_json::{Value, json};
use std::fmt::Write as _;

fn version(v: &Option<Versioned>) -> &str {
    v.as_ref().map_or("—", |v| v.value.as_str())
}

/// Why a change counts as it does, when not simply by its kind: `accepted: REASON`,
/// `experimental tool`, `beta tool`, `removed after its sunset`.
pub(super) fn note(report: &Report, ch: &Change) -> Option<String> {
    match ch.standing {
        Standing::Counted => None,
        Standing::Accepted(i) => Some(match report.accepts.get(i) {
            Some(a) => format!("accepted: {}", a.reason),
            None => "accepted".to_string(),
        }),
        Standing::Unstable(s) => Some(format!("{} tool", s.as_str())),
        Standing::PastSunset => Some("removed after its sunset".to_string()),
        Standing::Overridden => Some("turned off for this file in catalogc.kdl".to_string()),
    }
}

/// One change as JSON: `rule`, `class` (the one it counts with), `kind_class` (its kind's in
/// the category checked), `standing`, `accepted_reason`, `path`, `message`.
pub(super) fn change_json(report: &Report, ch: &Change) -> Value {
    let reason = match ch.standing {
        Standing::Accepted(i) => report.accepts.get(i).map(|a| a.reason.clone()),
        _ => None,
    };
    json!({
        "rule": ch.kind.id(),
        "class": ch.class().as_str(),
        "kind_class": ch.kind.class_in(report.category).as_str(),
        "standing": ch.standing.as_str(),
        "accepted_reason": reason,
        "path": ch.path,
        "message": ch.message,
    })
}

/// The catalogs and tools with something to say: a changed version or a tool that changed.
fn entries(
    report: &Report,
) -> impl Iterator<Item = (&super::CatalogReport, Vec<&super::ToolReport>)> {
    report.catalogs.iter().filter_map(|c| {
        let tools: Vec<_> = c
            .tools
            .iter()
            .filter(|t| t.status != Status::Unchanged)
            .collect();
        let moved = version(&c.old_version) != version(&c.new_version);
        (moved || !tools.is_empty()).then_some((c, tools))
    })
}

/// Markdown: a heading per catalog and tool, one bullet per change with its class, kind and
/// path. Catalog text goes through the code-span helper the docs use, so no name or message
/// renders as markup, a link or a mention.
pub fn markdown(report: &Report) -> String {
    let mut s = String::from("## Changelog\n\n");
    let mut any = false;
    for (c, tools) in entries(report) {
        any = true;
        let _ = writeln!(
            s,
            "### Catalog {} {} → {}\n",
            code(&c.name),
            code(version(&c.old_version)),
            code(version(&c.new_version))
        );
        for t in tools {
            let _ = writeln!(
                s,
                "#### {} {} → {} ({})\n",
                code(&t.name),
                code(version(&t.old_version)),
                code(version(&t.new_version)),
                t.status.as_str()
            );
            if t.changes.is_empty() {
                s.push_str("- the contract hashes changed (no classified change)\n");
            }
            for ch in &t.changes {
                let _ = write!(
                    s,
                    "- **{}** {} {}",
                    ch.class().as_str(),
                    code(ch.kind.id()),
                    code(&ch.message)
                );
                if let Some(n) = note(report, ch) {
                    let _ = write!(s, " ({})", code(&n));
                }
                s.push('\n');
            }
            s.push('\n');
        }
    }
    if !any {
        s.push_str("No changes.\n");
    }
    s
}

/// JSON: `{"category", "catalogs": [{name, old_version, new_version, tools: [{name, status,
/// old_version, new_version, changes: [{rule, class, kind_class, standing, path, message,
/// accepted_reason}]}]}]}`, only catalogs and tools with something to say.
pub fn json(report: &Report) -> Value {
    let catalogs: Vec<Value> = entries(report)
        .map(|(c, tools)| {
            let tools: Vec<Value> = tools
                .iter()
                .map(|t| {
                    let changes: Vec<Value> =
                        t.changes.iter().map(|ch| change_json(report, ch)).collect();
                    json!({
                        "name": t.name,
                        "status": t.status.as_str(),
                        "old_version": t.old_version.as_ref().map(|v| &v.value),
                        "new_version": t.new_version.as_ref().map(|v| &v.value),
                        "changes": changes,
                    })
                })
                .collect();
            json!({
                "name": c.name,
                "old_version": c.old_version.as_ref().map(|v| &v.value),
                "new_version": c.new_version.as_ref().map(|v| &v.value),
                "tools": tools,
            })
        })
        .collect();
    json!({ "category": report.category.as_str(), "catalogs": catalogs })
}

/// `&`, `<`, `>`, `"` and `'` as entities: catalog text is data, never markup.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A standalone HTML document: the Markdown's structure, every catalog text escaped.
pub fn html(report: &Report) -> String {
    let mut s = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Changelog</title>\n</head>\n<body>\n<h1>Changelog</h1>\n",
    );
    let mut any = false;
    for (c, tools) in entries(report) {
        any = true;
        let _ = writeln!(
            s,
            "<h2>Catalog <code>{}</code> {} → {}</h2>",
            escape(&c.name),
            escape(version(&c.old_version)),
            escape(version(&c.new_version))
        );
        for t in tools {
            let _ = writeln!(
                s,
                "<h3><code>{}</code> {} → {} ({})</h3>\n<ul>",
                escape(&t.name),
                escape(version(&t.old_version)),
                escape(version(&t.new_version)),
                t.status.as_str()
            );
            if t.changes.is_empty() {
                s.push_str("<li>the contract hashes changed (no classified change)</li>\n");
            }
            for ch in &t.changes {
                let _ = write!(
                    s,
                    "<li><strong>{}</strong> <code>{}</code> {}",
                    ch.class().as_str(),
                    ch.kind.id(),
                    escape(&ch.message)
                );
                if let Some(n) = note(report, ch) {
                    let _ = write!(s, " ({})", escape(&n));
                }
                s.push_str("</li>\n");
            }
            s.push_str("</ul>\n");
        }
    }
    if !any {
        s.push_str("<p>No changes.</p>\n");
    }
    s.push_str("</body>\n</html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_every_markup_character() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }
}
