//! One analysis of a project folder as the editor sees it: every catalog of the folder (open
//! buffers instead of their files on disk), the project file, the contracts and every
//! syntax, model and lint diagnostic — what `catalogc lint` reports for the folder — plus
//! where each tool and named type is declared and referenced.

use crate::config::{self, ConfigError, ProjectConfig};
use crate::contract::{Artifacts, Templates};
use crate::diag::{Diagnostic, FileId, SourceMap};
use crate::model::{Catalog, Field, Ty, TyKind};
use crate::project::{self, LoadOptions, Loaded, PROJECT_FILE};
use crate::syntax::Span;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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
        Snapshot::build_cached(dir, focus, overlay, &mut Cache::default())
    }

    /// [`Snapshot::build`] reusing, through `cache`, what earlier analyses read and lowered
    /// of the files that did not change since.
    pub fn build_cached(
        dir: &Path,
        focus: &Path,
        overlay: &dyn Fn(&Path) -> Option<String>,
        cache: &mut Cache,
    ) -> Snapshot {
        let opts = LoadOptions::default();
        let mut paths = cache.discover(dir);
        if !paths.iter().any(|p| p == focus) && focus.file_name().is_some_and(|n| n != PROJECT_FILE)
        {
            paths.push(focus.to_path_buf());
        }
        // A file that cannot be read now (deleted, too large) is left out, as a folder
        // being edited often holds one for a moment.
        let files: Vec<(PathBuf, String)> = paths
            .into_iter()
            .filter_map(|path| {
                let text = overlay(&path).or_else(|| cache.read(&path, &opts))?;
                Some((path, text))
            })
            .collect();
        // The loader may lower files on several threads; the cache takes them one at a time.
        let mut loaded = {
            let shared = std::sync::Mutex::new(&mut *cache);
            project::load_sources_with(files, |path, text, id| {
                let mut cache = shared
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                cache.lower(path, text, id)
            })
        };
        cache.keep_only(dir, &loaded.sources);
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
            .and_then(|d| crate::config::load_templates(d).ok())
            .unwrap_or_else(Templates::builtin);
        let artifacts = Artifacts::build(&loaded.project, &templates)
            .or_else(|_| Artifacts::build(&loaded.project, &Templates::builtin()))
            .unwrap_or_default();
        let mut lint = config.lint;
        // A `CATALOGC_TODAY` that is not a date leaves the sunset rule silent here; the
        // command line reports it.
        lint.today = crate::cli::today::today().ok();
        let mut diagnostics = crate::lint::check_project(&loaded, &lint, &artifacts);
        config::overrides::apply(&config.overrides, &mut diagnostics, &loaded.sources);
        diagnostics.extend(extra);
        let occurrences = occurrences(&loaded);
        Snapshot {
            loaded,
            artifacts,
            diagnostics,
            occurrences,
            naming: lint.naming,
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

/// What one analysis leaves to the next, so a keystroke re-reads and re-lowers only the file
/// it changed: the text of each catalog read from disk, kept while the file's modification
/// time and size stay the same (and until [`Cache::forget_disk`]), and each file's syntax and
/// model result, kept while its text and place among the project's files stay the same.
#[derive(Debug, Default)]
pub struct Cache {
    disk: HashMap<PathBuf, OnDisk>,
    lowered: HashMap<PathBuf, Lowered>,
    /// The catalog files of each folder analysed.
    found: HashMap<PathBuf, Vec<PathBuf>>,
    /// Files parsed and lowered so far: what tests check reuse with.
    pub lowerings: usize,
    /// Files read from disk so far.
    pub reads: usize,
    /// Folders searched for catalog files so far.
    pub walks: usize,
}

/// The most folder entries one search of a folder reads (a file opened at `/` is analysed
/// with the catalogs found within them).
pub const MAX_FOLDER_ENTRIES: usize = 10_000;

#[derive(Debug)]
struct OnDisk {
    modified: SystemTime,
    len: u64,
    text: String,
}

/// A file's [`project::lower_file`] result for one text. The file being typed into changes
/// on every keystroke, so its result is only kept once the same text comes back a second
/// time: copying its model into the cache on every keystroke would cost more than it saves.
#[derive(Debug)]
struct Lowered {
    id: FileId,
    text: String,
    result: Option<(Option<Catalog>, Vec<Diagnostic>)>,
}

impl Cache {
    /// The text of `path` on disk; read again only when its modification time or size
    /// changed.
    fn read(&mut self, path: &Path, opts: &LoadOptions) -> Option<String> {
        let meta = std::fs::metadata(path).ok()?;
        let (modified, len) = (meta.modified().ok()?, meta.len());
        if let Some(d) = self.disk.get(path)
            && d.modified == modified
            && d.len == len
        {
            return Some(d.text.clone());
        }
        self.reads += 1;
        let Ok(text) = project::read_text(path, opts) else {
            self.disk.remove(path);
            return None;
        };
        let entry = OnDisk {
            modified,
            len,
            text: text.clone(),
        };
        self.disk.insert(path.to_path_buf(), entry);
        Some(text)
    }

    /// The catalog and syntax and model diagnostics of `text`, file `id` of the project.
    fn lower(&mut self, path: &Path, text: &str, id: FileId) -> (Option<Catalog>, Vec<Diagnostic>) {
        match self.lowered.get_mut(path) {
            Some(l) if l.id == id && l.text == text => {
                if let Some(result) = &l.result {
                    return result.clone();
                }
                self.lowerings += 1;
                let result = project::lower_file(text, id);
                l.result = Some(result.clone());
                result
            }
            _ => {
                self.lowerings += 1;
                let entry = Lowered {
                    id,
                    text: text.to_string(),
                    result: None,
                };
                self.lowered.insert(path.to_path_buf(), entry);
                project::lower_file(text, id)
            }
        }
    }

    /// Forgets the files below `dir` that are no longer part of its project.
    fn keep_only(&mut self, dir: &Path, sources: &SourceMap) {
        let kept = |p: &Path| !p.starts_with(dir) || sources.files.iter().any(|f| f.path == p);
        self.disk.retain(|p, _| kept(p));
        self.lowered.retain(|p, _| kept(p));
    }

    /// Forgets the disk text of `paths` (`None`: of every file), after the editor said they
    /// were saved or changed on disk; their models stay, keyed by their text. The folders'
    /// file lists are searched again (a file may have been created or deleted).
    pub fn forget_disk(&mut self, paths: Option<&[PathBuf]>) {
        match paths {
            Some(paths) => self.disk.retain(|p, _| !paths.contains(p)),
            None => self.disk.clear(),
        }
        self.found.clear();
    }

    /// The catalog files of `dir`: searched once (at most [`MAX_FOLDER_ENTRIES`] entries),
    /// then kept until the editor reports a change on disk. An edit in a buffer changes no
    /// file list.
    fn discover(&mut self, dir: &Path) -> Vec<PathBuf> {
        if let Some(found) = self.found.get(dir) {
            return found.clone();
        }
        self.walks += 1;
        let found = project::discover_bounded(dir, MAX_FOLDER_ENTRIES);
        self.found.insert(dir.to_path_buf(), found.clone());
        found
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

/// Every use of a named type below `fields` (nested objects, array items, map values, open
/// objects' extras and the fields of union variants included).
fn type_uses<'a>(fields: &'a [Field], out: &mut Vec<(&'a str, Span)>) {
    for f in fields {
        ty_uses(&f.ty, out);
    }
}

fn ty_uses<'a>(ty: &'a Ty, out: &mut Vec<(&'a str, Span)>) {
    match &ty.kind {
        TyKind::Named(n) => out.push((&n.value, ty.span)),
        _ => ty.each_child(&mut |c| ty_uses(c, out)),
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

    /// Named types used in a union variant and as map values.
    const NESTED: &str = r#"catalog "shop" version="1.0.0"
type "Order" {
    field "order_reference" "string" max-length=20
}
tool "order_find" version="1.0.0" {
    effect "read"
    input {
        field "by" "union" discriminator="kind" {
            variant "one" { field "order" "Order" }
            variant "many" { field "orders" "array" max-items=3 { items "Order" } }
        }
    }
    output { field "by_region" "map" max-entries=4 { values "Order" } }
}
"#;

    #[test]
    fn finds_types_inside_union_variants_and_map_values() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("shop.kdl");
        let snap = Snapshot::build(dir.path(), &path, &|_| Some(NESTED.to_string()));
        let file = snap.file_id(&path).unwrap_or_default();
        let order = Target::Type(file, "Order".into());
        let lines: Vec<usize> = snap
            .occurrences_of(&order)
            .map(|o| NESTED[..o.span.start].lines().count())
            .collect();
        // The declaration, the two variant uses and the map values.
        assert_eq!(lines, [2, 9, 10, 13], "{:?}", snap.diagnostics);
        let values = NESTED.find("values \"Order\"").unwrap_or(0) + "values ".len() + 1;
        assert_eq!(
            snap.occurrence_at(file, values).map(|o| o.target.clone()),
            Some(order)
        );
        // Hover, definition and rename from inside the map values go through these uses.
        let Some(view) = crate::lsp::features::View::new(&snap, &path) else {
            panic!("no view of {}", path.display());
        };
        assert!(crate::lsp::features::hover(&view, values).is_some());
        let def = crate::lsp::features::definition(&view, values);
        assert_eq!(def.map(|l| l.range.start.line), Some(1));
        let edit = crate::lsp::features::rename(&view, values, "Purchase")
            .unwrap_or_else(|e| panic!("{e}"));
        let edits: usize = edit.changes.iter().flatten().map(|(_, e)| e.len()).sum();
        assert_eq!(edits, 4);
    }

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

    /// What the cache reuses, and that an analysis through it finds what one from nothing
    /// finds, whichever file changed.
    #[test]
    fn the_cache_reuses_only_files_that_did_not_change() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (a, b) = (dir.path().join("a.kdl"), dir.path().join("b.kdl"));
        let write = |text: &str| std::fs::write(&b, text).unwrap_or_else(|e| panic!("{e}"));
        let other = TEXT.replace("\"shop\"", "\"other\"");
        write(&other.replace("order_", "invoice_"));
        // On disk too, as an open file usually is; the editor's text wins.
        std::fs::write(&a, "").unwrap_or_else(|e| panic!("{e}"));
        let mut cache = Cache::default();
        let check = |cache: &mut Cache, a_text: &str, lowerings: usize, reads: usize| {
            let overlay = |p: &Path| (p == a).then(|| a_text.to_string());
            let snap = Snapshot::build_cached(dir.path(), &a, &overlay, cache);
            let fresh = Snapshot::build(dir.path(), &a, &overlay);
            assert_eq!(snap.diagnostics, fresh.diagnostics);
            assert_eq!(snap.loaded.project, fresh.loaded.project);
            assert_eq!((cache.lowerings, cache.reads), (lowerings, reads));
            snap
        };
        check(&mut cache, TEXT, 2, 1);
        // A text seen a second time is kept; the third analysis lowers nothing.
        check(&mut cache, TEXT, 4, 1);
        check(&mut cache, TEXT, 4, 1);
        // The edited buffer alone is lowered again.
        let edited = TEXT.replace("max-length=20", "max-length=21");
        check(&mut cache, &edited, 5, 1);
        // A file rewritten on disk (another size) is read and lowered again.
        write(&other);
        let snap = check(&mut cache, &edited, 7, 2);
        // Both catalogs now declare `order_get`: the later file's is the duplicate.
        assert!(
            snap.diagnostics
                .iter()
                .any(|d| d.rule == "naming/duplicate" && snap.loaded.sources.get(d.file).path == b)
        );
        // Forgetting the disk text reads the file again; its model is kept by its text.
        cache.forget_disk(None);
        check(&mut cache, &edited, 8, 3);
        // A deleted file leaves the project and the cache.
        std::fs::remove_file(&b).unwrap_or_else(|e| panic!("{e}"));
        let snap = check(&mut cache, &edited, 8, 3);
        assert_eq!(snap.loaded.sources.files.len(), 1);
        assert!(!cache.lowered.contains_key(&b) && !cache.disk.contains_key(&b));
    }
}
