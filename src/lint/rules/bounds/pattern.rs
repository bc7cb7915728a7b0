//! The `bounds/pattern` rule: patterns compile as ECMA-262 and are anchored `^…$` (error / warn);
//! [`RULE`] documents it.

use crate::lint::walk::site_finding;
use crate::diag::Level;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding, RuleState};
use crate::model::TyKind;
use std::collections::HashMap;

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks every string `pattern`:
    /// - it must compile (error) as ECMA-262 with the `u` flag, what JSON Schema 2020-12 asks
    ///   for, with the same engine (`regress`) the generated validators use, so a pattern the
    ///   linter accepts is one the server enforces. Rust `regex` syntax that ECMA-262 reads
    ///   differently or rejects (inline flags `(?i)`, `(?P<name>…)`, `\A`, `\z`, POSIX classes
    ///   `[[:alpha:]]`) is reported as an error too, naming the construct;
    /// - it must be anchored as a whole, `^…$` (warning): JSON Schema patterns match anywhere in
    ///   the value, so `[0-9]+` accepts `abc1xyz`, and `^a|b$` anchors each branch only.
    ///
    /// ## Why is this bad?
    /// A pattern that does not compile is ignored or rejected by validators, so the field is
    /// effectively unchecked; an unanchored pattern checks much less than its author meant.
    ///
    /// ## Example
    /// ```kdl
    /// field "invoice_reference" "string" max-length=32 pattern="INV-[0-9]+"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "invoice_reference" "string" max-length=32 pattern="^INV-[0-9]+$"
    /// ```
    pub static RULE = Rule {
        id: "bounds/pattern",
        level: Level::Error,
        summary: "patterns compile as ECMA-262 and are anchored `^…$` (error / warn)",
        hooks: crate::lint::Hooks::state(|_| Box::<Seen>::default()),
    };
}

/// What is wrong with a pattern, with the level it is reported at.
#[derive(Debug, Clone, PartialEq)]
enum Problem {
    DoesNotCompile(String),
    RustOnly(&'static str),
    NotAnchored,
    BranchesAnchored,
}

/// Scans a pattern outside character classes: Rust-only syntax, and whether a `|` occurs
/// outside every group (then `^a|b$` anchors each branch, not the whole).
fn scan(p: &str) -> (Option<&'static str>, bool) {
    let b = p.as_bytes();
    let (mut i, mut depth, mut in_class, mut top_alt) = (0, 0usize, false, false);
    while i < b.len() {
        match b[i] {
            b'\\' => {
                if !in_class && matches!(b.get(i + 1), Some(b'A' | b'z')) {
                    return (Some("`\\A`/`\\z` anchors"), top_alt);
                }
                i += 1;
            }
            b'[' if in_class && b.get(i + 1) == Some(&b':') => {
                return (Some("POSIX classes such as `[[:alpha:]]`"), top_alt);
            }
            b'[' => in_class = true,
            b']' => in_class = false,
            b'(' if !in_class => {
                depth += 1;
                if b.get(i + 1) == Some(&b'?') {
                    match b.get(i + 2) {
                        Some(b'P') => return (Some("`(?P<name>…)` groups"), top_alt),
                        Some(b'i' | b'm' | b's' | b'x' | b'u' | b'U' | b'R' | b'-') => {
                            return (Some("inline flags such as `(?i)`"), top_alt);
                        }
                        _ => {}
                    }
                }
            }
            b')' if !in_class => depth = depth.saturating_sub(1),
            b'|' if !in_class && depth == 0 => top_alt = true,
            _ => {}
        }
        i += 1;
    }
    (None, top_alt)
}

fn problems(p: &str) -> Option<Problem> {
    let (rust_only, top_alt) = scan(p);
    if let Some(what) = rust_only {
        return Some(Problem::RustOnly(what));
    }
    if let Err(why) = crate::runtime::validate::compile_pattern(p) {
        return Some(Problem::DoesNotCompile(why));
    }
    let ends_with_dollar = p.ends_with('$') && {
        let backslashes = p[..p.len() - 1].bytes().rev().take_while(|&c| c == b'\\').count();
        backslashes % 2 == 0
    };
    if !p.starts_with('^') || !ends_with_dollar {
        return Some(Problem::NotAnchored);
    }
    if top_alt {
        return Some(Problem::BranchesAnchored);
    }
    None
}

/// What each pattern seen in the run has: compiling is the expensive part and catalogs repeat
/// patterns, so each is compiled once.
#[derive(Default)]
struct Seen<'a>(HashMap<&'a str, Option<Problem>>);

