//! The `trust/url-fetch` rule: a tool that fetches a URL the model writes limits the hosts it
//! reaches; [`RULE`] documents it.

use crate::diag::Level;
use crate::lint::text::pattern;
use crate::lint::walk::{Side, Site, site_finding};
use crate::lint::{Context, Finding};
use crate::model::{Tool, TyKind};
use regex::Regex;
use std::sync::LazyLock;

crate::lint::declare_rule! {
    /// ## What it does
    /// Flags an input string through which the model names a URL that the tool then fetches,
    /// opens or renders, when nothing limits where that URL may point. The field is a URL by
    /// its name (`url`, `uri`, `href`, `link`, or a name ending in one of them) or by its doc
    /// (`URL to fetch`); the tool fetches by the words of its name or the verbs of its summary
    /// (`fetch`, `navigate`, `download`, `scrape`, `crawl`, `browse`, `visit`, or a name that
    /// pairs `url` with `html`, `markdown`, `content` or `screenshot`).
    ///
    /// Not reported when the field has a `pattern`, `enum` or `const` (the allowed hosts are in
    /// the schema), or when the tool's texts or the field's doc state an allow-list (`allowed
    /// domains`, `allowlist`, `only … hosts`). A link to one of the service's own resources
    /// that the server parses (`issueUrl`) is no fetch and is not reported.
    ///
    /// ## Why is this bad?
    /// The server makes the request, from where it runs: a model steered by a prompt injection
    /// can make it read `http://169.254.169.254/` (cloud credentials), `http://localhost:…` or
    /// an intranet page (server-side request forgery), or carry the conversation's secrets out
    /// in a query string. The user sees a harmless "fetch a page" call.
    ///
    /// ## Example
    /// ```kdl
    /// tool "page_fetch" version="1.0.0" {
    ///     summary "Fetch a web page and return it as Markdown."
    ///     // …
    ///     input { field "url" "string" required=#true max-length=2048 format="uri" }
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```kdl
    /// tool "docs_page_fetch" version="1.0.0" {
    ///     summary "Fetch one page of docs.example.com and return it as Markdown."
    ///     // …
    ///     input {
    ///         field "url" "string" required=#true max-length=2048 pattern="^https://docs\\.example\\.com/"
    ///     }
    /// }
    /// ```
    pub static RULE = Rule {
        id: "trust/url-fetch",
        level: Level::Warn,
        summary: "a tool that fetches a URL the model writes limits the hosts it reaches",
        hooks: crate::lint::Hooks::declaration(check),
    };
}

const URL_WORDS: &[&str] = &["url", "uri", "href", "link"];
const FETCH_WORDS: &[&str] = &["fetch", "navigate", "download", "scrape", "crawl", "browse", "visit"];
const CONTENT_WORDS: &[&str] = &["html", "markdown", "content", "screenshot"];

/// A summary that fetches, opens or renders a page or URL.
static FETCHES: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)\b(?:fetch|fetches|navigate|navigates|download|downloads|scrape|scrapes|crawl|crawls|browse|browses|visit|visits)\b")
});

/// A doc that says the value is a URL.
static URL_DOC: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?i)^\s*(?:the\s+|a\s+)?(?:url|uri)\b"));

/// Words before `url` that make it the server's own endpoint, which `trust/authority-field`
/// reports (`regionUrl`, `base_url`).
const ENDPOINT_WORDS: &[&str] = &["base", "region", "api", "server", "instance", "origin", "endpoint"];

/// A doc that names the URL as a link of one service (`Sentry URL`, `Full Sentry issue URL`):
/// the server parses it for identifiers and fetches nothing it names.
static SERVICE_LINK: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"^\s*(?:(?i:the|a|an|full)\s+)?([A-Z][A-Za-z]+)(?:\s+[a-z]+)?\s+(?i:url|uri|link)\b")
});

