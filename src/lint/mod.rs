//! The linter: rules over the model, one rule per file under `rules/<category>/<name>.rs`,
//! modelled on ruff. A rule file declares its `RULE` with `declare_rule!`, whose doc comment
//! is the rule's documentation (What it does / Why is this bad? / Example / Use instead); the
//! category's `declare_rules!` line registers it.

pub mod baseline;
pub mod config;
pub mod docs;
pub mod published;
pub mod rules;
pub(crate) mod shared;
pub(crate) mod signals;
pub(crate) mod similarity;
pub mod suppress;
#[cfg(test)]
pub(crate) mod testkit;
pub mod text;
pub mod walk;

use crate::contract::Contracts;
pub use crate::diag::suggest::did_you_mean;
use crate::diag::{Diagnostic, FileId, Level, SharedNames, SourceMap};
use crate::model::{Catalog, Project, Span, Tool};
pub use config::Config;
use std::borrow::Cow;

use std::sync::Arc;

/// A check of one site of the walk (see [`walk::Site`]).
pub type SiteHook = fn(&Context, &walk::Site<'_, '_>, &mut Vec<Finding>);

/// A check of one author-written text (see [`text::Text`]).
pub type TextHook = fn(&Context, &text::Text<'_, '_>, &mut Vec<Finding>);

/// A check of one catalog as a whole, called before the walk visits its sites.
pub type CatalogHook = fn(&Context, &Catalog, &mut Vec<Finding>);

/// Creates a rule's state for one run (see [`RuleState`]).
pub type StateHook = for<'a> fn(&Context<'a>) -> Box<dyn RuleState<'a> + 'a>;

/// A rule that keeps something across sites (a cache of compiled patterns, the graph of type
/// uses, findings held back until a catalog is done): created once per run by its
/// [`Hooks::state`] and called by the walk like the stateless hooks, in the same order.
pub trait RuleState<'a> {
    /// Before the sites of `catalog`, like [`Hooks::catalog`].
    fn catalog(&mut self, _cx: &Context<'a>, _catalog: &'a Catalog, _out: &mut Vec<Finding>) {}
    /// Each text, like [`Hooks::text`].
    fn text(&mut self, _cx: &Context<'a>, _text: &text::Text<'a, '_>, _out: &mut Vec<Finding>) {}
    /// Each declaration site, like [`Hooks::declaration`].
    fn declaration(
        &mut self,
        _cx: &Context<'a>,
        _site: &walk::Site<'a, '_>,
        _out: &mut Vec<Finding>,
    ) {
    }
    /// After every site and text of `catalog`.
    fn catalog_done(&mut self, _cx: &Context<'a>, _catalog: &'a Catalog, _out: &mut Vec<Finding>) {}
}

/// What a rule inspects. The linter walks the project once and calls every enabled rule's
/// hooks, so a rule about fields does not walk every tool itself. Per catalog the walk calls
/// the `catalog` hooks, then the texts not at a type site ([`text::catalog_texts`]), then the
/// sites (each declaration's texts with it), then [`RuleState::catalog_done`].
#[derive(Clone, Copy)]
pub struct Hooks {
    /// Once per project: whatever the rule does not reach through a site (tools, texts,
    /// whole-catalog checks).
    pub project: Option<fn(&Context, &mut Vec<Finding>)>,
    /// Once per catalog, before its sites.
    pub catalog: Option<CatalogHook>,
    /// Once per text the model reads: the catalog's and tools' texts, named types' docs, then
    /// field docs and enum values with their declaration sites.
    pub text: Option<TextHook>,
    /// Once per type site as written: each tool's input and output fields (tool by tool,
    /// input first), then each named type's own fields. Named types are not entered.
    pub declaration: Option<SiteHook>,
    /// Once per type site per use on a tool side: named types are entered wherever they are
    /// used, with the tool's path and the depth there.
    pub use_site: Option<SiteHook>,
    /// Creates the rule's [`RuleState`] once per run, for a rule that keeps something across
    /// sites.
    pub state: Option<StateHook>,
    /// Builds what the rule builds once per process (its text automata) ahead of the walk;
    /// see [`prepare`].
    pub prepare: Option<fn()>,
}

