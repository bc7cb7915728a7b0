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
use crate::model::Catalog;
use crate::syntax::{self, Node, Value, quote};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Format version written as `lock version=1`.
pub const LOCK_FORMAT: i64 = 1;

#[derive(Debug, Clone, PartialEq)]
pub struct Lock {
    pub catalog: String,
    pub version: String,
    /// Sorted by name, so reordering tools does not touch the lock.
    pub tools: Vec<LockedTool>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LockedTool {
    pub name: String,
    pub version: String,
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
                hashes: c.hashes.clone(),
            })
            .collect();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        Lock {
            catalog: cat.name.value.clone(),
            version: cat.version.value.clone(),
            tools,
        }
    }

    pub fn tool(&self, name: &str) -> Option<&LockedTool> {
        self.tools.iter().find(|t| t.name == name)
    }

    pub fn render(&self) -> String {
        let mut s = String::from(
            "// Written by `catalogc lock`; `catalogc lock --check` verifies it. Commit it.\n",
        );
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

    /// Reads a lock file; the error is one line.
    pub fn parse(text: &str) -> Result<Lock, String> {
        let parsed = syntax::parse(text);
        if let Some(e) = parsed.errors.first() {
            return Err(format!(
                "not valid KDL at byte {}: {}",
                e.span.start, e.message
            ));
        }
        let mut lock = Lock {
            catalog: String::new(),
            version: String::new(),
            tools: Vec::new(),
        };
        let mut seen_catalog = false;
        for node in parsed.document.nodes() {
            let node = &node;
            match node.name.value {
                "lock" => match prop(node, "version") {
                    Some(Value::Number(syntax::Number::Int(v)))
                        if *v == i128::from(LOCK_FORMAT) => {}
                    _ => {
                        return Err(format!(
                            "unsupported lock format (this catalogc writes `lock version={LOCK_FORMAT}`)"
                        ));
                    }
                },
                "catalog" => {
                    lock.catalog = arg_str(node)?;
                    lock.version = prop_str(node, "version")?;
                    seen_catalog = true;
                }
                "tool" => {
                    let get = |key: &str| -> Result<String, String> {
                        let child = node
                            .child_nodes()
                            .find(|n| n.name.value == key)
                            .ok_or_else(|| {
                                format!(
                                    "tool `{}` has no `{key}` hash",
                                    arg_str(node).unwrap_or_default()
                                )
                            })?;
                        arg_str(&child)
                    };
                    lock.tools.push(LockedTool {
                        name: arg_str(node)?,
                        version: prop_str(node, "version")?,
                        hashes: ToolHashes {
                            input: get("input")?,
                            output: get("output")?,
                            description: get("description")?,
                            contract: get("contract")?,
                        },
                    });
                }
                other => return Err(format!("unexpected node `{other}`")),
            }
        }
        if !seen_catalog {
            return Err("no `catalog` node".to_string());
        }
        lock.tools.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(lock)
    }
}

fn prop<'a>(node: &Node<'a>, key: &str) -> Option<Value<'a>> {
    node.entries()
        .rev()
        .find(|e| e.name.is_some_and(|n| n.value == key))
        .map(|e| e.value.value)
}

fn prop_str(node: &Node, key: &str) -> Result<String, String> {
    match prop(node, key) {
        Some(Value::String(s)) => Ok(s.to_string()),
        _ => Err(format!("`{}` needs a string `{key}=`", node.name.value)),
    }
}

fn arg_str(node: &Node) -> Result<String, String> {
    match node
        .entries()
        .find(|e| e.name.is_none())
        .map(|e| e.value.value)
    {
        Some(Value::String(s)) => Ok(s.to_string()),
        _ => Err(format!("`{}` needs a string argument", node.name.value)),
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
        tool: String,
        version: String,
        /// Which of `input`, `output`, `description`, `contract` differ.
        hashes: Vec<&'static str>,
    },
    ToolAdded(String),
    ToolRemoved(String),
    /// A version was bumped (with or without a hash change) and the lock not rewritten.
    VersionChanged {
        /// `None` for the catalog's own version.
        tool: Option<String>,
        locked: String,
        current: String,
    },
    CatalogRenamed {
        locked: String,
        current: String,
    },
}

impl Mismatch {
    /// True for the mismatches that mean an unbumped contract change, not just a stale lock.
    pub fn is_unbumped_change(&self) -> bool {
        matches!(self, Mismatch::HashChangedVersionSame { .. })
    }

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
    for t in &current.tools {
        let Some(l) = locked.tool(&t.name) else {
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
        if current.tool(&l.name).is_none() {
            out.push(Mismatch::ToolRemoved(l.name.clone()));
        }
    }
    out
}
