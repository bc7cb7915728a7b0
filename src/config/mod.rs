//! The project configuration: `catalogc.kdl` (or `--config FILE`) read into a typed
//! [`ProjectConfig`], or into every problem it has.
//!
//! The file holds top-level sections; each has one reader here, so a new section (code
//! generation, docs) is a constant in [`SECTIONS`], a field and an arm of
//! [`ProjectConfig::from_document`]. A section nobody reads is an error with the closest
//! known name, so a misspelled `lnt { … }` is not silently ignored.

use self::lint::{LintSection, shape, unknown};
use crate::contract::{TemplateError, Templates};
use crate::diag::{Diagnostic, FileId, SourceFile, SourceMap};
use crate::model::read::Reader;
use crate::project::{LoadError, LoadOptions, PROJECT_FILE, read_text, syntax_diagnostics};
use crate::syntax::{self, Document, Node, Value};
use std::fmt;
use std::path::{Path, PathBuf};

pub mod accept;
pub mod guard;
pub mod lint;
pub mod overrides;

/// Top-level sections of `catalogc.kdl`, in documentation order.
pub const SECTIONS: &[&str] = &[
    "lint",
    "templates",
    "accept",
    "override",
    "guard",
    "profile",
];

/// Everything `catalogc.kdl` configures. `Default` is a run without one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProjectConfig {
    /// The file read, as named on the command line or found; `None` when there is none.
    pub file: Option<PathBuf>,
    /// The `lint` section: rule levels and thresholds.
    pub lint: crate::lint::Config,
    /// `templates "DIR"`: a folder of templates that override the built-in ones, resolved
    /// against the configuration file's folder.
    pub templates: Option<PathBuf>,
    /// `accept …` entries: breaks `catalogc breaking` lists as accepted, in file order.
    pub accepts: Vec<crate::compat::Accept>,
    /// `override "GLOB" { rule … }` blocks, in file order (a later one wins).
    pub overrides: Vec<overrides::Override>,
    /// `guard { … }`: the session budgets servers of these catalogs enforce; `None`
    /// without the block (servers then use [`crate::runtime::Guard::DEFAULT`]).
    pub guard: Option<crate::runtime::Guard>,
    /// `profile "NAME" { … }`: deployment profiles, in file order.
    pub profiles: Vec<guard::ProfileSection>,
}

/// Why the configuration could not be used.
#[derive(Debug)]
pub enum ConfigError {
    /// The file named by `--config` cannot be read.
    Load(LoadError),
    /// The file is not valid: syntax errors, or else every problem of its content, each
    /// pointing into the file (added to the run's sources).
    Invalid(Vec<Diagnostic>),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Load(e) => e.fmt(f),
            ConfigError::Invalid(d) => write!(f, "the configuration has {} problems", d.len()),
        }
    }
}

impl From<LoadError> for ConfigError {
    fn from(e: LoadError) -> Self {
        ConfigError::Load(e)
    }
}

