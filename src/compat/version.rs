//! Version rules (docs/compatibility.md): the required bump is the largest class among a tool's changes;
//! versions are semver, and below 1.0.0 every class shifts one place down, as in Cargo
//! (a breaking change needs a minor bump, an additive one a patch bump).

use super::kinds::Class;
use semver::Version;

/// The smallest version after `old` that a change of `class` allows; `None` when the number
/// to raise is already `u64::MAX`, so no version is high enough.
pub fn bump(old: &Version, class: Class) -> Option<Version> {
    let class = if old.major == 0 {
        match class {
            Class::Major => Class::Minor,
            Class::Minor | Class::Patch => Class::Patch,
        }
    } else {
        class
    };
    Some(match class {
        Class::Major => Version::new(old.major.checked_add(1)?, 0, 0),
        Class::Minor => Version::new(old.major, old.minor.checked_add(1)?, 0),
        // A pre-release of the same numbers already comes before them: 1.2.0-rc.1 → 1.2.0.
        Class::Patch if !old.pre.is_empty() => Version::new(old.major, old.minor, old.patch),
        Class::Patch => Version::new(old.major, old.minor, old.patch.checked_add(1)?),
    })
}

/// The outcome of checking one declared version against the changes behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// `None` when nothing changed.
    pub required: Option<Class>,
    /// The smallest version that satisfies `required`, when something changed and the old
    /// version is valid.
    pub suggested: Option<String>,
    /// Why the declared version is not acceptable; empty when it is.
    pub problems: Vec<Problem>,
}

/// One reason a declared version is rejected.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// `compat/version-…` or [`CATALOG_REMOVED`], see [`VERSION_RULES`].
    pub rule: &'static str,
    /// One sentence for a human: the versions and what is expected.
    pub message: String,
}

/// A catalog deleted while some of its tools exist nowhere else: their removal is major, and a
/// deleted catalog has no version left to declare that bump (docs/breaking.md).
pub const CATALOG_REMOVED: &str = "compat/catalog-removed";

/// The old version cannot be bumped as the change requires: the number to raise is at its
/// maximum.
pub const VERSION_EXHAUSTED: &str = "compat/version-exhausted";

/// The version checks, with one line each (for `rules`, SARIF and docs).
pub const VERSION_RULES: &[(&str, &str)] = &[
    (
        "compat/version-unchanged",
        "the contract changed (a classified change or a hash) but the version did not",
    ),
    (
        "compat/version-too-low",
        "the version was bumped, but less than the largest change requires",
    ),
    (
        "compat/version-decreased",
        "the new version is lower than the old one",
    ),
    (
        "compat/version-not-semver",
        "a version label is not semver, so no bump can be checked",
    ),
    (
        VERSION_EXHAUSTED,
        "the change needs a bump of a version number that is already 18446744073709551615 (u64::MAX): no version is high enough",
    ),
    (
        CATALOG_REMOVED,
        "a catalog was deleted while some of its tools exist in no other catalog: removing a tool is major and a deleted catalog cannot declare the bump; release it first with a major version and without those tools (or move them), then delete it",
    ),
];

