//! Profiles: what a deployment environment (`profile "production" { … }` in
//! `catalogc.kdl`) requires of the catalog it serves, and the one check of it
//! ([`violations`]) that `catalogc lint --profile`, a generated server started with a
//! profile and `catalogc serve --mock --profile` all run.
//!
//! Each violation names its rule ([`ProfileRule`], `profile/…`, documented by `catalogc
//! explain`):
//! - `profile/unknown-tool`: `disable` names a tool the catalog does not have (a typo leaves
//!   the real tool enabled);
//! - `profile/missing-approval`: a tool of an effect class named by `require-approval` that
//!   does not ask the user to confirm each call (`needs-input … kind="confirmation"`);
//! - `profile/disabled-tool-named`: a tool the profile keeps names a disabled one (its
//!   `on-timeout` status tool, or its description), so the model is told to call a tool
//!   that is not listed;
//! - `profile/missing-guard`: `require-guard` without a `guard { … }` block;
//! - `profile/mock-forbidden`: `forbid-mock` and a mock server.

use super::Policy;

/// One profile, as `catalogc.kdl` declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile<'a> {
    /// The profile's name (`profile "production"`).
    pub name: &'a str,
    /// `disable "TOOL"…`: tools never listed nor callable under this profile.
    pub disable: &'a [&'a str],
    /// `require-approval "EFFECT"…`: effect classes whose every tool must ask the user to
    /// confirm each call.
    pub require_approval: &'a [&'a str],
    /// `require-guard`: the project must declare its session budgets.
    pub require_guard: bool,
    /// `forbid-mock`: the catalog may not be served by `catalogc serve --mock`.
    pub forbid_mock: bool,
}

impl Profile<'_> {
    /// Whether tool `name` is disabled.
    pub fn disables(&self, name: &str) -> bool {
        self.disable.contains(&name)
    }
}

/// The rule a [`Violation`] breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProfileRule {
    /// `disable` names no tool of the catalog.
    UnknownTool,
    /// A tool of a `require-approval` effect class asks for no confirmation.
    MissingApproval,
    /// A kept tool names a disabled one.
    DisabledToolNamed,
    /// `require-guard` without a `guard` block.
    MissingGuard,
    /// `forbid-mock` on a mock server.
    MockForbidden,
}

impl ProfileRule {
    /// The rule ID (`profile/missing-approval`).
    pub fn id(self) -> &'static str {
        match self {
            ProfileRule::UnknownTool => "profile/unknown-tool",
            ProfileRule::MissingApproval => "profile/missing-approval",
            ProfileRule::DisabledToolNamed => "profile/disabled-tool-named",
            ProfileRule::MissingGuard => "profile/missing-guard",
            ProfileRule::MockForbidden => "profile/mock-forbidden",
        }
    }
}

/// One way a catalog breaks a profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule broken.
    pub rule: ProfileRule,
    /// The tool at fault, when one is: the tool without approval, the kept tool naming a
    /// disabled one.
    pub tool: Option<String>,
    /// The disabled tool involved (`unknown-tool`, `disabled-tool-named`).
    pub disabled: Option<String>,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: String,
}

/// What [`violations`] needs of one tool: its name, its policy and its MCP definition as
/// JSON text (where a disabled tool may be named).
#[derive(Debug, Clone, Copy)]
pub struct ToolFacts<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// Its run-time policy.
    pub policy: &'a Policy<'a>,
    /// Its MCP definition (an entry of `tools/list`) as JSON text.
    pub definition: &'a str,
}

