//! The `bounds/pattern-backtracking` rule: a pattern with nested or overlapping unbounded
//! quantifiers backtracks exponentially; [`RULE`] documents it.

use crate::lint::walk::site_finding;
use crate::diag::Level;
use crate::lint::walk::Site;
use crate::lint::{Context, Finding, RuleState};
use crate::model::TyKind;
use crate::runtime::pattern::{Compiled, Engine, STEP_BUDGET};
use regex_syntax::ast::{self, Ast, RepetitionKind, RepetitionRange};
use regex_syntax::hir::{Class, Hir, HirKind};
use std::collections::HashMap;

crate::lint::declare_rule! {
    /// ## What it does
    /// Reports a string `pattern` that backtracks catastrophically in ECMA-262 engines (the
    /// backtracking regex engines of JavaScript validators, and most others): time exponential in
    /// the length of a value that almost matches. Two shapes are detected, both under an
    /// unbounded quantifier (`*`, `+`, `{n,}`) or a count of three or more (`{3}`, `{1,30}`:
    /// time grows as the length to the power of the count, `^(.*a){20}$` never ends):
    /// - a nested unbounded quantifier whose body the outer repetition cannot tell apart from the
    ///   rest of its iteration: `^(a+)+$`, `^(a*)*$`, `^(\w+\s?)*$`, `^(x|a+)*$`. An iteration
    ///   that also requires something the inner quantifier cannot match, `^[a-z]+(-[a-z]+)*$`
    ///   or `^(\d+\.)*\d+$`, splits one way only and is not reported;
    /// - alternatives that can begin with the same character: `^(a|a)*$`, `^(\d|[0-9a-f])+$`.
    ///
    /// Sets of characters are compared exactly (classes, `\d`, `\w`, `.`; `\w` and `\s` read as
    /// Unicode, a superset of ECMA-262's). What it cannot see: backtracking that needs a whole
    /// string, not one character, to be ambiguous (`^(ab|a)(b|bc)*…$` style), polynomial blow-ups
    /// of adjacent quantifiers (`^a*a*a*$`), and counts of one or two (`(a+){1,2}`). It may
    /// report an alternation whose branches share a first character but never the same string
    /// (`^(ab|ac)*$`): rewrite it as `^(a[bc])*$`.
    ///
    /// It also reports every pattern catalogc's own validator (generated code, `serve --mock`)
    /// cannot check in linear time: lookaround runs on a backtracking engine that refuses a
    /// value after a million steps, and a pattern no bounded engine reads the same way
    /// (backreferences, `\p{…}` inside a class) refuses every value. On a published tools/list
    /// (`catalogc lint FILE.json`) these are `info`: the server validates with its own engine,
    /// which may run them well; the shapes above backtrack in every engine and keep the
    /// rule's level.
    ///
    /// ## Why is this bad?
    /// The server (or the client) validates every value the model sends against the pattern. A
    /// value of a few dozen characters then takes seconds to minutes: one request denies service.
    ///
    /// ## Example
    /// ```kdl
    /// field "slug" "string" max-length=64 pattern="^([a-z0-9]+-?)+$"
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// field "slug" "string" max-length=64 pattern="^[a-z0-9]+(-[a-z0-9]+)*$"
    /// ```
    pub static RULE = Rule {
        id: "bounds/pattern-backtracking",
        level: Level::Error,
        summary: "a pattern with nested or overlapping unbounded quantifiers backtracks exponentially",
        hooks: crate::lint::Hooks::state(|_| Box::<Seen>::default()),
    };
}

/// Closed ranges of code points.
type Set = Vec<(u32, u32)>;

fn overlap(a: &Set, b: &Set) -> bool {
    a.iter()
        .any(|&(s, e)| b.iter().any(|&(s2, e2)| s <= e2 && s2 <= e))
}

fn literal_chars(bytes: &[u8], first_only: bool) -> Set {
    let s = String::from_utf8_lossy(bytes);
    let chars = s.chars().take(if first_only { 1 } else { usize::MAX });
    chars.map(|c| (c as u32, c as u32)).collect()
}

fn class_set(c: &Class) -> Set {
    match c {
        Class::Unicode(u) => u
            .ranges()
            .iter()
            .map(|r| (r.start() as u32, r.end() as u32))
            .collect(),
        Class::Bytes(b) => b
            .ranges()
            .iter()
            .map(|r| (u32::from(r.start()), u32::from(r.end())))
            .collect(),
    }
}