impl Hooks {
    /// No hook: the start of a `const` chain such as `Hooks::NONE.and_catalog(f).and_declaration(g)`.
    pub const NONE: Hooks = Hooks {
        project: None,
        catalog: None,
        text: None,
        declaration: None,
        use_site: None,
        state: None,
        prepare: None,
    };

    /// Only a project hook.
    pub const fn project(f: fn(&Context, &mut Vec<Finding>)) -> Self {
        Hooks {
            project: Some(f),
            ..Hooks::NONE
        }
    }

    /// Only a declaration hook.
    pub const fn declaration(f: SiteHook) -> Self {
        Hooks::NONE.and_declaration(f)
    }

    /// Only a use-site hook.
    pub const fn use_site(f: SiteHook) -> Self {
        Hooks {
            use_site: Some(f),
            ..Hooks::NONE
        }
    }

    /// Only a text hook.
    pub const fn text(f: TextHook) -> Self {
        Hooks {
            text: Some(f),
            ..Hooks::NONE
        }
    }

    /// Only per-run state.
    pub const fn state(f: StateHook) -> Self {
        Hooks {
            state: Some(f),
            ..Hooks::NONE
        }
    }

    /// These hooks and a catalog hook.
    pub const fn and_catalog(self, f: CatalogHook) -> Self {
        Hooks {
            catalog: Some(f),
            ..self
        }
    }

    /// These hooks and a declaration hook.
    pub const fn and_declaration(self, f: SiteHook) -> Self {
        Hooks {
            declaration: Some(f),
            ..self
        }
    }

    /// These hooks and a prepare hook.
    pub const fn and_prepare(self, f: fn()) -> Self {
        Hooks {
            prepare: Some(f),
            ..self
        }
    }
}

/// Builds every rule's once-per-process automata, which the walk would otherwise build on
/// each one's first text; `catalogc lint` calls this on another thread while the catalogs
/// load. Calling it is never needed for correct findings.
pub fn prepare() {
    for rule in registry() {
        if let Some(f) = rule.hooks.prepare {
            f();
        }
    }
}

/// A lint rule: metadata, documentation and its hooks.
pub struct Rule {
    /// `category/name`, exactly as docs/rules.md spells it.
    pub id: &'static str,
    /// Default level; `catalogc.kdl` may change it.
    pub level: Level,
    /// One line for `catalogc rules`.
    pub summary: &'static str,
    /// What the linter calls for this rule.
    pub hooks: Hooks,
    /// The documentation: the doc comment of the rule's `static`, one line each, as the
    /// compiler hands it to `declare_rule!` (each line keeps the space after `///`).
    pub doc: &'static str,
}

impl Rule {
    /// The category: the part of the ID before `/` (`naming` for `naming/tool-name`).
    pub fn category(&self) -> &'static str {
        self.id.split('/').next().unwrap_or(self.id)
    }

    /// The rule's documentation, as Markdown.
    pub fn doc(&self) -> String {
        let mut doc = String::with_capacity(self.doc.len());
        for line in self.doc.lines() {
            doc.push_str(line.strip_prefix(' ').unwrap_or(line));
            doc.push('\n');
        }
        doc
    }
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule").field("id", &self.id).finish()
    }
}

/// What a rule sees.
pub struct Context<'a> {
    /// The catalogs being linted.
    pub project: &'a Project,
    /// Their files, for positions and source text.
    pub sources: &'a SourceMap,
    /// The lint configuration (thresholds, forbidden fields).
    pub config: &'a Config,
    /// Every tool's published contract, built once by the run from its templates, so the
    /// descriptions the rules measure are the ones that are hashed, locked and exported:
    /// [`crate::contract::Artifacts`], or for `catalogc lint` the [`crate::contract::Measured`]
    /// contracts that keep only what the rules read.
    pub artifacts: &'a dyn Contracts,
}

impl<'a> Context<'a> {
    /// A context over the given project, its sources, configuration and contracts.
    pub fn new(
        project: &'a Project,
        sources: &'a SourceMap,
        config: &'a Config,
        artifacts: &'a dyn Contracts,
    ) -> Self {
        Context {
            project,
            sources,
            config,
            artifacts,
        }
    }

