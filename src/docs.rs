//! Markdown documentation of a catalog (`catalogc docs`, and `catalogc gen` into
//! `generated/`), rendered from the `docs.md.j2` template: the built-in one or a project's
//! own (docs/templates.md).
//!
//! The template never sees the internal model: it receives a [`CatalogView`], small
//! serializable structs documented for template authors, so the model can change without
//! breaking a project's template. Descriptions and hashes are taken from the run's
//! [`Artifacts`], never recomputed, so the docs show exactly what `hash`, `lock` and
//! `export` show.

use crate::contract::description::{DOCS_TEMPLATE, description_context, normalize};
use crate::contract::{Artifacts, TemplateError, Templates, ToolHashes};
use crate::model::{
    Catalog, Field, Literal, Num, NumTy, Object, Project, Retry, StringTy, Tool, Ty, TyKind, Unit,
};
use serde::Serialize;
use std::fmt;

/// Why a catalog's docs could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocsError {
    /// The template failed to render; names its file and line.
    Template(TemplateError),
    /// No catalog (or no contracts) at this index: the caller passed mismatched inputs.
    NoCatalog(usize),
    /// The catalog name is not a plain file name (ASCII letters, digits, `-`, `_`).
    NoFileName(String),
    /// Two catalogs share a name, so their docs would share a file.
    SameName(String),
}

impl fmt::Display for DocsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DocsError::Template(e) => e.fmt(f),
            DocsError::NoCatalog(i) => write!(f, "no catalog with contracts at index {i}"),
            DocsError::NoFileName(name) => write!(
                f,
                "catalog `{name}` has no plain file name (ASCII letters, digits, `-`, `_`) for its docs"
            ),
            DocsError::SameName(name) => write!(
                f,
                "two catalogs are named `{name}`; their docs would share {name}.md"
            ),
        }
    }
}

impl std::error::Error for DocsError {}

impl From<TemplateError> for DocsError {
    fn from(e: TemplateError) -> Self {
        DocsError::Template(e)
    }
}

/// The Markdown documentation of catalog `catalog` (an index into `project.catalogs` and
/// `artifacts.catalogs`), rendered from the `docs.md.j2` of `templates`, normalised like
/// every rendered text and ending with one newline.
pub fn render_catalog(
    project: &Project,
    artifacts: &Artifacts,
    templates: &Templates,
    catalog: usize,
) -> Result<String, DocsError> {
    let view = catalog_view(project, artifacts, catalog).ok_or(DocsError::NoCatalog(catalog))?;
    let mut text = normalize(&templates.render(DOCS_TEMPLATE, &view)?);
    text.push('\n');
    Ok(text)
}

/// Every catalog's docs as `(file name, Markdown)`, catalogs by name: all rendered before
/// anything is written, so a template error or a name that cannot be a file stops the run
/// with no file half-updated.
pub fn render_project(
    project: &Project,
    artifacts: &Artifacts,
    templates: &Templates,
) -> Result<Vec<(String, String)>, DocsError> {
    let mut rendered: Vec<(String, String)> = Vec::new();
    for c in crate::contract::catalogs_by_name(project) {
        let cat = &project.catalogs[c];
        let file = file_name(cat).ok_or_else(|| DocsError::NoFileName(cat.name.value.clone()))?;
        if rendered.iter().any(|(f, _)| *f == file) {
            return Err(DocsError::SameName(cat.name.value.clone()));
        }
        rendered.push((file, render_catalog(project, artifacts, templates, c)?));
    }
    Ok(rendered)
}

/// The file name of a catalog's docs, `NAME.md`, or `None` when the catalog name could
/// not be a plain file name (only ASCII letters, digits, `-` and `_` are accepted, so a
/// name never reaches outside the output folder).
pub fn file_name(cat: &Catalog) -> Option<String> {
    let name = &cat.name.value;
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    plain.then(|| format!("{name}.md"))
}

/// What `docs.md.j2` receives: one catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CatalogView {
    /// The catalog name.
    pub name: String,
    /// The catalog version as written.
    pub version: String,
    /// The catalog summary.
    pub summary: Option<String>,
    /// Every tool, in declaration order.
    pub tools: Vec<ToolView>,
    /// Every named type, in declaration order.
    pub types: Vec<TypeView>,
}