/// The characters `h` can match anywhere (`first` = false) or as its first (`first` = true).
fn chars(h: &Hir, first: bool) -> Set {
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => Vec::new(),
        HirKind::Literal(l) => literal_chars(&l.0, first),
        HirKind::Class(c) => class_set(c),
        HirKind::Repetition(r) => chars(&r.sub, first),
        HirKind::Capture(c) => chars(&c.sub, first),
        HirKind::Alternation(v) => v.iter().flat_map(|x| chars(x, first)).collect(),
        HirKind::Concat(v) if first => {
            let mut out = Vec::new();
            for x in v {
                out.extend(chars(x, true));
                if !nullable(x) {
                    break;
                }
            }
            out
        }
        HirKind::Concat(v) => v.iter().flat_map(|x| chars(x, false)).collect(),
    }
}

fn nullable(h: &Hir) -> bool {
    h.properties().minimum_len() == Some(0)
}

struct Scan<'p> {
    pattern: &'p str,
}

impl Scan<'_> {
    fn hir(&self, a: &Ast) -> Option<Hir> {
        regex_syntax::hir::translate::Translator::new()
            .translate(self.pattern, a)
            .ok()
    }

    fn text(&self, a: &Ast) -> &str {
        let s = a.span();
        self.pattern.get(s.start.offset..s.end.offset).unwrap_or("")
    }

    /// The first dangerous construct, described.
    fn find(&self, a: &Ast) -> Option<String> {
        match a {
            Ast::Repetition(r) => {
                if (unbounded(r) || many(r))
                    && let Some(why) = self.dangerous_body(a, &r.ast)
                {
                    return Some(why);
                }
                self.find(&r.ast)
            }
            Ast::Group(g) => self.find(&g.ast),
            Ast::Alternation(x) => x.asts.iter().find_map(|a| self.find(a)),
            Ast::Concat(x) => x.asts.iter().find_map(|a| self.find(a)),
            _ => None,
        }
    }

    fn dangerous_body(&self, outer: &Ast, body: &Ast) -> Option<String> {
        let body = strip_groups(body);
        if let Ast::Alternation(alt) = body {
            let firsts: Vec<(Set, &Ast)> = alt
                .asts
                .iter()
                .filter_map(|a| self.hir(a).map(|h| (chars(&h, true), a)))
                .collect();
            for (i, (a, aa)) in firsts.iter().enumerate() {
                if let Some((_, bb)) = firsts[i + 1..].iter().find(|(b, _)| overlap(a, b)) {
                    return Some(format!(
                        "the alternatives `{}` and `{}` of `{}` can begin with the same character, so each repetition can match either way",
                        self.text(aa),
                        self.text(bb),
                        self.text(outer)
                    ));
                }
            }
        }
        let items: Vec<&Ast> = match body {
            Ast::Concat(c) => c.asts.iter().collect(),
            other => vec![other],
        };
        let mut inner = Vec::new();
        unbounded_inside(body, &mut inner);
        for s in inner {
            let Some(s_chars) = self.hir(&s.ast).map(|h| chars(&h, false)) else {
                continue;
            };
            let (start, end) = (s.span.start.offset, s.span.end.offset);
            // Every other part of the iteration is optional or can be eaten by the inner
            // quantifier: an iteration boundary can then fall anywhere.
            let ambiguous = items.iter().all(|it| {
                let sp = it.span();
                let holds_s = sp.start.offset <= start && end <= sp.end.offset;
                holds_s
                    || self
                        .hir(it)
                        .is_none_or(|h| nullable(&h) || overlap(&chars(&h, false), &s_chars))
            });
            if ambiguous {
                return Some(format!(
                    "the quantifier of `{}` is nested in `{}`, and nothing else in the repetition tells their iterations apart",
                    &self.pattern[start..end],
                    self.text(outer)
                ));
            }
        }
        None
    }
}

fn strip_groups(a: &Ast) -> &Ast {
    match a {
        Ast::Group(g) => strip_groups(&g.ast),
        other => other,
    }
}

fn unbounded(r: &ast::Repetition) -> bool {
    matches!(
        r.op.kind,
        RepetitionKind::ZeroOrMore
            | RepetitionKind::OneOrMore
            | RepetitionKind::Range(RepetitionRange::AtLeast(_))
    )
}

/// A count of three or more iterations: `{3}`, `{1,30}`.
fn many(r: &ast::Repetition) -> bool {
    match r.op.kind {
        RepetitionKind::Range(RepetitionRange::Exactly(n) | RepetitionRange::Bounded(_, n)) => n >= 3,
        _ => false,
    }
}

fn unbounded_inside<'a>(a: &'a Ast, out: &mut Vec<&'a ast::Repetition>) {
    match a {
        Ast::Repetition(r) => {
            if unbounded(r) {
                out.push(r);
            }
            unbounded_inside(&r.ast, out);
        }
        Ast::Group(g) => unbounded_inside(&g.ast, out),
        Ast::Alternation(x) => x.asts.iter().for_each(|a| unbounded_inside(a, out)),
        Ast::Concat(x) => x.asts.iter().for_each(|a| unbounded_inside(a, out)),
        _ => {}
    }
}

