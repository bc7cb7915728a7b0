//! The `output/time-zone` rule: time fields are `timestamp`; durations state `unit="ms"`/`"s"`;
//! [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::walk::site_finding;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding};
use crate::model::{Format, TyKind, Unit};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks time and duration fields, at any depth of input and output and in named types
    /// (names compared by words, any case or separator):
    /// - a time field (a name ending in the word `at` or `time`, such as `created_at`,
    ///   `startTime`, or `timestamp`/`…_timestamp`) must be of type `timestamp` (RFC 3339 with an
    ///   offset). Objects, arrays and named types are not checked;
    /// - a numeric duration (a name ending in the word `duration`, `timeout` or `delay`, such as
    ///   `retry_delay`) must state its unit, `unit="ms"` or `unit="s"`. Names that already end in
    ///   a unit (`timeout_ms`, `delay_s`, `timeout_seconds`) do not end in a duration word and
    ///   pass. String durations (ISO 8601 `PT5S`) carry their unit and pass.
    ///
    /// A `string` with `format="date-time"`, `"date"` or `"time"` passes (RFC 3339 states the
    /// form and the offset). On a published tools/list (`catalogc lint FILE.json`) a field
    /// whose doc states the form, zone or unit (`ISO 8601`, `UTC`, `Unix`, `in minutes`,
    /// relative dates; for a duration also `in days` or `in weeks`) passes too: the list has no `timestamp` type or `unit` to say more.
    ///
    /// ## Why is this bad?
    /// A time without a zone is read in the server's zone by one side and the user's by the
    /// other: "due at 09:00" moves by hours. A duration without a unit is read as seconds by one
    /// side and milliseconds by the other: a 30 ms timeout, or an 8-hour delay.
    ///
    /// ## Example
    /// ```kdl
    /// field "due_at" "string" max-length=32
    /// field "retry_delay" "integer" min=0 max=60000
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "due_at" "timestamp"
    /// field "retry_delay" "integer" min=0 max=60000 unit="ms"
    /// ```
    pub static RULE = Rule {
        id: "output/time-zone",
        level: Level::Error,
        summary: "time fields are `timestamp`; durations state `unit=\"ms\"`/`\"s\"`",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

/// A doc that states the form, zone or unit of a time or duration: on a published list the
/// schema cannot say more.
static STATED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    crate::lint::text::pattern(r"(?i)\bISO[ -]?8601\b|\bRFC ?3339\b|\bUTC\b|\bunix\b|\bepoch\b|\bYYYY\b|\b(?:milli)?seconds\b|\bminutes\b|\bhours\b|\bms\b|\brelative\b")
});

/// A doc that states a duration's unit in days or weeks (`Duration in days`): on a published
/// list a duration's unit needs no more.
static DURATION_UNIT: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| crate::lint::text::pattern(r"(?i)\b(?:in|of) (?:days|weeks)\b"));

#[derive(Debug, PartialEq)]
enum Problem {
    NotTimestamp,
    NoUnit,
    NotTimeUnit(Unit),
}

fn problem(w: &[String], kind: &TyKind) -> Option<Problem> {
    let last = w.last().map(String::as_str)?;
    let is_time = (w.len() >= 2 && matches!(last, "at" | "time")) || last == "timestamp";
    if is_time {
        return match kind {
            TyKind::Timestamp | TyKind::Object(_) | TyKind::Array(_) | TyKind::Named(_) => None,
            // An RFC 3339 format states the form and the offset.
            TyKind::String(s) if s.format.as_ref().is_some_and(|f| matches!(f.value, Format::DateTime | Format::Date | Format::Time)) => None,
            _ => Some(Problem::NotTimestamp),
        };
    }
    if matches!(last, "duration" | "timeout" | "delay") {
        let (TyKind::Integer(n) | TyKind::Number(n)) = kind else {
            return None;
        };
        return match n.unit.as_ref().map(|u| u.value) {
            None => Some(Problem::NoUnit),
            Some(Unit::Ms | Unit::S) => None,
            Some(u) => Some(Problem::NotTimeUnit(u)),
        };
    }
    None
}