    /// The rendered description of `project.catalogs[catalog].tools[tool]`.
    pub fn description(&self, catalog: usize, tool: usize) -> &str {
        self.artifacts.description(catalog, tool).unwrap_or("")
    }
}

/// One finding of one rule, before levels and suppression are applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The file the finding is in; it names the catalog too (one catalog a file), so no
    /// finding carries a copy of the catalog's name.
    pub file: FileId,
    /// Byte range in that file.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// How to fix it; most rules' help is a fixed text, which is not copied per finding.
    pub help: Option<Cow<'static, str>>,
    /// Name of the tool, for tool-level and field-level findings.
    pub tool: Option<String>,
    /// Dotted location inside the tool, e.g. `input.items[].amount_minor`.
    pub path: Option<String>,
    /// Overrides the rule's default level for this finding (e.g. `bounds/string-unbounded` is
    /// an error in input and a warning in output). A level set in `catalogc.kdl` wins.
    pub level: Option<Level>,
}

impl Finding {
    /// A catalog-level finding.
    pub fn in_catalog(catalog: &Catalog, span: Span, message: impl Into<String>) -> Self {
        Finding {
            file: catalog.file,
            span,
            message: message.into(),
            help: None,
            tool: None,
            path: None,
            level: None,
        }
    }

    /// A finding about one tool (or something inside it).
    pub fn in_tool(catalog: &Catalog, tool: &Tool, span: Span, message: impl Into<String>) -> Self {
        Finding {
            tool: Some(tool.name.value.clone()),
            ..Finding::in_catalog(catalog, span, message)
        }
    }

    /// Adds how to fix it.
    pub fn help(mut self, help: impl Into<Cow<'static, str>>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the dotted location inside the tool.
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets this finding's level, overriding the rule's default (configuration still wins).
    pub fn level(mut self, level: Level) -> Self {
        self.level = Some(level);
        self
    }
}

/// Every registered rule, in registry order (category, then file order).
pub fn registry() -> impl Iterator<Item = &'static Rule> {
    rules::CATEGORIES.iter().flat_map(|c| c.iter().copied())
}

/// The registered rule with this ID; `None` for an unknown ID.
pub fn rule(id: &str) -> Option<&'static Rule> {
    registry().find(|r| r.id == id)
}

/// A string whose length a validator can check: `max-length`, a closed or extensible `enum`
/// (each value is bounded), or a format of bounded length (`Format::is_bounded`).
pub fn string_is_bounded(s: &crate::model::StringTy) -> bool {
    s.max_length.is_some()
        || s.enum_values.is_some()
        || s.format.as_ref().is_some_and(|f| f.value.is_bounded())
}

/// The site is a field's own type and the field has `const=`: one value, bounded whatever
/// its type's constraints say.
pub fn has_const(site: &walk::Site) -> bool {
    site.field
        .is_some_and(|f| std::ptr::eq(&f.ty, site.ty) && f.constant.is_some())
}

/// Declares the rule files of one category and lists them: adding a rule is one new file and
/// one name here.
macro_rules! declare_rules {
    ($($name:ident),* $(,)?) => {
        $(pub mod $name;)*
        /// The category's rules, in declaration order.
        pub static RULES: &[&crate::lint::Rule] = &[$(&$name::RULE),*];
    };
}
pub(crate) use declare_rules;

/// Declares a rule's `static`, whose doc comment is the rule's documentation (`catalogc
/// explain`, docs/rules.md): the comment stays on the `static` for rustdoc, and its lines,
/// which the compiler passes to a macro as `#[doc]` strings, become [`Rule::doc`].
///
/// ```ignore
/// crate::lint::declare_rule! {
///     /// ## What it does
///     /// …
///     pub static RULE = Rule { id: "…", level: Level::Warn, summary: "…", hooks: … };
/// }
/// ```
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        $vis:vis static $name:ident = Rule { $($field:ident: $value:expr),* $(,)? };
    ) => {
        $(#[doc = $doc])*
        $vis static $name: crate::lint::Rule = crate::lint::Rule {
            $($field: $value,)*
            doc: concat!($($doc, "\n"),*),
        };
    };
}
pub(crate) use declare_rule;

