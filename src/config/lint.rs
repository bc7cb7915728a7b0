//! Reading the `lint` section of `catalogc.kdl` into a [`Config`].

use crate::diag::{Diagnostic, FileId, Level};
use crate::lint::config::{Config, Thresholds};
use crate::model::read::{Reader, quoted_list, suggest_or};
use crate::syntax::{Document, Node, Number, Span, Value};
use std::collections::BTreeMap;

const LINT_KEYS: &[&str] = &[
    "deny",
    "warn",
    "info",
    "allow",
    "forbidden-fields",
    "naming",
    "thresholds",
];

/// How one `thresholds` key is read and stored.
#[derive(Clone, Copy)]
enum Setter {
    Count(fn(&mut Thresholds, usize)),
    /// A number in 0..=1.
    Ratio(fn(&mut Thresholds, f64)),
}

/// Every field of [`Thresholds`], by its key in `catalogc.kdl`. A test checks that the table has
/// one entry per field, so a new threshold cannot be left unconfigurable.
const THRESHOLDS: &[(&str, Setter)] = &[
    ("summary-max", Setter::Count(|t, v| t.summary_max = v)),
    ("when-max", Setter::Count(|t, v| t.when_max = v)),
    (
        "description-max",
        Setter::Count(|t, v| t.description_max = v),
    ),
    ("max-depth", Setter::Count(|t, v| t.max_depth = v)),
    ("max-fields", Setter::Count(|t, v| t.max_fields = v)),
    (
        "budget-catalog-bytes",
        Setter::Count(|t, v| t.budget_catalog_bytes = v),
    ),
    (
        "budget-tool-bytes",
        Setter::Count(|t, v| t.budget_tool_bytes = v),
    ),
    (
        "confusable-similarity",
        Setter::Ratio(|t, v| t.confusable_similarity = v),
    ),
    (
        "confusable-list-similarity",
        Setter::Ratio(|t, v| t.confusable_list_similarity = v),
    ),
    (
        "sunset-warning-days",
        Setter::Count(|t, v| t.sunset_warning_days = v),
    ),
];

/// The keys `thresholds { … }` accepts, in documentation order.
pub fn threshold_keys() -> impl Iterator<Item = &'static str> {
    THRESHOLDS.iter().map(|(k, _)| *k)
}

fn error(r: &mut Reader, kind: &str, span: Span, message: String, help: impl Into<String>) {
    r.fail(kind, span, message, Some(help.into()));
}

/// An unknown name: the closest allowed one, else the allowed list.
pub fn unknown(r: &mut Reader, what: &str, name: &crate::syntax::Spanned<&str>, allowed: &[&str]) {
    let help = suggest_or(
        name.value,
        allowed,
        &format!("allowed here: {}", quoted_list(allowed)),
    );
    error(
        r,
        "unknown-key",
        name.span,
        format!("unknown {what} `{}`", name.value),
        help,
    );
}

/// Rejects properties, type annotations and (unless allowed) children on a node.
pub fn shape(r: &mut Reader, node: &Node, children_allowed: bool) {
    if let Some(ty) = &node.ty {
        error(
            r,
            "wrong-value",
            ty.span,
            "type annotations have no meaning in catalogc.kdl".into(),
            "remove the `(…)` annotation",
        );
    }
    for e in node.entries() {
        if let Some(name) = &e.name {
            error(
                r,
                "unknown-key",
                name.span,
                format!("`{}` takes no property `{}`", node.name.value, name.value),
                "write values as arguments, e.g. `deny \"naming\"`",
            );
        }
    }
    if !children_allowed && let Some(c) = node.children() {
        error(
            r,
            "wrong-value",
            c.span,
            format!("`{}` takes no children block", node.name.value),
            "remove the `{ … }` block",
        );
    }
}

/// The string arguments of a node; other values are reported.
pub fn strings<'d>(r: &mut Reader, node: &Node<'d>) -> Vec<(&'d str, Span)> {
    let mut out = Vec::new();
    for e in node.entries().filter(|e| e.name.is_none()) {
        match e.value.value {
            Value::String(s) => out.push((s, e.value.span)),
            _ => error(
                r,
                "wrong-value",
                e.value.span,
                format!("`{}` takes strings", node.name.value),
                "quote the value",
            ),
        }
    }
    if out.is_empty() && node.entries().all(|e| e.name.is_some()) {
        error(
            r,
            "wrong-value",
            node.name.span,
            format!("`{}` needs at least one value", node.name.value),
            "add the values as quoted arguments",
        );
    }
    out
}

impl Config {
    /// Reads the `lint` sections of a parsed `catalogc.kdl` (`file` is its id in the run's
    /// sources, for error locations); other sections are left to their readers
    /// ([`crate::config`] checks that each is known). Every problem is returned at once.
    pub fn from_document(doc: &Document, file: FileId) -> Result<Config, Vec<Diagnostic>> {
        let mut r = Reader::new(file, "config");
        let mut section = LintSection::default();
        for node in doc.nodes().filter(|n| n.name.value == "lint") {
            section.read(&mut r, &node);
        }
        if r.diags.is_empty() {
            Ok(section.config)
        } else {
            Err(r.diags)
        }
    }
}

