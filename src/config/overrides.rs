//! Reading `override` blocks of `catalogc.kdl`: rule levels for the catalog files a glob
//! matches, applied by `lint`, `breaking`, the language server and the GitHub Action alike
//! (docs/configuration.md).
//!
//! ```kdl
//! override "catalogs/legacy/**" {
//!     rule "naming/tool-name" level="off"
//!     rule "selection" level="info"
//! }
//! ```

use super::lint::unknown;
use crate::diag::{Diagnostic, Level, SourceMap};
use crate::model::read::Reader;
use crate::syntax::{Node, Value};
use std::path::{Path, PathBuf};

/// The levels an override sets, by name.
const LEVELS: &[&str] = &["off", "info", "warn", "error"];

/// A path glob: `*` matches within one path segment, `**` any number of segments, `?` one
/// character; matched by `regex` on `/`-separated paths.
#[derive(Debug, Clone)]
pub struct Glob {
    text: String,
    re: regex::Regex,
}

impl PartialEq for Glob {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Glob {
    /// The glob of `text`; `None` when it is empty.
    pub fn new(text: &str) -> Option<Glob> {
        if text.is_empty() {
            return None;
        }
        let mut re = String::from("^");
        let mut chars = text.trim_start_matches("./").chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '*' if chars.peek() == Some(&'*') => {
                    chars.next();
                    if chars.peek() == Some(&'/') {
                        chars.next();
                        re.push_str("(?:.*/)?");
                    } else {
                        re.push_str(".*");
                    }
                }
                '*' => re.push_str("[^/]*"),
                '?' => re.push_str("[^/]"),
                c => re.push_str(&regex::escape(&c.to_string())),
            }
        }
        re.push('$');
        let re = regex::Regex::new(&re).ok()?;
        Some(Glob {
            text: text.to_string(),
            re,
        })
    }

    /// Whether `path` (as loaded, relative to the project folder) matches.
    pub fn matches(&self, path: &Path) -> bool {
        let text = path.to_string_lossy().replace('\\', "/");
        self.re.is_match(text.trim_start_matches("./"))
    }

    /// The glob as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// One `override` block: the files it applies to and the levels it sets.
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    /// Which catalog files.
    pub glob: Glob,
    /// The configuration file's folder: a file loaded by an absolute path (the language
    /// server's) is matched by its path below it.
    pub base: PathBuf,
    /// Rule IDs or categories (lint's, or `compat/…` kinds and `compat`), with their level;
    /// `None` is `off`.
    pub rules: Vec<(String, Option<Level>)>,
}

impl Override {
    /// Whether the glob matches `path`, as loaded or relative to [`Override::base`].
    fn matches(&self, path: &Path) -> bool {
        self.glob.matches(path)
            || (!self.base.as_os_str().is_empty()
                && path
                    .strip_prefix(&self.base)
                    .is_ok_and(|p| self.glob.matches(p)))
    }

    /// The level this override sets for `rule` (a rule ID wins over its category), when it
    /// sets one.
    fn level(&self, rule: &str) -> Option<Option<Level>> {
        let category = rule.split('/').next().unwrap_or(rule);
        let find = |key: &str| self.rules.iter().find(|(r, _)| r == key).map(|(_, l)| *l);
        find(rule).or_else(|| find(category))
    }
}

/// The level the last matching override sets for `rule` in `path`, when one does.
pub fn level_for(overrides: &[Override], path: &Path, rule: &str) -> Option<Option<Level>> {
    overrides
        .iter()
        .rev()
        .filter(|o| o.matches(path))
        .find_map(|o| o.level(rule))
}

/// Applies `overrides` to lint findings: a finding of an overridden rule in a matching file
/// takes the level set, or is dropped for `off`. Loader errors (syntax, model) are kept.
pub fn apply(overrides: &[Override], diags: &mut Vec<Diagnostic>, sources: &SourceMap) {
    if overrides.is_empty() {
        return;
    }
    diags.retain_mut(|d| {
        if crate::lint::rule(&d.rule).is_none() {
            return true;
        }
        let path = &sources.get(d.file).path;
        match level_for(overrides, path, &d.rule) {
            Some(Some(level)) => {
                d.level = level;
                true
            }
            Some(None) => false,
            None => true,
        }
    });
}