/// One tool: its whole contract, ready to print.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolView {
    /// The tool name.
    pub name: String,
    /// The HTML id of the tool's section, `tool-NAME`.
    pub anchor: String,
    /// The tool version as written.
    pub version: String,
    /// The human title.
    pub title: Option<String>,
    /// The summary.
    pub summary: Option<String>,
    /// When to use the tool.
    pub when: Option<String>,
    /// When not to use it.
    pub when_not: Option<String>,
    /// The effect keyword (`read`, …, `destructive`).
    pub effect: &'static str,
    /// `read` for `read`, `external-read` and `preview`; `write` otherwise.
    pub effect_class: &'static str,
    /// A one-character badge for the effect: 🟢 read class, 🟡 `update` and `append`,
    /// 🔴 `destructive`.
    pub effect_icon: &'static str,
    /// The effect in words, without a final period (as in the description).
    pub effect_words: String,
    /// Whether the tool reaches systems outside the service (effective value).
    pub open_world: bool,
    /// Whether a failed or timed-out call may simply be repeated.
    pub safe_to_retry: bool,
    /// Each limit in words (`at most 50 items`); empty without limits.
    pub limits: Vec<String>,
    /// The rendered model-facing description, as hashed.
    pub description: String,
    /// A backtick fence long enough to put `description` in a code block.
    pub description_fence: String,
    /// The input fields, nested fields flattened after their parent.
    pub inputs: Vec<FieldView>,
    /// The output fields; `None` when the tool declares no structured output.
    pub outputs: Option<Vec<FieldView>>,
    /// `text`, `markdown` or `image` for an unstructured result (`output kind=…`).
    pub output_kind: Option<&'static str>,
    /// `effect … idempotent=#true`: a repeated call has no further effect without a key.
    pub idempotent: bool,
    /// The declared errors, in declaration order.
    pub errors: Vec<ErrorView>,
    /// How retries are deduplicated, when declared.
    pub idempotency: Option<IdempotencyView>,
    /// The confirmation digest (`arguments`, `arguments+resource-version`), when the tool
    /// requires confirmation.
    pub confirm: Option<&'static str>,
    /// What to do after a timeout, when declared.
    pub on_timeout: Option<TimeoutView>,
    /// What the tool may ask the user for mid-call.
    pub needs_input: Vec<NeedsInputView>,
    /// Example requests.
    pub examples: ExamplesView,
    /// `example-call`s: concrete arguments and results.
    pub example_calls: Vec<ExampleCallView>,
    /// The deprecation, when deprecated.
    pub deprecated: Option<DeprecatedView>,
    /// `experimental` or `beta`; `None` for a stable tool.
    pub stability: Option<&'static str>,
    /// What the stability level means for callers (as in the description); `None` when
    /// stable.
    pub stability_words: Option<String>,
    /// The four hashes, as `catalogc hash` prints them.
    pub hashes: ToolHashes,
}

/// A named `type` of the catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TypeView {
    /// The type name.
    pub name: String,
    /// The HTML id of the type's section, `type-NAME`.
    pub anchor: String,
    /// The type's doc.
    pub doc: Option<String>,
    /// Its fields, nested fields flattened after their parent.
    pub fields: Vec<FieldView>,
}

/// One field of an input, output or type. Fields of an inline `object` (and of an array
/// of objects) follow their parent, with a dotted `path` (`items[].id`) and a larger `depth`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldView {
    /// The field's own name.
    pub name: String,
    /// The path from the top-level object: `a.b` for a field of an object field, `a[].b`
    /// for a field of the objects in an array.
    pub path: String,
    /// 0 for a top-level field, one more per level of nesting.
    pub depth: usize,
    /// The type in words: `string`, `integer`, `array of Invoice`, `array of object`.
    pub r#type: String,
    /// The named type the field is (or holds, for arrays), when it is one.
    pub type_name: Option<String>,
    /// The HTML id of that type's section, `type-NAME`.
    pub type_anchor: Option<String>,
    /// Whether the field must be present.
    pub required: bool,
    /// The default value as JSON (`20`, `"open"`), when declared.
    pub default: Option<String>,
    /// Each bound in words (`≥ 1`, `≤ 50`, `max length 32`, `at most 50 items`, `format
    /// date`); the pattern, unit and enum are separate.
    pub bounds: Vec<String>,
    /// The regular expression the value must match, when declared.
    pub pattern: Option<String>,
    /// The unit keyword (`minor`, `ms`, …), when declared.
    pub unit: Option<&'static str>,
    /// The unit in words (`minor currency units`, `milliseconds`, …).
    pub unit_words: Option<&'static str>,
    /// The allowed values, when the field is an enum (of an array's items, too).
    pub enum_values: Vec<String>,
    /// Whether clients must accept enum values added later.
    pub extensible: bool,
    /// Whether the value is sensitive (never logged).
    pub sensitive: bool,
    /// Whether the field is deprecated.
    pub deprecated: bool,
    /// The field's doc.
    pub doc: Option<String>,
}

