//! The lock file (`catalogc lock`): `NAME.lock` beside each catalog, in KDL, with each tool's
//! version and its four published hashes (from [`crate::contract::Artifacts`], the same as
//! `catalogc hash`).
//!
//! `lock --check` fails (exit 1) when the catalog no longer matches its lock: above all when
//! a tool's hash changed and its version did not (a contract edited without a bump), and
//! also when the lock is missing or stale (tools added or removed, versions bumped but the
//! lock not rewritten), so a committed lock always describes the committed catalog. The lock
//! pins published bytes: reordering fields changes the schemas clients receive, so it makes
//! the lock stale too, although `breaking` (which compares meaning) reports no change.

use crate::contract::{CatalogContracts, ToolHashes};
use crate::diag::FileId;
use crate::model::Catalog;
use crate::model::read::Reader;
use crate::syntax::{self, Document, Entry, Node, Number, Value, quote};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Format version written as `lock version=1`.
pub const LOCK_FORMAT: i64 = 1;

#[derive(Debug, Clone, PartialEq)]
/// The contents of one `NAME.lock`: the catalog's version and each tool's hashes.
pub struct Lock {
    /// The catalog's name.
    pub catalog: String,
    /// The catalog's version label, as written.
    pub version: String,
    /// Sorted by name, so reordering tools does not touch the lock.
    pub tools: Vec<LockedTool>,
}

#[derive(Debug, Clone, PartialEq)]
/// One tool's line in a lock.
pub struct LockedTool {
    /// The tool's name.
    pub name: String,
    /// The tool's version label, as written.
    pub version: String,
    /// The tool's four published hashes.
    pub hashes: ToolHashes,
}

impl Lock {
    /// The lock that describes `cat` as it is; `contracts` are its tools' contracts.
    pub fn of(cat: &Catalog, contracts: &CatalogContracts) -> Lock {
        let mut tools: Vec<LockedTool> = cat
            .tools
            .iter()
            .zip(&contracts.tools)
            .map(|(t, c)| LockedTool {
                name: t.name.value.clone(),
                version: t.version.value.clone(),
                hashes: c.hashes().clone(),
            })
            .collect();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        Lock {
            catalog: cat.name.value.clone(),
            version: cat.version.value.clone(),
            tools,
        }
    }

    /// The locked tool of that name.
    pub fn tool(&self, name: &str) -> Option<&LockedTool> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// The lock file's text (KDL, with a header comment); [`Lock::parse`] reads it back.
    pub fn render(&self) -> String {
        const HEADER: &str =
            "// Written by `catalogc lock`; `catalogc lock --check` verifies it. Commit it.\n";
        // Sized for the text (quotes and escapes aside): grown by doubling, the text of a
        // large catalog's lock held up to twice its length.
        let per_tool = |t: &LockedTool| {
            let h = &t.hashes;
            let hashes = h.input.len() + h.output.len() + h.description.len() + h.contract.len();
            t.name.len() + t.version.len() + hashes + 100
        };
        let text = self.catalog.len() + self.version.len() + 100;
        let mut s = String::with_capacity(
            HEADER.len() + text + self.tools.iter().map(per_tool).sum::<usize>(),
        );
        s.push_str(HEADER);
        let _ = writeln!(s, "lock version={LOCK_FORMAT}");
        let _ = writeln!(
            s,
            "catalog {} version={}",
            quote(&self.catalog),
            quote(&self.version)
        );
        for t in &self.tools {
            let _ = writeln!(
                s,
                "tool {} version={} {{",
                quote(&t.name),
                quote(&t.version)
            );
            for (k, v) in [
                ("input", &t.hashes.input),
                ("output", &t.hashes.output),
                ("description", &t.hashes.description),
                ("contract", &t.hashes.contract),
            ] {
                let _ = writeln!(s, "    {k} {}", quote(v));
            }
            s.push_str("}\n");
        }
        s
    }

    /// Reads a lock file; the error is one line (the first problem found).
    pub fn parse(text: &str) -> Result<Lock, String> {
        let parsed = syntax::parse(text);
        if let Some(e) = parsed.errors.first() {
            return Err(format!(
                "not valid KDL at byte {}: {}",
                e.span.start, e.message
            ));
        }
        let mut r = Reader::new(FileId(0), "lock");
        let lock = read(&mut r, &parsed.document);
        match r.diags.into_iter().next() {
            Some(d) => Err(d.message),
            None => Ok(lock),
        }
    }
}

