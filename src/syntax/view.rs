//! The typed view in a compact form: a [`Document`] owns flat arrays of fixed-size records
//! with `u32` offsets and one string arena holding every decoded name and value; [`Node`],
//! [`Entry`], [`Children`] and [`Value`] are small `Copy` handles borrowed from it. A
//! `Vec<Node>` tree with one `String` per name costs about 9× the input; this costs under 3×.

use super::{Number, Span, Spanned};
use std::fmt;

/// "No record" in an index field.
pub(crate) const NONE: u32 = u32::MAX;

/// A range of [`Document::strings`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Str {
    pub off: u32,
    pub len: u32,
}

/// A span stored in 8 bytes (inputs are capped at `u32::MAX` bytes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Sp32 {
    pub start: u32,
    pub end: u32,
}

impl Sp32 {
    pub fn new(s: Span) -> Self {
        Sp32 {
            start: s.start as u32,
            end: s.end as u32,
        }
    }

    fn span(self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct NodeRec {
    pub name: Str,
    pub name_span: Sp32,
    /// End of the node's span; it starts at the type's `(` or else at the name.
    pub end: u32,
    /// Index in `type_recs`, or [`NONE`].
    pub ty: u32,
    /// First index in `entry_recs` and how many.
    pub entries: u32,
    pub n_entries: u32,
    /// Index in `child_recs`, or [`NONE`].
    pub children: u32,
}

/// Value kinds in [`EntryRec::tag`]; [`HAS_NAME`] marks a property.
pub(crate) const V_STRING: u8 = 0;
pub(crate) const V_NUMBER: u8 = 1;
pub(crate) const V_FALSE: u8 = 2;
pub(crate) const V_TRUE: u8 = 3;
pub(crate) const V_NULL: u8 = 4;
pub(crate) const HAS_NAME: u8 = 0x80;

#[derive(Debug, Clone, Copy)]
pub(crate) struct EntryRec {
    /// Property key (when `tag & HAS_NAME`).
    pub name: Str,
    pub name_span: Sp32,
    pub value_span: Sp32,
    /// The string of a string value; for a number, `off` is its index in `numbers`.
    pub value: Str,
    /// Index in `type_recs`, or [`NONE`].
    pub ty: u32,
    pub tag: u8,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct TyRec {
    pub name: Str,
    /// Span of the type name; `start == NONE` when the annotation had no valid name (the
    /// record is kept for `paren`, where the node or entry span starts).
    pub span: Sp32,
    pub paren: u32,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct ChildRec {
    /// First index in `node_recs` and how many.
    pub first: u32,
    pub len: u32,
    pub span: Sp32,
}

/// A parsed document: the typed view of the top-level nodes, in source order.
/// Slashdashed nodes, entries and children blocks are not part of it.
#[derive(Clone, Default)]
pub struct Document {
    pub(crate) node_recs: Vec<NodeRec>,
    pub(crate) entry_recs: Vec<EntryRec>,
    pub(crate) child_recs: Vec<ChildRec>,
    pub(crate) type_recs: Vec<TyRec>,
    pub(crate) numbers: Vec<Number>,
    pub(crate) strings: String,
    /// The top-level nodes: first index in `node_recs` and how many.
    pub(crate) top: (u32, u32),
}

impl Document {
    /// The top-level nodes.
    pub fn nodes(&self) -> Nodes<'_> {
        Nodes {
            doc: self,
            range: self.top.0..self.top.0 + self.top.1,
        }
    }

    /// Where the last top-level node ends, its children block included (0 when there is
    /// none): where a summary of a whole file's problems points.
    pub fn end(&self) -> usize {
        self.nodes().next_back().map_or(0, |n| {
            n.children()
                .map_or(n.span.end, |c| c.span.end.max(n.span.end))
        })
    }

    /// Heap bytes held by the view.
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        self.node_recs.capacity() * size_of::<NodeRec>()
            + self.entry_recs.capacity() * size_of::<EntryRec>()
            + self.child_recs.capacity() * size_of::<ChildRec>()
            + self.type_recs.capacity() * size_of::<TyRec>()
            + self.numbers.capacity() * size_of::<Number>()
            + self.strings.capacity()
    }

    /// The size of each record kind, for benchmarks.
    pub fn record_sizes() -> String {
        use std::mem::size_of;
        format!(
            "node {} B, entry {} B, children block {} B, type {} B, number {} B",
            size_of::<NodeRec>(),
            size_of::<EntryRec>(),
            size_of::<ChildRec>(),
            size_of::<TyRec>(),
            size_of::<Number>()
        )
    }

    fn str(&self, s: Str) -> &str {
        self.strings
            .get(s.off as usize..(s.off + s.len) as usize)
            .unwrap_or("")
    }

    fn ty(&self, i: u32) -> Option<&TyRec> {
        if i == NONE {
            None
        } else {
            self.type_recs.get(i as usize)
        }
    }

    fn ty_name(&self, i: u32) -> Option<Spanned<&str>> {
        let t = self.ty(i)?;
        (t.span.start != NONE).then(|| Spanned::new(self.str(t.name), t.span.span()))
    }

    fn node(&self, i: u32) -> Option<Node<'_>> {
        let rec = self.node_recs.get(i as usize)?;
        let start = self.ty(rec.ty).map_or(rec.name_span.start, |t| t.paren);
        Some(Node {
            ty: self.ty_name(rec.ty),
            name: Spanned::new(self.str(rec.name), rec.name_span.span()),
            span: Span::new(start as usize, rec.end as usize),
            doc: self,
            rec,
        })
    }

    fn entry(&self, i: u32) -> Option<Entry<'_>> {
        let rec = self.entry_recs.get(i as usize)?;
        let name = (rec.tag & HAS_NAME != 0)
            .then(|| Spanned::new(self.str(rec.name), rec.name_span.span()));
        let value = match rec.tag & !HAS_NAME {
            V_STRING => Value::String(self.str(rec.value)),
            V_NUMBER => match self.numbers.get(rec.value.off as usize) {
                Some(n) => Value::Number(n),
                None => Value::Null,
            },
            V_FALSE => Value::Bool(false),
            V_TRUE => Value::Bool(true),
            _ => Value::Null,
        };
        let start = match (&name, self.ty(rec.ty)) {
            (Some(n), _) => n.span.start,
            (None, Some(t)) => t.paren as usize,
            (None, None) => rec.value_span.start as usize,
        };
        Some(Entry {
            name,
            ty: self.ty_name(rec.ty),
            value: Spanned::new(value, rec.value_span.span()),
            span: Span::new(start, rec.value_span.end as usize),
        })
    }
}

