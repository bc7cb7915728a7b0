//! The `selection/unknown-tool` rule: a tool named in `confusable`, `on-timeout tool=` or
//! `replacement=` exists; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};
use crate::model::Sp;
use std::collections::HashSet;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that every tool a tool refers to exists in one of the catalogs loaded together:
    /// `examples { confusable "TOOL" }`, `on-timeout … tool="TOOL"` and
    /// `deprecated … replacement="TOOL"`. The help suggests the closest existing name.
    ///
    /// ## Why is this bad?
    /// A reference to a tool that does not exist sends the model (or the recovery logic after a
    /// timeout) to nothing: the status check after a timed-out payment cannot run, and a
    /// deprecated tool points its callers at a replacement they cannot call. It is usually a
    /// typo or a tool renamed without updating its references.
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     // …
    ///     examples { confusable "invoice_gte" }
    /// }
    /// tool "invoice_get" version="1.0.0" { … }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_list" version="1.0.0" {
    ///     // …
    ///     examples { confusable "invoice_get" }
    /// }
    /// tool "invoice_get" version="1.0.0" { … }
    /// ```
    pub static RULE = Rule {
        id: "selection/unknown-tool",
        level: Level::Error,
        summary: "a tool named in `confusable`, `on-timeout tool=` or `replacement=` exists",
        hooks: crate::lint::Hooks::project(check),
    };
}

/// The closest known name, if it is close enough to be a plausible typo.
fn did_you_mean<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(2);
    crate::diag::suggest::did_you_mean_within(name, known.iter().copied(), limit)
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let mut known: Vec<&str> = cx
        .project
        .catalogs
        .iter()
        .flat_map(|c| c.tools.iter().map(|t| t.name.value.as_str()))
        .collect();
    known.sort_unstable();
    known.dedup();
    let set: HashSet<&str> = known.iter().copied().collect();
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let mut refs: Vec<(&str, &Sp<String>)> = tool
                .examples
                .confusables
                .iter()
                .map(|c| ("examples confusable", c))
                .collect();
            if let Some(t) = tool.on_timeout.as_ref().and_then(|o| o.tool.as_ref()) {
                refs.push(("on-timeout tool=", t));
            }
            if let Some(r) = tool.deprecated.as_ref().and_then(|d| d.replacement.as_ref()) {
                refs.push(("deprecated replacement=", r));
            }
            for (what, name) in refs {
                if set.contains(name.value.as_str()) {
                    continue;
                }
                let help = match did_you_mean(&name.value, &known) {
                    Some(k) => format!("did you mean `{k}`?"),
                    None => "name a tool declared in one of the catalogs loaded together, or add that tool".to_string(),
                };
                out.push(
                    Finding::in_tool(
                        catalog,
                        tool,
                        name.span,
                        format!(
                            "`{what}` of tool `{}` names `{}`, which is no tool of the loaded catalogs",
                            tool.name.value, name.value
                        ),
                    )
                    .help(help),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{RULE, did_you_mean};
    use crate::lint::testkit::texts::*;
    use crate::model::*;

    #[test]
    fn suggests_only_close_names() {
        let known = ["invoice_get", "invoice_list", "payment_send"];
        assert_eq!(did_you_mean("invoice_gte", &known), Some("invoice_get"));
        assert_eq!(did_you_mean("invoice_lst", &known), Some("invoice_list"));
        assert_eq!(did_you_mean("weather_forecast", &known), None);
    }

    #[test]
    fn reports_every_kind_of_reference_across_catalogs() {
        let mut a = tool("invoice_pay");
        a.examples.confusables = vec![sp("invoice_gte".into()), sp("invoice_get".into())];
        a.on_timeout = Some(Box::new(OnTimeout {
            strategy: sp(TimeoutStrategy::QueryStatus),
            tool: Some(sp("payment_status".into())),
            span: Span::default(),
        }));
        a.deprecated = Some(Box::new(Deprecated {
            reason: None,
            replacement: Some(sp("payment_send".into())),
            since: None,
            sunset: None,
            span: Span::default(),
        }));
        let project = Project {
            catalogs: vec![
                catalog("billing", vec![a, tool("invoice_get")]),
                catalog("payments", vec![tool("payment_send")]),
            ],
        };
        let found = run_with(&RULE, &project, &Default::default());
        let messages: Vec<(&str, Option<&str>)> = found
            .iter()
            .map(|f| (f.message.as_str(), f.help.as_deref()))
            .collect();
        assert_eq!(
            messages,
            [
                (
                    "`examples confusable` of tool `invoice_pay` names `invoice_gte`, which is no tool of the loaded catalogs",
                    Some("did you mean `invoice_get`?")
                ),
                (
                    "`on-timeout tool=` of tool `invoice_pay` names `payment_status`, which is no tool of the loaded catalogs",
                    // Too far from `payment_send` to suggest it.
                    Some("name a tool declared in one of the catalogs loaded together, or add that tool")
                ),
            ]
        );
    }
}