/// One declared error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorView {
    /// The error code (`INVOICE_NOT_FOUND`).
    pub code: String,
    /// The error class keyword (`not-found`).
    pub class: &'static str,
    /// The effective retry policy: as written, else the class's default.
    pub retry: &'static str,
    /// Whether `retry` was written rather than defaulted.
    pub retry_declared: bool,
    /// The retry policy in words (`retry later with backoff`).
    pub retry_words: &'static str,
    /// The message.
    pub message: Option<String>,
    /// What the model should do next.
    pub next_step: Option<String>,
    /// The typed detail fields the error carries, when it declares them (as `outputs`).
    pub detail: Option<Vec<FieldView>>,
}

/// `idempotency`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IdempotencyView {
    /// The input field carrying the key.
    pub key: String,
    /// What a key is unique within (`["tenant", "operation"]`).
    pub scope: Vec<String>,
    /// How long a key is remembered, in seconds.
    pub ttl_s: Option<u64>,
}

/// `on-timeout`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimeoutView {
    /// `query-status` or `retry-with-key`.
    pub strategy: &'static str,
    /// With `query-status`: the tool that tells the outcome.
    pub tool: Option<String>,
    /// That tool's section id, when it is a tool of this catalog.
    pub tool_anchor: Option<String>,
    /// What to do, as a sentence (as in the description).
    pub words: String,
}

/// One `needs-input`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NeedsInputView {
    /// Its name.
    pub name: String,
    /// `confirmation`, `choice`, `credential` or `text`.
    pub kind: &'static str,
    /// What is asked.
    pub doc: Option<String>,
}

/// The `examples` of a tool.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ExamplesView {
    /// Requests that should call this tool.
    pub calls: Vec<String>,
    /// Requests that should not.
    pub no_calls: Vec<String>,
    /// Tools a model may confuse with this one.
    pub confusables: Vec<ToolRef>,
}

/// One `example-call` of a tool, ready to print in fenced code blocks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExampleCallView {
    /// The example's name.
    pub name: String,
    /// The arguments as pretty-printed JSON.
    pub arguments: String,
    /// The result: pretty-printed JSON, or the text as written; `None` when not given.
    pub result: Option<String>,
    /// The result's code-block language: `json`, `text` or `markdown`.
    pub result_lang: &'static str,
    /// A backtick fence longer than any run of backticks in the arguments or result.
    pub fence: String,
}

/// A reference to another tool by name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolRef {
    /// The tool name.
    pub name: String,
    /// Its section id, when it is a tool of this catalog.
    pub anchor: Option<String>,
}

/// `deprecated`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeprecatedView {
    /// Why.
    pub reason: Option<String>,
    /// The tool to use instead.
    pub replacement: Option<ToolRef>,
    /// The deprecation as a sentence (as in the description).
    pub words: String,
}

/// The view of catalog `catalog`, or `None` when either input lacks that index.
pub fn catalog_view(
    project: &Project,
    artifacts: &Artifacts,
    catalog: usize,
) -> Option<CatalogView> {
    let cat = project.catalogs.get(catalog)?;
    let contracts = artifacts.catalogs.get(catalog)?;
    if contracts.tools.len() != cat.tools.len() {
        return None;
    }
    let tools = cat
        .tools
        .iter()
        .zip(&contracts.tools)
        .map(|(tool, contract)| tool_view(cat, tool, &contract.description, contract.hashes()))
        .collect();
    let types = cat
        .types
        .iter()
        .map(|t| TypeView {
            name: t.name.value.clone(),
            anchor: anchor("type", &t.name.value),
            doc: text(&t.doc),
            fields: fields_of(&t.fields),
        })
        .collect();
    Some(CatalogView {
        name: cat.name.value.clone(),
        version: cat.version.value.clone(),
        summary: text(&cat.summary),
        tools,
        types,
    })
}

