//! Reading the `guard` section (session budgets) and the `profile` sections of
//! `catalogc.kdl`.

use super::lint::{shape, strings, unknown};
use crate::diag::FileId;
use crate::model::read::Reader;
use crate::runtime::Guard;
use crate::syntax::{Node, Number, Span, Value};

/// The keys of `guard { … }`, in documentation order.
pub const GUARD_KEYS: &[&str] = &[
    "max-calls",
    "max-session-ms",
    "max-same-failure",
    "max-concurrent",
];

/// The children of `profile "NAME" { … }`, in documentation order.
pub const PROFILE_KEYS: &[&str] = &[
    "disable",
    "require-approval",
    "require-guard",
    "forbid-mock",
];

/// The effect classes `require-approval` accepts.
const EFFECTS: &[&str] = crate::model::Effect::NAMES;

/// `guard { max-calls N … }`: every key is optional (its default is [`Guard::DEFAULT`]'s)
/// and takes one whole number ≥ 1.
pub fn read_guard(r: &mut Reader, node: &Node) -> Guard {
    shape(r, node, true);
    let mut guard = Guard::DEFAULT;
    for e in node.entries().filter(|e| e.name.is_none()) {
        r.fail(
            "wrong-value",
            e.value.span,
            "`guard` takes no arguments",
            Some("write each budget as a child node: `guard { max-calls 200 }`".to_string()),
        );
    }
    let mut seen: Vec<&str> = Vec::new();
    for child in node.child_nodes() {
        let key = child.name.value;
        let Some(slot) = slot(&mut guard, key) else {
            unknown(r, "budget", &child.name, GUARD_KEYS);
            continue;
        };
        if seen.contains(&key) {
            r.fail(
                "duplicate",
                child.name.span,
                format!("`{key}` is given twice"),
                Some("keep one of them".to_string()),
            );
            continue;
        }
        seen.push(key);
        shape(r, &child, false);
        let args: Vec<_> = child.entries().filter(|e| e.name.is_none()).collect();
        let example = format!("e.g. `{key} {}`", Guard::DEFAULT.limit_of(key));
        let [arg] = args.as_slice() else {
            r.fail(
                "wrong-value",
                child.name.span,
                format!("`{key}` takes exactly one number"),
                Some(example),
            );
            continue;
        };
        match &arg.value.value {
            Value::Number(Number::Int(n)) if *n >= 1 && u64::try_from(*n).is_ok() => {
                *slot = u64::try_from(*n).unwrap_or(u64::MAX)
            }
            _ => r.fail(
                "wrong-value",
                arg.value.span,
                format!("`{key}` must be a whole number ≥ 1"),
                Some(format!(
                    "write a positive integer without quotes, {example}"
                )),
            ),
        }
    }
    guard
}

fn slot<'g>(guard: &'g mut Guard, key: &str) -> Option<&'g mut u64> {
    Some(match key {
        "max-calls" => &mut guard.max_calls,
        "max-session-ms" => &mut guard.max_session_ms,
        "max-same-failure" => &mut guard.max_same_failure,
        "max-concurrent" => &mut guard.max_concurrent,
        _ => return None,
    })
}

impl Guard {
    /// The cap set by `guard` key `key` (0 for an unknown key).
    fn limit_of(&self, key: &str) -> u64 {
        let mut copy = *self;
        slot(&mut copy, key).map_or(0, |v| *v)
    }
}

/// A `profile "NAME" { … }` section, with where each part is written (for diagnostics).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileSection {
    /// The file it is in.
    pub file: FileId,
    /// Its name and the name's span.
    pub name: (String, Span),
    /// `disable "TOOL"…`, each with its span.
    pub disable: Vec<(String, Span)>,
    /// `require-approval "EFFECT"…`, each with its span.
    pub require_approval: Vec<(String, Span)>,
    /// `require-guard`, where written.
    pub require_guard: Option<Span>,
    /// `forbid-mock`, where written.
    pub forbid_mock: Option<Span>,
}

impl ProfileSection {
    /// The profile as generated code states it.
    pub fn spec(&self) -> crate::codegen::ProfileSpec {
        let names = |v: &[(String, Span)]| v.iter().map(|(s, _)| s.clone()).collect();
        crate::codegen::ProfileSpec {
            name: self.name.0.clone(),
            disable: names(&self.disable),
            require_approval: names(&self.require_approval),
            require_guard: self.require_guard.is_some(),
            forbid_mock: self.forbid_mock.is_some(),
        }
    }

