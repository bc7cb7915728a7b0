//! Rule documentation for people: `catalogc rules`, `catalogc explain`, `docs/rules.md`, and
//! the lint rules' metadata for output formats ([`LintRules`]). Everything is generated from the registry, so a rule's
//! file is the single place its text lives.

use super::{Rule, registry};
use crate::diag::emit::{RuleMeta, RuleMetadata};
use serde_json::{Value, json};

/// The body of `docs/rules.md`.
pub fn rules_markdown() -> String {
    let mut md = String::from(
        "# Lint rules\n\n\
         <!-- Generated from the rule files in src/lint/rules/ by \
         `catalogc::lint::docs::rules_markdown`. Do not edit: run \
         `UPDATE_DOCS=1 cargo test --test lint_rules` to regenerate. -->\n\n\
         Every rule catalogc ships, with its default level. `catalogc rules` lists them and \
         `catalogc explain ID` prints one; levels can be changed in `catalogc.kdl` (see \
         [configuration.md](configuration.md)) and one rule can be suppressed for one tool with \
         `allow \"RULE-ID\" reason=\"…\"`.\n\n\
         | ID | level | summary |\n|---|---|---|\n",
    );
    for rule in registry() {
        md.push_str(&format!(
            "| [`{}`](#{}) | {} | {} |\n",
            rule.id,
            anchor(rule.id),
            rule.level.as_str(),
            rule.summary.replace('|', "\\|")
        ));
    }
    let mut category = "";
    for rule in registry() {
        if rule.category() != category {
            category = rule.category();
            md.push_str(&format!("\n## {category}\n"));
        }
        let published = super::published::cap(rule.id, rule.level);
        let on_lists = if published < rule.level {
            format!(
                " On a published tools/list: at most **{}** ([why](corpus.md#levels-on-a-published-list)).",
                published.as_str()
            )
        } else {
            String::new()
        };
        md.push_str(&format!(
            "\n### {}\n\nDefault level: **{}**.{on_lists} {}\n\n",
            rule.id,
            rule.level.as_str(),
            rule.summary
        ));
        if let Some(line) = measured_line(rule.id) {
            md.push_str(&line);
        }
        md.push_str(&demote(&rule.doc()));
    }
    md
}

/// One rule's precision at one level on the round-11 split: of its findings on published
/// tools/lists collected after the rules were written, how many a careful author of the
/// server would fix (docs/corpus.md, "The judging standard"). `tests/corpus_round11.rs` fails
/// when these figures differ from what the rules find there.
#[derive(Debug, Clone, Copy)]
pub struct Measured {
    /// The rule ID.
    pub rule: &'static str,
    /// The level the findings are reported at (`error`, `warn`, `info`).
    pub level: &'static str,
    /// Findings judged real.
    pub real: usize,
    /// Findings judged real or not (`unclear` ones left out).
    pub judged: usize,
}

/// The precision of each rule and level on tests/corpus-round11's judged sample (30 servers,
/// 996 tools collected after the rules were written), by rule ID then level; docs/rules.md
/// shows it under each rule.
pub const UNSEEN: &[Measured] = &[
    Measured {
        rule: "bounds/array-unbounded",
        level: "warn",
        real: 20,
        judged: 34,
    },
    Measured {
        rule: "bounds/integer-as-number",
        level: "warn",
        real: 69,
        judged: 73,
    },
    Measured {
        rule: "bounds/number-unbounded",
        level: "warn",
        real: 56,
        judged: 67,
    },
    Measured {
        rule: "bounds/pattern",
        level: "warn",
        real: 0,
        judged: 3,
    },
    Measured {
        rule: "bounds/pseudo-bound",
        level: "error",
        real: 6,
        judged: 6,
    },
    Measured {
        rule: "bounds/string-unbounded",
        level: "info",
        real: 0,
        judged: 8,
    },
    Measured {
        rule: "bounds/string-unbounded",
        level: "warn",
        real: 49,
        judged: 61,
    },
    Measured {
        rule: "catalog/budget",
        level: "warn",
        real: 22,
        judged: 24,
    },
    Measured {
        rule: "effect/hint-contradiction",
        level: "warn",
        real: 0,
        judged: 1,
    },
    Measured {
        rule: "effect/missing-hints",
        level: "warn",
        real: 21,
        judged: 21,
    },
    Measured {
        rule: "effect/switching-argument",
        level: "warn",
        real: 6,
        judged: 10,
    },
    Measured {
        rule: "effect/write-without-input",
        level: "info",
        real: 6,
        judged: 12,
    },
    Measured {
        rule: "naming/vague-name",
        level: "warn",
        real: 1,
        judged: 2,
    },
    Measured {
        rule: "output/missing-schema",
        level: "warn",
        real: 82,
        judged: 87,
    },
    Measured {
        rule: "selection/effect-wording",
        level: "info",
        real: 0,
        judged: 2,
    },
    Measured {
        rule: "selection/length",
        level: "warn",
        real: 18,
        judged: 19,
    },
    Measured {
        rule: "selection/manipulation",
        level: "warn",
        real: 1,
        judged: 1,
    },
    Measured {
        rule: "selection/tautology",
        level: "warn",
        real: 5,
        judged: 5,
    },
    Measured {
        rule: "trust/general-execution",
        level: "warn",
        real: 1,
        judged: 2,
    },
    Measured {
        rule: "trust/model-path",
        level: "warn",
        real: 12,
        judged: 15,
    },
    Measured {
        rule: "trust/sensitive-unmarked",
        level: "warn",
        real: 22,
        judged: 24,
    },
    Measured {
        rule: "trust/url-fetch",
        level: "info",
        real: 0,
        judged: 1,
    },
];