/// Run every rule that is not turned off, apply the tools' `allow` lines, and return the
/// findings as diagnostics, sorted by file and position.
pub fn run(
    project: &Project,
    sources: &SourceMap,
    config: &Config,
    artifacts: &dyn Contracts,
) -> Vec<Diagnostic> {
    let cx = Context::new(project, sources, config, artifacts);
    let enabled: Vec<(&Rule, Level)> = registry()
        .filter_map(|rule| Some((rule, config.level_for(rule)?)))
        .collect();
    let rules: Vec<&Rule> = enabled.iter().map(|(rule, _)| *rule).collect();
    let found = findings(&cx, &rules);
    // Grown by exactly each rule's findings as they are converted (and freed): sized for all
    // of them up front, the list sat empty beside every finding, and doubling growth left up
    // to half of it unused.
    let mut out: Vec<Diagnostic> = Vec::new();
    let mut names = SharedNames::default();
    let catalogs: crate::FastMap<FileId, Arc<str>> = (project.catalogs.iter())
        .map(|c| (c.file, names.get(&c.name.value)))
        .collect();
    for ((rule, configured), findings) in enabled.iter().zip(found) {
        let (rule, configured) = (*rule, *configured);
        let findings = once_per_declaration(findings);
        out.reserve_exact(findings.len());
        for f in findings {
            let level = if config.level_is_set(rule) {
                configured
            } else if config.published {
                published::cap(rule.id, f.level.unwrap_or(configured))
            } else {
                f.level.unwrap_or(configured)
            };
            out.push(Diagnostic {
                rule: Cow::Borrowed(rule.id),
                level,
                file: f.file,
                span: f.span,
                message: f.message,
                help: f.help,
                catalog: catalogs.get(&f.file).cloned(),
                tool: f.tool.map(|t| names.get(&t)),
                path: f.path,
                pointer: None,
            });
        }
    }
    let mut out = suppress::apply(project, config, out);
    crate::diag::sort_stable_by(&mut out, |a, b| {
        (a.file, a.span.start, &a.rule, &a.path).cmp(&(b.file, b.span.start, &b.rule, &b.path))
    });
    out
}

/// Whether a rule reads more of `tool`'s contract than its description and the length of its
/// definition: `output/example-invalid` checks the examples of a tool that has some against
/// its schemas, and `target/dropped-keyword` (`--target`) converts every tool's input
/// schema with `targets` given. [`crate::contract::Measured`] keeps the whole contract of these
/// tools only.
pub fn reads_contract(targets: &[crate::contract::targets::Target], tool: &Tool) -> bool {
    !targets.is_empty() || !tool.example_calls.is_empty()
}

/// One rule's findings with each defect of a shared named type kept once: the rules that
/// check every use of a type (its level depends on the side it is used on) find the same
/// defect at the same declaration once per tool that uses it. A finding at the same place,
/// at the same level and with the same message but for its path is that defect again; the
/// first is kept and says how many tools share it.
fn once_per_declaration(findings: Vec<Finding>) -> Vec<Finding> {
    use std::collections::hash_map::Entry;
    let mut first: std::collections::HashMap<(FileId, usize, usize, Option<Level>, String), usize> =
        std::collections::HashMap::new();
    let mut uses: Vec<Vec<String>> = Vec::with_capacity(findings.len());
    let mut kept: Vec<Finding> = Vec::with_capacity(findings.len());
    for f in findings {
        let Some(tool) = f.tool.clone().filter(|_| f.span.start < f.span.end) else {
            uses.push(Vec::new());
            kept.push(f);
            continue;
        };
        let message = match &f.path {
            Some(p) if !p.is_empty() => f.message.replace(p.as_str(), ""),
            _ => f.message.clone(),
        };
        match first.entry((f.file, f.span.start, f.span.end, f.level, message)) {
            Entry::Occupied(e) => {
                let tools = &mut uses[*e.get()];
                if !tools.contains(&tool) {
                    tools.push(tool);
                }
            }
            Entry::Vacant(e) => {
                e.insert(kept.len());
                uses.push(vec![tool]);
                kept.push(f);
            }
        }
    }
    for (f, tools) in kept.iter_mut().zip(uses) {
        if tools.len() > 1 {
            let n = tools.len();
            f.message.push_str(&format!(
                " (a shared type: the same declaration in {n} tools)"
            ));
        }
    }
    kept
}

