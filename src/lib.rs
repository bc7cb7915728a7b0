//! catalogc: a compiler for declarative LLM tool catalogs.
//!
//! Data flows one way: files (or an MCP tools/list, through [`import`]) → [`syntax`] →
//! [`model`] → [`contract`] (each tool's description, schemas and hashes) → (lint | compat |
//! lock | export | codegen | [`docs`] | [`drift`]) → [`cli`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod runtime;
mod scan;

#[cfg(feature = "compiler")]
pub mod build;
#[cfg(feature = "compiler")]
pub mod codegen;
#[cfg(feature = "compiler")]
pub mod compat;
#[cfg(feature = "compiler")]
pub mod config;
#[cfg(feature = "compiler")]
pub mod contract;
#[cfg(feature = "compiler")]
pub mod diag;
#[cfg(feature = "compiler")]
pub mod docs;
#[cfg(feature = "compiler")]
pub mod drift;
#[cfg(feature = "compiler")]
pub mod eval;
#[cfg(feature = "compiler")]
pub mod fmt;
#[cfg(feature = "compiler")]
pub(crate) mod fsutil;
// Only the CLI compares with a git revision (`breaking`, `changelog`).
#[cfg(feature = "cli")]
pub(crate) mod git;
#[cfg(feature = "compiler")]
pub mod import;
#[cfg(feature = "compiler")]
pub mod lint;
#[cfg(feature = "compiler")]
pub mod lock;
#[cfg(feature = "compiler")]
pub mod model;
#[cfg(feature = "compiler")]
pub mod names;
#[cfg(feature = "compiler")]
pub mod project;
#[cfg(feature = "compiler")]
pub mod syntax;
#[cfg(all(feature = "compiler", any(test, feature = "test-support")))]
#[doc(hidden)]
pub mod testing;

#[cfg(feature = "cli")]
pub mod cli;

/// A hash map over catalog names and words. foldhash is seeded per process, so crafted names
/// cannot force collisions, and hashes a short key with far less work than SipHash: lint
/// looks up every word of every text.
#[cfg(feature = "compiler")]
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// The set form of [`FastMap`].
#[cfg(feature = "compiler")]
pub(crate) type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

#[cfg(feature = "lsp")]
pub mod lsp;

#[cfg(feature = "rmcp")]
pub mod rmcp;

#[cfg(all(feature = "compiler", feature = "rmcp"))]
pub mod mock;

#[cfg(feature = "compiler")]
pub use build::{BuildError, Builder};

/// Includes the code generated for catalog `NAME` by [`Builder`] in a build script:
/// `pub mod billing { catalogc::include_catalog!("billing"); }`. `NAME` is the catalog name
/// in snake case (the generated file's stem).
#[macro_export]
macro_rules! include_catalog {
    ($name:literal) => {
        ::core::include!(::core::concat!(::core::env!("OUT_DIR"), "/", $name, ".rs"));
    };
}