impl fmt::Debug for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("nodes", &self.nodes())
            .finish()
    }
}

/// One node, borrowed from its [`Document`].
#[derive(Clone, Copy)]
pub struct Node<'a> {
    /// `(type)` annotation before the name.
    pub ty: Option<Spanned<&'a str>>,
    /// The node's name.
    pub name: Spanned<&'a str>,
    /// From the type annotation (or name) to the end of the node, terminator excluded.
    pub span: Span,
    doc: &'a Document,
    rec: &'a NodeRec,
}

impl<'a> Node<'a> {
    /// Arguments and properties in source order (duplicates kept: the lowering reports them).
    pub fn entries(&self) -> Entries<'a> {
        Entries {
            doc: self.doc,
            range: self.rec.entries..self.rec.entries + self.rec.n_entries,
        }
    }

    /// Whether any argument or property has a `(type)` annotation, without building the
    /// entries: lowering asks for every node, and almost none has one.
    pub fn has_annotated_entries(&self) -> bool {
        let range = self.rec.entries as usize..(self.rec.entries + self.rec.n_entries) as usize;
        self.doc
            .entry_recs
            .get(range)
            .is_some_and(|recs| recs.iter().any(|r| r.ty != NONE))
    }

    /// The `{ ... }` block; `None` when the node has none.
    pub fn children(&self) -> Option<Children<'a>> {
        if self.rec.children == NONE {
            return None;
        }
        let c = self.doc.child_recs.get(self.rec.children as usize)?;
        Some(Children {
            span: c.span.span(),
            doc: self.doc,
            first: c.first,
            len: c.len,
        })
    }

    /// The child nodes; empty when there is no block.
    pub fn child_nodes(&self) -> Nodes<'a> {
        match self.children() {
            Some(c) => c.nodes(),
            None => Nodes {
                doc: self.doc,
                range: 0..0,
            },
        }
    }
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Node")
            .field("ty", &self.ty)
            .field("name", &self.name)
            .field("entries", &self.entries())
            .field("children", &self.children())
            .field("span", &self.span)
            .finish()
    }
}