    /// The profile's rules, as the runtime checks them; `tools` and `effects` are buffers
    /// the returned value borrows (`disable` and `require-approval`).
    pub fn with_profile<T>(&self, f: impl FnOnce(&crate::runtime::Profile<'_>) -> T) -> T {
        let disable: Vec<&str> = self.disable.iter().map(|(s, _)| s.as_str()).collect();
        let effects: Vec<&str> = self
            .require_approval
            .iter()
            .map(|(s, _)| s.as_str())
            .collect();
        f(&crate::runtime::Profile {
            name: &self.name.0,
            disable: &disable,
            require_approval: &effects,
            require_guard: self.require_guard.is_some(),
            forbid_mock: self.forbid_mock.is_some(),
        })
    }
}

/// `profile "NAME" { disable "TOOL"…; require-approval "EFFECT"…; require-guard; forbid-mock }`.
pub fn read_profile(r: &mut Reader, node: &Node, file: FileId) -> Option<ProfileSection> {
    shape(r, node, true);
    let args: Vec<_> = node.entries().filter(|e| e.name.is_none()).collect();
    let usage = "write it as `profile \"production\" { require-guard }`";
    let name = match args.as_slice() {
        [arg] => match arg.value.value {
            Value::String(s) if !s.is_empty() => Some((s.to_string(), arg.value.span)),
            _ => None,
        },
        _ => None,
    };
    let Some(name) = name else {
        r.fail(
            "wrong-value",
            node.name.span,
            "`profile` takes exactly one name in quotes",
            Some(usage.to_string()),
        );
        return None;
    };
    let mut p = ProfileSection {
        file,
        name,
        disable: Vec::new(),
        require_approval: Vec::new(),
        require_guard: None,
        forbid_mock: None,
    };
    for child in node.child_nodes() {
        match child.name.value {
            "disable" => {
                shape(r, &child, false);
                for (s, span) in strings(r, &child) {
                    p.disable.push((s.to_string(), span));
                }
            }
            "require-approval" => {
                shape(r, &child, false);
                for (s, span) in strings(r, &child) {
                    if EFFECTS.contains(&s) {
                        p.require_approval.push((s.to_string(), span));
                    } else {
                        let name = crate::syntax::Spanned { value: s, span };
                        unknown(r, "effect class", &name, EFFECTS);
                    }
                }
            }
            flag @ ("require-guard" | "forbid-mock") => {
                shape(r, &child, false);
                if let Some(e) = child.entries().next() {
                    r.fail(
                        "wrong-value",
                        e.value.span,
                        format!("`{flag}` takes no value"),
                        Some(format!("write `{flag}` alone")),
                    );
                }
                let span = Some(child.name.span);
                if flag == "require-guard" {
                    p.require_guard = span;
                } else {
                    p.forbid_mock = span;
                }
            }
            _ => unknown(r, "profile rule", &child.name, PROFILE_KEYS),
        }
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use crate::config::ProjectConfig;
    use crate::diag::FileId;
    use crate::runtime::Guard;
    use std::path::Path;

    fn read(text: &str) -> Result<ProjectConfig, Vec<(String, String, String)>> {
        let parsed = crate::syntax::parse(text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        ProjectConfig::from_document(&parsed.document, FileId(0), Path::new(""))
            .map_err(|errs| crate::model::read::rule_text_help(errs, text))
    }

    /// Each error's rule and the text it points at.
    fn rules_and_texts(errs: &[(String, String, String)]) -> Vec<(&str, &str)> {
        errs.iter()
            .map(|(r, t, _)| (r.as_str(), t.as_str()))
            .collect()
    }

    #[test]
    fn reads_a_guard_and_defaults_the_rest() {
        let c =
            read("guard {\n max-calls 200\n max-same-failure 2\n}\n").map_err(|e| format!("{e:?}"));
        let Ok(c) = c else { panic!("{c:?}") };
        assert_eq!(
            c.guard,
            Some(Guard {
                max_calls: 200,
                max_same_failure: 2,
                ..Guard::DEFAULT
            })
        );
        assert_eq!(read("").ok().and_then(|c| c.guard), None);
    }

    #[test]
    fn rejects_unknown_keys_and_non_positive_numbers() {
        let errs = read(
            "guard {\n max-call 5\n max-calls 0\n max-session-ms -1\n max-concurrent \"8\"\n max-same-failure 1.5\n max-same-failure 2\n}\n",
        )
        .err()
        .unwrap_or_default();
        let got = rules_and_texts(&errs);
        assert_eq!(
            got,
            [
                ("config/unknown-key", "max-call"),
                ("config/wrong-value", "0"),
                ("config/wrong-value", "-1"),
                ("config/wrong-value", "\"8\""),
                ("config/wrong-value", "1.5"),
                ("config/duplicate", "max-same-failure"),
            ]
        );
        assert_eq!(errs[0].2, "did you mean `max-calls`?");
    }

    #[test]
    fn reads_profiles() {
        let c = read(
            "guard { max-calls 10 }\nprofile \"production\" {\n disable \"debug_dump\" \"x\"\n require-approval \"destructive\"\n require-guard\n forbid-mock\n}\nprofile \"dev\"\n",
        )
        .map_err(|e| format!("{e:?}"));
        let Ok(c) = c else { panic!("{c:?}") };
        assert_eq!(c.profiles.len(), 2);
        let p = &c.profiles[0];
        assert_eq!(p.name.0, "production");
        let names: Vec<&str> = p.disable.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(names, ["debug_dump", "x"]);
        assert!(p.require_guard.is_some() && p.forbid_mock.is_some());
        assert!(c.profiles[1].disable.is_empty());
    }

    #[test]
    fn rejects_bad_profiles() {
        let errs = read(
            "profile {\n}\nprofile \"p\" {\n require-approval \"destructiv\"\n forbid-mok\n require-guard #true\n}\nprofile \"p\"\n",
        )
        .err()
        .unwrap_or_default();
        let got = rules_and_texts(&errs);
        assert_eq!(
            got,
            [
                ("config/wrong-value", "profile"),
                ("config/unknown-key", "\"destructiv\""),
                ("config/unknown-key", "forbid-mok"),
                ("config/wrong-value", "#true"),
                ("config/duplicate", "\"p\""),
            ]
        );
    }
}