fn tool_view(cat: &Catalog, tool: &Tool, description: &str, hashes: &ToolHashes) -> ToolView {
    // The sentences the description template gets, so docs and description agree.
    let words = description_context(cat, tool);
    let tool_ref = |name: &str| ToolRef {
        name: name.to_string(),
        anchor: cat.tool(name).map(|t| anchor("tool", &t.name.value)),
    };
    let effect = tool.effect.value;
    ToolView {
        name: tool.name.value.clone(),
        anchor: anchor("tool", &tool.name.value),
        version: tool.version.value.clone(),
        title: words.title,
        summary: words.summary,
        when: words.when,
        when_not: words.when_not,
        effect: words.effect,
        effect_class: if effect.is_read_class() {
            "read"
        } else {
            "write"
        },
        effect_icon: match effect {
            _ if effect.is_read_class() => "🟢",
            crate::model::Effect::Destructive => "🔴",
            _ => "🟡",
        },
        effect_words: words.effect_words,
        open_world: tool.open_world(),
        safe_to_retry: tool.safe_to_retry(),
        limits: words.limits_words,
        description: description.to_string(),
        description_fence: crate::contract::markdown::fence(description),
        inputs: fields_of(&tool.input.fields),
        outputs: tool.output.as_ref().map(|o| fields_of(&o.fields)),
        errors: tool
            .errors
            .iter()
            .map(|e| ErrorView {
                code: e.code.value.clone(),
                class: e.class.value.as_str(),
                retry: e.retry().as_str(),
                retry_declared: e.retry.is_some(),
                retry_words: retry_words(e.retry()),
                message: text(&e.message),
                next_step: text(&e.next_step),
                detail: e.detail.as_ref().map(|d| fields_of(&d.fields)),
            })
            .collect(),
        idempotency: tool.idempotency.as_ref().map(|i| IdempotencyView {
            key: i.key.value.clone(),
            scope: i.scope.iter().map(|s| s.value.clone()).collect(),
            ttl_s: i.ttl_s.as_ref().map(|t| t.value),
        }),
        confirm: tool.confirm.as_ref().map(|c| c.digest.value.as_str()),
        on_timeout: tool.on_timeout.as_ref().map(|t| TimeoutView {
            strategy: t.strategy.value.as_str(),
            tool: t.tool.as_ref().map(|n| n.value.clone()),
            tool_anchor: t
                .tool
                .as_ref()
                .and_then(|n| cat.tool(&n.value))
                .map(|t| anchor("tool", &t.name.value)),
            words: words.timeout_words.clone().unwrap_or_default(),
        }),
        needs_input: tool
            .needs_input
            .iter()
            .map(|n| NeedsInputView {
                name: n.name.value.clone(),
                kind: n.kind.value.as_str(),
                doc: text(&n.doc),
            })
            .collect(),
        output_kind: tool.content.as_ref().map(|k| k.value.as_str()),
        idempotent: tool.naturally_idempotent(),
        example_calls: tool
            .example_calls
            .iter()
            .map(|c| example_call(tool, c))
            .collect(),
        examples: ExamplesView {
            calls: tool
                .examples
                .calls
                .iter()
                .map(|c| c.value.clone())
                .collect(),
            no_calls: tool
                .examples
                .no_calls
                .iter()
                .map(|c| c.value.clone())
                .collect(),
            confusables: tool
                .examples
                .confusables
                .iter()
                .map(|c| tool_ref(&c.value))
                .collect(),
        },
        deprecated: tool.deprecated.as_ref().map(|d| DeprecatedView {
            reason: text(&d.reason),
            replacement: d.replacement.as_ref().map(|r| tool_ref(&r.value)),
            words: words.deprecation.clone().unwrap_or_default(),
        }),
        stability: words.stability_words.as_ref().map(|_| words.stability),
        stability_words: words.stability_words.clone(),
        hashes: hashes.clone(),
    }
}