// Once per declaration: the type of a field does not depend on where it is used.
fn check(cx: &Context, site: &Site, out: &mut Vec<Finding>) {
    let Some(field) = site.field else { return };
    let Some(p) = problem(site.name_words(), &site.ty.kind) else { return };
    let stated = |d: &crate::model::Sp<String>| STATED.is_match(&d.value) || (p == Problem::NoUnit && DURATION_UNIT.is_match(&d.value));
    if cx.config.published && field.doc.as_ref().is_some_and(stated) {
        return;
    }
    let path = site.path;
    let kw = site.ty.kind.keyword();
    out.push(match p {
        Problem::NotTimestamp => site_finding(site, site.ty.span, format!("time field `{path}` is {} {kw}, not a `timestamp`", if kw.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }))
            .help("make it `\"timestamp\"` (RFC 3339 with an offset, e.g. 2025-01-31T09:00:00Z)"),
        Problem::NoUnit => site_finding(site, field.name.span, format!("duration `{path}` states no unit"))
            .help("add `unit=\"ms\"` or `unit=\"s\"` (or name it `…_ms` / `…_s`)"),
        Problem::NotTimeUnit(u) => site_finding(site, field.name.span, format!("duration `{path}` has `unit=\"{}\"`, not a time unit", u.as_str()))
            .help("use `unit=\"ms\"` or `unit=\"s\"`"),
    });
}

#[cfg(test)]
mod tests {
    use crate::names::words;
    use crate::lint::testkit::sites::*;
    use super::{Problem, RULE, problem};
    use crate::model::{Effect, NumTy, TyKind, Unit};

    fn unit(u: Unit) -> TyKind {
        TyKind::Integer(Box::new(NumTy { unit: Some(sp(u)), ..NumTy::default() }))
    }

    #[test]
    fn time_fields() {
        let s = bounded_string(32);
        for name in ["created_at", "createdAt", "start_time", "StartTime", "timestamp", "event_timestamp"] {
            assert_eq!(problem(&words(name), &s), Some(Problem::NotTimestamp), "{name}");
            assert_eq!(problem(&words(name), &TyKind::Timestamp), None, "{name}");
        }
        assert_eq!(problem(&words("updated_at"), &int(Some(0), Some(9))), Some(Problem::NotTimestamp));
        for name in ["at", "time", "format", "chat", "timeout_ms", "time_zone", "lifetime", "events_at_risk"] {
            assert_eq!(problem(&words(name), &s), None, "{name}");
        }
        assert_eq!(problem(&words("created_at"), &named("When")), None);
    }

    #[test]
    fn durations() {
        let i = int(Some(0), Some(9));
        for name in ["duration", "retry_delay", "requestTimeout", "call_duration"] {
            assert_eq!(problem(&words(name), &i), Some(Problem::NoUnit), "{name}");
            assert_eq!(problem(&words(name), &unit(Unit::Ms)), None, "{name}");
            assert_eq!(problem(&words(name), &unit(Unit::S)), None, "{name}");
        }
        assert_eq!(problem(&words("timeout"), &unit(Unit::Bytes)), Some(Problem::NotTimeUnit(Unit::Bytes)));
        for name in ["timeout_ms", "delay_s", "timeout_seconds", "delay_enabled"] {
            assert_eq!(problem(&words(name), &i), None, "{name}");
        }
        assert_eq!(problem(&words("retry_delay"), &bounded_string(8)), None);
    }

    #[test]
    fn reported_once_per_declaration() {
        let ty = type_def("Ev", vec![field("due_at", bounded_string(30))]);
        let t = tool("a_b", Effect::Read, vec![field("e", named("Ev"))], Some(vec![field("e", named("Ev"))]));
        assert_eq!(paths(&check(&RULE, catalog(vec![t], vec![ty]))), ["Ev.due_at"]);
    }

    #[test]
    fn an_rfc_3339_string_format_passes() {
        use crate::model::{Format, StringTy};
        let kind = TyKind::String(Box::new(StringTy {
            format: Some(crate::testing::sp(Format::DateTime)),
            ..StringTy::default()
        }));
        assert_eq!(problem(&words("created_at"), &kind), None);
        assert_eq!(problem(&words("created_at"), &TyKind::String(Box::default())), Some(Problem::NotTimestamp));
    }

    #[test]
    fn a_published_duration_in_days_passes() {
        let days = crate::model::Field {
            doc: Some(sp("Duration in days for iterations.".to_string())),
            ..field("iteration_duration", int(Some(1), Some(90)))
        };
        let t = tool("project_write", Effect::Update, vec![days, field("retry_delay", int(Some(0), Some(9)))], None);
        let f = check_with(&RULE, vec![catalog(vec![t.clone()], vec![])], &published());
        assert_eq!(paths(&f), ["input.retry_delay"]);
        assert_eq!(check(&RULE, catalog(vec![t], vec![])).len(), 2);
    }
}
