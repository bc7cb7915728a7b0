//! `catalogc breaking`: classify every change between an old and a new set of catalogs
//! (docs/compatibility.md) and check that declared versions were bumped enough.
//!
//! [`compare`] matches catalogs and tools by name; field-level rules live in `classify`
//! (one reader-side classifier for both schemas), tool-level rules in `tool`, the change
//! kinds in [`kinds`], the version rules in [`version`], the output formats in [`report`].
//!
//! Decisions where docs/compatibility.md is silent (or, in one place, would be unsound):
//! - Output readers are tolerant: they ignore fields they do not know (so an added output
//!   field is minor, as the table says) but rely on every field they know, optional or not
//!   (so removing one is major). Input readers are strict (`additionalProperties: false`).
//! - `output-pattern-changed` and `output-format-changed` are major, not minor: the new server
//!   may produce strings the old pattern or format rejects (tests/compat_soundness.rs keeps
//!   the counterexamples). Added and removed patterns and formats follow the table; any
//!   `format` counts, bounded or not.
//! - Adding or removing an `enum` restriction, `unique`, or any bound is a bound tightened or
//!   loosened; a `multiple-of` replaced by one that neither divides nor is divided by the old
//!   one is `bound-changed` (major both ways).
//! - `extensible=#true` is read on the old schema: it is the promise old clients were given.
//! - Defaults are input-only; adding one is patch (it documents what omission meant).
//! - A `unit` added or removed counts as changed. A field marked `deprecated` is minor, like
//!   a deprecated tool; removing a deprecation, and text-only edits, are patch.
//! - `idempotency` added is minor, changed (key, scope, ttl) major; `confirm` added or its
//!   digest changed is major; `on-timeout` added or removed counts as changed; `needs-input`
//!   removed is minor, its kind changed major.
//! - `resource key=` added is minor (writes on one value only wait for each other), removed
//!   or changed major (writes clients relied on being serialized may race); no generated
//!   type changes, so the source class is the wire class.
//! - `cursor` is a string with `maxLength` 512 and `timestamp` a `date-time` string, and a
//!   named type is the object it names, so equivalent spellings are not changes.
//! - Added and removed tools have no version pair to check: the catalog's version carries
//!   the bump. A whole catalog added or removed has no version check either.
//! - The version check's "hashes changed" uses [`order_insensitive_hashes`]: reordering is not
//!   a change here. The lock file (crate::lock) pins the published hashes instead.

mod canon;
pub mod changelog;
mod classify;
pub mod decide;
pub mod kinds;
pub mod report;
mod tool;
pub mod version;

pub use canon::{Comparable, order_insensitive_hashes};
pub use decide::{Accept, Settings, Standing};
pub use kinds::{Category, Class, Kind, Mirror, Side};

use crate::diag::FileId;
use crate::model::{Catalog, Span, Tool};
use std::collections::HashMap;

/// A place in one side's sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc {
    /// The file, in that side's [`SourceMap`](crate::diag::SourceMap).
    pub file: FileId,
    /// Byte range in that file.
    pub span: Span,
}

/// One classified change of one tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// What kind of change, which decides its class.
    pub kind: Kind,
    /// How much it counts: its kind's class in the category checked, lowered when accepted,
    /// after a sunset or for an experimental tool ([`Settings::apply`]).
    pub class: Class,
    /// Why it counts as it does.
    pub standing: Standing,
    /// Dotted location inside the tool (`input.items[].amount_minor.max`); empty for a whole
    /// tool added or removed.
    pub path: String,
    /// One sentence for a human, naming the old and new values.
    pub message: String,
    /// Where it is in the old sources, when it exists there.
    pub old: Option<Loc>,
    /// Where it is in the new sources, when it exists there.
    pub new: Option<Loc>,
}

impl Change {
    /// The semver bump this change requires (its effective class).
    pub fn class(&self) -> Class {
        self.class
    }
}

/// A stable fingerprint of a finding: the hash of its rule ID, tool and path, so a baseline
/// keeps matching when unrelated lines move.
pub fn fingerprint(rule: &str, tool: &str, path: &str) -> String {
    crate::diag::emit::hex(&crate::diag::emit::digest(&[rule, tool, path], 0)[..16])
}

