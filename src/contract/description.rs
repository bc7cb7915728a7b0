//! Model-facing text rendered with minijinja: the description of each tool, from the
//! built-in `templates/description.j2` or a project's own folder (docs/configuration.md).
//! A run holds one [`Templates`]; nothing renders a description any other way.
//!
//! The words for the effect, limits and timeout strategy are computed here and handed to
//! the template ready-made, so a project's own template can reuse them without
//! re-deriving the contract. Rendered text is normalised (LF newlines, no trailing
//! whitespace, at most one blank line in a row, none at either end), so a template's layout
//! never changes a hash by accident.

use crate::model::{Catalog, Effect, Stability, TimeoutStrategy, Tool};
use minijinja::{AutoEscape, Environment};
use serde::Serialize;
use std::fmt;

/// The template every tool description is rendered from.
pub const DESCRIPTION_TEMPLATE: &str = "description.j2";

/// The template a catalog's Markdown documentation is rendered from (`crate::docs`).
pub const DOCS_TEMPLATE: &str = "docs.md.j2";

/// The templates shipped in the crate's `templates/` folder, by name.
const BUILTINS: &[(&str, &str)] = &[
    (
        DESCRIPTION_TEMPLATE,
        include_str!("../../templates/description.j2"),
    ),
    (DOCS_TEMPLATE, include_str!("../../templates/docs.md.j2")),
];

/// A failure to load or render a template, naming the template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// The template's name (`description.j2`), or its path when overridden.
    pub template: String,
    /// What went wrong, with the line when the template engine knows it.
    pub message: String,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "template {}: {}", self.template, self.message)
    }
}

impl std::error::Error for TemplateError {}

/// A set of templates: the built-ins, optionally overridden by a project's folder.
pub struct Templates {
    env: Environment<'static>,
    /// The file each project template was read from, so errors name the file, not just the
    /// template.
    origins: std::collections::BTreeMap<String, String>,
}

impl fmt::Debug for Templates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<&str> = self.env.templates().map(|(n, _)| n).collect();
        names.sort_unstable();
        f.debug_struct("Templates").field("names", &names).finish()
    }
}

impl Templates {
    /// The built-in templates only.
    pub fn builtin() -> Templates {
        let mut env = new_env();
        for (name, source) in BUILTINS {
            // The built-in templates are part of the crate and covered by tests; a syntax
            // error in one would be a bug of catalogc, caught before release.
            #[allow(clippy::expect_used)]
            env.add_template(name, source)
                .expect("the built-in templates parse");
        }
        Templates {
            env,
            origins: Default::default(),
        }
    }

    /// Adds (or replaces) template `name` read from the file `origin`: errors rendering it
    /// name the file.
    pub fn add_file(
        &mut self,
        name: String,
        origin: String,
        source: String,
    ) -> Result<(), TemplateError> {
        self.add(name.clone(), source).map_err(|e| TemplateError {
            template: origin.clone(),
            ..e
        })?;
        self.origins.insert(name, origin);
        Ok(())
    }

    /// Adds (or replaces) one template from source.
    pub fn add(&mut self, name: String, source: String) -> Result<(), TemplateError> {
        let template = name.clone();
        self.env
            .add_template_owned(name, source)
            .map_err(|e| TemplateError {
                template,
                message: error_message(&e),
            })
    }

    /// Renders template `name` with `ctx`, normalised (see the module docs).
    pub fn render<S: Serialize>(&self, name: &str, ctx: S) -> Result<String, TemplateError> {
        let err = |e: minijinja::Error| {
            // An error inside an included or imported template names that one.
            let failing = e.name().unwrap_or(name);
            TemplateError {
                template: self
                    .origins
                    .get(failing)
                    .map_or(failing, String::as_str)
                    .to_string(),
                message: error_message(&e),
            }
        };
        let tmpl = self.env.get_template(name).map_err(err)?;
        let raw = tmpl.render(ctx).map_err(err)?;
        Ok(normalize(&raw))
    }

