//! Loading a project: catalog files and folders → sources, the lowered model and every
//! syntax and model diagnostic.
//!
//! What stops a run (a missing folder, an unreadable or non-UTF-8 file, a file over the size
//! cap) is a [`LoadError`], printed as one line with exit status 2. What is wrong *inside* a
//! catalog is a [`Diagnostic`], so one run reports all of them.

use crate::diag::{Diagnostic, FileId, Level, SourceFile, SourceMap};
use crate::model::{Project, lower};
use crate::syntax;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// Where catalogs are looked for when no PATH is given.
pub const DEFAULT_CATALOG_DIR: &str = "catalogs";

/// The project file name; never loaded as a catalog when found in a folder.
pub const PROJECT_FILE: &str = "catalogc.kdl";

#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Files larger than this are refused.
    pub max_file_bytes: u64,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            max_file_bytes: 8 * 1024 * 1024,
        }
    }
}

/// Everything one run works on.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    pub sources: SourceMap,
    pub project: Project,
    /// Syntax and model diagnostics, in file order then source order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    /// Number of tools across every catalog.
    pub fn tool_count(&self) -> usize {
        self.project.catalogs.iter().map(|c| c.tools.len()).sum()
    }
}

/// Why a project could not be loaded. `Display` is one line.
#[derive(Debug)]
pub enum LoadError {
    NotFound(PathBuf),
    NoCatalogs(PathBuf),
    Unreadable(PathBuf, std::io::Error),
    NotUtf8 {
        path: PathBuf,
        offset: usize,
    },
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotFound(p) => write!(f, "{}: no such file or folder", p.display()),
            LoadError::NoCatalogs(p) => {
                write!(
                    f,
                    "{}: no catalogs (*.kdl files) in this folder",
                    p.display()
                )
            }
            LoadError::Unreadable(p, e) => write!(f, "{}: cannot read: {e}", p.display()),
            LoadError::NotUtf8 { path, offset } => write!(
                f,
                "{}: not UTF-8 text (invalid byte at offset {offset}); catalogs must be UTF-8",
                path.display()
            ),
            LoadError::TooLarge { path, size, limit } => write!(
                f,
                "{}: {size} bytes is over the {limit}-byte limit for one catalog file",
                path.display()
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// Loads every catalog named by `paths` (files, or folders searched for `*.kdl`); with no
/// path, the `catalogs/` folder.
pub fn load(paths: &[PathBuf], opts: &LoadOptions) -> Result<Loaded, LoadError> {
    let default = [PathBuf::from(DEFAULT_CATALOG_DIR)];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    let files = discover(paths)?;
    let mut texts = Vec::with_capacity(files.len());
    for path in files {
        let text = read_text(&path, opts)?;
        texts.push((path, text));
    }
    Ok(load_sources(texts))
}

/// The catalog files named by `paths`, in a deterministic order: each path in the order
/// given, files of a folder sorted by path. A file reached twice (through a symlink, or
/// named twice) is kept once.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LoadError> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => LoadError::NotFound(p.clone()),
            _ => LoadError::Unreadable(p.clone(), e),
        })?;
        if meta.is_dir() {
            let root = std::fs::canonicalize(p).map_err(|e| LoadError::Unreadable(p.clone(), e))?;
            let mut found = Vec::new();
            let mut visited = HashSet::new();
            walk(p, &root, &mut found, &mut visited)?;
            found.sort();
            if found.is_empty() {
                return Err(LoadError::NoCatalogs(p.clone()));
            }
            for (_, path, canon) in found {
                if seen.insert(canon) {
                    out.push(path);
                }
            }
        } else {
            let canon = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
            if seen.insert(canon) {
                out.push(p.clone());
            }
        }
    }
    Ok(out)
}

/// Collects `(sort key, path as shown, canonical path)` of every `*.kdl` file below `dir`.
/// Symlinks are followed only when their target stays inside `root`.
fn walk(
    dir: &Path,
    root: &Path,
    out: &mut Vec<(String, PathBuf, PathBuf)>,
    visited: &mut HashSet<PathBuf>,
) -> Result<(), LoadError> {
    let canon_dir = std::fs::canonicalize(dir).map_err(|e| LoadError::Unreadable(dir.into(), e))?;
    if !visited.insert(canon_dir) {
        return Ok(());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| LoadError::Unreadable(dir.into(), e))?;
    for entry in entries {
        let entry = entry.map_err(|e| LoadError::Unreadable(dir.into(), e))?;
        let path = entry.path();
        let ft = entry
            .file_type()
            .map_err(|e| LoadError::Unreadable(path.clone(), e))?;
        let canon = if ft.is_symlink() {
            match std::fs::canonicalize(&path) {
                // Links that leave the folder (or dangle) are not part of the project.
                Ok(c) if c.starts_with(root) => c,
                _ => continue,
            }
        } else {
            path.clone()
        };
        let meta = std::fs::metadata(&path).map_err(|e| LoadError::Unreadable(path.clone(), e))?;
        if meta.is_dir() {
            walk(&path, root, out, visited)?;
        } else if meta.is_file()
            && path.extension().is_some_and(|e| e == "kdl")
            && path.file_name().is_some_and(|n| n != PROJECT_FILE)
        {
            let canon = if ft.is_symlink() {
                canon
            } else {
                std::fs::canonicalize(&path).unwrap_or(canon)
            };
            let key = path.to_string_lossy().into_owned();
            out.push((key, path, canon));
        }
    }
    Ok(())
}