/// Every change between two versions of one tool, in a stable order: tool-level first, then
/// input, then output (errors' details included, at `error.CODE.detail.…`), each by path.
/// Identical tools give nothing.
pub fn compare_tools(old_cat: &Catalog, old: &Tool, new_cat: &Catalog, new: &Tool) -> Vec<Change> {
    let mut out = Vec::new();
    tool::compare(old_cat, old, new_cat, new, &mut out);
    classify::side(Side::Input, old_cat, old, new_cat, new, &mut out);
    classify::side(Side::Output, old_cat, old, new_cat, new, &mut out);
    classify::details(old_cat, old, new_cat, new, &mut out);
    let rank = |c: &Change| match c.kind.side() {
        None => 0,
        Some(Side::Input) => 1,
        Some(Side::Output) => 2,
    };
    out.sort_by(|a, b| {
        (rank(a), &a.path, a.kind)
            .cmp(&(rank(b), &b.path, b.kind))
            .then_with(|| a.message.cmp(&b.message))
    });
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// What happened to a tool between the two sides.
pub enum Status {
    /// Only on the new side.
    Added,
    /// Only on the old side.
    Removed,
    /// On both sides, with at least one change or a different contract hash.
    Changed,
    /// On both sides, with the same contract.
    Unchanged,
}

impl Status {
    /// The lowercase name used in reports (`added`, `removed`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Removed => "removed",
            Status::Changed => "changed",
            Status::Unchanged => "unchanged",
        }
    }
}

/// A version label with where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Versioned {
    /// The version label as written (not necessarily semver).
    pub value: String,
    /// Where it is written.
    pub loc: Loc,
}

#[derive(Debug, Clone, PartialEq)]
/// The comparison of one tool between the two sides.
pub struct ToolReport {
    /// The tool's name (the key the sides are matched by).
    pub name: String,
    /// Added, removed, changed or unchanged.
    pub status: Status,
    /// Its version on the old side; `None` when added.
    pub old_version: Option<Versioned>,
    /// Its version on the new side; `None` when removed.
    pub new_version: Option<Versioned>,
    /// Every classified change, in the order of [`compare_tools`].
    pub changes: Vec<Change>,
    /// Whether the new version is high enough for `changes`.
    pub verdict: version::Verdict,
}

#[derive(Debug, Clone, PartialEq)]
/// The comparison of one catalog between the two sides.
pub struct CatalogReport {
    /// The catalog's name (the key the sides are matched by).
    pub name: String,
    /// Its version on the old side; `None` when the catalog is new.
    pub old_version: Option<Versioned>,
    /// Its version on the new side; `None` when the catalog was deleted.
    pub new_version: Option<Versioned>,
    /// Its tools, by name.
    pub tools: Vec<ToolReport>,
    /// Whether the catalog's version is high enough for its tools' largest change.
    pub verdict: version::Verdict,
}

/// `--policy`: what fails the check besides a too-low version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Policy {
    #[default]
    /// The default: only a declared version too low for its changes fails.
    Semver,
    /// Any major change fails: ship a new tool side by side instead.
    NoMajor,
}

#[derive(Debug, Clone, PartialEq, Default)]
/// The comparison of two sets of catalogs: what `catalogc breaking` prints.
pub struct Report {
    /// By name.
    pub catalogs: Vec<CatalogReport>,
    /// The category the changes were counted in.
    pub category: Category,
    /// The `accept` entries in force (a change's [`Standing::Accepted`] indexes them).
    pub accepts: Vec<Accept>,
    /// The indexes of the `accept` entries that matched no change.
    pub stale: Vec<usize>,
}

impl Report {
    /// Every change of every tool, with its catalog and tool, in report order.
    pub fn changes(&self) -> impl Iterator<Item = (&CatalogReport, &ToolReport, &Change)> {
        self.catalogs.iter().flat_map(|c| {
            c.tools
                .iter()
                .flat_map(move |t| t.changes.iter().map(move |ch| (c, t, ch)))
        })
    }

    /// Every declared version is high enough.
    pub fn versions_ok(&self) -> bool {
        self.catalogs
            .iter()
            .all(|c| c.verdict.ok() && c.tools.iter().all(|t| t.verdict.ok()))
    }

    /// Some change is major and counted in full (what `--policy no-major` refuses).
    pub fn has_major(&self) -> bool {
        self.changes()
            .any(|(_, _, ch)| ch.class() == Class::Major && !ch.standing.exempt_from_no_major())
    }

    /// 0 compatible with the declared versions, 1 otherwise (docs/cli.md).
    pub fn exit_code(&self, policy: Policy) -> i32 {
        let policy_ok = policy != Policy::NoMajor || !self.has_major();
        if self.versions_ok() && policy_ok {
            0
        } else {
            1
        }
    }
}

fn versioned(cat: &Catalog, v: &crate::model::Sp<String>) -> Versioned {
    Versioned {
        value: v.value.clone(),
        loc: Loc {
            file: cat.file,
            span: v.span,
        },
    }
}

