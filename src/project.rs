//! Loading a project: catalog files and folders → sources, the lowered model and every
//! syntax and model diagnostic.
//!
//! What stops a run (a missing folder, an unreadable or non-UTF-8 file, a file over the size
//! cap, a FIFO or device) is a [`LoadError`], printed as one line with exit status 2. What is wrong *inside* a
//! catalog is a [`Diagnostic`], so one run reports all of them.

use crate::FastMap;
use crate::diag::{Diagnostic, FileId, Level, LineIndex, SourceFile, SourceMap};
use crate::model::{Catalog, Project, lower};
use crate::syntax;
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where catalogs are looked for when no PATH is given.
pub const DEFAULT_CATALOG_DIR: &str = "catalogs";

/// The project file name; never loaded as a catalog when found in a folder.
pub const PROJECT_FILE: &str = "catalogc.kdl";

#[derive(Debug, Clone)]
/// How catalog files are read.
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
    /// Every file read (catalogs, and the project file when there is one).
    pub sources: SourceMap,
    /// The lowered catalogs; those that failed to lower are missing or partial, see
    /// `diagnostics`.
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
    /// A PATH that does not exist.
    NotFound(PathBuf),
    /// A folder with no `*.kdl` catalog below it.
    NoCatalogs(PathBuf),
    /// A file that could not be read, with the I/O error.
    Unreadable(PathBuf, std::io::Error),
    /// A file that is not UTF-8 text.
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
    /// A file larger than [`LoadOptions::max_file_bytes`].
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// A FIFO, device, socket or folder where a file is read.
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is instead (`FIFO`, `folder`, …).
        kind: &'static str,
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
                "{}: {size} bytes is over the {limit}-byte limit for one input file",
                path.display()
            ),
            LoadError::NotRegular { path, kind } => write!(
                f,
                "{}: is {kind}, not a regular file; catalogc reads regular files only",
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
            let mut unbounded = usize::MAX;
            walk(p, &root, &mut found, &mut visited, &mut unbounded)?;
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

/// The catalog files below folder `dir` as [`discover`] finds them, reading at most
/// `max_entries` folder entries: the language server's search of the folder of a file it
/// was handed, which may be `/` (and `/proc` below it). What cannot be read is left out.
pub fn discover_bounded(dir: &Path, max_entries: usize) -> Vec<PathBuf> {
    let Ok(root) = std::fs::canonicalize(dir) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut budget = max_entries;
    // An unreadable entry ends the search; what was found before it is kept.
    let _ = walk(dir, &root, &mut found, &mut HashSet::new(), &mut budget);
    found.sort();
    let mut seen = HashSet::new();
    found
        .into_iter()
        .filter(|(_, _, canon)| seen.insert(canon.clone()))
        .map(|(_, path, _)| path)
        .collect()
}

/// Collects `(sort key, path as shown, canonical path)` of every `*.kdl` file below `dir`,
/// reading at most `budget` folder entries. Symlinks are followed only when their target
/// stays inside `root`.
fn walk(
    dir: &Path,
    root: &Path,
    out: &mut Vec<(String, PathBuf, PathBuf)>,
    visited: &mut HashSet<PathBuf>,
    budget: &mut usize,
) -> Result<(), LoadError> {
    let canon_dir = std::fs::canonicalize(dir).map_err(|e| LoadError::Unreadable(dir.into(), e))?;
    if !visited.insert(canon_dir) {
        return Ok(());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| LoadError::Unreadable(dir.into(), e))?;
    for entry in entries {
        if *budget == 0 {
            return Ok(());
        }
        *budget -= 1;
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
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            // Gone since the folder was listed (another run's temporary file): not a catalog.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(LoadError::Unreadable(path.clone(), e)),
        };
        if meta.is_dir() {
            walk(&path, root, out, visited, budget)?;
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

/// Reads one user file as UTF-8 text: the single reader of catalogs, the project file,
/// baselines, lock files and templates. Only regular files are read: a FIFO would block the
/// run forever and a device such as `/dev/zero` never ends. The cap is enforced while
/// reading (at most cap + 1 bytes are read), since metadata can lie (devices, `/proc`) or
/// change (a growing file).
pub fn read_text(path: &Path, opts: &LoadOptions) -> Result<String, LoadError> {
    use std::io::Read;
    let not_found_or = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => LoadError::NotFound(path.into()),
        _ => LoadError::Unreadable(path.into(), e),
    };
    // Checked before opening: opening a FIFO for reading already blocks.
    let meta = std::fs::metadata(path).map_err(not_found_or)?;
    refuse_non_regular(path, &meta)?;
    let file = std::fs::File::open(path).map_err(not_found_or)?;
    // The path may have been replaced between the two calls; the open file is what counts.
    let meta = file
        .metadata()
        .map_err(|e| LoadError::Unreadable(path.into(), e))?;
    refuse_non_regular(path, &meta)?;
    let limit = opts.max_file_bytes;
    let too_large = |size| LoadError::TooLarge {
        path: path.into(),
        size,
        limit,
    };
    if meta.len() > limit {
        return Err(too_large(meta.len()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| LoadError::Unreadable(path.into(), e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| LoadError::NotUtf8 {
        path: path.into(),
        offset: e.utf8_error().valid_up_to(),
    })
}

fn refuse_non_regular(path: &Path, meta: &std::fs::Metadata) -> Result<(), LoadError> {
    if meta.is_file() {
        return Ok(());
    }
    let ft = meta.file_type();
    let kind = if ft.is_dir() {
        "a folder"
    } else {
        special_file_kind(&ft)
    };
    Err(LoadError::NotRegular {
        path: path.into(),
        kind,
    })
}

#[cfg(unix)]
fn special_file_kind(ft: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_char_device() {
        "a character device"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_file_kind(_: &std::fs::FileType) -> &'static str {
    "a special file"
}

/// Loads one in-memory catalog (tests, editors, build scripts).
pub fn load_source(path: impl Into<PathBuf>, text: impl Into<String>) -> Loaded {
    load_sources([(path.into(), text.into())])
}

/// Parses and lowers the given files, then checks what spans catalogs (duplicate tool and
/// catalog names).
///
/// The files are parsed (and their lines indexed) on rayon's threads, and each file's tools
/// and types lowered in runs ([`lower()`]); the results are taken in file order.
pub fn load_sources(files: impl IntoIterator<Item = (PathBuf, String)>) -> Loaded {
    load_sources_with(files, |_, text, id| lower_file(text, id))
}

/// [`load_sources`] for published MCP tools/lists imported in memory (`catalogc lint
/// FILE.json …`): each list is its own server, so a tool name two lists share is no
/// duplicate (catalog names still are, since they name the files' findings).
pub fn load_published_sources(files: impl IntoIterator<Item = (PathBuf, String)>) -> Loaded {
    let mut loaded = lowered_sources(files, |_, text, id| lower_file(text, id));
    complete(&mut loaded, false);
    loaded
}

/// [`load_sources`], each file lowered by `lower` (given its path, text and id), which the
/// language server answers from its cache for the files that did not change.
pub fn load_sources_with(
    files: impl IntoIterator<Item = (PathBuf, String)>,
    lower: impl Fn(&Path, &str, FileId) -> (Option<Catalog>, Vec<Diagnostic>) + Sync,
) -> Loaded {
    let mut loaded = lowered_sources(files, lower);
    finish(&mut loaded);
    loaded
}

/// The files parsed and lowered by `lower`, each on its own, before what spans catalogs is
/// checked.
fn lowered_sources(
    files: impl IntoIterator<Item = (PathBuf, String)>,
    lower: impl Fn(&Path, &str, FileId) -> (Option<Catalog>, Vec<Diagnostic>) + Sync,
) -> Loaded {
    use rayon::prelude::*;
    let files: Vec<(PathBuf, String)> = files.into_iter().collect();
    let lowered = (files.par_iter().enumerate())
        // The ID `assemble` gives the file: its position in the new map.
        .map(|(i, (path, text))| (LineIndex::of(text), lower(path, text, FileId(i))))
        .collect();
    assemble(files, lowered)
}

/// One file lowered: its catalog (when it lowers) and its diagnostics.
type Lowered = (Option<Catalog>, Vec<Diagnostic>);

/// The project of `files`, given each one's line index and lowering, in file order.
fn assemble(files: Vec<(PathBuf, String)>, lowered: Vec<(LineIndex, Lowered)>) -> Loaded {
    let mut loaded = Loaded::default();
    for ((path, text), (index, (catalog, diagnostics))) in files.into_iter().zip(lowered) {
        loaded.sources.add(SourceFile::indexed(path, text, index));
        loaded.diagnostics.extend(diagnostics);
        if let Some(c) = catalog {
            loaded.project.catalogs.push(c);
        }
    }
    loaded
}

/// One file parsed and lowered on its own: its catalog (when it lowers) and its syntax and
/// model diagnostics, in source order. What depends on the other files is [`finish`]'s.
pub fn lower_file(text: &str, id: FileId) -> (Option<Catalog>, Vec<Diagnostic>) {
    let parsed = syntax::parse(text);
    let lowered = lower(&parsed.document, id);
    with_syntax_errors(&parsed.document, id, parsed.errors, lowered)
}

/// A file's lowering with its syntax errors, all in source order; each syntax error names
/// the tool (and catalog) it is in.
fn with_syntax_errors(
    doc: &syntax::Document,
    id: FileId,
    errors: Vec<syntax::SyntaxError>,
    (catalog, mut model_diags): Lowered,
) -> Lowered {
    let mut file_diags = syntax_diagnostics(errors, id);
    for d in &mut file_diags {
        d.tool = enclosing_tool(doc, d.span.start);
    }
    // A value the parser already flagged (a bare `true`, say) is not reported again.
    model_diags.retain(|m| {
        !file_diags.iter().any(|s| {
            s.span.start < s.span.end && s.span.start <= m.span.start && m.span.end <= s.span.end
        })
    });
    if let Some(c) = &catalog {
        let name: std::sync::Arc<str> = c.name.value.as_str().into();
        for d in &mut file_diags {
            d.catalog = Some(name.clone());
        }
    }
    file_diags.extend(model_diags);
    file_diags.sort_by_key(|d| (d.span.start, d.span.end));
    (catalog, file_diags)
}

/// Completes a project whose files went through [`lower_file`] in `sources` order: checks
/// what spans catalogs (duplicate names, oversized schemas) and sorts the diagnostics.
pub fn finish(loaded: &mut Loaded) {
    complete(loaded, true);
}

/// [`finish`]; `tools_global`: tool names must be unique across the catalogs.
fn complete(loaded: &mut Loaded, tools_global: bool) {
    cross_catalog_duplicates(loaded, tools_global);
    oversized_schemas(loaded);
    sort_diagnostics(&mut loaded.diagnostics);
}

/// Leaves out, with an error, every tool whose schema would be too large or too deep once
/// named types are inlined, before anything (lint, hashes, export, compat) builds it.
fn oversized_schemas(loaded: &mut Loaded) {
    for c in &mut loaded.project.catalogs {
        let sizes = crate::model::inline::Sizes::of(c);
        let mut oversized = Vec::new();
        for t in &c.tools {
            let e = sizes.check(t);
            oversized.push(e.is_some());
            if let Some(e) = e {
                let mut d = Diagnostic::new(e.rule, Level::Error, c.file, e.span, e.message)
                    .with_help(e.help);
                d.catalog = Some(c.name.value.as_str().into());
                d.tool = Some(t.name.value.as_str().into());
                loaded.diagnostics.push(d);
            }
        }
        if oversized.contains(&true) {
            // Moved, not dropped: the types they use are still used (`catalog/unused-type`).
            let (left_out, kept) = std::mem::take(&mut c.tools)
                .into_iter()
                .zip(oversized)
                .partition::<Vec<_>, _>(|(_, over)| *over);
            c.tools = kept.into_iter().map(|(t, _)| t).collect();
            c.left_out = left_out.into_iter().map(|(t, _)| t).collect();
        }
    }
}

/// The syntax errors of one file as diagnostics (errors, with the parser's help).
pub fn syntax_diagnostics(errors: Vec<syntax::SyntaxError>, file: FileId) -> Vec<Diagnostic> {
    errors
        .into_iter()
        .map(|e| {
            let mut d = Diagnostic::new(e.code, Level::Error, file, e.span, e.message);
            d.help = e.help.map(Into::into);
            d
        })
        .collect()
}

/// The name of the top-level `tool` node around a byte offset, for syntax errors inside it.
fn enclosing_tool(doc: &syntax::Document, offset: usize) -> Option<std::sync::Arc<str>> {
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
            syntax::Value::String(s) => Some(std::sync::Arc::from(s)),
            _ => None,
        })
}

/// Tool names are global to the MCP server that serves every catalog, and catalog names
/// name generated modules: both must be unique across files. The later one is dropped.
/// Without `tools_global` (published lists, each its own server) only catalog names are.
fn cross_catalog_duplicates(loaded: &mut Loaded, tools_global: bool) {
    let mut catalogs: FastMap<String, FileId> = FastMap::default();
    let mut tools: FastMap<String, (String, FileId)> = FastMap::default();
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
            d.catalog = Some(c.name.value.as_str().into());
            loaded.diagnostics.push(d);
            continue;
        }
        catalogs.insert(c.name.value.clone(), c.file);
        keep_catalog.push(c);
    }
    if !tools_global {
        loaded.project.catalogs = keep_catalog;
        return;
    }
    for c in &mut keep_catalog {
        // Filtered in place: a second list of a catalog's tools doubled the model at the end
        // of every load.
        let (name, cat_file) = (c.name.value.clone(), c.file);
        c.tools.retain(|t| {
            if let Some((other, file)) = tools.get(&t.name.value) {
                let mut d = Diagnostic::new(
                    "naming/duplicate",
                    Level::Error,
                    cat_file,
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
                d.catalog = Some(name.as_str().into());
                d.tool = Some(t.name.value.as_str().into());
                loaded.diagnostics.push(d);
                return false;
            }
            tools.insert(t.name.value.clone(), (name.clone(), cat_file));
            true
        });
    }
    loaded.project.catalogs = keep_catalog;
}

/// Sorts diagnostics into the order every renderer uses: file, position, rule, message.
pub fn sort_diagnostics(diags: &mut [Diagnostic]) {
    crate::diag::sort_stable_by(diags, |a, b| {
        (a.file, a.span.start, a.span.end, &a.rule, &a.message).cmp(&(
            b.file,
            b.span.start,
            b.span.end,
            &b.rule,
            &b.message,
        ))
    });
}