/// Reads the nodes of a lock file, reporting each problem under `lock/…`.
fn read(r: &mut Reader, doc: &Document) -> Lock {
    let mut lock = Lock {
        catalog: String::new(),
        version: String::new(),
        tools: Vec::new(),
    };
    let mut seen_catalog = false;
    // Names locked so far: a linear `Lock::tool` per entry made reading a lock of 20,000
    // tools quadratic (seconds).
    let mut locked = crate::FastSet::default();
    for node in doc.nodes() {
        let node = &node;
        match node.name.value {
            "lock" => match prop(node, "version") {
                Some(e) if e.value.value == Value::Number(&Number::Int(i128::from(LOCK_FORMAT))) => {}
                found => r.fail(
                    "unsupported-format",
                    found.map_or(node.name.span, |e| e.value.span),
                    format!(
                        "unsupported lock format (this catalogc writes `lock version={LOCK_FORMAT}`)"
                    ),
                    None,
                ),
            },
            "catalog" => {
                lock.catalog = arg_str(r, node).unwrap_or_default();
                lock.version = prop_str(r, node, "version").unwrap_or_default();
                seen_catalog = true;
            }
            "tool" => {
                let Some(name) = arg_str(r, node) else {
                    continue;
                };
                if !locked.insert(name.clone()) {
                    r.fail(
                        "duplicate-tool",
                        node.name.span,
                        format!(
                            "tool `{name}` is locked twice: keep one entry, or run `catalogc lock`"
                        ),
                        None,
                    );
                    continue;
                }
                let version = prop_str(r, node, "version");
                let mut hash = |key: &str| match node.child_nodes().find(|n| n.name.value == key) {
                    Some(child) => arg_str(r, &child),
                    None => {
                        r.fail(
                            "missing-hash",
                            node.name.span,
                            format!("tool `{name}` has no `{key}` hash"),
                            None,
                        );
                        None
                    }
                };
                let hashes = (hash("input"), hash("output"), hash("description"), hash("contract"));
                if let (Some(version), (Some(input), Some(output), Some(description), Some(contract))) =
                    (version, hashes)
                {
                    lock.tools.push(LockedTool {
                        name,
                        version,
                        hashes: ToolHashes {
                            input,
                            output,
                            description,
                            contract,
                        },
                    });
                }
            }
            other => r.fail(
                "unexpected-node",
                node.name.span,
                format!("unexpected node `{other}`"),
                None,
            ),
        }
    }
    if !seen_catalog {
        r.fail(
            "missing-catalog",
            Default::default(),
            "no `catalog` node",
            None,
        );
    }
    lock.tools.sort_by(|a, b| a.name.cmp(&b.name));
    lock
}

/// The last property `key` of `node` (KDL: a later property overrides an earlier one).
fn prop<'a>(node: &Node<'a>, key: &str) -> Option<Entry<'a>> {
    node.entries()
        .rev()
        .find(|e| e.name.is_some_and(|n| n.value == key))
}

fn prop_str(r: &mut Reader, node: &Node, key: &str) -> Option<String> {
    match prop(node, key).map(|e| e.value.value) {
        Some(Value::String(s)) => Some(s.to_string()),
        _ => {
            r.fail(
                "wrong-value",
                node.name.span,
                format!("`{}` needs a string `{key}=`", node.name.value),
                None,
            );
            None
        }
    }
}

fn arg_str(r: &mut Reader, node: &Node) -> Option<String> {
    match node
        .entries()
        .find(|e| e.name.is_none())
        .map(|e| e.value.value)
    {
        Some(Value::String(s)) => Some(s.to_string()),
        _ => {
            r.fail(
                "wrong-value",
                node.name.span,
                format!("`{}` needs a string argument", node.name.value),
                None,
            );
            None
        }
    }
}

/// `NAME.lock` beside the catalog file; the file's stem when the catalog name is not a
/// plain file name.
pub fn lock_path(cat: &Catalog, file: &Path) -> PathBuf {
    let name = &cat.name.value;
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    let stem = if plain {
        name.clone()
    } else {
        file.file_stem()
            .map_or("catalog".to_string(), |s| s.to_string_lossy().into_owned())
    };
    file.with_file_name(format!("{stem}.lock"))
}

/// Why a catalog does not match its lock.
#[derive(Debug, Clone, PartialEq)]
pub enum Mismatch {
    /// The point of the lock: the contract changed, the version did not.
    HashChangedVersionSame {
        /// The tool's name.
        tool: String,
        /// Its version, the same in the lock and the catalog.
        version: String,
        /// Which of `input`, `output`, `description`, `contract` differ.
        hashes: Vec<&'static str>,
    },
    /// A tool in the catalog that the lock does not list.
    ToolAdded(String),
    /// A tool the lock lists that the catalog no longer has.
    ToolRemoved(String),
    /// A version was bumped (with or without a hash change) and the lock not rewritten.
    VersionChanged {
        /// `None` for the catalog's own version.
        tool: Option<String>,
        /// The version in the lock.
        locked: String,
        /// The version in the catalog.
        current: String,
    },
    /// The catalog's name differs from the one locked.
    CatalogRenamed {
        /// The name in the lock.
        locked: String,
        /// The name in the catalog.
        current: String,
    },
}

