//! The contract facts a field's doc comment states after the catalog's own doc: bounds,
//! format, unit and default, as the catalog writes them (`1`, `"open"`), so a reader of the
//! Rust knows what `validate()` and the schema hold the value to.

use crate::docs::{literal, num};
use crate::model::{Field, Num, TyKind};

/// The facts of field `f`, one sentence each (`Bounds: at least `1`, at most `50`.`), or
/// `None` when the catalog states none.
pub(super) fn facts(f: &Field) -> Option<String> {
    let mut sentences = Vec::new();
    let bounds = bounds(&f.ty.kind);
    if !bounds.is_empty() {
        sentences.push(format!("Bounds: {}.", bounds.join(", ")));
    }
    if let TyKind::Integer(n) | TyKind::Number(n) = &f.ty.kind
        && let Some(unit) = &n.unit
    {
        sentences.push(format!("Unit: `{}`.", unit.value.as_str()));
    }
    if let Some(d) = &f.default {
        sentences.push(format!("Default: `{}`.", literal(&d.value)));
    }
    if sentences.is_empty() {
        None
    } else {
        Some(sentences.join(" "))
    }
}

/// What the type bounds, as phrases.
fn bounds(kind: &TyKind) -> Vec<String> {
    let mut out = Vec::new();
    let mut count = |what: &str, n: Option<u64>, (one, many): (&str, &str)| {
        if let Some(n) = n {
            let unit = if n == 1 { one } else { many };
            out.push(format!("{what} `{n}` {unit}"));
        }
    };
    let chars = ("character", "characters");
    let items = ("item", "items");
    let entries = ("entry", "entries");
    match kind {
        TyKind::String(s) | TyKind::Cursor(s) => {
            count("at least", s.min_length.as_ref().map(|v| v.value), chars);
            count("at most", s.max_length.as_ref().map(|v| v.value), chars);
            if let Some(p) = &s.pattern {
                out.push(format!("matches `{}`", p.value));
            }
            if let Some(f) = &s.format {
                out.push(format!("format `{}`", f.value.as_str()));
            }
        }
        TyKind::Timestamp => out.push("format `date-time`".to_string()),
        TyKind::Array(a) => {
            count("at least", a.min_items.as_ref().map(|v| v.value), items);
            count("at most", a.max_items.as_ref().map(|v| v.value), items);
            if a.unique {
                out.push("unique items".to_string());
            }
        }
        TyKind::Map(m) => {
            count("at least", m.min_entries.as_ref().map(|v| v.value), entries);
            count("at most", m.max_entries.as_ref().map(|v| v.value), entries);
        }
        TyKind::Integer(n) | TyKind::Number(n) => {
            let num = |label: &str, v: &Option<crate::model::Sp<Num>>| {
                v.as_ref().map(|v| format!("{label} `{}`", num(v.value)))
            };
            out.extend(num("at least", &n.min));
            out.extend(num("more than", &n.exclusive_min));
            out.extend(num("at most", &n.max));
            out.extend(num("less than", &n.exclusive_max));
            out.extend(num("a multiple of", &n.multiple_of));
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::load_source;

    #[test]
    fn bounds_units_formats_and_defaults_are_stated() {
        let text = r#"catalog "c" version="1.0.0"
tool "t" version="1.0.0" {
    effect "read"
    input {
        field "size" "integer" min=1 max=50 default=20 unit="count"
        field "code" "string" max-length=32 pattern="^INV-[0-9]+$"
        field "day" "string" format="date"
        field "tags" "array" max-items=1 unique=#true { items "string" max-length=4; }
        field "ratio" "number" exclusive-min=0 max=1.5
        field "free" "boolean"
    }
}
"#;
        let loaded = load_source("x.kdl", text);
        let fields = &loaded.project.catalogs[0].tools[0].input.fields;
        let all: Vec<Option<String>> = fields.iter().map(facts).collect();
        let want = [
            Some("Bounds: at least `1`, at most `50`. Unit: `count`. Default: `20`."),
            Some("Bounds: at most `32` characters, matches `^INV-[0-9]+$`."),
            Some("Bounds: format `date`."),
            Some("Bounds: at most `1` item, unique items."),
            Some("Bounds: more than `0`, at most `1.5`."),
            None,
        ];
        assert_eq!(all, want.map(|w| w.map(str::to_string)));
    }
}
