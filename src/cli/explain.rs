//! `catalogc explain ID`: the documentation of a lint rule (with failing and passing examples)
//! or of a compatibility change kind or version check of `catalogc breaking`.

use super::{CliError, Status};
use crate::compat::kinds::{Kind, Mirror};
use crate::compat::version::VERSION_RULES;

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc explain`.
pub struct ExplainArgs {
    /// A rule ID as `catalogc rules` lists it (`naming/tool-name`), or a change kind that
    /// `catalogc breaking` reports (`compat/input-field-required-added`).
    pub rule: String,
}

/// Runs `catalogc explain`: prints the documentation of a lint rule or change kind; an
/// unknown ID is an error that suggests the closest one.
pub fn run(args: &ExplainArgs) -> Result<Status, CliError> {
    let text = match compat_doc(&args.rule) {
        Some(text) => text,
        None => crate::lint::docs::explain(&args.rule)
            .or_else(|lint_error| core_doc(&args.rule).ok_or(lint_error))
            .map_err(|lint_error| {
                let compat_ids = Kind::ALL
                    .iter()
                    .map(|k| k.id())
                    .chain(VERSION_RULES.iter().map(|(id, _)| *id));
                match crate::diag::suggest::did_you_mean(&args.rule, compat_ids) {
                    Some(best) if args.rule.starts_with("compat/") => CliError(format!(
                        "unknown change kind `{}`; did you mean `{best}`?",
                        args.rule
                    )),
                    _ => CliError(lint_error),
                }
            })?,
    };
    super::print(&text)?;
    Ok(Status::Ok)
}

/// A loader or profile check's code (`model/…`, `profile/…`): its summary and fix.
fn core_doc(id: &str) -> Option<String> {
    let (summary, help) = crate::model::codes::code(id)?;
    Some(format!("# {id} (error)\n\n{summary}\n\nFix: {help}\n"))
}

fn compat_doc(id: &str) -> Option<String> {
    if let Some(kind) = Kind::from_id(id) {
        let mirror = match kind.mirror() {
            Mirror::Other(other) => format!("The same edit on the other side: `{}`.", other.id()),
            Mirror::OneSided(why) => format!("One side only: {why}"),
            Mirror::ToolLevel => "A tool-level change: it has no input/output side.".to_string(),
        };
        return Some(format!(
            "# {} ({})\n\n{}\n\n{}\n\n{mirror}\n",
            kind.id(),
            kind.class().as_str(),
            kind.title(),
            kind.doc()
        ));
    }
    VERSION_RULES
        .iter()
        .find(|(rule, _)| *rule == id)
        .map(|(rule, line)| format!("# {rule} (error)\n\n{line}\n"))
}