/// docs/rules.md's line on a rule's measured precision, when it has findings on the
/// round-11 split.
fn measured_line(id: &str) -> Option<String> {
    let parts: Vec<String> = UNSEEN
        .iter()
        .filter(|m| m.rule == id)
        .map(|m| {
            format!(
                "at {}, {} of {} findings real ({:.2})",
                m.level,
                m.real,
                m.judged,
                m.real as f64 / m.judged.max(1) as f64
            )
        })
        .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "Measured precision on a sample of 30 published servers collected after the rules \
             were written ([corpus.md](corpus.md#round-11-split)): {}.\n\n",
            parts.join("; ")
        )
    })
}

/// Where a rule is documented online: its section of docs/rules.md for a lint rule, the
/// format description for a loader error (`syntax/…`, `model/…`); `None` for other IDs.
pub fn rule_doc_url(id: &str) -> Option<String> {
    let repo = env!("CARGO_PKG_REPOSITORY");
    if super::rule(id).is_some() {
        Some(format!("{repo}/blob/main/docs/rules.md#{}", anchor(id)))
    } else if id.starts_with("syntax/") || id.starts_with("model/") {
        Some(format!("{repo}/blob/main/docs/catalog-format.md"))
    } else {
        None
    }
}

/// GitHub's heading anchor for a rule ID heading (`naming/tool-name` → `namingtool-name`).
fn anchor(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

/// Rule docs use `##` sections; below a `###` rule heading they become `####`.
fn demote(doc: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if !in_code && line.starts_with("## ") {
            out.push_str("##");
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// `catalogc rules`: one line per rule, aligned.
pub fn rules_table() -> String {
    let width = registry().map(|r| r.id.len()).max().unwrap_or(0);
    let mut s = String::new();
    for rule in registry() {
        s.push_str(&format!(
            "{:width$}  {:5}  {}\n",
            rule.id,
            rule.level.as_str(),
            rule.summary
        ));
    }
    s
}

/// `catalogc rules --format json`.
pub fn rules_json() -> Value {
    Value::Array(
        registry()
            .map(|r| json!({"id": r.id, "level": r.level.as_str(), "summary": r.summary, "category": r.category()}))
            .collect(),
    )
}

/// `catalogc explain ID`: the rule's documentation, or an error with a did-you-mean.
pub fn explain(id: &str) -> Result<String, String> {
    match super::rule(id) {
        Some(rule) => Ok(format!(
            "# {} ({})\n\n{}\n\n{}",
            rule.id,
            rule.level.as_str(),
            rule.summary,
            rule.doc()
        )),
        None => Err(unknown_rule_message(id)),
    }
}

/// "unknown rule `x`; did you mean `y`?" for the command line and the configuration.
pub fn unknown_rule_message(id: &str) -> String {
    match super::did_you_mean(id, registry().map(|r| r.id)) {
        Some(best) => format!("unknown rule `{id}`; did you mean `{best}`?"),
        None => format!("unknown rule `{id}`; `catalogc rules` lists every rule ID"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explain_knows_every_rule_and_suggests() {
        for rule in registry() {
            let text = explain(rule.id).unwrap_or_default();
            assert!(text.contains("## Example"), "{}", rule.id);
        }
        assert_eq!(
            explain("naming/vage-name"),
            Err("unknown rule `naming/vage-name`; did you mean `naming/vague-name`?".to_string())
        );
    }

    #[test]
    fn markdown_lists_every_rule_with_demoted_sections() {
        let md = rules_markdown();
        for rule in registry() {
            assert!(md.contains(&format!("### {}\n", rule.id)), "{}", rule.id);
        }
        assert!(md.contains("#### What it does"));
        assert!(!md.contains("\n## What it does"));
    }
}

/// The lint registry as rule metadata: ID, default level, summary, the rule's documentation
/// as help (Markdown) and its "What it does" paragraph as the description.
#[derive(Debug, Clone, Copy, Default)]
pub struct LintRules;

impl RuleMetadata for LintRules {
    fn rule(&self, id: &str) -> Option<RuleMeta> {
        let rule = super::rule(id)?;
        Some(rule_meta(rule))
    }
}

/// The loader's error codes ([`crate::model::codes`]) as rule metadata: always errors, with
/// their summary and fix.
#[derive(Debug, Clone, Copy, Default)]
pub struct CoreRules;

impl RuleMetadata for CoreRules {
    fn rule(&self, id: &str) -> Option<RuleMeta> {
        let (summary, help) = crate::model::codes::code(id)?;
        Some(RuleMeta {
            id: id.to_string(),
            level: Some(crate::diag::Level::Error),
            summary: summary.to_string(),
            help: Some(help.to_string()),
            ..RuleMeta::default()
        })
    }
}

fn rule_meta(rule: &Rule) -> RuleMeta {
    let doc = rule.doc();
    let first_paragraph: String = doc
        .split("\n\n")
        .find_map(|p| p.strip_prefix("## What it does\n"))
        .unwrap_or(rule.summary)
        .replace('\n', " ");
    RuleMeta {
        id: rule.id.to_string(),
        level: Some(rule.level),
        summary: rule.summary.to_string(),
        description: Some(first_paragraph.trim().to_string()),
        help: Some(doc),
        doc_is_markdown: true,
        name: Some(rule.id.to_string()),
        properties: vec![("category", rule.category().to_string())],
    }
}