impl Mismatch {
    /// True for the mismatches that mean an unbumped contract change, not just a stale lock.
    pub fn is_unbumped_change(&self) -> bool {
        matches!(self, Mismatch::HashChangedVersionSame { .. })
    }

    /// One line for `lock --check`, saying what to run to fix it.
    pub fn message(&self) -> String {
        match self {
            Mismatch::HashChangedVersionSame {
                tool,
                version,
                hashes,
            } => format!(
                "tool `{tool}`: the {} hash changed but the version is still {version}: bump the version (see `catalogc breaking`), then run `catalogc lock`",
                hashes.join(", ")
            ),
            Mismatch::ToolAdded(t) => format!("tool `{t}` is not in the lock: run `catalogc lock`"),
            Mismatch::ToolRemoved(t) => format!(
                "tool `{t}` is in the lock but no longer in the catalog: run `catalogc lock`"
            ),
            Mismatch::VersionChanged {
                tool,
                locked,
                current,
            } => format!(
                "{}: version {current} but the lock says {locked}: run `catalogc lock`",
                tool.as_ref()
                    .map_or("catalog".to_string(), |t| format!("tool `{t}`"))
            ),
            Mismatch::CatalogRenamed { locked, current } => {
                format!("the lock is for catalog `{locked}`, not `{current}`: run `catalogc lock`")
            }
        }
    }
}

/// Compares the lock a catalog would have now with the committed one.
pub fn check(current: &Lock, locked: &Lock) -> Vec<Mismatch> {
    let mut out = Vec::new();
    if current.catalog != locked.catalog {
        out.push(Mismatch::CatalogRenamed {
            locked: locked.catalog.clone(),
            current: current.catalog.clone(),
        });
    }
    if current.version != locked.version {
        out.push(Mismatch::VersionChanged {
            tool: None,
            locked: locked.version.clone(),
            current: current.version.clone(),
        });
    }
    // By name, once: a linear lookup per tool made `lock --check` quadratic.
    fn index(lock: &Lock) -> crate::FastMap<&str, &LockedTool> {
        lock.tools.iter().map(|t| (t.name.as_str(), t)).collect()
    }
    let (by_locked, by_current) = (index(locked), index(current));
    for t in &current.tools {
        let Some(&l) = by_locked.get(t.name.as_str()) else {
            out.push(Mismatch::ToolAdded(t.name.clone()));
            continue;
        };
        let differing: Vec<&'static str> = [
            ("input", t.hashes.input != l.hashes.input),
            ("output", t.hashes.output != l.hashes.output),
            ("description", t.hashes.description != l.hashes.description),
            ("contract", t.hashes.contract != l.hashes.contract),
        ]
        .into_iter()
        .filter_map(|(k, d)| d.then_some(k))
        .collect();
        if t.version != l.version {
            out.push(Mismatch::VersionChanged {
                tool: Some(t.name.clone()),
                locked: l.version.clone(),
                current: t.version.clone(),
            });
        } else if !differing.is_empty() {
            out.push(Mismatch::HashChangedVersionSame {
                tool: t.name.clone(),
                version: t.version.clone(),
                hashes: differing,
            });
        }
    }
    for l in &locked.tools {
        if !by_current.contains_key(l.name.as_str()) {
            out.push(Mismatch::ToolRemoved(l.name.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOOL_A: &str = "tool \"a_b\" version=\"1.0.0\" {\n    input \"i\"\n    output \"o\"\n    description \"d\"\n    contract \"c\"\n}\n";

    #[test]
    fn reads_what_it_writes() {
        let text = format!("lock version=1\ncatalog \"c\" version=\"1.0.0\"\n{TOOL_A}");
        let lock = Lock::parse(&text).map_err(|e| e.to_string());
        let Ok(lock) = lock else { panic!("{lock:?}") };
        assert_eq!(lock.tools.len(), 1);
        assert_eq!(Lock::parse(&lock.render()), Ok(lock));
    }

    #[test]
    fn a_tool_locked_twice_is_refused() {
        // Accepting the second entry would make `check` compare against whichever one
        // sorting left first.
        let text = format!("lock version=1\ncatalog \"c\" version=\"1.0.0\"\n{TOOL_A}{TOOL_A}");
        let err = Lock::parse(&text).err().unwrap_or_default();
        assert!(err.contains("tool `a_b` is locked twice"), "{err}");
    }
}
