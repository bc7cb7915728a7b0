//! Lowering: the typed KDL view ([`crate::syntax::Document`]) of one file into a [`Catalog`].
//!
//! Written by hand so every message can say what to write instead, and so lowering goes on
//! after every mistake: one run reports every problem of a file. A part that cannot be
//! lowered is left out of the model (a tool without an `effect`, a field whose type does not
//! resolve) so consumers never see a half-built value; its diagnostics explain why.
//!
//! By what it lowers: `catalog` the document, catalog, tools and their plain parts;
//! `fields` types, fields and their constraints; `effects` effects, errors, limits and
//! the write-safety parts (idempotency, confirm, on-timeout, needs-input); `cycles` the
//! named-type cycle check. Node reading itself is [`crate::model::read`].

use super::*;
use crate::diag::{Diagnostic, FileId};
use crate::model::read::{MAX_DIAGNOSTICS, Reader, Seen};
use crate::syntax::Document;
use std::collections::HashSet;

mod catalog;
mod cycles;
mod effects;
mod fields;
#[cfg(test)]
mod tests;

/// Nesting of fields (objects and array items) deeper than this is refused rather than
/// followed, so a hostile file cannot exhaust the stack.
pub const MAX_FIELD_DEPTH: usize = 64;

/// Lowers one parsed file. The catalog is `None` when the file has no usable `catalog` node;
/// the diagnostics then say why, together with every other problem of the file.
///
/// The tools and types are lowered in runs of [`RUN`] on rayon's threads, [`WINDOW`] runs at
/// a time; the runs are taken back in document order, so the result does not depend on the
/// number of threads. Once the runs before a window kept [`MAX_DIAGNOSTICS`] problems, the
/// window's runs only count theirs: a file of half a million mistakes never holds more than
/// a window's worth of diagnostics that would be dropped anyway.
pub fn lower(doc: &Document, file: FileId) -> (Option<Catalog>, Vec<Diagnostic>) {
    use rayon::prelude::*;
    let (lowering, outline) = Lowering::open(doc, file);
    let items = outline.items();
    let mut parts = Vec::with_capacity(items.len().div_ceil(RUN));
    let mut kept = 0usize;
    for window in items.chunks(RUN * WINDOW) {
        let room = MAX_DIAGNOSTICS.saturating_sub(kept);
        let runs = window.par_chunks(RUN);
        let mut done: Vec<Part> = runs.map(|run| outline.part(doc, run, room)).collect();
        kept += done.iter().map(Part::kept).sum::<usize>();
        parts.append(&mut done);
    }
    lowering.finish(doc, parts)
}

/// The tools and types one thread lowers at a time: a run costs a lowering context and a
/// handoff between threads, which a few dozen nodes outweigh.
pub const RUN: usize = 16;

/// The runs lowered side by side before the problems they kept are counted.
pub const WINDOW: usize = 64;

/// [`lower()`] in steps: [`Lowering::open`] reads the file's named types, the [`Outline`]
/// lowers any run of its tools and types on any thread, and [`Lowering::finish`] takes every
/// part in document order.
pub struct Lowering {
    cx: Cx,
    type_nodes: Vec<usize>,
}

/// What the parts of one file share: its named types and the nodes to lower in parts.
pub struct Outline {
    cx: Cx,
    items: Vec<usize>,
}

pub use catalog::Part;

impl Lowering {
    /// The first pass over `doc`, the file `file`.
    pub fn open(doc: &Document, file: FileId) -> (Lowering, Outline) {
        let mut cx = Cx {
            r: Reader::new(file, "model"),
            type_names: Default::default(),
        };
        let (type_nodes, items) = cx.outline(doc);
        let parts_cx = Cx {
            r: Reader::new(file, "model"),
            type_names: std::sync::Arc::clone(&cx.type_names),
        };
        let outline = Outline {
            cx: parts_cx,
            items,
        };
        (Lowering { cx, type_nodes }, outline)
    }

    /// The catalog and every problem of the file, from its parts: the runs of
    /// [`Outline::items`] in order, each lowered by [`Outline::part`].
    pub fn finish(
        mut self,
        doc: &Document,
        parts: Vec<Part>,
    ) -> (Option<Catalog>, Vec<Diagnostic>) {
        let catalog = self.cx.lower_document(doc, &self.type_nodes, parts);
        let mut diags = self.cx.r.finish(doc.end());
        if let Some(c) = &catalog {
            let name: std::sync::Arc<str> = c.name.value.as_str().into();
            for d in &mut diags {
                d.catalog = Some(name.clone());
            }
        }
        (catalog, diags)
    }
}

impl Outline {
    /// The nodes (indices of the document's top-level nodes) the parts lower, in order.
    pub fn items(&self) -> &[usize] {
        &self.items
    }

    /// The tools and types at `items`, a run of [`Outline::items`], keeping at most `limit`
    /// of their problems (the rest are counted).
    pub fn part(&self, doc: &Document, items: &[usize], limit: usize) -> Part {
        self.cx.lower_part(doc, items, limit)
    }
}

pub(super) use crate::model::vocab::{
    CATALOG_CHILDREN, COMMON_FIELD_PROPS, EFFECT_PROPS, ERROR_CHILDREN, ERROR_PROPS,
    EXAMPLE_CALL_CHILDREN, EXAMPLES_CHILDREN, FIELD_CHILDREN, IDEMPOTENCY_PROPS, LIMITS_PROPS,
    NEEDS_INPUT_CHILDREN, OBJECT_CHILDREN, OUTPUT_PROPS, TOOL_CHILDREN, TOP_LEVEL, TYPE_CHILDREN,
    TYPE_KEYWORDS, type_children, type_props,
};

/// `items` without spare capacity. Lists grow by doubling from four: a type of one field
/// would hold room for four (1.5 KB), which makes the model of a file of many small types
/// about 25 times the file. The model lives for the whole run, so the slack is given back.
pub(super) fn compact<T>(mut items: Vec<T>) -> Vec<T> {
    items.shrink_to_fit();
    items
}

/// Which field types a property belongs to, for "does not apply" messages.
pub(super) fn types_with_prop(prop: &str) -> Vec<&'static str> {
    TYPE_KEYWORDS
        .iter()
        .copied()
        .filter(|k| type_props(k).contains(&prop))
        .collect()
}

/// The lowering of one file: the shared node reader (which keeps the tool and field path
/// findings are about) and the named types the file declares.
pub(super) struct Cx {
    r: Reader,
    /// Named types declared in this file (first declaration of each name); shared by the
    /// per-core lowerings of one file rather than copied into each.
    type_names: std::sync::Arc<crate::FastSet<String>>,
}

// Lowering is reading nodes with catalog vocabulary: the reader's methods are the
// lowering's own, so they are reached through `self` like the rest.
impl std::ops::Deref for Cx {
    type Target = Reader;
    fn deref(&self) -> &Reader {
        &self.r
    }
}

impl std::ops::DerefMut for Cx {
    fn deref_mut(&mut self) -> &mut Reader {
        &mut self.r
    }
}