/// Every way `tools` (a server's catalog) break `profile`, in a fixed order: profile-wide
/// rules first, then per tool in catalog order. `guard_declared`: the project declares its
/// budgets; `mock`: the catalog is to be served by `serve --mock`.
pub fn violations(
    profile: &Profile<'_>,
    tools: &[ToolFacts<'_>],
    guard_declared: bool,
    mock: bool,
) -> Vec<Violation> {
    let mut out = Vec::new();
    let name = profile.name;
    if profile.forbid_mock && mock {
        out.push(Violation {
            rule: ProfileRule::MockForbidden,
            tool: None,
            disabled: None,
            message: format!("profile `{name}` forbids serving a mock"),
            help: "serve the real server, or pick another profile".to_string(),
        });
    }
    if profile.require_guard && !guard_declared {
        out.push(Violation {
            rule: ProfileRule::MissingGuard,
            tool: None,
            disabled: None,
            message: format!("profile `{name}` requires session budgets, and none are declared"),
            help: "add `guard { max-calls 200; max-session-ms 600000; max-same-failure 2; max-concurrent 8 }` to catalogc.kdl".to_string(),
        });
    }
    for disabled in profile.disable {
        if !tools.iter().any(|t| t.name == *disabled) {
            out.push(Violation {
                rule: ProfileRule::UnknownTool,
                tool: None,
                disabled: Some(disabled.to_string()),
                message: format!(
                    "profile `{name}` disables `{disabled}`, which is no tool of the catalog"
                ),
                help: "check the tool's name: a misspelled name leaves the real tool enabled"
                    .to_string(),
            });
        }
    }
    for t in tools.iter().filter(|t| !profile.disables(t.name)) {
        let effect = t.policy.effect;
        if profile.require_approval.contains(&effect) && !t.policy.approval {
            out.push(Violation {
                rule: ProfileRule::MissingApproval,
                tool: Some(t.name.to_string()),
                disabled: None,
                message: format!("`{}` is a `{effect}` tool without an approval, which profile `{name}` requires", t.name),
                help: format!("add `needs-input \"approval\" kind=\"confirmation\"` to `{}`, or disable it in profile `{name}`", t.name),
            });
        }
        for disabled in profile.disable {
            let named = t.policy.status_tool == Some(*disabled) || names(t.definition, disabled);
            if named && *disabled != t.name {
                out.push(Violation {
                    rule: ProfileRule::DisabledToolNamed,
                    tool: Some(t.name.to_string()),
                    disabled: Some(disabled.to_string()),
                    message: format!("`{}` still names `{disabled}`, which profile `{name}` disables: the model is sent to a tool that is not listed", t.name),
                    help: format!("stop naming `{disabled}` in `{}` (its description or `on-timeout`), or keep `{disabled}` enabled", t.name),
                });
            }
        }
    }
    out
}

/// Whether `text` holds `name` as a whole word (not inside a longer identifier).
fn names(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const READ: Policy<'static> = Policy::NONE;
    const DESTROY: Policy<'static> = Policy {
        effect: "destructive",
        ..Policy::NONE
    };
    const APPROVED: Policy<'static> = Policy {
        effect: "destructive",
        approval: true,
        ..Policy::NONE
    };
    const WAITS: Policy<'static> = Policy {
        effect: "update",
        status_tool: Some("debug_dump"),
        ..Policy::NONE
    };

    fn facts<'a>(name: &'a str, policy: &'a Policy<'a>, definition: &'a str) -> ToolFacts<'a> {
        ToolFacts {
            name,
            policy,
            definition,
        }
    }

    #[test]
    fn every_rule_fires_and_nothing_else() {
        let profile = Profile {
            name: "production",
            disable: &["debug_dump", "debug_dupm_typo"],
            require_approval: &["destructive"],
            require_guard: true,
            forbid_mock: true,
        };
        let tools = [
            facts("debug_dump", &DESTROY, "{}"),
            facts("account_delete", &DESTROY, "{}"),
            facts("account_close", &APPROVED, "{}"),
            facts("sync", &WAITS, "{}"),
            facts(
                "note",
                &READ,
                r#"{"description":"If stuck, call debug_dump."}"#,
            ),
            facts(
                "other",
                &READ,
                r#"{"description":"Not debug_dump_v2 nor my_debug_dump."}"#,
            ),
        ];
        let v = violations(&profile, &tools, false, true);
        let ids: Vec<&str> = v.iter().map(|v| v.rule.id()).collect();
        assert_eq!(
            ids,
            [
                "profile/mock-forbidden",
                "profile/missing-guard",
                "profile/unknown-tool",
                "profile/missing-approval",
                "profile/disabled-tool-named",
                "profile/disabled-tool-named",
            ]
        );
        assert_eq!(v[2].disabled.as_deref(), Some("debug_dupm_typo"));
        assert_eq!(v[3].tool.as_deref(), Some("account_delete"));
        assert_eq!(v[4].tool.as_deref(), Some("sync"));
        assert_eq!(v[5].tool.as_deref(), Some("note"));
        // The same catalog passes with a guard, on a real server, with the typo fixed and
        // nothing naming the disabled tool.
        let fixed = Profile {
            disable: &["debug_dump"],
            ..profile
        };
        let kept = [tools[0], tools[2], tools[5]];
        assert!(violations(&fixed, &kept, true, false).is_empty());
    }
}