/// Reads `lint { … }` sections into one [`Config`]; a second section is reported and read
/// on, so every problem of the file shows at once.
#[derive(Default)]
pub struct LintSection {
    /// What the sections read so far configure.
    pub config: Config,
    /// Where each rule or category got its level, to reject contradictions.
    level_set_at: BTreeMap<String, String>,
    seen: bool,
}

impl LintSection {
    /// Reads one `lint` node into [`LintSection::config`]; problems go to `r` as
    /// diagnostics and the rest of the node is still read.
    pub fn read(&mut self, r: &mut Reader, node: &Node) {
        let config = &mut self.config;
        let level_set_at = &mut self.level_set_at;
        let rule_ids: Vec<&str> = crate::lint::registry().map(|r| r.id).collect();
        let categories = crate::lint::CATEGORY_NAMES;
        if self.seen {
            error(
                r,
                "duplicate",
                node.name.span,
                "`lint` is given twice".into(),
                "merge the two `lint` blocks",
            );
        }
        self.seen = true;
        shape(r, node, true);
        for e in node.entries().filter(|e| e.name.is_none()) {
            error(
                r,
                "wrong-value",
                e.span,
                "`lint` takes no arguments".into(),
                "put settings inside `lint { … }`",
            );
        }
        let Some(children) = node.children() else {
            return;
        };
        for child in children.nodes() {
            let key = child.name.value;
            match key {
                "deny" | "warn" | "info" | "allow" => {
                    shape(r, &child, false);
                    let level = match key {
                        "deny" => Some(Level::Error),
                        "warn" => Some(Level::Warn),
                        "info" => Some(Level::Info),
                        _ => None,
                    };
                    for (id, span) in strings(r, &child) {
                        if !rule_ids.contains(&id) && !categories.contains(&id) {
                            let candidates = rule_ids.iter().chain(categories.iter()).copied();
                            let help = match crate::diag::suggest::did_you_mean(id, candidates) {
                                    Some(best) => format!("did you mean `{best}`? `catalogc rules` lists every rule ID"),
                                    None => "name a rule ID (`naming/tool-name`) or a category (`naming`); `catalogc rules` lists them".into(),
                                };
                            error(
                                r,
                                "unknown-rule",
                                span,
                                format!("unknown rule or category `{id}`"),
                                help,
                            );
                            continue;
                        }
                        if let Some(previous) = level_set_at.get(id) {
                            error(
                                r,
                                "duplicate",
                                span,
                                format!("the level of `{id}` is already set by `{previous}`"),
                                "name each rule or category in one level list only",
                            );
                            continue;
                        }
                        level_set_at.insert(id.to_string(), key.to_string());
                        config.levels.insert(id.to_string(), level);
                    }
                }
                "naming" => {
                    shape(r, &child, false);
                    let allowed = ["auto", "snake_case", "camelCase", "kebab-case"];
                    for (name, span) in strings(r, &child) {
                        match crate::names::Convention::parse(name) {
                            Some(c) => config.naming = Some(c),
                            None if name == "auto" => config.naming = None,
                            None => error(
                                r,
                                "wrong-value",
                                span,
                                format!("unknown naming convention `{name}`"),
                                format!("write one of {}", quoted_list(&allowed)),
                            ),
                        }
                    }
                }
                "forbidden-fields" => {
                    shape(r, &child, false);
                    for (name, _) in strings(r, &child) {
                        config.forbidden_fields.push(name.to_string());
                    }
                }
                "thresholds" => {
                    shape(r, &child, true);
                    if let Some(e) = child.entries().find(|e| e.name.is_none()) {
                        error(
                            r,
                            "wrong-value",
                            e.span,
                            "`thresholds` takes no arguments".into(),
                            "write each threshold as a child node: `thresholds { summary-max 200 }`",
                        );
                    }
                    let mut seen: Vec<&str> = Vec::new();
                    for t in child.child_nodes() {
                        read_threshold(r, &t, &mut config.thresholds, &mut seen);
                    }
                }
                _ => unknown(r, "`lint` setting", &child.name, LINT_KEYS),
            }
        }
    }
}