/// `PREFIX-NAME`, lowercased, every character other than an ASCII letter, digit, `-` or
/// `_` replaced by `-`: a valid HTML id that survives GitHub's sanitiser.
fn anchor(prefix: &str, name: &str) -> String {
    let name: String = name
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '-' | '_') => c,
            _ => '-',
        })
        .collect();
    format!("{prefix}-{name}")
}

fn text(s: &Option<crate::model::Sp<String>>) -> Option<String> {
    s.as_ref().map(|v| v.value.clone())
}

fn fields_of(fields: &[Field]) -> Vec<FieldView> {
    let mut out = Vec::new();
    push_fields(fields, "", 0, &mut out);
    out
}

fn push_fields(fields: &[Field], prefix: &str, depth: usize, out: &mut Vec<FieldView>) {
    for f in fields {
        let path = format!("{prefix}{}", f.name.value);
        let named = named_type(&f.ty);
        let mut bounds = Vec::new();
        let mut view = FieldView {
            name: f.name.value.clone(),
            path: path.clone(),
            depth,
            r#type: type_words(&f.ty),
            type_anchor: named.map(|n| anchor("type", n)),
            type_name: named.map(str::to_string),
            required: f.required,
            default: f.default.as_ref().map(|d| literal(&d.value)),
            bounds: Vec::new(),
            pattern: None,
            unit: None,
            unit_words: None,
            enum_values: Vec::new(),
            extensible: false,
            sensitive: f.sensitive,
            deprecated: f.deprecated,
            doc: text(&f.doc),
        };
        if f.nullable {
            bounds.push("may be null".to_string());
        }
        describe(&f.ty, "", &mut bounds, &mut view);
        view.bounds = bounds;
        out.push(view);
        for (obj, child_prefix) in nested_objects(&f.ty, path) {
            push_fields(&obj.fields, &child_prefix, depth + 1, out);
        }
    }
}

/// The inline objects a field holds (directly, as array items or map values, or as the
/// variants of a union), each with the path prefix of its fields (`question<choice>.`).
fn nested_objects(ty: &Ty, path: String) -> Vec<(&Object, String)> {
    match &ty.kind {
        TyKind::Object(o) => {
            let mut out = vec![(o, format!("{path}."))];
            if let Some(x) = &o.extra {
                out.extend(nested_objects(&x.values, format!("{path}{{}}")));
            }
            out
        }
        TyKind::Array(a) => nested_objects(&a.items, format!("{path}[]")),
        TyKind::Map(m) => nested_objects(&m.values, format!("{path}{{}}")),
        TyKind::Union(u) => u
            .variants
            .iter()
            .map(|v| (&v.fields, format!("{path}<{}>.", v.name.value)))
            .collect(),
        _ => Vec::new(),
    }
}

fn named_type(ty: &Ty) -> Option<&str> {
    match &ty.kind {
        TyKind::Named(n) => Some(&n.value),
        TyKind::Array(a) => named_type(&a.items),
        TyKind::Map(m) => named_type(&m.values),
        _ => None,
    }
}

fn type_words(ty: &Ty) -> String {
    match &ty.kind {
        TyKind::Array(a) if a.items_nullable => {
            format!("array of {} or null", type_words(&a.items))
        }
        TyKind::Array(a) => format!("array of {}", type_words(&a.items)),
        TyKind::Map(m) if m.values_nullable => {
            format!("map of {} or null", type_words(&m.values))
        }
        TyKind::Map(m) => format!("map of {}", type_words(&m.values)),
        k => k.keyword().to_string(),
    }
}

