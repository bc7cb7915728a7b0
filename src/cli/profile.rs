//! `--profile NAME` of `lint`, `serve --mock` and `export vectors`: the named
//! `profile "NAME" { … }` of `catalogc.kdl`, and the catalog's violations of it as
//! diagnostics (rules `profile/…`, checked by `runtime::profile::violations`).

use super::CliError;
use crate::config::ProjectConfig;
use crate::config::guard::ProfileSection;
use crate::contract::Artifacts;
use crate::diag::{Diagnostic, Level};
use crate::model::Project;
use crate::runtime::profile::{ProfileRule, ToolFacts, violations};

/// The profile `name` of `config`; an unknown name is an error naming the declared ones.
pub fn find<'c>(config: &'c ProjectConfig, name: &str) -> Result<&'c ProfileSection, CliError> {
    config
        .profiles
        .iter()
        .find(|p| p.name.0 == name)
        .ok_or_else(|| {
            let known: Vec<String> = config
                .profiles
                .iter()
                .map(|p| format!("`{}`", p.name.0))
                .collect();
            let file = config
                .file
                .as_ref()
                .map_or("no catalogc.kdl".to_string(), |f| f.display().to_string());
            CliError(if known.is_empty() {
                format!("--profile {name}: {file} declares no profile")
            } else {
                format!(
                    "--profile {name}: no such profile in {file}; declared: {}",
                    known.join(", ")
                )
            })
        })
}

/// Every way `project` breaks `profile`, as error diagnostics: a tool's violation points at
/// the tool's name, a profile-wide one at the profile's rule in `catalogc.kdl`. `mock`: the
/// catalogs are to be served by `serve --mock`.
pub fn diagnostics(
    profile: &ProfileSection,
    project: &Project,
    artifacts: &Artifacts,
    guard_declared: bool,
    mock: bool,
) -> Vec<Diagnostic> {
    let tools: Vec<_> = project
        .catalogs
        .iter()
        .zip(&artifacts.catalogs)
        .flat_map(|(cat, contracts)| cat.tools.iter().zip(&contracts.tools))
        .collect();
    let sensitive: Vec<Vec<&str>> = tools.iter().map(|(t, _)| t.sensitive_inputs()).collect();
    let scopes: Vec<Vec<&str>> = tools.iter().map(|(t, _)| t.idempotency_scope()).collect();
    let policies: Vec<_> = tools
        .iter()
        .zip(sensitive.iter().zip(&scopes))
        .map(|((t, _), (s, sc))| t.policy(s, sc))
        .collect();
    let facts: Vec<ToolFacts<'_>> = tools
        .iter()
        .zip(&policies)
        .map(|((t, c), policy)| ToolFacts {
            name: &t.name.value,
            policy,
            definition: c.definition(),
        })
        .collect();
    let found = profile.with_profile(|p| violations(p, &facts, guard_declared, mock));
    found
        .into_iter()
        .map(|v| {
            let at_tool = v.tool.as_deref().and_then(|name| {
                project.catalogs.iter().find_map(|c| {
                    let t = c.tools.iter().find(|t| t.name.value == name)?;
                    Some((c.file, t.name.span))
                })
            });
            let in_profile = match v.rule {
                ProfileRule::MissingGuard => profile.require_guard,
                ProfileRule::MockForbidden => profile.forbid_mock,
                ProfileRule::UnknownTool => profile
                    .disable
                    .iter()
                    .find(|(n, _)| Some(n.as_str()) == v.disabled.as_deref())
                    .map(|(_, s)| *s),
                _ => None,
            };
            let (file, span) = at_tool
                .or(in_profile.map(|s| (profile.file, s)))
                .unwrap_or((profile.file, profile.name.1));
            Diagnostic::new(v.rule.id(), Level::Error, file, span, v.message).with_help(v.help)
        })
        .collect()
}
