//! `catalogc docs`: the docs of the example catalogs read well once rendered to HTML
//! (headings per tool, well-formed tables, index anchors that resolve), and the command writes, prints, follows a project's template and reports a
//! broken one by file and line.

use assert_cmd::Command;
use catalogc::contract::{Artifacts, Templates};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn catalogc(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("catalogc").unwrap_or_else(|e| panic!("binary: {e}"));
    c.current_dir(dir).env("NO_COLOR", "1");
    c
}

fn write(path: &Path, text: &str) {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).unwrap_or_else(|e| panic!("mkdir: {e}"));
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("write: {e}"));
}

/// Each example catalog with its docs rendered by the library from the built-in templates.
fn rendered_examples() -> Vec<(String, String)> {
    let loaded = catalogc::project::load(&[root().join("catalogs")], &Default::default())
        .unwrap_or_else(|e| panic!("load: {e}"));
    let templates = Templates::builtin();
    let art = Artifacts::build(&loaded.project, &templates).unwrap_or_else(|e| panic!("{e}"));
    catalogc::docs::render_project(&loaded.project, &art, &templates)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn html(md: &str) -> String {
    use pulldown_cmark::{Options, Parser, html};
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(md, Options::ENABLE_TABLES));
    out
}

/// Every `attr="…"` value in `html`.
fn attr_values(html: &str, attr: &str) -> Vec<String> {
    let needle = format!("{attr}=\"");
    html.match_indices(&needle)
        .filter_map(|(i, _)| {
            let rest = &html[i + needle.len()..];
            rest.find('"').map(|end| rest[..end].to_string())
        })
        .collect()
}

/// The HTML between `<table>` and `</table>`, each.
fn tables(html: &str) -> Vec<&str> {
    html.split("<table>")
        .skip(1)
        .filter_map(|t| t.split("</table>").next())
        .collect()
}

/// The number of `<tag>` cells in `html` (with or without attributes).
fn cells(html: &str, tag: &str) -> usize {
    html.matches(&format!("<{tag}>")).count() + html.matches(&format!("<{tag} ")).count()
}

#[test]
fn the_docs_read_well_as_html() {
    let loaded = catalogc::project::load(&[root().join("catalogs")], &Default::default())
        .unwrap_or_else(|e| panic!("load: {e}"));
    for (file, md) in rendered_examples() {
        let page = html(&md);
        let cat = loaded
            .project
            .catalogs
            .iter()
            .find(|c| format!("{}.md", c.name.value) == file)
            .unwrap_or_else(|| panic!("no catalog for {file}"));
        // One h1, then a section (h2) per tool, in declaration order, each with its
        // contract's parts as h3.
        assert_eq!(page.matches("<h1>").count(), 1, "{file}");
        let h2: Vec<&str> = page
            .split("<h2>")
            .skip(1)
            .filter_map(|s| s.split("</h2>").next())
            .collect();
        let mut expected: Vec<&str> = vec!["Tools"];
        expected.extend(cat.tools.iter().map(|t| t.name.value.as_str()));
        if !cat.types.is_empty() {
            expected.push("Types");
        }
        assert_eq!(h2, expected, "{file}");
        for part in [
            "Input",
            "Output",
            "Description as the model sees it",
            "Hashes",
        ] {
            assert_eq!(
                page.matches(&format!("<h3>{part}</h3>")).count(),
                cat.tools.len(),
                "{file}: {part}"
            );
        }
        // Tables are tables: a header, a body, and every row as wide as its header (a stray
        // `|` in catalog text would widen one, and a lost line break would leave the pipes
        // in a paragraph).
        let tabs = tables(&page);
        assert!(tabs.len() > cat.tools.len() * 3, "{file}: {}", tabs.len());
        for t in &tabs {
            let width = cells(t.split("</thead>").next().unwrap_or(""), "th");
            assert!(width >= 2, "{file}: {t}");
            let body = t.split("<tbody>").nth(1).unwrap_or("");
            let rows: Vec<&str> = body.split("<tr>").skip(1).collect();
            assert!(!rows.is_empty(), "{file}: empty table {t}");
            for r in rows {
                assert_eq!(cells(r, "td"), width, "{file}: {r}");
            }
        }
        assert!(!page.contains("<p>|"), "{file}: a table fell apart");
        assert!(!page.contains("{{") && !page.contains("{%"), "{file}");
        // Every in-page link lands on an id, and every tool is linked from the index.
        let ids: BTreeSet<String> = attr_values(&page, "id").into_iter().collect();
        let links: Vec<String> = attr_values(&page, "href")
            .into_iter()
            .filter_map(|h| h.strip_prefix('#').map(str::to_string))
            .collect();
        for l in &links {
            assert!(ids.contains(l), "{file}: #{l} does not resolve");
        }
        for t in &cat.tools {
            let id = format!("tool-{}", t.name.value);
            assert!(links.contains(&id), "{file}: index lacks {id}");
        }
    }
}

const MINI: &str = "catalog \"mini\" version=\"1.0.0\" {\n    summary \"Orders | returns.\"\n}\ntool \"order_list\" version=\"1.0.0\" {\n    summary \"List the open orders of the signed-in customer.\"\n    effect \"read\"\n    input\n}\n";

/// Runs `catalogc ARGS` in `dir`: exit status, stdout, stderr.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = catalogc(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// The stdout of `catalogc ARGS` in `dir`, which must succeed.
fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, stdout, stderr) = run(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {stderr}");
    stdout
}

#[test]
fn docs_writes_when_changed_and_prints_with_a_dash() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let d = dir.path();
    write(&d.join("catalogs/mini.kdl"), MINI);
    assert_eq!(ok(d, &["docs"]), "wrote generated/mini.md\n");
    let written = std::fs::read_to_string(d.join("generated/mini.md")).unwrap_or_default();
    assert!(written.starts_with("# Catalog mini\n"), "{written}");
    assert!(written.contains("Orders \\| returns."), "{written}");
    assert_eq!(
        ok(d, &["docs", "catalogs", "--out", "generated"]),
        "unchanged generated/mini.md\n"
    );
    assert_eq!(ok(d, &["docs", "--out", "-"]), written);
}

#[test]
fn docs_follow_the_projects_template_and_name_a_broken_one() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let d = dir.path();
    write(&d.join("catalogs/mini.kdl"), MINI);
    write(&d.join("catalogc.kdl"), "templates \"tpl\"\n");
    write(
        &d.join("tpl/docs.md.j2"),
        "Catalog {{ name }}:\n{% for t in tools %}- {{ t.name }} ({{ t.effect }})\n{% endfor %}",
    );
    assert_eq!(
        ok(d, &["docs", "--out", "-"]),
        "Catalog mini:\n- order_list (read)\n"
    );

    // A syntax error (found when the folder is read) and a render error (found when the
    // docs are rendered) both name the file and the line, exit 2 and write nothing.
    for (broken, line) in [
        ("# {{ name }}\n\n{% for t in tools %}\n", "line 3"),
        ("# {{ name }}\n{{ tools | no_such_filter }}\n", "line 2"),
    ] {
        write(&d.join("tpl/docs.md.j2"), broken);
        let (code, _, stderr) = run(d, &["docs"]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.contains("docs.md.j2") && stderr.contains(line),
            "{broken:?}: {stderr}"
        );
        assert!(!d.join("generated").exists());
    }
}
