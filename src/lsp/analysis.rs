//! One analysis of a project folder as the editor sees it: every catalog of the folder (open
//! buffers instead of their files on disk), the project file, the contracts and every
//! syntax, model and lint diagnostic — what `catalogc lint` reports for the folder — plus
//! where each tool and named type is declared and referenced.

use crate::config::{self, ConfigError, ProjectConfig};
use crate::contract::{Artifacts, Templates};
use crate::diag::{Diagnostic, FileId};
use crate::model::{Field, Object, Ty, TyKind};
use crate::project::{self, LoadOptions, Loaded, PROJECT_FILE};
use crate::syntax::Span;
use std::path::{Path, PathBuf};

/// What a name at some place of a file means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A tool, named across every catalog of the project.
    Tool(String),
    /// A named type of one catalog file (types are visible in their own file only).
    Type(FileId, String),
}

/// A declaration of, or a reference to, a tool or named type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// The file it is written in.
    pub file: FileId,
    /// The name's token (quotes included).
    pub span: Span,
    /// What it names.
    pub target: Target,
    /// It is the declaration, not a reference.
    pub declaration: bool,
}

/// A project folder analysed once; rebuilt after every edit of one of its files.
#[derive(Debug)]
pub struct Snapshot {
    /// The catalogs (file paths absolute) and, when found, the project file.
    pub loaded: Loaded,
    /// The contracts of every tool, descriptions rendered from the project's templates.
    pub artifacts: Artifacts,
    /// Every finding, as `catalogc lint` would report it for the folder.
    pub diagnostics: Vec<Diagnostic>,
    /// Declarations and references of every tool and named type.
    pub occurrences: Vec<Occurrence>,
    /// The project's tool naming convention (`naming` in `catalogc.kdl`); `None` for each
    /// catalog's own.
    pub naming: Option<crate::names::Convention>,
}

impl Snapshot {
    /// Analyses the catalogs of `dir` and `focus` (which may not be saved yet); `overlay`
    /// gives the text of files open in the editor, which wins over the file on disk.
    pub fn build(dir: &Path, focus: &Path, overlay: &dyn Fn(&Path) -> Option<String>) -> Snapshot {
        let opts = LoadOptions::default();
        let mut paths = project::discover(&[dir.to_path_buf()]).unwrap_or_default();
        if !paths.iter().any(|p| p == focus) && focus.file_name().is_some_and(|n| n != PROJECT_FILE)
        {
            paths.push(focus.to_path_buf());
        }
        // A file that cannot be read now (deleted, too large) is left out, as a folder
        // being edited often holds one for a moment.
        let files: Vec<(PathBuf, String)> = paths
            .into_iter()
            .filter_map(|path| {
                let text = overlay(&path).or_else(|| project::read_text(&path, &opts).ok())?;
                Some((path, text))
            })
            .collect();
        let mut loaded = project::load_sources(files);
        let mut extra = Vec::new();
        let config = match find_project_file(dir) {
            Some(file) => match config::load(&mut loaded.sources, Some(&file), &opts) {
                Ok(c) => c,
                Err(ConfigError::Invalid(diags)) => {
                    extra = diags;
                    ProjectConfig::default()
                }
                Err(ConfigError::Load(_)) => ProjectConfig::default(),
            },
            None => ProjectConfig::default(),
        };
        let templates = config
            .templates
            .as_deref()
            .and_then(|d| Templates::with_dir(d).ok())
            .unwrap_or_else(Templates::builtin);
        let artifacts = Artifacts::build(&loaded.project, &templates)
            .or_else(|_| Artifacts::build(&loaded.project, &Templates::builtin()))
            .unwrap_or_default();
        let mut diagnostics = crate::lint::check_project(&loaded, &config.lint, &artifacts);
        diagnostics.extend(extra);
        let occurrences = occurrences(&loaded);
        Snapshot {
            loaded,
            artifacts,
            diagnostics,
            occurrences,
            naming: config.lint.naming,
        }
    }

    /// The id of `path` among the analysed files.
    pub fn file_id(&self, path: &Path) -> Option<FileId> {
        self.loaded
            .sources
            .files
            .iter()
            .position(|f| f.path == path)
            .map(FileId)
    }

    /// The declaration or reference whose name covers byte `offset` of `file`.
    pub fn occurrence_at(&self, file: FileId, offset: usize) -> Option<&Occurrence> {
        self.occurrences
            .iter()
            .find(|o| o.file == file && o.span.start <= offset && offset <= o.span.end)
    }