/// Reads `explicit` (from `--config`), else `catalogc.kdl` in the current folder when it
/// exists. Its text is added to `sources` so problems point into it like into a catalog.
pub fn load(
    sources: &mut SourceMap,
    explicit: Option<&Path>,
    opts: &LoadOptions,
) -> Result<ProjectConfig, ConfigError> {
    let path = match explicit {
        Some(p) => p.to_path_buf(),
        None => {
            let p = PathBuf::from(PROJECT_FILE);
            if !p.is_file() {
                return Ok(ProjectConfig::default());
            }
            p
        }
    };
    let text = read_text(&path, opts)?;
    let id = sources.add(SourceFile::new(path.clone(), text));
    let parsed = syntax::parse(&sources.get(id).text);
    if !parsed.errors.is_empty() {
        // A file with syntax errors is broken as a whole; its content is not read.
        let errors = syntax_diagnostics(parsed.errors, id);
        return Err(ConfigError::Invalid(errors));
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut config =
        ProjectConfig::from_document(&parsed.document, id, dir).map_err(ConfigError::Invalid)?;
    config.file = Some(path);
    Ok(config)
}

impl ProjectConfig {
    /// Reads every section of a parsed project file; `file` is its id in the run's sources
    /// and `dir` its folder, against which paths in it are resolved. Every problem is
    /// returned at once.
    pub fn from_document(
        doc: &Document,
        file: FileId,
        dir: &Path,
    ) -> Result<ProjectConfig, Vec<Diagnostic>> {
        let mut r = Reader::new(file, "config");
        let mut lint = LintSection::default();
        let mut templates = None;
        let mut templates_seen = false;
        let mut accepts = Vec::new();
        let mut overrides = Vec::new();
        let mut guard = None;
        let mut profiles: Vec<guard::ProfileSection> = Vec::new();
        for node in doc.nodes() {
            match node.name.value {
                "lint" => lint.read(&mut r, &node),
                "accept" => accepts.extend(accept::read(&mut r, &node, file)),
                "override" => overrides.extend(overrides::read(&mut r, &node, dir)),
                "guard" if guard.is_some() => r.fail(
                    "duplicate",
                    node.name.span,
                    "`guard` is given twice",
                    Some("keep one of them".to_string()),
                ),
                "guard" => guard = Some(guard::read_guard(&mut r, &node)),
                "profile" => {
                    let Some(p) = guard::read_profile(&mut r, &node, file) else {
                        continue;
                    };
                    if profiles.iter().any(|q| q.name.0 == p.name.0) {
                        r.fail(
                            "duplicate",
                            p.name.1,
                            format!("profile `{}` is declared twice", p.name.0),
                            Some("rename or remove one of them".to_string()),
                        );
                        continue;
                    }
                    profiles.push(p);
                }
                "templates" => {
                    if templates_seen {
                        r.fail(
                            "duplicate",
                            node.name.span,
                            "`templates` is given twice",
                            Some("keep one of them".to_string()),
                        );
                        continue;
                    }
                    templates_seen = true;
                    templates = read_templates(&mut r, &node, dir);
                }
                _ => unknown(&mut r, "section", &node.name, SECTIONS),
            }
        }
        if !r.diags.is_empty() {
            return Err(r.finish(doc.end()));
        }
        Ok(ProjectConfig {
            file: None,
            lint: lint.config,
            templates,
            accepts,
            overrides,
            guard,
            profiles,
        })
    }
}

/// `templates "DIR"`: one folder, which must exist.
fn read_templates(r: &mut Reader, node: &Node, dir: &Path) -> Option<PathBuf> {
    shape(r, node, false);
    let args: Vec<_> = node.entries().filter(|e| e.name.is_none()).collect();
    let usage = "write it as `templates \"templates/\"`, a folder relative to this file";
    let [arg] = args.as_slice() else {
        r.fail(
            "wrong-value",
            node.name.span,
            "`templates` takes exactly one folder",
            Some(usage.to_string()),
        );
        return None;
    };
    let span = arg.value.span;
    let Value::String(folder) = arg.value.value else {
        r.fail(
            "wrong-value",
            span,
            "`templates` takes a folder name in quotes",
            Some(usage.to_string()),
        );
        return None;
    };
    if folder.is_empty() {
        r.fail(
            "wrong-value",
            span,
            "`templates` names no folder",
            Some(usage.to_string()),
        );
        return None;
    }
    let path = dir.join(folder);
    if !path.is_dir() {
        r.fail(
            "wrong-value",
            span,
            format!("templates folder `{}` does not exist", path.display()),
            Some("create the folder, or fix the path (relative to this file)".to_string()),
        );
        return None;
    }
    Some(path)
}

/// The built-in templates, with every `*.j2` file directly inside `dir` added, replacing the
/// built-in of the same name. Files are read in name order so errors are reported
/// deterministically.
pub fn load_templates(dir: &Path) -> Result<Templates, TemplateError> {
    let dir_err = |message: String| TemplateError {
        template: dir.display().to_string(),
        message,
    };
    let mut t = Templates::builtin();
    let entries = std::fs::read_dir(dir).map_err(|e| dir_err(e.to_string()))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| dir_err(e.to_string()))?;
        let path = entry.path();
        let is_file = entry.file_type().map(|ft| ft.is_file()).unwrap_or(false);
        if is_file && path.extension().is_some_and(|e| e == "j2") {
            files.push(path);
        }
    }
    files.sort();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let origin = path.display().to_string();
        let source = read_text(&path, &LoadOptions::default()).map_err(|e| TemplateError {
            template: origin.clone(),
            message: e.to_string(),
        })?;
        t.add_file(name, origin, source)?;
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, dir: &Path) -> Result<ProjectConfig, Vec<(String, String, String)>> {
        let parsed = syntax::parse(text);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        ProjectConfig::from_document(&parsed.document, FileId(0), dir)
            .map_err(|errs| crate::model::read::rule_text_help(errs, text))
    }

    #[test]
    fn templates_resolve_against_the_files_folder() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let c = read("templates \"templates\"\nlint { deny \"naming\" }\n", dir)
            .map_err(|e| format!("{e:?}"));
        let Ok(c) = c else { panic!("{c:?}") };
        assert_eq!(c.templates, Some(dir.join("templates")));
        assert_eq!(
            c.lint.levels.get("naming"),
            Some(&Some(crate::diag::Level::Error))
        );
        assert_eq!(read("", dir).ok(), Some(ProjectConfig::default()));
    }

    #[test]
    fn rejects_unknown_sections_and_bad_templates() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let errs = read(
            "lnt {}\ntemplate \"t\"\ntemplates \"no-such-folder\"\ntemplates \"templates\"\ntemplates\n",
            dir,
        )
        .err()
        .unwrap_or_default();
        let got: Vec<(&str, &str, &str)> = errs
            .iter()
            .map(|(r, t, h)| (r.as_str(), t.as_str(), h.as_str()))
            .collect();
        assert_eq!(got.len(), 5, "{got:#?}");
        assert_eq!(
            got[0],
            ("config/unknown-key", "lnt", "did you mean `lint`?")
        );
        assert_eq!(
            got[1],
            (
                "config/unknown-key",
                "template",
                "did you mean `templates`?"
            )
        );
        assert_eq!(
            (got[2].0, got[2].1),
            ("config/wrong-value", "\"no-such-folder\"")
        );
        assert_eq!((got[3].0, got[3].1), ("config/duplicate", "templates"));
        assert_eq!((got[4].0, got[4].1), ("config/duplicate", "templates"));
        let errs = read("templates 5 x=1\n", dir).err().unwrap_or_default();
        let rules: Vec<&str> = errs.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(rules, ["config/unknown-key", "config/wrong-value"]);
    }
}