/// A tool added or removed: located at the tool on its side and, on the other side, at the
/// `catalog` node when that catalog exists there.
fn whole_tool(kind: Kind, cat: &Catalog, tool: &Tool, other: Option<&Catalog>) -> Change {
    let loc = Some(Loc {
        file: cat.file,
        span: tool.name.span,
    });
    let other = other.map(|c| Loc {
        file: c.file,
        span: c.name.span,
    });
    let (old, new) = match kind {
        Kind::ToolRemoved => (loc, other),
        _ => (other, loc),
    };
    Change {
        kind,
        class: kind.class(),
        standing: Standing::Counted,
        path: String::new(),
        message: format!("{}: `{}`", kind.title(), tool.name.value),
        old,
        new,
    }
}

fn largest(changes: &[Change]) -> Option<(Class, &'static str)> {
    changes
        .iter()
        .max_by_key(|c| c.class())
        .map(|c| (c.class(), c.kind.id()))
}

/// Every tool of `catalogs` by name, with its catalog. Tool names are global to a server, so
/// a tool is matched by its name whatever catalog (or file) holds it; a name declared twice
/// (an error reported by the loader) keeps its first declaration.
fn tools_by_name(catalogs: &[Catalog]) -> HashMap<&str, (&Catalog, &Tool)> {
    let mut out = HashMap::new();
    for c in catalogs {
        for t in &c.tools {
            out.entry(t.name.value.as_str()).or_insert((c, t));
        }
    }
    out
}

/// Compares two sets of catalogs. Catalogs are matched by name; tools by name across all
/// catalogs of each side, so renaming a catalog file or moving a tool to another catalog is
/// no change to the tool (reported under its new catalog). `hashes` gives each tool's
/// contract hashes (any comparable value): a tool whose hashes differ needs at least a patch
/// bump even when no rule names the change.
pub fn compare<H: PartialEq>(
    old: &[Catalog],
    new: &[Catalog],
    hashes: impl Fn(&Catalog, &Tool) -> H + Sync,
) -> Report {
    compare_with(old, new, hashes, &Settings::default())
}