/// Reads one file as UTF-8 text, refusing files over the size cap.
pub fn read_text(path: &Path, opts: &LoadOptions) -> Result<String, LoadError> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => LoadError::NotFound(path.into()),
        _ => LoadError::Unreadable(path.into(), e),
    })?;
    if meta.len() > opts.max_file_bytes {
        return Err(LoadError::TooLarge {
            path: path.into(),
            size: meta.len(),
            limit: opts.max_file_bytes,
        });
    }
    let bytes = std::fs::read(path).map_err(|e| LoadError::Unreadable(path.into(), e))?;
    // The file may have grown since the metadata call.
    if bytes.len() as u64 > opts.max_file_bytes {
        return Err(LoadError::TooLarge {
            path: path.into(),
            size: bytes.len() as u64,
            limit: opts.max_file_bytes,
        });
    }
    String::from_utf8(bytes).map_err(|e| LoadError::NotUtf8 {
        path: path.into(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Loads one in-memory catalog (tests, editors, build scripts).
pub fn load_source(path: impl Into<PathBuf>, text: impl Into<String>) -> Loaded {
    load_sources([(path.into(), text.into())])
}

/// Parses and lowers the given files, then checks what spans catalogs (duplicate tool and
/// catalog names).
pub fn load_sources(files: impl IntoIterator<Item = (PathBuf, String)>) -> Loaded {
    let mut loaded = Loaded::default();
    for (path, text) in files {
        let id = loaded.sources.add(SourceFile::new(path, text));
        let parsed = syntax::parse(&loaded.sources.get(id).text);
        let mut file_diags = syntax_diagnostics(parsed.errors, id);
        for d in &mut file_diags {
            d.tool = enclosing_tool(&parsed.document, d.span.start);
        }
        let (catalog, mut model_diags) = lower(&parsed.document, id);
        // A value the parser already flagged (a bare `true`, say) is not reported again.
        model_diags.retain(|m| {
            !file_diags.iter().any(|s| {
                s.span.start < s.span.end
                    && s.span.start <= m.span.start
                    && m.span.end <= s.span.end
            })
        });
        if let Some(c) = &catalog {
            for d in &mut file_diags {
                d.catalog = Some(c.name.value.clone());
            }
        }
        file_diags.extend(model_diags);
        file_diags.sort_by_key(|d| (d.span.start, d.span.end));
        loaded.diagnostics.extend(file_diags);
        if let Some(c) = catalog {
            loaded.project.catalogs.push(c);
        }
    }
    cross_catalog_duplicates(&mut loaded);
    sort_diagnostics(&mut loaded.diagnostics);
    loaded
}

/// The syntax errors of one file as diagnostics (errors, with the parser's help).
pub fn syntax_diagnostics(errors: Vec<syntax::SyntaxError>, file: FileId) -> Vec<Diagnostic> {
    errors
        .into_iter()
        .map(|e| {
            let mut d = Diagnostic::new(e.code, Level::Error, file, e.span, e.message);
            d.help = e.help;
            d
        })
        .collect()
}

/// The name of the top-level `tool` node around a byte offset, for syntax errors inside it.
fn enclosing_tool(doc: &syntax::Document, offset: usize) -> Option<String> {
    let node = doc.nodes().find(|n| {
        n.name.value == "tool"
            && n.span.start <= offset
            && offset
                < n.children()
                    .map_or(n.span.end, |c| c.span.end.max(n.span.end))
    })?;
    node.entries()
        .find(|e| e.name.is_none())
        .and_then(|e| match e.value.value {
            syntax::Value::String(s) => Some(s.to_string()),
            _ => None,
        })
}

/// Tool names are global to the MCP server that serves every catalog, and catalog names
/// name generated modules: both must be unique across files. The later one is dropped.
fn cross_catalog_duplicates(loaded: &mut Loaded) {
    let mut catalogs: HashMap<String, FileId> = HashMap::new();
    let mut tools: HashMap<String, (String, FileId)> = HashMap::new();
    let mut keep_catalog = Vec::with_capacity(loaded.project.catalogs.len());
    for c in std::mem::take(&mut loaded.project.catalogs) {
        if let Some(first) = catalogs.get(&c.name.value) {
            let mut d = Diagnostic::new(
                "naming/duplicate",
                Level::Error,
                c.file,
                c.name.span,
                format!(
                    "catalog `{}` is also declared in {}",
                    c.name.value,
                    loaded.sources.get(*first).path.display()
                ),
            )
            .with_help("give each catalog its own name; this catalog is ignored");
            d.catalog = Some(c.name.value.clone());
            loaded.diagnostics.push(d);
            continue;
        }
        catalogs.insert(c.name.value.clone(), c.file);
        keep_catalog.push(c);
    }
    for c in &mut keep_catalog {
        let mut kept = Vec::with_capacity(c.tools.len());
        for t in std::mem::take(&mut c.tools) {
            if let Some((other, file)) = tools.get(&t.name.value) {
                let mut d = Diagnostic::new(
                    "naming/duplicate",
                    Level::Error,
                    c.file,
                    t.name.span,
                    format!(
                        "tool `{}` is also declared in catalog `{other}` ({})",
                        t.name.value,
                        loaded.sources.get(*file).path.display()
                    ),
                )
                .with_help(
                    "tool names must be unique across every catalog served together; rename one",
                );
                d.catalog = Some(c.name.value.clone());
                d.tool = Some(t.name.value.clone());
                loaded.diagnostics.push(d);
                continue;
            }
            tools.insert(t.name.value.clone(), (c.name.value.clone(), c.file));
            kept.push(t);
        }
        c.tools = kept;
    }
    loaded.project.catalogs = keep_catalog;
}

/// Sorts diagnostics into the order every renderer uses: file, position, rule, message.
pub fn sort_diagnostics(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (a.file, a.span.start, a.span.end, &a.rule, &a.message).cmp(&(
            b.file,
            b.span.start,
            b.span.end,
            &b.rule,
            &b.message,
        ))
    });
}