/// Why `pattern` backtracks catastrophically, or `None`, and whether the cause is in the
/// pattern's shape (every backtracking engine) rather than in what catalogc's own validator
/// can run in bounded time. A pattern the parser rejects is `bounds/pattern`'s to report.
fn backtracks(pattern: &str) -> Option<(String, Cause)> {
    if let Some(ast) = ast::parse::Parser::new().parse(pattern).ok()
        && let Some(why) = (Scan { pattern }).find(&ast)
    {
        return Some((why, Cause::Shape));
    }
    let compiled = Compiled::new(pattern).ok()?;
    match compiled.engine() {
        Engine::Linear => None,
        Engine::Budgeted => Some((
            format!(
                "its lookaround needs a backtracking engine, and catalogc's validator refuses a value it cannot decide within {STEP_BUDGET} steps"
            ),
            Cause::Validator,
        )),
        Engine::Refused => Some((
            format!(
                "no engine checks it in bounded time ({}), so catalogc's validator refuses every value",
                compiled.refused().unwrap_or("")
            ),
            Cause::Validator,
        )),
    }
}

/// Where a pattern's backtracking comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cause {
    /// Nested or overlapping repetition: every backtracking engine.
    Shape,
    /// A construct catalogc's own validator cannot run in linear time (lookaround,
    /// backreferences); a published server's own engine may run it well.
    Validator,
}

/// Why each pattern seen in the run backtracks, or `None`: each is analysed once.
#[derive(Default)]
struct Seen<'a>(HashMap<&'a str, Option<(String, Cause)>>);

impl<'a> RuleState<'a> for Seen<'a> {
    fn declaration(&mut self, cx: &Context<'a>, site: &Site<'a, '_>, out: &mut Vec<Finding>) {
        let (TyKind::String(s) | TyKind::Cursor(s)) = &site.ty.kind else {
            return;
        };
        let Some(pattern) = &s.pattern else { return };
        let why = self.0.entry(&pattern.value).or_insert_with(|| backtracks(&pattern.value));
        let Some((why, cause)) = why else { return };
        let finding = site_finding(
                site,
                pattern.span,
                format!(
                    "pattern `{}` of `{}` can backtrack exponentially: {why}",
                    pattern.value, site.path
                ),
            )
            .help("make each repetition start with something its inner part cannot match, e.g. `^[a-z0-9]+(-[a-z0-9]+)*$`; merge overlapping alternatives into one class");
        // A published list's server validates with its own engine: what only catalogc's
        // validator cannot run in linear time is advice there.
        out.push(if cx.config.published && *cause == Cause::Validator { finding.level(Level::Info) } else { finding });
    }
}

#[cfg(test)]
mod tests {
    use super::backtracks;

    #[test]
    fn a_lookaround_is_the_validators_cause_a_nested_repetition_the_shapes() {
        assert_eq!(backtracks("^(a+)+$").map(|b| b.1), Some(super::Cause::Shape));
        let email = r"^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$";
        assert_eq!(backtracks(email).map(|b| b.1), Some(super::Cause::Validator));
    }

    #[test]
    fn catastrophic_patterns_fire() {
        for p in [
            "^(a+)+$",
            "^(a*)*$",
            "^(a|a)*$",
            "^(a|aa)+$",
            r"^(\w+\s?)*$",
            "^([a-z0-9]+-?)+$",
            "^(x|a+)*$",
            r"^(\d|[0-9a-f])+$",
            "^((a+)b?)+$",
            "^(.*,)*x$",
            "^(a+){2,}$",
            "^(.*a){20}$",
            "^(.*?,){11}P$",
            "^(a+){1,30}$",
            "^(?!.*--)[a-z-]+$",
            r"^(a)\1$",
        ] {
            assert!(backtracks(p).is_some(), "{p}");
        }
    }

    #[test]
    fn near_misses_do_not_fire() {
        for p in [
            "^[a-z]+(-[a-z]+)*$",
            r"^(\d+\.)*\d+$",
            "^(a+b)+$",
            "^INV-[0-9]+$",
            "^(?:ab|cd)*$",
            "^(a+){1,2}$",
            r"^(\d+\.){3}\d+$",
            "^[a-z]{2,8}$",
            "^([A-Z][a-z]+ ?)+$",
            "^(a|b)*c$",
            "^(",
        ] {
            assert_eq!(backtracks(p), None, "{p}");
        }
    }
}
