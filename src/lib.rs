//! catalogc: a compiler for declarative LLM tool catalogs.
//!
//! Data flows one way: files → [`syntax`] → [`model`] → (lint | hash | compat | codegen).

pub mod runtime;

#[cfg(feature = "compiler")]
pub mod build;
#[cfg(feature = "compiler")]
pub mod codegen;
#[cfg(feature = "compiler")]
pub mod compat;
#[cfg(feature = "compiler")]
pub mod contract;
#[cfg(feature = "compiler")]
pub mod diag;
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

#[cfg(feature = "compiler")]
pub use build::Builder;

/// Includes the code generated for catalog `NAME` by [`Builder`] in a build script:
/// `pub mod billing { catalogc::include_catalog!("billing"); }`. `NAME` is the catalog name
/// in snake case (the generated file's stem).
#[macro_export]
macro_rules! include_catalog {
    ($name:literal) => {
        ::core::include!(::core::concat!(::core::env!("OUT_DIR"), "/", $name, ".rs"));
    };
}