    /// The model-facing description of `tool`.
    pub fn description(&self, cat: &Catalog, tool: &Tool) -> Result<String, TemplateError> {
        self.render(DESCRIPTION_TEMPLATE, description_context(cat, tool))
    }
}

fn new_env() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    // Plain text for a model, never HTML; Markdown templates escape with the filters.
    env.set_auto_escape_callback(|_| AutoEscape::None);
    super::markdown::add_filters(&mut env);
    env
}

fn error_message(e: &minijinja::Error) -> String {
    match e.line() {
        Some(line) => format!("line {line}: {e}"),
        None => e.to_string(),
    }
}

/// What the description template sees.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DescriptionContext {
    /// The catalog's name.
    pub catalog: String,
    /// The tool's name.
    pub name: String,
    /// `title`, when written.
    pub title: Option<String>,
    /// `summary`, when written.
    pub summary: Option<String>,
    /// `when`: when the model should call the tool.
    pub when: Option<String>,
    /// `when-not`: when it should not.
    pub when_not: Option<String>,
    /// The effect keyword, e.g. `destructive`.
    pub effect: &'static str,
    /// The effect in words, without a final period.
    pub effect_words: String,
    /// The tool's `limits`, when declared.
    pub limits: Option<LimitsContext>,
    /// Each limit in words (`at most 50 items`), in a fixed order; empty without limits.
    pub limits_words: Vec<String>,
    /// What to do after a timeout, as a sentence; `None` without `on-timeout`.
    pub timeout_words: Option<String>,
    /// The tool's `deprecated` node, when present.
    pub deprecated: Option<DeprecatedContext>,
    /// The deprecation as a sentence; `None` unless deprecated.
    pub deprecation: Option<String>,
    /// `stability`: `experimental`, `beta` or `stable` (the default).
    pub stability: &'static str,
    /// What the stability level means for callers, as a sentence; `None` for `stable`.
    pub stability_words: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