/// Reads one `override "GLOB" { rule "ID" level="…" … }` block.
pub fn read(r: &mut Reader, node: &Node, dir: &Path) -> Option<Override> {
    let usage =
        "write it as `override \"catalogs/legacy/**\" { rule \"naming/tool-name\" level=\"off\" }`";
    let args: Vec<_> = node.entries().filter(|e| e.name.is_none()).collect();
    for e in node.entries() {
        if let Some(name) = &e.name {
            unknown(r, "property of `override`", name, &[]);
        }
    }
    let glob = match args.as_slice() {
        [arg] => match arg.value.value {
            Value::String(s) => {
                let g = Glob::new(s);
                if g.is_none() {
                    r.fail(
                        "wrong-value",
                        arg.value.span,
                        "`override` needs a non-empty glob",
                        Some(usage.to_string()),
                    );
                }
                g
            }
            _ => {
                r.fail(
                    "wrong-value",
                    arg.value.span,
                    "`override` takes a glob in quotes",
                    Some(usage.to_string()),
                );
                None
            }
        },
        _ => {
            r.fail(
                "wrong-value",
                node.name.span,
                "`override` takes exactly one glob",
                Some(usage.to_string()),
            );
            None
        }
    };
    let mut rules = Vec::new();
    for child in node.children().into_iter().flat_map(|c| c.nodes()) {
        if child.name.value != "rule" {
            unknown(r, "node in `override`", &child.name, &["rule"]);
            continue;
        }
        if let Some(rule) = read_rule(r, &child) {
            rules.push(rule);
        }
    }
    Some(Override {
        glob: glob?,
        base: dir.to_path_buf(),
        rules,
    })
}

fn read_rule(r: &mut Reader, node: &Node) -> Option<(String, Option<Level>)> {
    let usage = "write it as `rule \"naming/tool-name\" level=\"off\"` (off, info, warn, error)";
    let id = match node
        .entries()
        .find(|e| e.name.is_none())
        .map(|e| (e.value.value, e.value.span))
    {
        Some((Value::String(s), span)) => {
            let known = crate::lint::rule(s).is_some()
                || crate::lint::CATEGORY_NAMES.contains(&s)
                || s == "compat"
                || crate::compat::Kind::from_id(s).is_some();
            if !known {
                let mut ids: Vec<&str> = crate::lint::registry().map(|r| r.id).collect();
                ids.extend(crate::lint::CATEGORY_NAMES);
                ids.extend(crate::compat::Kind::ALL.iter().map(|k| k.id()));
                let help = crate::model::read::suggest_or(s, &ids, usage);
                r.fail(
                    "unknown-key",
                    span,
                    format!("unknown rule `{s}`"),
                    Some(help),
                );
                return None;
            }
            s.to_string()
        }
        _ => {
            r.fail(
                "wrong-value",
                node.name.span,
                "`rule` takes a rule ID or category in quotes",
                Some(usage.to_string()),
            );
            return None;
        }
    };
    let level = node
        .entries()
        .find(|e| e.name.as_ref().is_some_and(|n| n.value == "level"));
    let Some(level) = level else {
        r.fail(
            "missing-key",
            node.name.span,
            "`rule` needs `level=`",
            Some(usage.to_string()),
        );
        return None;
    };
    match level.value.value {
        Value::String("off") => Some((id, None)),
        Value::String("info") => Some((id, Some(Level::Info))),
        Value::String("warn") => Some((id, Some(Level::Warn))),
        Value::String("error") => Some((id, Some(Level::Error))),
        _ => {
            let help = format!("one of {}", crate::model::read::quoted_list(LEVELS));
            r.fail("wrong-value", level.value.span, "unknown level", Some(help));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_segments_and_any_depth() {
        let g = |t: &str| Glob::new(t).expect("glob");
        assert!(g("catalogs/legacy/**").matches(Path::new("catalogs/legacy/a/b.kdl")));
        assert!(g("catalogs/legacy/**").matches(Path::new("./catalogs/legacy/b.kdl")));
        assert!(!g("catalogs/legacy/**").matches(Path::new("catalogs/new/b.kdl")));
        assert!(g("catalogs/*.kdl").matches(Path::new("catalogs/b.kdl")));
        assert!(!g("catalogs/*.kdl").matches(Path::new("catalogs/x/b.kdl")));
        assert!(g("**/legacy.kdl").matches(Path::new("legacy.kdl")));
        assert!(g("**/legacy.kdl").matches(Path::new("a/b/legacy.kdl")));
        assert!(g("a?.kdl").matches(Path::new("ab.kdl")));
        assert!(!g("a.kdl").matches(Path::new("abkdl")));
        assert!(Glob::new("").is_none());
    }
}
