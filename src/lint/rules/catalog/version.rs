//! The `catalog/version` rule: catalog and tool versions are semver (`MAJOR.MINOR.PATCH`); [`RULE`]
//! documents it.

use crate::diag::Level;
use crate::lint::{Context, Finding};

crate::lint::declare_rule! {
    /// ## What it does
    /// Checks that the `version` of the catalog and of every tool is a semantic version
    /// (`MAJOR.MINOR.PATCH`, optionally with a pre-release and build part: `2.0.0-rc.1`).
    ///
    /// ## Why is this bad?
    /// `catalogc breaking` compares versions to decide whether a change is allowed: a breaking
    /// change needs a major bump. A version like `v2`, `1.2` or `latest` cannot be compared, so
    /// the check cannot tell clients whether they must adapt.
    ///
    /// ## Example
    /// ```kdl
    /// tool "invoice_list" version="1.2" { ... }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "invoice_list" version="1.2.0" { ... }
    /// ```
    pub static RULE = Rule {
        id: "catalog/version",
        level: Level::Error,
        summary: "catalog and tool versions are semver (`MAJOR.MINOR.PATCH`)",
        hooks: crate::lint::Hooks::project(check),
    };
}

fn help(version: &str) -> String {
    let numbers: Vec<&str> = version
        .trim_start_matches(['v', 'V'])
        .split('.')
        .take_while(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    let suggestion = match numbers.as_slice() {
        [major] => format!("{major}.0.0"),
        [major, minor] => format!("{major}.{minor}.0"),
        [major, minor, patch, ..] => format!("{major}.{minor}.{patch}"),
        [] => "1.0.0".to_string(),
    };
    format!("write `MAJOR.MINOR.PATCH` without a `v` prefix, e.g. `{suggestion}`")
}

fn check(cx: &Context, out: &mut Vec<Finding>) {
    for catalog in &cx.project.catalogs {
        let version = &catalog.version;
        if semver::Version::parse(&version.value).is_err() {
            out.push(
                Finding::in_catalog(catalog, version.span, format!("catalog version `{}` is not semver", version.value))
                    .help(help(&version.value)),
            );
        }
        for tool in &catalog.tools {
            let version = &tool.version;
            if semver::Version::parse(&version.value).is_err() {
                out.push(
                    Finding::in_tool(catalog, tool, version.span, format!("tool version `{}` is not semver", version.value))
                        .help(help(&version.value)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::help;

    #[test]
    fn suggests_a_full_version() {
        assert!(help("v2").contains("`2.0.0`"));
        assert!(help("1.2").contains("`1.2.0`"));
        assert!(help("latest").contains("`1.0.0`"));
        assert!(help("1.2.3.4").contains("`1.2.3`"));
    }
}