    /// Every declaration and reference of `target`, declarations first.
    pub fn occurrences_of<'a>(
        &'a self,
        target: &'a Target,
    ) -> impl Iterator<Item = &'a Occurrence> {
        let decl = self
            .occurrences
            .iter()
            .filter(move |o| &o.target == target && o.declaration);
        let refs = self
            .occurrences
            .iter()
            .filter(move |o| &o.target == target && !o.declaration);
        decl.chain(refs)
    }

    /// `(catalog index, tool index)` of the tool `name`.
    pub fn tool_index(&self, name: &str) -> Option<(usize, usize)> {
        self.loaded
            .project
            .catalogs
            .iter()
            .enumerate()
            .find_map(|(c, cat)| {
                cat.tools
                    .iter()
                    .position(|t| t.name.value == name)
                    .map(|t| (c, t))
            })
    }

    /// Every tool name of the project, sorted: read from the syntax, so a tool that does not
    /// lower yet (the one being written) is named too.
    pub fn tool_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for f in &self.loaded.sources.files {
            if f.path.file_name().is_some_and(|n| n == PROJECT_FILE) {
                continue;
            }
            let parsed = crate::syntax::parse(&f.text);
            for n in parsed.document.nodes().filter(|n| n.name.value == "tool") {
                if let Some(crate::syntax::Value::String(s)) = n
                    .entries()
                    .find(|e| e.name.is_none())
                    .map(|e| e.value.value)
                {
                    names.push(s.to_string());
                }
            }
        }
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The named types declared in `file`.
    pub fn type_names(&self, file: FileId) -> Vec<&str> {
        self.loaded
            .project
            .catalogs
            .iter()
            .filter(|c| c.file == file)
            .flat_map(|c| c.types.iter().map(|t| t.name.value.as_str()))
            .collect()
    }
}

/// `catalogc.kdl` in `dir` or the nearest folder above it.
fn find_project_file(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join(PROJECT_FILE))
        .find(|p| p.is_file())
}

fn occurrences(loaded: &Loaded) -> Vec<Occurrence> {
    let mut out = Vec::new();
    for cat in &loaded.project.catalogs {
        let file = cat.file;
        let ty = |name: &str| Target::Type(file, name.to_string());
        let mut uses = Vec::new();
        for t in &cat.types {
            out.push(Occurrence {
                file,
                span: t.name.span,
                target: ty(&t.name.value),
                declaration: true,
            });
            type_uses(&t.fields, &mut uses);
        }
        for tool in &cat.tools {
            out.push(Occurrence {
                file,
                span: tool.name.span,
                target: Target::Tool(tool.name.value.clone()),
                declaration: true,
            });
            type_uses(&tool.input.fields, &mut uses);
            if let Some(o) = &tool.output {
                type_uses(&o.fields, &mut uses);
            }
            let refs = tool
                .examples
                .confusables
                .iter()
                .chain(tool.on_timeout.as_ref().and_then(|o| o.tool.as_ref()))
                .chain(
                    tool.deprecated
                        .as_ref()
                        .and_then(|d| d.replacement.as_ref()),
                );
            for r in refs {
                out.push(Occurrence {
                    file,
                    span: r.span,
                    target: Target::Tool(r.value.clone()),
                    declaration: false,
                });
            }
        }
        for (name, span) in uses {
            out.push(Occurrence {
                file,
                span,
                target: ty(name),
                declaration: false,
            });
        }
    }
    out
}

/// Every use of a named type below `fields` (nested objects and array items included).
fn type_uses<'a>(fields: &'a [Field], out: &mut Vec<(&'a str, Span)>) {
    for f in fields {
        ty_uses(&f.ty, out);
    }
}

fn ty_uses<'a>(ty: &'a Ty, out: &mut Vec<(&'a str, Span)>) {
    match &ty.kind {
        TyKind::Named(n) => out.push((&n.value, ty.span)),
        TyKind::Array(a) => ty_uses(&a.items, out),
        TyKind::Object(Object { fields, .. }) => type_uses(fields, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"catalog "shop" version="1.0.0"
type "Order" {
    field "order_reference" "string" max-length=20
}
tool "order_get" version="1.0.0" {
    effect "read"
    output { field "orders" "array" max-items=5 { items "Order" } }
    examples { confusable "order_list" }
}
tool "order_list" version="1.0.0" {
    effect "read"
    output { field "order" "Order" }
}
"#;

    #[test]
    fn finds_declarations_and_references_in_the_model() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("shop.kdl");
        let snap = Snapshot::build(dir.path(), &path, &|_| Some(TEXT.to_string()));
        let file = snap.file_id(&path).unwrap_or_default();
        let at = |needle: &str| TEXT.find(needle).unwrap_or(0) + 1;
        let target = &snap
            .occurrence_at(file, at("\"Order\" }"))
            .map(|o| o.target.clone());
        assert_eq!(target, &Some(Target::Type(file, "Order".into())));
        let order = Target::Type(file, "Order".into());
        let all: Vec<&str> = snap
            .occurrences_of(&order)
            .map(|o| &TEXT[o.span.start..o.span.end])
            .collect();
        assert_eq!(all, ["\"Order\"", "\"Order\"", "\"Order\""]);
        let list = Target::Tool("order_list".into());
        assert_eq!(snap.occurrences_of(&list).count(), 2);
        assert_eq!(snap.tool_names(), ["order_get", "order_list"]);
        assert!(
            snap.diagnostics
                .iter()
                .any(|d| d.rule == "selection/missing-text")
        );
    }
}
