//! catalogc: a compiler for declarative LLM tool catalogs.
//!
//! Data flows one way: files → [`syntax`] → [`model`] → (lint | hash | compat | codegen).

pub mod runtime;

#[cfg(feature = "compiler")]
pub mod compat;
#[cfg(feature = "compiler")]
pub mod config;
#[cfg(feature = "compiler")]
pub mod contract;
#[cfg(feature = "compiler")]
pub mod diag;
#[cfg(feature = "compiler")]
pub mod fsutil;
#[cfg(feature = "compiler")]
pub mod git;
#[cfg(feature = "compiler")]
pub mod hash;
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
pub mod schema;
#[cfg(feature = "compiler")]
pub mod syntax;
#[cfg(feature = "compiler")]
#[doc(hidden)]
pub mod synth;
#[cfg(feature = "compiler")]
pub mod text;

#[cfg(feature = "cli")]
pub mod cli;