/// A tool's `limits` as the template sees them; absent limits are `None`.
pub struct LimitsContext {
    /// Most items a result returns.
    pub max_items: Option<u64>,
    /// Largest result, in bytes.
    pub max_result_bytes: Option<u64>,
    /// Time the call may take, in milliseconds.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
/// A tool's deprecation as the template sees it.
pub struct DeprecatedContext {
    /// Why the tool is deprecated, when written.
    pub reason: Option<String>,
    /// The tool to call instead, when named.
    pub replacement: Option<String>,
    /// The version that deprecated it, when written.
    pub since: Option<String>,
    /// The first day it may be removed (`YYYY-MM-DD`), when written.
    pub sunset: Option<String>,
}

/// The template context of `tool`'s description.
pub fn description_context(cat: &Catalog, tool: &Tool) -> DescriptionContext {
    let s = |o: &Option<crate::model::Sp<String>>| o.as_ref().map(|v| v.value.clone());
    let limits = tool.limits.as_ref().map(|l| LimitsContext {
        max_items: l.max_items.as_ref().map(|v| v.value),
        max_result_bytes: l.max_result_bytes.as_ref().map(|v| v.value),
        timeout_ms: l.timeout_ms.as_ref().map(|v| v.value),
    });
    let mut limits_words = Vec::new();
    if let Some(l) = &limits {
        if let Some(n) = l.max_items {
            limits_words.push(format!("at most {n} {}", plural(n, "item", "items")));
        }
        if let Some(n) = l.max_result_bytes {
            limits_words.push(format!("results up to {n} {}", plural(n, "byte", "bytes")));
        }
        if let Some(n) = l.timeout_ms {
            limits_words.push(format!("times out after {n} ms"));
        }
    }
    let deprecated = tool.deprecated.as_ref().map(|d| DeprecatedContext {
        reason: s(&d.reason),
        replacement: s(&d.replacement),
        since: s(&d.since),
        sunset: d.sunset.as_ref().map(|d| d.value.to_string()),
    });
    DescriptionContext {
        catalog: cat.name.value.clone(),
        name: tool.name.value.clone(),
        title: tool.title.as_ref().map(|v| v.value.clone()),
        summary: s(&tool.summary),
        when: s(&tool.when),
        when_not: s(&tool.when_not),
        effect: tool.effect.value.as_str(),
        effect_words: effect_words(tool),
        limits,
        limits_words,
        timeout_words: timeout_words(tool),
        deprecation: deprecated.as_ref().map(deprecation_words),
        deprecated,
        stability: tool.stability().as_str(),
        stability_words: stability_words(tool.stability()),
    }
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

fn effect_words(tool: &Tool) -> String {
    let key = tool.idempotency.as_ref().map(|i| i.key.value.as_str());
    let mut w = match tool.effect.value {
        Effect::Read => "reads only; changes nothing".to_string(),
        Effect::ExternalRead => {
            "reads only, but the read is visible outside this service (third-party call, audit)"
                .to_string()
        }
        Effect::Preview => "computes what a change would do; changes nothing".to_string(),
        Effect::Update => {
            "overwrites state; repeating the same call leaves the same end state".to_string()
        }
        Effect::Append => match key {
            Some(k) => format!(
                "adds new state, never overwrites; a retry with the same {k} does not add it twice"
            ),
            None => "adds new state, never overwrites; a retry may add it twice".to_string(),
        },
        Effect::Destructive => {
            let mut w = "irreversible or externally visible".to_string();
            if tool.confirm.is_some() {
                w.push_str("; requires confirmation");
            }
            if let Some(k) = key {
                w.push_str(&format!("; a retry with the same {k} is safe"));
            }
            w
        }
    };
    if tool.open_world() && tool.effect.value != Effect::ExternalRead {
        w.push_str("; reaches systems outside this service");
    }
    w
}

fn timeout_words(tool: &Tool) -> Option<String> {
    let t = tool.on_timeout.as_ref()?;
    Some(match (t.strategy.value, &t.tool) {
        (TimeoutStrategy::QueryStatus, Some(other)) => format!(
            "If it times out, call {} to learn the outcome before retrying.",
            other.value
        ),
        (TimeoutStrategy::QueryStatus, None) => {
            "If it times out, check the outcome before retrying.".to_string()
        }
        (TimeoutStrategy::RetryWithKey, _) => match &tool.idempotency {
            Some(i) => format!("If it times out, retry with the same {}.", i.key.value),
            None => "If it times out, retry with the same idempotency key.".to_string(),
        },
    })
}

fn stability_words(s: Stability) -> Option<String> {
    match s {
        Stability::Experimental => {
            Some("Experimental: its arguments and results may change in any release.".to_string())
        }
        Stability::Beta => {
            Some("Beta: its arguments and results may still change in a major release.".into())
        }
        Stability::Stable => None,
    }
}

fn deprecation_words(d: &DeprecatedContext) -> String {
    let mut w = "Deprecated".to_string();
    if let Some(v) = &d.since {
        w.push_str(&format!(" since {v}"));
    }
    if let Some(r) = &d.reason {
        w.push_str(": ");
        w.push_str(r.trim_end_matches('.'));
    }
    w.push('.');
    if let Some(r) = &d.replacement {
        w.push_str(&format!(" Use {r} instead."));
    }
    if let Some(day) = &d.sunset {
        w.push_str(&format!(" It may be removed from {day} on."));
    }
    w
}

/// LF newlines, no trailing whitespace on any line, at most one blank line in a row, no
/// blank lines at either end, no final newline.
pub fn normalize(text: &str) -> String {
    // Rendered templates rarely hold a carriage return: most texts are not copied for it.
    let text = if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0usize;
    for line in text.split('\n') {
        let line = line.trim_end();
        if line.is_empty() {
            blank_run += 1;
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
            if blank_run > 0 {
                out.push('\n');
            }
        }
        blank_run = 0;
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn normalize_collapses_and_trims() {
        assert_eq!(normalize("\n\na  \r\nb\n\n\n\nc\t\n\n"), "a\nb\n\nc");
        assert_eq!(normalize(""), "");
        assert_eq!(normalize("x\ry"), "x\ny");
    }
}
