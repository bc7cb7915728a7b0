//! The `bounds/free-form` rule: maps are bounded, free-form values documented; [`RULE`] documents
//! it.

use crate::diag::Level;
use crate::lint::walk::{Side, Site, site_finding, site_span};
use crate::lint::{Context, Finding};
use crate::model::TyKind;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks the free-form values of the format, in input and output and in named types: a
    /// `map` and an open object (`object` with `extra`) state `max-entries`, and a `map`, open
    /// object or `json` field has a `doc`. (A `json` value cannot state a size in its schema:
    /// its `doc` must say what goes in it.)
    ///
    /// On a published tools/list (`catalogc lint FILE.json`) a value whose name or doc says it
    /// is an open map by design — headers, environment variables, labels, metadata, a
    /// record's fields, a document or the arguments the tool passes on — or whose doc names
    /// the upstream syntax it follows ("matching the syntax of … db.collection.find()") is
    /// not reported; for array items the array's name counts. An open value in the output
    /// is reported there as `info`, hardening advice: its keys are the records the server
    /// returns (often the upstream API's own documents, passed on), which the model reads
    /// rather than fills and the author does not choose.
    ///
    /// ## Why is this bad?
    /// An open object or a value of any type is the one place the schema does not guide the
    /// model: without a stated number of keys a call may send thousands of them, and without a
    /// description the model guesses which keys and values the server understands (and servers
    /// tend to ignore what they do not know, silently). Both are often legitimate (label maps,
    /// query filters, launch options); this rule asks that they be bounded and said.
    ///
    /// ## Example
    /// ```kdl
    /// field "labels" "map" {
    ///     values "string" max-length=63
    /// }
    /// field "filter" "json"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "labels" "map" max-entries=64 {
    ///     doc "Labels to set, by name (at most 64)."
    ///     values "string" max-length=63
    /// }
    /// field "filter" "json" {
    ///     doc "A MongoDB query filter, e.g. {\"status\": \"open\"}."
    /// }
    /// ```
    pub static RULE = Rule {
        id: "bounds/free-form",
        level: Level::Warn,
        summary: "maps and open objects have `max-entries`; they and `json` values have a `doc`",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

// Once per declaration: the bound and the doc are missing wherever the type is used.
fn check(cx: &Context, site: &Site, out: &mut Vec<Finding>) {
    let (what, max_entries) = match &site.ty.kind {
        TyKind::Map(m) => ("map", Some(&m.max_entries)),
        TyKind::Object(o) => match &o.extra {
            Some(x) => ("open object", Some(&x.max_entries)),
            None => return,
        },
        TyKind::Json => ("`json` value", None),
        _ => return,
    };
    if cx.config.published && open_by_design(site) {
        return;
    }
    let level = match site.side {
        Some(Side::Output) if cx.config.published => Level::Info,
        _ => Level::Warn,
    };
    if max_entries.is_some_and(Option::is_none) {
        out.push(
            site_finding(
                site,
                site_span(site),
                format!("{what} `{}` has no `max-entries`", site.path),
            )
            .level(level)
            .help(
                "add `max-entries=N`: the most keys a call may send or a result may hold",
            ),
        );
    }
    // The doc belongs to the field whose own type this is (not to array items).
    let field = site.field.filter(|f| std::ptr::eq(&f.ty, site.ty));
    if field.is_some_and(|f| f.doc.is_none()) {
        out.push(
            site_finding(
                site,
                site_span(site),
                format!("{what} `{}` has no `doc`", site.path),
            )
            .level(level)
            .help("add a `doc` that says which keys and values the server understands, with an example"),
        );
    }
}

/// Words of values that are open maps by design: HTTP headers, environment variables,
/// labels and metadata, a record's fields, a document, arguments or settings the tool passes
/// on.
const OPEN_BY_DESIGN: &[&str] = &[
    "header", "headers", "env", "environment", "label", "labels", "metadata", "meta", "fields",
    "document", "documents", "pipeline", "arguments", "args", "properties", "variables",
    "params", "parameters", "record", "style", "options", "config", "settings", "filter",
    "query", "props", "attributes", "annotations", "tags", "payload", "body", "changes", "syntax",
];

/// On a published list: the field's name or doc says it is an open map by design, or the doc
/// names the upstream syntax it follows. For array items (`documents[]`) the array's name
/// counts.
fn open_by_design(site: &Site) -> bool {
    let doc = site.field.and_then(|f| f.doc.as_ref()).map_or("", |d| d.value.as_str());
    let mut words = site.name_words().to_vec();
    words.extend(crate::names::words(doc));
    if site.field.is_none() {
        let leaf = site.path.trim_end_matches("[]");
        words.extend(crate::names::words(leaf.rsplit('.').next().unwrap_or(leaf)));
    }
    words.iter().any(|w| OPEN_BY_DESIGN.contains(&w.as_str()))
}

#[cfg(test)]
mod tests {
    use super::RULE;
    use crate::lint::testkit::sites::*;
    use crate::model::{Effect, Extra, MapTy, Object, Sp, Ty, TyKind};

    fn map(max: Option<u64>) -> TyKind {
        TyKind::Map(Box::new(MapTy {
            min_entries: None,
            max_entries: max.map(sp),
            values: Box::new(Ty::new(TyKind::Json)),
            values_nullable: false,
        }))
    }

    #[test]
    fn unbounded_maps_and_undocumented_free_values() {
        let mut documented = field("options", map(Some(8)));
        documented.doc = Some(Sp::new("Launch options.".to_string(), Default::default()));
        let t = tool(
            "host_set",
            Effect::Update,
            vec![
                field("labels", map(None)),
                field("payload", TyKind::Json),
                documented,
            ],
            Some(vec![field("extra", map(Some(2)))]),
        );
        let f = check(&RULE, catalog(vec![t], vec![]));
        assert_eq!(
            paths(&f),
            ["input.labels", "input.labels", "input.payload", "output.extra"]
        );
    }

    #[test]
    fn open_objects_are_bounded_and_documented_closed_ones_are_not_asked() {
        let open = |max: Option<u64>| {
            TyKind::Object(Object {
                extra: Some(Box::new(Extra {
                    values: Box::new(Ty::new(TyKind::Json)),
                    nullable: false,
                    min_entries: None,
                    max_entries: max.map(sp),
                })),
                ..Object::default()
            })
        };
        let mut documented = field("options", open(Some(8)));
        documented.doc = Some(Sp::new("Launch options.".to_string(), Default::default()));
        let t = tool(
            "host_set",
            Effect::Update,
            vec![
                field("labels", open(None)),
                field("closed", TyKind::Object(Object::default())),
                documented,
            ],
            None,
        );
        let f = check(&RULE, catalog(vec![t], vec![]));
        assert_eq!(paths(&f), ["input.labels", "input.labels"]);
        assert!(f[0].message.contains("open object"), "{}", f[0].message);
    }

    #[test]
    fn a_published_list_accepts_a_named_syntax_and_open_array_items() {
        let mut projection = field("projection", map(None));
        projection.doc = Some(Sp::new("Matching the syntax of db.collection.find()".to_string(), Default::default()));
        let t = tool(
            "find",
            Effect::Read,
            vec![projection, field("documents", array(map(None), None)), field("shape", map(None))],
            None,
        );
        let f = check_with(&RULE, vec![catalog(vec![t.clone()], vec![])], &published());
        assert_eq!(paths(&f), ["input.shape", "input.shape"]);
        assert_eq!(check(&RULE, catalog(vec![t], vec![])).len(), 4);
    }

    #[test]
    fn a_published_list_reports_an_open_output_record_as_info() {
        let t = tool(
            "table_get",
            Effect::Read,
            vec![field("shape", map(None))],
            Some(vec![field("table", map(None))]),
        );
        let f = check_with(&RULE, vec![catalog(vec![t.clone()], vec![])], &published());
        let levels: Vec<(&str, Option<crate::diag::Level>)> =
            f.iter().map(|f| (f.path.as_deref().unwrap_or(""), f.level)).collect();
        use crate::diag::Level::{Info, Warn};
        assert_eq!(
            levels,
            [("input.shape", Some(Warn)), ("input.shape", Some(Warn)), ("output.table", Some(Info)), ("output.table", Some(Info))]
        );
        // A catalog's author states its outputs: a warning there.
        let f = check(&RULE, catalog(vec![t], vec![]));
        assert!(f.iter().all(|f| f.level.is_none_or(|l| l == crate::diag::Level::Warn)));
    }
}
