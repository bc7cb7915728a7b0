//! The `catalog/sunset-approaching` rule: a deprecated tool's `sunset` is near or past;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Warns when a deprecated tool's `sunset` date is less than `sunset-warning-days` away
    /// (default 30; `lint { thresholds { sunset-warning-days 30 } }` in catalogc.kdl), and
    /// when it has passed. "Today" is the UTC date of the system clock, or
    /// `CATALOGC_TODAY=YYYY-MM-DD` when set.
    ///
    /// ## Why is this bad?
    /// A sunset is a promise with a date: callers were told to move to the replacement by
    /// then, and `catalogc breaking` refuses a removal before it. A sunset that passes
    /// unnoticed leaves a tool the team meant to remove, still served and still chosen by
    /// models; one that arrives unannounced surprises the callers who did not move.
    ///
    /// ## Example
    /// ```kdl
    /// tool "order_export" version="1.4.0" {
    ///     deprecated "Moved to the reports service." replacement="report_export" sunset="2027-03-01"
    ///     // …
    /// }
    /// ```
    ///
    /// ## Use instead
    /// Tell the remaining callers, then remove the tool once the day has come (`breaking`
    /// counts that removal as a patch), or move the sunset later if they need more time.
    pub static RULE = Rule {
        id: "catalog/sunset-approaching",
        level: Level::Warn,
        summary: "a deprecated tool's `sunset` is near or past",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    let Some(today) = cx.config.today else {
        return;
    };
    let window = i64::try_from(cx.config.thresholds.sunset_warning_days).unwrap_or(i64::MAX);
    for catalog in &cx.project.catalogs {
        for tool in &catalog.tools {
            let Some(sunset) = tool.deprecated.as_ref().and_then(|d| d.sunset.as_ref()) else {
                continue;
            };
            let days = (sunset.value - today).num_days();
            let instead = tool
                .deprecated
                .as_ref()
                .and_then(|d| d.replacement.as_ref())
                .map(|r| format!(" to `{}`", r.value))
                .unwrap_or_default();
            let (message, help) = if days <= 0 {
                (
                    format!(
                        "tool `{}` passed its sunset on {}",
                        tool.name.value, sunset.value
                    ),
                    "remove the tool (`catalogc breaking` counts the removal as a patch), or move `sunset` later if callers still need it".to_string(),
                )
            } else if days <= window {
                (
                    format!(
                        "tool `{}` reaches its sunset on {} (in {days} day{})",
                        tool.name.value,
                        sunset.value,
                        if days == 1 { "" } else { "s" }
                    ),
                    format!("make sure the remaining callers have moved{instead}, then remove the tool on or after that day"),
                )
            } else {
                continue;
            };
            out.push(Finding::in_tool(catalog, tool, sunset.span, message).help(help));
        }
    }
}