impl Verdict {
    /// The declared version is acceptable (no problems).
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks `new` against `old` given the largest change class (`because` names it) and
/// whether the contract hashes differ. A hash change with no classified change (an output
/// default, say) still needs a patch bump.
pub fn verify(
    old: &str,
    new: &str,
    largest: Option<(Class, &str)>,
    hashes_changed: bool,
) -> Verdict {
    let required = largest
        .map(|(c, _)| c)
        .or(hashes_changed.then_some(Class::Patch));
    let mut problems = Vec::new();
    let parse = |which: &str, v: &str, problems: &mut Vec<Problem>| match Version::parse(v) {
        Ok(v) => Some(v),
        Err(e) => {
            problems.push(Problem {
                rule: "compat/version-not-semver",
                message: format!("{which} version `{v}` is not semver ({e})"),
            });
            None
        }
    };
    let (o, n) = (
        parse("old", old, &mut problems),
        parse("new", new, &mut problems),
    );
    let suggested = match (&o, required) {
        (Some(o), Some(class)) => {
            let next = bump(o, class);
            if next.is_none() {
                problems.push(Problem {
                    rule: VERSION_EXHAUSTED,
                    message: format!(
                        "a {class} bump from {o} is required, but the number to raise is already {}: no version is high enough; ship a new tool or catalog",
                        u64::MAX
                    ),
                });
            }
            next
        }
        _ => None,
    };
    if let (Some(o), Some(n)) = (&o, &n) {
        let because = match largest {
            Some((class, id)) => format!("largest change is {class} ({id})"),
            None => "the contract hashes changed".to_string(),
        };
        if n < o {
            problems.push(Problem {
                rule: "compat/version-decreased",
                message: format!("version went down from {o} to {n}"),
            });
        } else if let (Some(req), Some(min)) = (required, &suggested) {
            if n == o {
                problems.push(Problem {
                    rule: "compat/version-unchanged",
                    message: format!(
                        "the contract changed but the version did not: {because}; a {req} bump is required, suggested version {min}"
                    ),
                });
            } else if n < min {
                problems.push(Problem {
                    rule: "compat/version-too-low",
                    message: format!(
                        "version {n} is lower than required: {because}; a {req} bump from {o} is required, suggested version {min}"
                    ),
                });
            }
        }
    }
    Verdict {
        required,
        suggested: suggested.map(|v| v.to_string()),
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn bumps_follow_semver_and_cargo_below_one() {
        let bump = |old: &str, class| bump(&v(old), class);
        assert_eq!(bump("1.2.3", Class::Major), Some(v("2.0.0")));
        assert_eq!(bump("1.2.3", Class::Minor), Some(v("1.3.0")));
        assert_eq!(bump("1.2.3", Class::Patch), Some(v("1.2.4")));
        assert_eq!(bump("0.3.1", Class::Major), Some(v("0.4.0")));
        assert_eq!(bump("0.3.1", Class::Minor), Some(v("0.3.2")));
        assert_eq!(bump("0.0.4", Class::Major), Some(v("0.1.0")));
        assert_eq!(bump("1.2.0-rc.1", Class::Patch), Some(v("1.2.0")));
    }

    /// The suggested version wrapped to `0.0.0` when the old major was `u64::MAX` (and a debug
    /// build panicked): a bump past the largest number is an error, never a wrap.
    #[test]
    fn a_bump_past_u64_max_is_an_error_not_0_0_0() {
        let max = u64::MAX;
        for (old, class) in [
            (format!("{max}.0.0"), Class::Major),
            (format!("1.{max}.0"), Class::Minor),
            (format!("1.2.{max}"), Class::Patch),
            (format!("0.{max}.0"), Class::Major),
        ] {
            assert_eq!(bump(&v(&old), class), None, "{old}");
            let r = verify(&old, &old, Some((class, "compat/x")), true);
            assert_eq!(r.suggested, None, "{old}");
            assert_eq!(r.problems[0].rule, VERSION_EXHAUSTED, "{old}");
            assert!(!r.ok());
        }
        // The largest numbers still take the bumps that fit.
        assert_eq!(
            bump(&v(&format!("{max}.0.0")), Class::Minor),
            Some(v(&format!("{max}.1.0")))
        );
    }

    #[test]
    fn verdicts() {
        let major = Some((Class::Major, "compat/input-field-required-added"));
        let r = verify("1.2.0", "1.2.0", major, true);
        assert_eq!(r.required, Some(Class::Major));
        assert_eq!(r.suggested.as_deref(), Some("2.0.0"));
        assert_eq!(r.problems[0].rule, "compat/version-unchanged");
        assert!(
            r.problems[0].message.contains("did not"),
            "{:?}",
            r.problems
        );
        let r = verify("1.2.0", "1.3.0", major, true);
        assert_eq!(r.problems[0].rule, "compat/version-too-low");
        assert!(r.problems[0].message.contains("2.0.0"));
        assert!(verify("1.2.0", "2.0.0", major, true).ok());
        assert!(verify("1.2.0", "3.1.0", major, true).ok());
        assert!(verify("0.2.0", "0.3.0", major, true).ok());
        assert!(!verify("0.2.0", "0.2.5", major, true).ok());
        // Nothing changed: any version at or above the old one is fine.
        let r = verify("1.2.0", "1.2.0", None, false);
        assert!(r.ok() && r.required.is_none() && r.suggested.is_none());
        // Hashes alone require a patch bump.
        let r = verify("1.2.0", "1.2.0", None, true);
        assert_eq!(r.required, Some(Class::Patch));
        assert!(!r.ok());
        assert!(verify("1.2.0", "1.2.1", None, true).ok());
        assert!(!verify("1.2.0", "1.1.9", None, false).ok());
        let r = verify("one", "1.0.0", None, false);
        assert_eq!(r.problems[0].rule, "compat/version-not-semver");
        assert_eq!(
            verify("1.2.0", "1.1.9", None, false).problems[0].rule,
            "compat/version-decreased"
        );
    }
}