/// [`compare`], with each change counted as `settings` decide (category, accepted breaks,
/// stability, sunsets); the report lists the `accept` entries that matched nothing.
pub fn compare_with<H: PartialEq>(
    old: &[Catalog],
    new: &[Catalog],
    hashes: impl Fn(&Catalog, &Tool) -> H + Sync,
    settings: &Settings,
) -> Report {
    let mut names: Vec<&str> = old
        .iter()
        .chain(new)
        .map(|c| c.name.value.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    let sides = (tools_by_name(old), tools_by_name(new));
    let catalogs = names
        .into_iter()
        .map(|name| {
            let o = old.iter().find(|c| c.name.value == name);
            let n = new.iter().find(|c| c.name.value == name);
            compare_catalog(name, o, n, &sides, &hashes, settings)
        })
        .collect();
    let mut report = Report {
        catalogs,
        category: settings.category,
        accepts: settings.accepts.clone(),
        stale: Vec::new(),
    };
    let used: std::collections::HashSet<usize> = report
        .changes()
        .filter_map(|(_, _, ch)| match ch.standing {
            Standing::Accepted(i) => Some(i),
            _ => None,
        })
        .collect();
    report.stale = (0..settings.accepts.len())
        .filter(|i| !used.contains(i))
        .collect();
    report
}

type ToolIndex<'a> = HashMap<&'a str, (&'a Catalog, &'a Tool)>;

fn compare_catalog<H: PartialEq>(
    name: &str,
    old: Option<&Catalog>,
    new: Option<&Catalog>,
    (old_tools, new_tools): &(ToolIndex<'_>, ToolIndex<'_>),
    hashes: &(impl Fn(&Catalog, &Tool) -> H + Sync),
    settings: &Settings,
) -> CatalogReport {
    // A catalog reports the tools it holds now, and those it held that exist nowhere now.
    let mut names: Vec<&str> = new
        .map_or(&[][..], |c| &c.tools)
        .iter()
        .map(|t| t.name.value.as_str())
        .chain(
            old.map_or(&[][..], |c| &c.tools)
                .iter()
                .map(|t| t.name.value.as_str())
                .filter(|n| !new_tools.contains_key(n)),
        )
        .collect();
    names.sort_unstable();
    names.dedup();
    let compare_one = |tname: &str| {
        let nt = new_tools
            .get(tname)
            .copied()
            .filter(|(c, _)| new.is_some_and(|n| std::ptr::eq(*c, n)));
        let ot = old_tools.get(tname).copied();
        // A duplicate declared in this catalog but kept from another: reported there.
        if nt.is_none() && ot.is_none_or(|(c, _)| !old.is_some_and(|o| std::ptr::eq(c, o))) {
            return None;
        }
        Some(compare_tool(tname, ot, nt, (old, new), hashes, settings))
    };
    // Each tool compares on its own, on rayon's threads; the reports keep the names' order.
    let tools: Vec<ToolReport> = {
        use rayon::prelude::*;
        names.par_iter().filter_map(|t| compare_one(t)).collect()
    };
    let any_changed = tools.iter().any(|t| t.status != Status::Unchanged);
    let all: Vec<Change> = tools
        .iter()
        .flat_map(|t| t.changes.iter().cloned())
        .collect();
    let verdict = match (old, new) {
        (Some(o), Some(n)) => version::verify(
            &o.version.value,
            &n.version.value,
            largest(&all),
            any_changed,
        ),
        (Some(o), None) => {
            let removed: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
            let problems = if removed.is_empty() {
                Vec::new()
            } else {
                vec![version::Problem {
                    rule: version::CATALOG_REMOVED,
                    message: format!(
                        "catalog `{}` {} was deleted with its tools {}: removing a tool is major, and a deleted catalog cannot declare the bump; first release it with a major version and without those tools (or move them to another catalog), then delete it",
                        o.name.value,
                        o.version.value,
                        removed
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }]
            };
            version::Verdict {
                required: largest(&all).map(|l| l.0),
                suggested: None,
                problems,
            }
        }
        // A new catalog has no earlier version to compare with; its tools are additions.
        _ => version::Verdict {
            required: largest(&all).map(|l| l.0),
            suggested: None,
            problems: Vec::new(),
        },
    };
    CatalogReport {
        name: name.to_string(),
        old_version: old.map(|c| versioned(c, &c.version)),
        new_version: new.map(|c| versioned(c, &c.version)),
        tools,
        verdict,
    }
}

fn compare_tool<H: PartialEq>(
    name: &str,
    old: Option<(&Catalog, &Tool)>,
    new: Option<(&Catalog, &Tool)>,
    catalogs: (Option<&Catalog>, Option<&Catalog>),
    hashes: &impl Fn(&Catalog, &Tool) -> H,
    settings: &Settings,
) -> ToolReport {
    // The version a change ships in: the tool's, or the catalog's for a removed tool.
    let version = new
        .map(|(_, t)| t.version.value.as_str())
        .or(catalogs.1.map(|c| c.version.value.as_str()));
    let mut problems = Vec::new();
    let decide = |mut changes: Vec<Change>, problems: &mut Vec<_>| {
        settings.apply(name, old.map(|(_, t)| t), version, &mut changes, problems);
        changes
    };
    let (status, changes, verdict) = match (old, new) {
        (Some((oc, ot)), Some((nc, nt))) => {
            let changes = decide(compare_tools(oc, ot, nc, nt), &mut problems);
            // The hashes decide only when no rule names a change (the status and the required
            // bump follow from the changes otherwise), and comparing them may cost hashing.
            let hashes_changed = !changes.is_empty() || hashes(oc, ot) != hashes(nc, nt);
            let status = if changes.is_empty() && !hashes_changed {
                Status::Unchanged
            } else {
                Status::Changed
            };
            let verdict = version::verify(
                &ot.version.value,
                &nt.version.value,
                largest(&changes),
                hashes_changed,
            );
            (status, changes, Some(verdict))
        }
        (Some((oc, ot)), None) => (
            Status::Removed,
            decide(
                vec![whole_tool(Kind::ToolRemoved, oc, ot, catalogs.1)],
                &mut problems,
            ),
            None,
        ),
        (None, Some((nc, nt))) => (
            Status::Added,
            decide(
                vec![whole_tool(Kind::ToolAdded, nc, nt, catalogs.0)],
                &mut problems,
            ),
            None,
        ),
        (None, None) => (Status::Unchanged, Vec::new(), None),
    };
    // An added or removed tool has no version pair to check; the catalog's version carries
    // the bump.
    let mut verdict = verdict.unwrap_or_else(|| version::Verdict {
        required: largest(&changes).map(|l| l.0),
        suggested: None,
        problems: Vec::new(),
    });
    verdict.problems.extend(problems);
    ToolReport {
        name: name.to_string(),
        status,
        old_version: old.map(|(c, t)| versioned(c, &t.version)),
        new_version: new.map(|(c, t)| versioned(c, &t.version)),
        changes,
        verdict,
    }
}

#[cfg(test)]
mod tests;