/// The findings of `rules`, one list per rule in the same order: the project hooks, then one
/// walk over every catalog calling the other hooks (see [`Hooks`]). Each rule's findings come
/// in the order it would report them walking the project alone.
///
/// The rules that walk the catalogs are dealt round-robin into one group per thread of
/// rayon's pool (neighbouring rules of a category tend to cost alike), each group walking the project
/// on its own; a rule with only a project hook needs no walk and is a task of its own. Free
/// threads take the next task, so a heavy project rule evens out uneven groups. Every rule
/// still sees the whole walk in order, so the findings are the same.
pub fn findings<'a>(cx: &Context<'a>, rules: &[&Rule]) -> Vec<Vec<Finding>> {
    use rayon::prelude::*;
    let alone = |r: &Rule| {
        let h = &r.hooks;
        h.catalog.is_none()
            && h.text.is_none()
            && h.declaration.is_none()
            && h.use_site.is_none()
            && h.state.is_none()
    };
    let (single, walking): (Vec<usize>, Vec<usize>) =
        (0..rules.len()).partition(|&i| alone(rules[i]));
    let groups = rayon::current_num_threads().min(walking.len()).max(1);
    let mut tasks: Vec<Vec<usize>> = vec![Vec::new(); groups];
    for (k, &i) in walking.iter().enumerate() {
        tasks[k % groups].push(i);
    }
    tasks.extend(single.into_iter().map(|i| vec![i]));
    // One task per job, so that a thread done with its task takes the next one.
    let found: Vec<Vec<Vec<Finding>>> = (tasks.par_iter().with_max_len(1))
        .map(|task| {
            let group: Vec<&Rule> = task.iter().map(|&i| rules[i]).collect();
            walk_rules(cx, &group)
        })
        .collect();
    let mut out: Vec<Vec<Finding>> = rules.iter().map(|_| Vec::new()).collect();
    for (task, found) in tasks.iter().zip(found) {
        for (&i, f) in task.iter().zip(found) {
            out[i] = f;
        }
    }
    out
}

/// [`findings`] of `rules` on this thread.
fn walk_rules<'a>(cx: &Context<'a>, rules: &[&Rule]) -> Vec<Vec<Finding>> {
    let mut out: Vec<Vec<Finding>> = rules.iter().map(|_| Vec::new()).collect();
    for (rule, out) in rules.iter().zip(&mut out) {
        if let Some(project) = rule.hooks.project {
            project(cx, out);
        }
    }
    fn pick<H>(rules: &[&Rule], hook: fn(&Hooks) -> Option<H>) -> Vec<(usize, H)> {
        let each = rules.iter().enumerate();
        each.filter_map(|(i, r)| Some((i, hook(&r.hooks)?)))
            .collect()
    }
    let catalog_hooks = pick(rules, |h| h.catalog);
    let text_hooks = pick(rules, |h| h.text);
    let declaration = pick(rules, |h| h.declaration);
    let use_site = pick(rules, |h| h.use_site);
    type State<'a> = (usize, Box<dyn RuleState<'a> + 'a>);
    let mut states: Vec<State<'a>> = pick(rules, |h| h.state)
        .into_iter()
        .map(|(i, make)| (i, make(cx)))
        .collect();
    let reads_texts = !text_hooks.is_empty() || !states.is_empty();
    if catalog_hooks.is_empty() && !reads_texts && declaration.is_empty() && use_site.is_empty() {
        return out;
    }
    let mut label = String::new();
    for catalog in &cx.project.catalogs {
        for (i, hook) in &catalog_hooks {
            hook(cx, catalog, &mut out[*i]);
        }
        for (i, state) in &mut states {
            state.catalog(cx, catalog, &mut out[*i]);
        }
        let on_text =
            |out: &mut [Vec<Finding>], states: &mut [State<'a>], t: &text::Text<'a, '_>| {
                for (i, hook) in &text_hooks {
                    hook(cx, t, &mut out[*i]);
                }
                for (i, state) in states {
                    state.text(cx, t, &mut out[*i]);
                }
            };
        if reads_texts {
            text::catalog_texts(catalog, &mut label, &mut |t| {
                on_text(&mut out, &mut states, t)
            });
        }
        let types = walk::Types::new(catalog);
        walk::catalog_sites(&types, !use_site.is_empty(), &mut |site| {
            if site.declared {
                if reads_texts {
                    text::site_texts(site, &mut label, &mut |t| on_text(&mut out, &mut states, t));
                }
                for (i, hook) in &declaration {
                    hook(cx, site, &mut out[*i]);
                }
                for (i, state) in &mut states {
                    state.declaration(cx, site, &mut out[*i]);
                }
            }
            if site.tool.is_some() {
                for (i, hook) in &use_site {
                    hook(cx, site, &mut out[*i]);
                }
            }
        });
        for (i, state) in &mut states {
            state.catalog_done(cx, catalog, &mut out[*i]);
        }
    }
    out
}