/// Whether `doc` starts by naming a service's link ([`SERVICE_LINK`], the service's name not an
/// article or `URL` itself).
fn service_link(doc: &str) -> bool {
    SERVICE_LINK
        .captures(doc)
        .and_then(|c| c.get(1))
        .is_some_and(|w| !["The", "A", "An", "Full", "URL", "Url", "URI", "Uri"].contains(&w.as_str()))
}

/// Text that states an allow-list of hosts.
static ALLOW_LIST: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)\ballow-?list|\bwhite-?list|\ballowed\s+(?:domains?|hosts?|urls?|origins?|sites?)\b|\bonly\s+(?:\S+\s+){0,3}(?:domains?|hosts?|origins?)\b")
});

/// Whether `tool` fetches what a URL argument names.
fn fetches(tool: &Tool) -> bool {
    let words = crate::names::words(&tool.name.value);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    has(FETCH_WORDS)
        || (has(&["url"]) && has(CONTENT_WORDS))
        || tool.summary.as_ref().is_some_and(|s| FETCHES.is_match(&s.value))
}

fn states_allow_list(tool: &Tool, doc: Option<&str>) -> bool {
    let texts = [tool.summary.as_ref(), tool.when.as_ref(), tool.when_not.as_ref()];
    texts.into_iter().flatten().map(|t| t.value.as_str()).chain(doc).any(|t| ALLOW_LIST.is_match(t))
}

fn check(_: &Context, site: &Site, out: &mut Vec<Finding>) {
    let (Some(tool), Some(field)) = (site.tool, site.field) else { return };
    if site.side != Some(Side::Input) || !std::ptr::eq(&field.ty, site.ty) || field.constant.is_some() {
        return;
    }
    let TyKind::String(s) = &field.ty.kind else { return };
    if s.pattern.is_some() || s.enum_values.is_some() {
        return;
    }
    let doc = field.doc.as_ref().map(|d| d.value.as_str());
    let words = site.name_words();
    let named = words.last().is_some_and(|w| URL_WORDS.contains(&w.as_str()));
    let endpoint = named && words.len() >= 2 && ENDPOINT_WORDS.contains(&words[words.len() - 2].as_str());
    if endpoint || doc.is_some_and(service_link) {
        return;
    }
    if !(named || doc.is_some_and(|d| URL_DOC.is_match(d))) || !fetches(tool) || states_allow_list(tool, doc) {
        return;
    }
    out.push(
        site_finding(
            site,
            field.name.span,
            format!("tool `{}` fetches whatever URL the model writes in `{}`: nothing limits the hosts it reaches", tool.name.value, site.path),
        )
        .help("limit the hosts: a `pattern` on the field (`^https://docs\\.example\\.com/`), or an allow-list the server enforces and the doc states; refuse loopback, private and link-local addresses in any case"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::testkit::texts::*;

    #[test]
    fn fetchers_by_name_and_summary() {
        let t = |name: &str, summary: &str| fetches(&summarised(name, summary));
        assert!(t("fetch", "Fetches a URL from the internet."));
        assert!(t("puppeteer_navigate", "Navigate to a URL"));
        assert!(t("get_url_markdown", "Convert a page."));
        assert!(!t("create_uptime_monitor", "Create an uptime monitor for a URL."));
        assert!(!t("get_issue_details", "Get the details of an issue by its URL."));
        let mut with_list = tool("page_fetch");
        with_list.summary = s("Fetch a page from one of the allowed domains.");
        assert!(states_allow_list(&with_list, None));
        assert!(states_allow_list(&tool("page_fetch"), Some("Only docs.example.com hosts.")));
        assert!(!states_allow_list(&tool("page_fetch"), Some("URL to fetch")));
        assert!(service_link("Sentry URL. The resource type is auto-detected."));
        assert!(service_link("Full Sentry issue URL (e.g. …)."));
        assert!(!service_link("URL to fetch"));
        assert!(!service_link("The URL to navigate to"));
    }
}
