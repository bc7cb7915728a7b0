//! Reading `accept` entries of `catalogc.kdl`: breaks a team reviewed and accepted, which
//! `catalogc breaking` then lists as accepted instead of failing (docs/configuration.md).
//!
//! ```kdl
//! accept tool="invoice_get" kind="input-field-removed" path="input.note" version="2.0.0" reason="…"
//! ```

use super::lint::unknown;
use crate::compat::{Accept, Kind, Loc};
use crate::diag::FileId;
use crate::model::read::Reader;
use crate::syntax::{Node, Value};

/// The properties of an `accept` entry, in documentation order.
pub const ACCEPT_KEYS: &[&str] = &["tool", "kind", "path", "version", "reason"];

/// Reads one `accept` node; `None` (with the problems in `r`) when it is not usable.
pub fn read(r: &mut Reader, node: &Node, file: FileId) -> Option<Accept> {
    if let Some(ty) = &node.ty {
        r.fail(
            "wrong-value",
            ty.span,
            "type annotations have no meaning in catalogc.kdl",
            Some("remove the `(…)` annotation".to_string()),
        );
    }
    if let Some(c) = node.children() {
        r.fail(
            "wrong-value",
            c.span,
            "`accept` takes no children block",
            Some("remove the `{ … }` block".to_string()),
        );
    }
    let usage = "write it as `accept tool=\"NAME\" kind=\"input-field-removed\" path=\"input.note\" version=\"2.0.0\" reason=\"why\"`";
    for e in node.entries().filter(|e| e.name.is_none()) {
        r.fail(
            "wrong-value",
            e.span,
            "`accept` takes properties, not arguments",
            Some(usage.to_string()),
        );
    }
    let mut values: [Option<(String, crate::syntax::Span)>; 5] = Default::default();
    for e in node.entries() {
        let Some(name) = &e.name else { continue };
        let Some(slot) = ACCEPT_KEYS.iter().position(|k| *k == name.value) else {
            unknown(r, "property of `accept`", name, ACCEPT_KEYS);
            continue;
        };
        match e.value.value {
            Value::String(s) if !s.trim().is_empty() => {
                if values[slot].is_some() {
                    r.fail(
                        "duplicate",
                        name.span,
                        format!("`{}` is given twice", name.value),
                        Some("keep one of them".to_string()),
                    );
                }
                values[slot] = Some((s.to_string(), e.value.span));
            }
            _ => r.fail(
                "wrong-value",
                e.value.span,
                format!("`{}` takes a non-empty string", name.value),
                Some(usage.to_string()),
            ),
        }
    }
    let [tool, kind, path, version, reason] = values;
    for (value, key) in [(&tool, "tool"), (&reason, "reason")] {
        if value.is_none() {
            r.fail(
                "missing-key",
                node.name.span,
                format!("`accept` needs `{key}=`"),
                Some(usage.to_string()),
            );
        }
    }
    let kind = match kind {
        Some((text, span)) => {
            let id = if text.starts_with("compat/") {
                text.clone()
            } else {
                format!("compat/{text}")
            };
            match Kind::from_id(&id) {
                Some(k) => Some(k),
                None => {
                    let ids: Vec<&str> = Kind::ALL.iter().map(|k| k.id()).collect();
                    let help = crate::model::read::suggest_or(
                        &id,
                        &ids,
                        "see `catalogc rules --compat` or docs/compatibility.md",
                    );
                    r.fail(
                        "wrong-value",
                        span,
                        format!("`{text}` is not a change kind"),
                        Some(help),
                    );
                    return None;
                }
            }
        }
        None => None,
    };
    if let Some((v, span)) = &version
        && let Err(e) = semver::Version::parse(v)
    {
        r.fail(
            "wrong-value",
            *span,
            format!("`version` `{v}` is not semver ({e})"),
            Some("write the version the break ships in, e.g. `version=\"2.0.0\"`".to_string()),
        );
        return None;
    }
    Some(Accept {
        tool: tool?.0,
        kind,
        path: path.map(|p| p.0),
        version: version.map(|v| v.0),
        reason: reason?.0,
        loc: Some(Loc {
            file,
            span: node.span,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax;

    fn read_all(text: &str) -> (Vec<Accept>, Vec<(String, String, String)>) {
        let parsed = syntax::parse(text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let mut r = Reader::new(FileId(0), "config");
        let accepts = parsed
            .document
            .nodes()
            .filter_map(|n| read(&mut r, &n, FileId(0)))
            .collect();
        (accepts, crate::model::read::rule_text_help(r.diags, text))
    }

    #[test]
    fn reads_an_entry_with_or_without_the_prefix() {
        let (a, errs) = read_all(
            "accept tool=\"t\" kind=\"input-field-removed\" path=\"input.note\" version=\"2.0.0\" reason=\"reviewed\"\naccept tool=\"u\" kind=\"compat/tool-removed\" reason=\"gone\"\n",
        );
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(a[0].kind, Some(Kind::InputFieldRemoved));
        assert_eq!(a[0].path.as_deref(), Some("input.note"));
        assert_eq!(a[0].version.as_deref(), Some("2.0.0"));
        assert_eq!(a[1].kind, Some(Kind::ToolRemoved));
        assert_eq!(a[1].reason, "gone");
    }

    #[test]
    fn reports_every_problem() {
        let (a, errs) = read_all(
            "accept kind=\"input-feld-removed\" tool=\"t\" reason=\"r\"\naccept tool=\"t\"\naccept tool=\"t\" reason=\"r\" version=\"two\" colour=\"x\"\naccept \"t\" tool=\"t\" reason=\"\"\n",
        );
        assert!(a.is_empty(), "{a:?}");
        let got: Vec<(&str, &str)> = errs
            .iter()
            .map(|(r, t, _)| (r.as_str(), t.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("config/wrong-value", "\"input-feld-removed\""),
                ("config/missing-key", "accept"),
                ("config/unknown-key", "colour"),
                ("config/wrong-value", "\"two\""),
                ("config/wrong-value", "\"t\""),
                ("config/wrong-value", "\"\""),
                ("config/missing-key", "accept"),
            ]
        );
        assert!(errs[0].2.contains("compat/input-field-removed"), "{errs:?}");
    }
}