/// Adds the bounds of `ty` to `bounds` (each prefixed with `prefix`, `each item ` for an
/// array's items) and its pattern, unit and enum to `view`.
fn describe(ty: &Ty, prefix: &str, bounds: &mut Vec<String>, view: &mut FieldView) {
    let mut push = |s: String| bounds.push(format!("{prefix}{s}"));
    match &ty.kind {
        TyKind::String(s) => string_bounds(s, None, &mut push, view),
        TyKind::Cursor(s) => string_bounds(
            s,
            Some(crate::model::CURSOR_DEFAULT_MAX_LENGTH),
            &mut push,
            view,
        ),
        TyKind::Integer(n) | TyKind::Number(n) => num_bounds(n, &mut push, view),
        TyKind::Timestamp => push("RFC 3339 date-time with offset".to_string()),
        TyKind::Array(a) => {
            if let Some(n) = &a.min_items {
                push(format!("at least {} {}", n.value, items(n.value)));
            }
            if let Some(n) = &a.max_items {
                push(format!("at most {} {}", n.value, items(n.value)));
            }
            if a.unique {
                push("items unique".to_string());
            }
            describe(&a.items, "each item ", bounds, view);
        }
        TyKind::Map(m) => {
            if let Some(n) = &m.min_entries {
                push(format!("at least {} {}", n.value, entries(n.value)));
            }
            if let Some(n) = &m.max_entries {
                push(format!("at most {} {}", n.value, entries(n.value)));
            }
            describe(&m.values, "each value ", bounds, view);
        }
        // An open object: its fields are listed below it; the rest is said here.
        TyKind::Object(o) if let Some(x) = &o.extra => {
            let null = if x.nullable { " or null" } else { "" };
            push(format!("other properties: {}{null}", type_words(&x.values)));
            if let Some(n) = &x.min_entries {
                push(format!(
                    "at least {} {} in all",
                    n.value,
                    properties(n.value)
                ));
            }
            if let Some(n) = &x.max_entries {
                push(format!(
                    "at most {} {} in all",
                    n.value,
                    properties(n.value)
                ));
            }
            describe(&x.values, "each other property ", bounds, view);
        }
        TyKind::Json => push("any JSON value".to_string()),
        TyKind::Union(u) => {
            let names: Vec<&str> = u.variants.iter().map(|v| v.name.value.as_str()).collect();
            push(format!(
                "one of {} by `{}`",
                crate::model::read::quoted_list(&names),
                u.discriminator.value
            ));
        }
        TyKind::Boolean | TyKind::Object(_) | TyKind::Named(_) => {}
    }
}

fn properties(n: u64) -> &'static str {
    if n == 1 { "property" } else { "properties" }
}

fn entries(n: u64) -> &'static str {
    if n == 1 { "entry" } else { "entries" }
}

fn items(n: u64) -> &'static str {
    if n == 1 { "item" } else { "items" }
}

fn string_bounds(
    s: &StringTy,
    default_max: Option<u64>,
    push: &mut impl FnMut(String),
    view: &mut FieldView,
) {
    if let Some(n) = &s.min_length {
        push(format!("min length {}", n.value));
    }
    if let Some(n) = s.max_length.as_ref().map(|n| n.value).or(default_max) {
        push(format!("max length {n}"));
    }
    if let Some(f) = &s.format {
        push(format!("format {}", f.value.as_str()));
    }
    if let Some(p) = &s.pattern {
        view.pattern = Some(p.value.clone());
    }
    if let Some(e) = &s.enum_values {
        view.enum_values = e.values.iter().map(|v| v.value.clone()).collect();
        view.extensible = e.extensible;
    }
}

fn num_bounds(n: &NumTy, push: &mut impl FnMut(String), view: &mut FieldView) {
    let bound = |op: &str, v: &Option<crate::model::Sp<Num>>| {
        v.as_ref().map(|v| format!("{op} {}", num(v.value)))
    };
    [
        bound("≥", &n.min),
        bound(">", &n.exclusive_min),
        bound("≤", &n.max),
        bound("<", &n.exclusive_max),
        bound("multiple of", &n.multiple_of),
    ]
    .into_iter()
    .flatten()
    .for_each(&mut *push);
    if let Some(u) = &n.unit {
        view.unit = Some(u.value.as_str());
        view.unit_words = Some(unit_words(u.value));
    }
}

/// A catalog number as written (`20`, `1.5`).
pub(crate) fn num(n: Num) -> String {
    match n {
        Num::Int(i) => i.to_string(),
        Num::Float(f) => f.to_string(),
    }
}

/// A catalog literal as JSON (`"open"`, `20`, `null`).
pub(crate) fn literal(l: &Literal) -> String {
    match l {
        Literal::String(s) => serde_json::Value::String(s.clone()).to_string(),
        Literal::Int(i) => i.to_string(),
        Literal::Float(f) => f.to_string(),
        Literal::Bool(b) => b.to_string(),
        Literal::Null => "null".to_string(),
    }
}