/// A node's `{ ... }` block.
#[derive(Clone, Copy)]
pub struct Children<'a> {
    /// From `{` to `}` inclusive.
    pub span: Span,
    doc: &'a Document,
    first: u32,
    len: u32,
}

impl<'a> Children<'a> {
    /// The child nodes, in source order.
    pub fn nodes(&self) -> Nodes<'a> {
        Nodes {
            doc: self.doc,
            range: self.first..self.first + self.len,
        }
    }
}

impl fmt::Debug for Children<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Children")
            .field("nodes", &self.nodes())
            .field("span", &self.span)
            .finish()
    }
}

/// Sibling nodes in source order.
#[derive(Clone)]
pub struct Nodes<'a> {
    doc: &'a Document,
    range: std::ops::Range<u32>,
}

impl<'a> Nodes<'a> {
    /// The `i`-th node, counting from 0.
    pub fn get(&self, i: usize) -> Option<Node<'a>> {
        let i = u32::try_from(i).ok()?;
        if i >= self.range.end - self.range.start {
            return None;
        }
        self.doc.node(self.range.start + i)
    }

    /// The first node, if any.
    pub fn first(&self) -> Option<Node<'a>> {
        self.get(0)
    }

    /// No nodes.
    pub fn is_empty(&self) -> bool {
        self.range.is_empty()
    }
}

impl<'a> Iterator for Nodes<'a> {
    type Item = Node<'a>;
    fn next(&mut self) -> Option<Node<'a>> {
        let i = self.range.next()?;
        self.doc.node(i)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.range.size_hint()
    }
}

impl DoubleEndedIterator for Nodes<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let i = self.range.next_back()?;
        self.doc.node(i)
    }
}

impl ExactSizeIterator for Nodes<'_> {}

impl fmt::Debug for Nodes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// A node's entries in source order.
#[derive(Clone)]
pub struct Entries<'a> {
    doc: &'a Document,
    range: std::ops::Range<u32>,
}

impl<'a> Entries<'a> {
    /// The `i`-th entry, counting from 0.
    pub fn get(&self, i: usize) -> Option<Entry<'a>> {
        let i = u32::try_from(i).ok()?;
        if i >= self.range.end - self.range.start {
            return None;
        }
        self.doc.entry(self.range.start + i)
    }

    /// No entries.
    pub fn is_empty(&self) -> bool {
        self.range.is_empty()
    }
}

impl<'a> Iterator for Entries<'a> {
    type Item = Entry<'a>;
    fn next(&mut self) -> Option<Entry<'a>> {
        let i = self.range.next()?;
        self.doc.entry(i)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.range.size_hint()
    }
}

impl DoubleEndedIterator for Entries<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let i = self.range.next_back()?;
        self.doc.entry(i)
    }
}

impl ExactSizeIterator for Entries<'_> {}

impl fmt::Debug for Entries<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// An argument or property, borrowed from its [`Document`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry<'a> {
    /// Property key; `None` for an argument.
    pub name: Option<Spanned<&'a str>>,
    /// `(type)` annotation before the value.
    pub ty: Option<Spanned<&'a str>>,
    /// The value, borrowed from the document.
    pub value: Spanned<Value<'a>>,
    /// The whole entry, `key=(type)value`.
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq)]
/// A KDL value.
pub enum Value<'a> {
    /// A string of any kind (identifier, quoted, raw, multi-line), escapes resolved.
    String(&'a str),
    /// A number, as the parser read it.
    Number(&'a Number),
    /// `#true` or `#false`.
    Bool(bool),
    /// `#null`.
    Null,
}