/// The rule categories in the order of docs/rules.md, then the linter's own. Configuration accepts
/// these names even for a category whose rules are not built into this binary.
pub const CATEGORY_NAMES: &[&str] = &[
    "naming",
    "selection",
    "bounds",
    "trust",
    "header",
    "output",
    "effect",
    "errors",
    "catalog",
    "target",
    "lint",
];

/// Everything `catalogc lint` reports for a loaded project: the loading's syntax and model
/// diagnostics, then the lint findings, in render order. `artifacts` are the contracts of
/// `loaded.project`.
pub fn check_project(
    loaded: &crate::project::Loaded,
    config: &Config,
    artifacts: &dyn Contracts,
) -> Vec<Diagnostic> {
    // The loading diagnostics (usually few) join the findings, not the other way round:
    // the findings of a hostile catalog are hundreds of thousands, and two lists of them
    // alive at once doubled the largest list lint holds.
    let mut all = run(&loaded.project, &loaded.sources, config, artifacts);
    all.reserve_exact(loaded.diagnostics.len());
    all.extend(loaded.diagnostics.iter().cloned());
    crate::project::sort_diagnostics(&mut all);
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_documented_and_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for rule in registry() {
            assert!(seen.insert(rule.id), "{} registered twice", rule.id);
            let (category, name) = rule.id.split_once('/').unwrap_or_default();
            assert!(!category.is_empty() && !name.is_empty(), "{}", rule.id);
            let doc = rule.doc();
            for section in [
                "## What it does",
                "## Why is this bad?",
                "## Example",
                "## Use instead",
            ] {
                assert!(doc.contains(section), "{} lacks `{section}`", rule.id);
            }
            assert!(!rule.summary.is_empty(), "{}", rule.id);
        }
        assert!(!seen.is_empty());
    }

    #[test]
    fn a_defect_of_a_shared_type_is_reported_once() {
        let at = |tool: &str, path: &str, start: usize| Finding {
            file: FileId(0),
            span: Span::new(start, start + 4),
            message: format!("string field `{path}` has no `max-length`"),
            help: None,
            tool: Some(tool.to_string()),
            path: Some(path.to_string()),
            level: None,
        };
        let kept = once_per_declaration(vec![
            at("a_get", "input.address.street", 10),
            at("b_get", "output.address.street", 10),
            at("b_get", "input.home.street", 10),
            at("b_get", "input.note", 20),
        ]);
        let paths: Vec<&str> = kept.iter().filter_map(|f| f.path.as_deref()).collect();
        assert_eq!(paths, ["input.address.street", "input.note"]);
        assert!(
            kept[0]
                .message
                .ends_with("(a shared type: the same declaration in 2 tools)")
        );
        assert!(!kept[1].message.contains("shared"));
    }
}
