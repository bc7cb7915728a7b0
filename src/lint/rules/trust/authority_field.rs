//! The `trust/authority-field` rule: no session ticket, safety switch, server endpoint or
//! filesystem root in the input; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::walk::{Side, Site, site_finding};
use crate::lint::{Context, Finding};
use crate::model::TyKind;
use crate::names::word_refs;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags input fields, at any depth, through which the model hands the server authority that
    /// `trust/forbidden-field` does not name, because it goes by other names:
    ///
    /// - **session tickets**: a field named `ticket`, `…_ticket`, `session`, `session_id`,
    ///   `session_key`, `cookie` or `cookies` (Alfresco's `ticket` is the logged-in session);
    /// - **safety switches**: a `boolean` whose name holds `dangerous`, `dangerously`, `danger`, `unsafe` or
    ///   `insecure`, or that turns a check off: `skip_…`, `bypass_…`, `disable_…`, `ignore_…`,
    ///   `no_…` followed by `verify`, `verification`, `confirm`, `confirmation`, `check`,
    ///   `checks`, `validation`, `ssl`, `tls`, `safety`, `security`, `sandbox` or `approval`
    ///   (`allowDangerous`, `skip_ssl_verify`);
    /// - **server-side endpoints**: a string named `endpoint`, `host`, `hostname`, or ending in
    ///   `url` / `uri` / `endpoint` / `host` after `base`, `region`, `api`, `server`,
    ///   `instance` or `origin` (`base_url`, `regionUrl`, `api_host`). A `url` the tool is
    ///   about (`fetch url=`) or a link to a resource (`issueUrl`) is not an endpoint;
    /// - **filesystem roots**: a string named `root`, `cwd`, `workdir`, `workspace`, or ending
    ///   in `root`, `root_dir`, `root_path`, `repo_path`, `repository_path`, `working_dir`,
    ///   `working_directory`, `base_dir` or `base_path` (`repo_path`, `project_root`).
    ///
    /// Names are compared by words, ignoring case and separators.
    ///
    /// On a published tools/list (`catalogc lint FILE.json`), where the server's own texts
    /// are the only other evidence, a `session_id` counts only when its doc speaks of a
    /// token, ticket or credential (otherwise it names a session the server keeps), a
    /// `workspace` only when its doc speaks of a path, directory or folder, and a bare `host`
    /// only when its doc speaks of the server, API or instance the tool connects to.
    ///
    /// ## Why is this bad?
    /// Whatever is in the arguments, the model chose, and a prompt injection can choose it too.
    /// A session ticket in the arguments is a credential the model sees, logs and can replay; a
    /// safety switch lets one injected sentence turn the server's protection off; a base or region
    /// URL makes the server send its own credentials to any host the model names (server-side
    /// request forgery); a filesystem root lets the model move the sandbox it is confined to.
    /// Each belongs in the server's configuration or the authenticated session of the call.
    ///
    /// ## Example
    /// ```kdl
    /// input {
    ///     field "region_url" "string" max-length=200 format="uri"
    ///     field "allow_dangerous" "boolean"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// // the server maps each region to its host and keeps its safety policy in configuration
    /// input {
    ///     field "region" "string" { enum "us" "de" }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "trust/authority-field",
        level: Level::Warn,
        summary: "no session ticket, safety switch, server-side endpoint or filesystem root in the input",
        hooks: crate::lint::Hooks::use_site(check),
    };
}

/// What the field hands over.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Authority {
    Session,
    SafetySwitch,
    Endpoint,
    Root,
}

const CHECKS: &[&str] = &[
    "verify", "verification", "confirm", "confirmation", "check", "checks", "validation", "ssl",
    "tls", "safety", "security", "sandbox", "approval",
];
const OFF: &[&str] = &["skip", "bypass", "disable", "ignore", "no"];
const ENDPOINT_OWNERS: &[&str] = &["base", "region", "api", "server", "instance", "origin"];
const ROOT_ENDINGS: &[&[&str]] = &[
    &["root"],
    &["root", "dir"],
    &["root", "path"],
    &["repo", "path"],
    &["repository", "path"],
    &["working", "dir"],
    &["working", "directory"],
    &["base", "dir"],
    &["base", "path"],
];

fn classify(w: &[&str], kind: &TyKind) -> Option<Authority> {
    let string = matches!(kind, TyKind::String(_));
    if matches!(w.last(), Some(&"ticket"))
        || matches!(w, ["session"] | ["session", "id" | "key"] | [.., "cookie" | "cookies"])
    {
        return Some(Authority::Session);
    }
    if matches!(kind, TyKind::Boolean) {
        let risky = w.iter().any(|x| matches!(*x, "dangerous" | "dangerously" | "danger" | "unsafe" | "insecure"));
        let off = w
            .windows(2)
            .any(|p| OFF.contains(&p[0]) && CHECKS.contains(&p[1]))
            || matches!(w, [first, .., last] if OFF.contains(first) && CHECKS.contains(last));
        if risky || off {
            return Some(Authority::SafetySwitch);
        }
    }
    if !string {
        return None;
    }
    let endpoint = matches!(w, ["endpoint"] | ["host"] | ["hostname"])
        || matches!(w, [.., owner, "url" | "uri" | "endpoint" | "host"] if ENDPOINT_OWNERS.contains(owner));
    if endpoint {
        return Some(Authority::Endpoint);
    }
    if matches!(w, ["root"] | ["cwd"] | ["workdir"] | ["workspace"]) || ROOT_ENDINGS.iter().any(|e| w.ends_with(e)) {
        return Some(Authority::Root);
    }
    None
}

