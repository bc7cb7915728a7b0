//! What a team decides about classified changes (docs/breaking.md): the compatibility
//! category they are counted in, breaks accepted in `catalogc.kdl`, the old tool's stability
//! level and a removed tool's sunset. [`Settings::apply`] sets each change's effective class
//! and [`Standing`] before the version check sees them.

use super::kinds::{Category, Class, Kind};
use super::version::Problem;
use super::{Change, Loc};
use crate::model::{Stability, Tool};
use chrono::NaiveDate;

/// A removed tool whose deprecation's sunset is still ahead.
pub const REMOVED_BEFORE_SUNSET: (&str, &str) = (
    "compat/removed-before-sunset",
    "a deprecated tool was removed before its `sunset` date",
);

/// An `accept` entry of `catalogc.kdl` that matched no change.
pub const ACCEPT_STALE: (&str, &str) = (
    "compat/accept-stale",
    "an `accept` entry of catalogc.kdl matches no change: remove it",
);

/// A reviewed break, accepted in `catalogc.kdl`:
/// `accept tool="…" kind="…" path="…" version="…" reason="…"`.
#[derive(Debug, Clone, PartialEq)]
pub struct Accept {
    /// The tool the change is in.
    pub tool: String,
    /// The change kind; `None` accepts every kind.
    pub kind: Option<Kind>,
    /// The dotted path (`input.note`): the change's own or an enclosing one; `None` accepts
    /// every path.
    pub path: Option<String>,
    /// The new version the break ships in (the tool's, or the catalog's for a removed tool);
    /// `None` accepts it in any version.
    pub version: Option<String>,
    /// Why the break is acceptable (required in the file).
    pub reason: String,
    /// Where the entry is written, in the new side's sources.
    pub loc: Option<Loc>,
}

impl Accept {
    fn matches(&self, tool: &str, version: Option<&str>, ch: &Change) -> bool {
        self.tool == tool
            && self.kind.is_none_or(|k| k == ch.kind)
            && self.path.as_deref().is_none_or(|p| within(&ch.path, p))
            && self.version.as_deref().is_none_or(|v| Some(v) == version)
    }
}

/// `path` is `prefix` or lies inside it (`input.items[].id` inside `input.items`).
fn within(path: &str, prefix: &str) -> bool {
    path.strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// How a change counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// With its kind's class in the chosen category.
    Counted,
    /// Accepted by the `accept` entry at this index of [`Settings::accepts`]: it counts as
    /// a patch (the contract still changed).
    Accepted(usize),
    /// A change to a tool whose old side was `experimental` or `beta`: an experimental tool's
    /// major change counts as minor; a beta tool's counts in full but passes
    /// `--policy no-major`.
    Unstable(Stability),
    /// A tool removed on or after its sunset: a patch.
    PastSunset,
    /// Turned off for its file by an `override` block of `catalogc.kdl`: a patch.
    Overridden,
}

impl Standing {
    /// The lowercase name used in reports: `counted`, `accepted`, `experimental`, `beta`,
    /// `past-sunset`.
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Counted => "counted",
            Standing::Accepted(_) => "accepted",
            Standing::Unstable(s) => s.as_str(),
            Standing::PastSunset => "past-sunset",
            Standing::Overridden => "overridden",
        }
    }

    /// Whether `--policy no-major` lets a major change of this standing pass.
    pub fn exempt_from_no_major(self) -> bool {
        !matches!(self, Standing::Counted)
    }
}

/// What `breaking` decides besides the classification. `Default` is the wire category with
/// nothing accepted and no sunset checked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Settings {
    /// Which compatibility is checked.
    pub category: Category,
    /// Accepted breaks, in file order.
    pub accepts: Vec<Accept>,
    /// The day sunsets are compared with; `None`: a removed tool's sunset is not checked.
    pub today: Option<NaiveDate>,
    /// Change kinds turned off per file: `(old side?, file index, kind)`. A change whose
    /// primary location (the new side's, else the old side's) is in such a file counts as a
    /// patch.
    pub off: std::collections::HashSet<(bool, usize, Kind)>,
}

impl Settings {
    /// Sets the effective class and standing of a tool's `changes` (`version` is the new
    /// version they ship in) and adds a problem for a removal before the sunset.
    pub fn apply(
        &self,
        tool: &str,
        old: Option<&Tool>,
        version: Option<&str>,
        changes: &mut [Change],
        problems: &mut Vec<Problem>,
    ) {
        for ch in changes {
            ch.class = ch.kind.class_in(self.category);
            ch.standing = Standing::Counted;
            let primary = match (ch.new, ch.old) {
                (Some(n), _) => Some((false, n.file.0)),
                (None, Some(o)) => Some((true, o.file.0)),
                (None, None) => None,
            };
            if primary.is_some_and(|(old, file)| self.off.contains(&(old, file, ch.kind))) {
                ch.class = ch.class.min(Class::Patch);
                ch.standing = Standing::Overridden;
                continue;
            }
            if let Some(i) = self
                .accepts
                .iter()
                .position(|a| a.matches(tool, version, ch))
            {
                ch.class = ch.class.min(Class::Patch);
                ch.standing = Standing::Accepted(i);
                continue;
            }
            if ch.kind == Kind::ToolRemoved
                && let (Some(sunset), Some(today)) = (old.and_then(Tool::sunset), self.today)
            {
                if today >= sunset {
                    ch.class = Class::Patch;
                    ch.standing = Standing::PastSunset;
                    continue;
                }
                problems.push(Problem {
                    rule: REMOVED_BEFORE_SUNSET.0,
                    message: format!(
                        "deprecated with sunset {sunset}, but removed on {today}: keep it until then, or accept the early removal in catalogc.kdl"
                    ),
                });
            }
            match old.map(Tool::stability) {
                Some(Stability::Experimental) if ch.class == Class::Major => {
                    ch.class = Class::Minor;
                    ch.standing = Standing::Unstable(Stability::Experimental);
                }
                Some(Stability::Beta) if ch.class == Class::Major => {
                    ch.standing = Standing::Unstable(Stability::Beta);
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_match_themselves_and_what_they_enclose() {
        assert!(within("input.note", "input.note"));
        assert!(within("input.note.max", "input.note"));
        assert!(within("input.items[].id", "input.items"));
        assert!(!within("input.notes", "input.note"));
        assert!(!within("input", "input.note"));
    }
}