fn unit_words(u: Unit) -> &'static str {
    match u {
        Unit::Minor => "minor currency units, e.g. cents",
        Unit::Ms => "milliseconds",
        Unit::S => "seconds",
        Unit::Bytes => "bytes",
        Unit::Count => "a count",
        Unit::Percent => "percent",
        Unit::BasisPoints => "basis points, hundredths of a percent",
    }
}

fn retry_words(retry: Retry) -> &'static str {
    match retry {
        Retry::FixArguments => "retry with corrected arguments",
        Retry::Never => "do not retry",
        Retry::AfterUserAction => "retry only after the user acts",
        Retry::Backoff => "retry later, with backoff",
        Retry::QueryStatus => "check the outcome before retrying",
    }
}

fn example_call(tool: &Tool, c: &crate::model::ExampleCall) -> ExampleCallView {
    use crate::model::ExampleResult;
    let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let arguments = pretty(&c.arguments.value);
    let (result, result_lang) = match c.result.as_ref().map(|r| &r.value) {
        Some(ExampleResult::Json(v)) => (Some(pretty(v)), "json"),
        Some(ExampleResult::Text(t)) => (
            Some(t.clone()),
            match tool.content.as_ref().map(|k| k.value) {
                Some(crate::model::ContentKind::Markdown) => "markdown",
                _ => "text",
            },
        ),
        None => (None, "json"),
    };
    let both = format!("{arguments}\n{}", result.as_deref().unwrap_or(""));
    ExampleCallView {
        name: c.name.value.clone(),
        arguments,
        result,
        result_lang,
        fence: crate::contract::markdown::fence(&both),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::description::DESCRIPTION_TEMPLATE;
    use crate::project::load_source;

    fn billing() -> Project {
        load_source("billing.kdl", include_str!("../catalogs/billing.kdl")).project
    }

    /// The docs show the artifacts' description and hashes, not values of their own.
    #[test]
    fn the_view_carries_the_artifacts() {
        let project = billing();
        let mut own = Templates::builtin();
        own.add(DESCRIPTION_TEMPLATE.to_string(), "{{ name }}!".to_string())
            .unwrap_or_else(|e| panic!("{e}"));
        let art = Artifacts::build(&project, &own).unwrap_or_else(|e| panic!("{e}"));
        let view = catalog_view(&project, &art, 0).unwrap_or_else(|| panic!("no view"));
        assert_eq!(view.tools.len(), project.catalogs[0].tools.len());
        for (i, t) in view.tools.iter().enumerate() {
            let c = art.tool(0, i).unwrap_or_else(|| panic!("no contract"));
            assert_eq!(t.description, format!("{}!", t.name));
            assert_eq!(&t.hashes, c.hashes());
        }
        let reminder = &view.tools[2];
        assert_eq!(reminder.anchor, "tool-invoice_send_reminder");
        assert_eq!(reminder.effect_icon, "🔴");
        assert_eq!(reminder.confirm, Some("arguments"));
        let timeout = reminder
            .on_timeout
            .as_ref()
            .unwrap_or_else(|| panic!("timeout"));
        assert_eq!(timeout.tool_anchor.as_deref(), Some("tool-invoice_get"));
        let items = &view.tools[0]
            .outputs
            .as_ref()
            .unwrap_or_else(|| panic!("out"))[0];
        assert_eq!(
            (items.r#type.as_str(), items.type_anchor.as_deref()),
            ("array of Invoice", Some("type-invoice"))
        );
        assert_eq!(catalog_view(&project, &art, 1), None);
        assert_eq!(
            render_catalog(&project, &art, &own, 1),
            Err(DocsError::NoCatalog(1))
        );
    }

    /// The project, artifacts and docs view of one catalog's text, which loads cleanly.
    fn view_of(src: &str) -> (Project, Artifacts, CatalogView) {
        let loaded = load_source("c.kdl", src);
        let project = loaded.project;
        assert_eq!(project.catalogs.len(), 1, "{:?}", loaded.diagnostics);
        let art = Artifacts::build(&project, &Templates::builtin()).unwrap_or_default();
        let view = catalog_view(&project, &art, 0).unwrap_or_else(|| panic!("no view"));
        (project, art, view)
    }

    /// Inline objects are flattened after their parent with a dotted path; item bounds are
    /// marked as such.
    #[test]
    fn nested_fields_follow_their_parent() {
        let src = r#"catalog "c" version="1.0.0"
tool "t" version="1.0.0" {
    effect "read"
    input {
        field "lines" "array" max-items=5 {
            items "object" {
                field "sku" "string" required=#true max-length=8
                field "tags" "array" {
                    items "string" max-length=3
                }
            }
        }
    }
}
"#;
        let (_, _, view) = view_of(src);
        let got: Vec<(&str, usize, &str, Vec<String>)> = view.tools[0]
            .inputs
            .iter()
            .map(|f| {
                (
                    f.path.as_str(),
                    f.depth,
                    f.r#type.as_str(),
                    f.bounds.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "lines",
                    0,
                    "array of object",
                    vec!["at most 5 items".to_string()]
                ),
                ("lines[].sku", 1, "string", vec!["max length 8".to_string()]),
                (
                    "lines[].tags",
                    1,
                    "array of string",
                    vec!["each item max length 3".to_string()]
                ),
            ]
        );
    }

    /// A union lists each variant's fields after it, at `FIELD<VARIANT>.NAME`, in the
    /// Markdown too; a map of objects its values' fields at `FIELD{}.NAME`.
    #[test]
    fn union_variants_and_map_values_list_their_fields() {
        let src = r#"catalog "c" version="1.0.0"
tool "t" version="1.0.0" {
    effect "read"
    input {
        field "question" "union" required=#true discriminator="type" {
            variant "choice" {
                field "options" "array" required=#true max-items=10 { items "string" max-length=80; }
            }
            variant "text" {
                field "max_words" "integer" min=1 max=500 { doc "Longest answer accepted."; }
            }
        }
        field "by_team" "map" max-entries=4 {
            values "object" { field "owner" "string" max-length=8; }
        }
    }
}
"#;
        let (project, art, view) = view_of(src);
        let got: Vec<(&str, usize)> = view.tools[0]
            .inputs
            .iter()
            .map(|f| (f.path.as_str(), f.depth))
            .collect();
        assert_eq!(
            got,
            [
                ("question", 0),
                ("question<choice>.options", 1),
                ("question<text>.max_words", 1),
                ("by_team", 0),
                ("by_team{}.owner", 1),
            ]
        );
        let md = render_catalog(&project, &art, &Templates::builtin(), 0)
            .unwrap_or_else(|e| panic!("{e}"));
        for want in [
            "| `question<choice>.options` | array of string | yes |",
            "| `question<text>.max_words` | integer | no |",
        ] {
            assert!(md.contains(want), "{want} missing in\n{md}");
        }
    }

    /// A project's `docs.md.j2` replaces the built-in one; one that fails names itself and
    /// the line.
    #[test]
    fn a_project_template_overrides_and_fails_by_line() {
        let project = billing();
        let art = Artifacts::build(&project, &Templates::builtin()).unwrap_or_default();
        let mut own = Templates::builtin();
        own.add(
            DOCS_TEMPLATE.to_string(),
            "{% for t in tools %}* {{ t.name | code }} {{ t.hashes.contract }}\n{% endfor %}"
                .to_string(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let text = render_catalog(&project, &art, &own, 0).unwrap_or_else(|e| panic!("{e}"));
        let first = art.tool(0, 0).map(|c| c.hashes().contract.clone());
        assert_eq!(
            text.lines().next(),
            Some(format!("* `invoice_list` {}", first.unwrap_or_default()).as_str())
        );
        assert_eq!(text.lines().count(), 3);
        assert!(text.ends_with('\n') && !text.ends_with("\n\n"));

        own.add(
            DOCS_TEMPLATE.to_string(),
            "# {{ name }}\n\n{{ tools[0].name | no_such_filter }}\n".to_string(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        match render_catalog(&project, &art, &own, 0) {
            Err(DocsError::Template(e)) => {
                assert_eq!(e.template, DOCS_TEMPLATE);
                assert!(e.message.contains("line 3"), "{e}");
            }
            other => panic!("expected a template error, got {other:?}"),
        }
    }

    #[test]
    fn file_names_stay_inside_the_folder() {
        let mut cat = Catalog::new("billing-v2_eu");
        assert_eq!(file_name(&cat).as_deref(), Some("billing-v2_eu.md"));
        for bad in ["", "../x", "a/b", ".hidden", "é"] {
            cat.name.value = bad.to_string();
            assert_eq!(file_name(&cat), None, "{bad}");
        }
    }
}