impl<'a> RuleState<'a> for Seen<'a> {
    fn declaration(&mut self, _: &Context<'a>, site: &Site<'a, '_>, out: &mut Vec<Finding>) {
        let pattern = match &site.ty.kind {
            TyKind::String(s) | TyKind::Cursor(s) => &s.pattern,
            _ => return,
        };
        let Some(pattern) = pattern else { return };
        let problem = self.0.entry(&pattern.value).or_insert_with(|| problems(&pattern.value)).clone();
        let Some(problem) = problem else { return };
        let p = &pattern.value;
        let finding = |msg: String| site_finding(site, pattern.span, msg);
        out.push(match problem {
            Problem::DoesNotCompile(why) => finding(format!("pattern `{p}` of `{}` does not compile: {why}", site.path))
                .help("write an ECMA-262 regular expression (JSON Schema `pattern`), e.g. `^[A-Z]{3}-[0-9]+$`"),
            Problem::RustOnly(what) => finding(format!("pattern `{p}` of `{}` uses {what}, which ECMA-262 (JSON Schema) does not read the same way", site.path))
                .help("use ECMA-262 syntax: `^` and `$` for anchors, explicit classes such as `[A-Za-z]` instead of flags"),
            Problem::NotAnchored => finding(format!("pattern `{p}` of `{}` is not anchored with `^…$`: it matches anywhere in the value", site.path))
                .level(Level::Warn)
                .help(format!("anchor it: `^{}$`", p.trim_start_matches('^').trim_end_matches('$'))),
            Problem::BranchesAnchored => finding(format!("pattern `{p}` of `{}` anchors each alternative, not the whole value", site.path))
                .level(Level::Warn)
                .help(format!("group the alternatives: `^(?:{})$`", &p[1..p.len() - 1])),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{Problem, problems};

    #[test]
    fn anchored_patterns_pass() {
        for p in ["^INV-[0-9]+$", "^(?:a|b)$", "^[|]x$", r"^a\\$", "^(a|b)c$", "^[a-z]{2,8}$"] {
            assert_eq!(problems(p), None, "{p}");
        }
    }

    #[test]
    fn unanchored_and_branch_anchored() {
        for p in ["INV-[0-9]+", "^abc", "abc$", r"^abc\$"] {
            assert_eq!(problems(p), Some(Problem::NotAnchored), "{p}");
        }
        assert_eq!(problems("^a|b$"), Some(Problem::BranchesAnchored));
    }

    #[test]
    fn compiles_as_ecma_262_like_the_generated_validators() {
        for p in ["^(a$", "^[z-a]$", "^a{2,1}$", r"^\p{Nope}$"] {
            assert!(matches!(problems(p), Some(Problem::DoesNotCompile(_))), "{p}: {:?}", problems(p));
        }
        // Lookaround and backreferences are ECMA-262, which the validators enforce.
        for p in ["^(?=x)x$", r"^(a)\1$", r"^(?<!b)a$", r"^\p{L}+$"] {
            assert_eq!(problems(p), None, "{p}");
        }
    }

    #[test]
    fn rust_only_syntax() {
        for p in ["^(?i)abc$", r"\Aabc\z", "^[[:alpha:]]+$", "^(?P<x>a)$"] {
            assert!(matches!(problems(p), Some(Problem::RustOnly(_))), "{p}: {:?}", problems(p));
        }
    }
}