fn read_threshold<'d>(
    r: &mut Reader,
    node: &Node<'d>,
    t: &mut Thresholds,
    seen: &mut Vec<&'d str>,
) {
    let keys: Vec<&str> = threshold_keys().collect();
    let Some((key, setter)) = THRESHOLDS.iter().find(|(k, _)| *k == node.name.value) else {
        unknown(r, "threshold", &node.name, &keys);
        return;
    };
    shape(r, node, false);
    if seen.contains(key) {
        error(
            r,
            "duplicate",
            node.name.span,
            format!("threshold `{key}` is given twice"),
            "keep one of them",
        );
        return;
    }
    seen.push(key);
    let args: Vec<_> = node.entries().filter(|e| e.name.is_none()).collect();
    let [arg] = args.as_slice() else {
        error(
            r,
            "wrong-value",
            node.name.span,
            format!("threshold `{key}` takes exactly one number"),
            format!("e.g. `{key} {}`", example(*setter)),
        );
        return;
    };
    let span = arg.value.span;
    match (setter, &arg.value.value) {
        (Setter::Count(set), Value::Number(Number::Int(n)))
            if *n >= 0 && usize::try_from(*n).is_ok() =>
        {
            set(t, *n as usize)
        }
        (Setter::Count(_), _) => error(
            r,
            "wrong-value",
            span,
            format!("threshold `{key}` must be a whole number ≥ 0"),
            format!(
                "write an integer without quotes, e.g. `{key} {}`",
                example(*setter)
            ),
        ),
        (Setter::Ratio(set), Value::Number(Number::Float(f))) if (0.0..=1.0).contains(f) => {
            set(t, *f)
        }
        (Setter::Ratio(set), Value::Number(Number::Int(n))) if (0..=1).contains(n) => {
            set(t, *n as f64)
        }
        (Setter::Ratio(_), _) => error(
            r,
            "wrong-value",
            span,
            format!("threshold `{key}` must be a number from 0 to 1"),
            format!(
                "write a decimal without quotes, e.g. `{key} {}`",
                example(*setter)
            ),
        ),
    }
}

fn example(setter: Setter) -> &'static str {
    match setter {
        Setter::Count(_) => "100",
        Setter::Ratio(_) => "0.8",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Config, Vec<(String, String, String)>> {
        let parsed = crate::syntax::parse(text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        Config::from_document(&parsed.document, FileId(0))
            .map_err(|errs| crate::model::read::rule_text_help(errs, text))
    }

    #[test]
    fn every_threshold_field_has_a_key() {
        // Count the fields through Debug, so adding a field without a key fails here.
        let fields = format!("{:?}", Thresholds::default()).matches(": ").count();
        assert_eq!(fields, THRESHOLDS.len());
        let mut t = Thresholds::default();
        for (i, (_, setter)) in THRESHOLDS.iter().enumerate() {
            match setter {
                Setter::Count(set) => set(&mut t, 100_000 + i),
                Setter::Ratio(set) => set(&mut t, 0.123),
            }
        }
        let debug = format!("{t:?}");
        for (i, (key, setter)) in THRESHOLDS.iter().enumerate() {
            if let Setter::Count(_) = setter {
                assert!(
                    debug.contains(&(100_000 + i).to_string()),
                    "{key} sets no field of its own"
                );
            }
        }
    }

    #[test]
    fn reads_levels_names_and_thresholds() {
        let c = read(
            "lint {\n deny \"trust\" \"naming/opaque-field\"\n warn \"catalog/version\"\n info \"naming/duplicate\"\n allow \"catalog/unused-type\"\n forbidden-fields \"org_id\" \"customer_tier\"\n thresholds {\n  summary-max 120\n  confusable-similarity 0.75\n }\n}\n",
        )
        .map_err(|e| format!("{e:?}"));
        let Ok(c) = c else { panic!("{c:?}") };
        assert_eq!(c.levels.get("trust"), Some(&Some(Level::Error)));
        assert_eq!(
            c.levels.get("naming/opaque-field"),
            Some(&Some(Level::Error))
        );
        assert_eq!(c.levels.get("catalog/version"), Some(&Some(Level::Warn)));
        assert_eq!(c.levels.get("naming/duplicate"), Some(&Some(Level::Info)));
        assert_eq!(c.levels.get("catalog/unused-type"), Some(&None));
        assert_eq!(c.forbidden_fields, ["org_id", "customer_tier"]);
        assert_eq!(c.thresholds.summary_max, 120);
        assert_eq!(c.thresholds.confusable_similarity, 0.75);
        assert_eq!(c.thresholds.when_max, Thresholds::default().when_max);
    }

    #[test]
    fn rejects_unknown_keys_with_suggestions() {
        let errs = read("lint {\n deny \"naming/vage-name\"\n wran \"naming\"\n thresholds {\n  sumary-max 10\n  max-depth \"5\"\n  confusable-similarity 2.0\n }\n}\n")
            .err()
            .unwrap_or_default();
        let expect = [
            (
                "config/unknown-rule",
                "\"naming/vage-name\"",
                "did you mean `naming/vague-name`?",
            ),
            ("config/unknown-key", "wran", "did you mean `warn`?"),
            (
                "config/unknown-key",
                "sumary-max",
                "did you mean `summary-max`?",
            ),
            ("config/wrong-value", "\"5\"", ""),
            ("config/wrong-value", "2.0", ""),
        ];
        assert_eq!(errs.len(), expect.len(), "{errs:#?}");
        for ((rule, text, help), (erule, etext, ehelp)) in errs.iter().zip(expect) {
            assert_eq!((rule.as_ref(), text.as_str()), (erule, etext));
            assert!(help.starts_with(ehelp), "{help}");
        }
    }

    #[test]
    fn rejects_conflicting_levels() {
        let errs = read("lint {\n deny \"naming\"\n allow \"naming\"\n}\n")
            .err()
            .unwrap_or_default();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].0, "config/duplicate");
    }
}