/// On a published list, where a name alone is weak evidence: a `session_id` is the id of a
/// session the server keeps (a credential only when named a ticket, a key or a cookie, or
/// when its doc says so), a `workspace` is a filesystem root only when its doc speaks of a
/// path, a directory or a folder, and a bare `host` is the server's own endpoint only when
/// its doc says so (otherwise it is the host the tool looks at).
fn holds_authority(what: Authority, words: &[String], doc: Option<&str>) -> bool {
    let doc = crate::names::words(doc.unwrap_or(""));
    let says = |list: &[&str]| doc.iter().any(|w| list.contains(&w.as_str()));
    match what {
        Authority::Session => {
            !matches!(words.last().map(String::as_str), Some("id"))
                || says(&["token", "ticket", "credential", "secret", "cookie", "auth", "authentication"])
        }
        Authority::Root if matches!(words, [w] if w == "workspace") => {
            says(&["path", "directory", "dir", "folder", "filesystem", "root"])
        }
        Authority::Endpoint if matches!(words, [w] if w == "host" || w == "hostname") => {
            says(&["server", "api", "instance", "connect", "credentials", "base"])
        }
        _ => true,
    }
}

fn check(cx: &Context, site: &Site, out: &mut Vec<Finding>) {
    if site.side != Some(Side::Input) {
        return;
    }
    let Some(field) = site.field else { return };
    let name = &field.name.value;
    let Some(what) = classify(&word_refs(site.name_words()), &site.ty.kind) else {
        return;
    };
    if cx.config.published && !holds_authority(what, site.name_words(), field.doc.as_ref().map(|d| d.value.as_str())) {
        return;
    }
    let (message, help) = match what {
        Authority::Session => (
            format!("input field `{}` passes a session credential through the model", site.path),
            format!("remove `{name}`: the server takes the session from the authenticated MCP connection (its own login, or the client's OAuth token), never from arguments"),
        ),
        Authority::SafetySwitch => (
            format!("input field `{}` lets the model switch a safety check off", site.path),
            format!("remove `{name}`: decide what is allowed in the server's configuration, or ask the user through a `confirm` step before the dangerous action"),
        ),
        Authority::Endpoint => (
            format!("input field `{}` lets the model choose the host the server calls (server-side request forgery)", site.path),
            format!("remove `{name}`: configure the host on the server, or accept a closed `enum` of names (regions, instances) that the server maps to its own allow-listed URLs"),
        ),
        Authority::Root => (
            format!("input field `{}` lets the model choose the filesystem root the server works in", site.path),
            format!("fix the root in the server's configuration (or the client's MCP roots) and take `{name}` out; accept paths relative to that root instead"),
        ),
    };
    out.push(site_finding(site, field.name.span, message).help(help));
}

#[cfg(test)]
mod tests {
    use super::{Authority, RULE, classify};
    use crate::lint::testkit::sites::*;
    use crate::model::{Effect, TyKind};
    use crate::names::{word_refs, words};

    fn of(name: &str, kind: &TyKind) -> Option<Authority> {
        classify(&word_refs(&words(name)), kind)
    }

    #[test]
    fn each_class_and_its_near_misses() {
        let s = bounded_string(64);
        let b = TyKind::Boolean;
        for name in ["ticket", "alf_ticket", "session", "sessionId", "session_key", "cookie", "auth_cookies"] {
            assert_eq!(of(name, &s), Some(Authority::Session), "{name}");
        }
        for name in ["allowDangerous", "dangerously_skip", "unsafe_mode", "skip_ssl_verify", "bypass_approval", "disable_checks", "no_verify", "insecure"] {
            assert_eq!(of(name, &b), Some(Authority::SafetySwitch), "{name}");
        }
        for name in ["regionUrl", "base_url", "api_host", "server_uri", "endpoint", "host", "instance_url"] {
            assert_eq!(of(name, &s), Some(Authority::Endpoint), "{name}");
        }
        for name in ["repo_path", "project_root", "root", "cwd", "working_directory", "base_dir"] {
            assert_eq!(of(name, &s), Some(Authority::Root), "{name}");
        }
        for name in [
            "url", "issueUrl", "csp_report_uri", "path", "file_path", "ticket_id", "ticket_subject", "session_count",
            "allow_symlink_write", "verify", "confirmation", "host_ip", "base", "base_ref", "root_cause",
        ] {
            assert_eq!(of(name, &s), None, "{name}");
            assert_eq!(of(name, &b), None, "{name}");
        }
        assert_eq!(of("regionUrl", &b), None);
        assert_eq!(of("allowDangerous", &s), None);
    }

    #[test]
    fn input_only_at_any_depth() {
        let t = tool(
            "node_get",
            Effect::Read,
            vec![field("opts", object(vec![field("ticket", bounded_string(64))]))],
            Some(vec![field("base_url", bounded_string(64))]),
        );
        let f = check(&RULE, catalog(vec![t], vec![]));
        assert_eq!(paths(&f), ["input.opts.ticket"]);
        assert!(f[0].help.as_deref().unwrap_or("").contains("remove `ticket`"));
    }
}
