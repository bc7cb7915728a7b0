//! The canonical layout of a catalog file (`catalogc fmt`, docs/fmt.md), printed from the
//! lossless syntax tree so that every comment and slashdashed part survives.
//!
//! [`format()`] reads the tree into a small layout tree (blocks of nodes, each with the
//! comments around it), sorts nodes and entries into the canonical order and prints it.
//! [`verify`] is the safety net a caller runs before writing: the result must parse, lower to
//! the same model (spans aside) with the same diagnostics, hold the same comments and
//! slashdashes, and format to itself. A formatter bug then costs a refusal, never a catalog.

use crate::diag::FileId;
use crate::syntax::{self, Group, GroupKind, SyntaxError, SyntaxTree, TokenKind as K};
use std::borrow::Cow;
use std::cell::RefCell;

/// Spaces per nesting level.
const INDENT: usize = 4;

/// Why a text was not formatted.
#[derive(Debug, Clone, PartialEq)]
pub enum FormatError {
    /// The text does not parse; nothing is formatted (the first error, and how many).
    Syntax {
        /// The first syntax error.
        first: SyntaxError,
        /// How many syntax errors the text has.
        count: usize,
    },
    /// The tree has a shape the printer does not know (a formatter bug).
    Internal(String),
}

/// The canonical layout of `src`, or why there is none.
pub fn format(src: &str) -> Result<String, FormatError> {
    let parsed = syntax::parse_tree(src);
    if let Some(first) = parsed.errors.first() {
        return Err(FormatError::Syntax {
            first: first.clone(),
            count: parsed.errors.len(),
        });
    }
    print(src, &parsed.tree)
}

/// The canonical layout of `src`, read without syntax errors into `tree`.
fn print(src: &str, tree: &SyntaxTree) -> Result<String, FormatError> {
    let cx = Cx::new(src, tree);
    let bom = matches!(tree.token(0), Some(t) if t.kind == K::Bom);
    let top = cx.level(0, tree.len(), cx.groups.roots())?;
    let mut p = Printer {
        cx: &cx,
        out: String::with_capacity(src.len() + src.len() / 8),
        line_start: false,
    };
    if bom {
        p.out.push('\u{feff}');
    }
    p.block_body(&top, 0, None)?;
    Ok(p.out)
}

/// Checks that `after` (the formatted `before`) says the same as `before`: it parses without
/// errors, lowers to the same model and diagnostics apart from positions, holds the same
/// comments and slashdashes, and is already formatted. `Err` says what differs.
pub fn verify(before: &str, after: &str) -> Result<(), String> {
    // `after` is read as a tree first, formatted again and its comments listed; the tree is
    // dropped before the typed view is read and lowered, so the two are never held at once.
    let (_, tree, errors) = syntax::parse_with(after, syntax::Keep::TREE);
    if let Some(e) = errors.first() {
        return Err(format!("the result does not parse: {}", e.message));
    }
    let again = print(after, &tree).map(|again| again == after);
    let after_comments = comments(after, &tree);
    drop(tree);
    let meaning = model_fingerprint(syntax::parse(after).document);
    let (before_document, before_tree, _) = syntax::parse_with(before, KEEP_TOKENS);
    let before_comments = comments(before, &before_tree);
    drop(before_tree);
    if model_fingerprint(before_document) != meaning {
        return Err("the result lowers to a different model".into());
    }
    if before_comments != after_comments {
        return Err("the result does not hold the same comments".into());
    }
    match again {
        Ok(true) => Ok(()),
        Ok(false) => Err("formatting the result again changes it".into()),
        Err(_) => Err("the result cannot be formatted again".into()),
    }
}

/// The typed view and the tokens (for the comments) of a text.
const KEEP_TOKENS: syntax::Keep = syntax::Keep {
    document: true,
    tokens: true,
    groups: false,
};

/// The lowered model and diagnostics of `document` with every byte offset left out, so
/// moving text around changes nothing while any change of meaning does: the SHA-256 of their
/// `Debug` dump with spans written without their offsets, hashed as it is written, so a
/// catalog of a million enum values is never dumped into memory. The document is dropped
/// once lowered, before the dump.
fn model_fingerprint(document: syntax::Document) -> [u8; 32] {
    use sha2::Digest;
    use std::fmt::Write;
    let (catalog, diags) = crate::model::lower(&document, FileId(0));
    drop(document);
    let mut found: Vec<String> = diags
        .iter()
        .map(|d| format!("{} {:?} {} {:?}", d.rule, d.level, d.message, d.help))
        .collect();
    found.sort();
    let mut out = Hashing {
        hash: sha2::Sha256::new(),
        pending: Vec::with_capacity(Hashing::BATCH),
    };
    // Writing into a hash cannot fail.
    let _ = syntax::without_positions(|| write!(out, "{catalog:?}\n{found:?}"));
    out.hash.update(&out.pending);
    out.hash.finalize().into()
}

/// A `fmt::Write` that feeds a SHA-256 hash, in batches: a `Debug` dump comes in pieces of
/// a few bytes each.
struct Hashing {
    hash: sha2::Sha256,
    pending: Vec<u8>,
}

impl Hashing {
    /// Bytes held before they are hashed.
    const BATCH: usize = 1 << 16;
}

impl std::fmt::Write for Hashing {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.pending.len() + s.len() > Self::BATCH {
            sha2::Digest::update(&mut self.hash, &self.pending);
            self.pending.clear();
        }
        if s.len() > Self::BATCH {
            sha2::Digest::update(&mut self.hash, s.as_bytes());
        } else {
            self.pending.extend_from_slice(s.as_bytes());
        }
        Ok(())
    }
}

/// Every comment (line comments without trailing blanks) and slashdash of `src`, whose
/// tokens `tree` holds, sorted.
fn comments(src: &str, tree: &SyntaxTree) -> Vec<String> {
    let mut out: Vec<String> = tree
        .tokens()
        .filter_map(|t| match t.kind {
            K::LineComment => Some(tree.text(src, t).trim_end().to_string()),
            K::BlockComment | K::Slashdash => Some(tree.text(src, t).to_string()),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

// ---------------------------------------------------------------------------------------
// The canonical order.

/// Where a child node goes among its siblings, by the parent's name (`None`: top level).
/// Names not listed go last, in their order; nodes of one name keep theirs.
fn child_order(parent: Option<&str>) -> &'static [&'static str] {
    match parent {
        None => &["catalog", "type", "tool"],
        Some("catalog") => &["summary"],
        Some("tool") => &[
            "title",
            "summary",
            "when",
            "when-not",
            "effect",
            "open-world",
            "limits",
            "idempotency",
            "confirm",
            "on-timeout",
            "needs-input",
            "input",
            "output",
            "error",
            "examples",
            "example-call",
            "deprecated",
            "allow",
        ],
        Some("type") => &["doc", "field"],
        Some("field" | "items" | "values") => &[
            "doc", "title", "examples", "enum", "items", "values", "field", "variant",
        ],
        Some("variant") => &["doc", "field"],
        Some("error") => &["message", "next-step", "detail"],
        Some("needs-input") => &["doc"],
        Some("examples") => &["call", "no-call", "confusable"],
        Some("example-call") => &["arguments", "result"],
        _ => &[],
    }
}

/// A field's type attributes: as docs/catalog-format.md lists them, a lower bound before
/// the upper one.
const ATTRIBUTES: [&str; 17] = [
    "min-length",
    "max-length",
    "pattern",
    "format",
    "extensible",
    "min",
    "exclusive-min",
    "max",
    "exclusive-max",
    "multiple-of",
    "unit",
    "min-items",
    "max-items",
    "unique",
    "min-entries",
    "max-entries",
    "discriminator",
];

/// The entry order of a node: `""` stands for its arguments (in their order), other names
/// for properties. Properties not listed follow, in their order.
fn entry_order(node: &str) -> &'static [&'static str] {
    match node {
        "catalog" | "tool" => &["", "version"],
        "field" => &FIELD_ENTRY_ORDER,
        "items" | "values" => &ELEMENT_ENTRY_ORDER,
        "limits" => &["", "max-items", "max-result-bytes", "timeout-ms"],
        "error" => &["", "class", "retry"],
        "idempotency" => &["key", "scope", "", "ttl-s"],
        "confirm" => &["", "digest"],
        "on-timeout" => &["", "tool"],
        "needs-input" => &["", "kind"],
        "deprecated" => &["", "replacement"],
        "allow" => &["", "reason"],
        _ => &[""],
    }
}

/// A field's entries: its arguments, then what it is, its type attributes, and the rest.
const FIELD_ENTRY_ORDER: [&str; 25] = concat_names(&[
    &["", "required", "nullable", "const"],
    &ATTRIBUTES,
    &["default", "sensitive", "deprecated", "header"],
]);

/// An `items` or `values` node's entries: its argument, then the type attributes.
const ELEMENT_ENTRY_ORDER: [&str; 18] = concat_names(&[&[""], &ATTRIBUTES]);

/// The lists of `parts` one after the other; `N` is their total length (checked when the
/// constant is built).
const fn concat_names<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut at = 0;
    let mut p = 0;
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            out[at] = parts[p][i];
            at += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(at == N, "the lengths of the parts add up to N");
    out
}

/// Groups of tool children separated by a blank line: the header (texts, effect and
/// behaviour), `input`, `output`, the errors, the examples, the example calls, then
/// deprecation and allows.
fn tool_section(name: &str) -> u8 {
    match name {
        "input" => 1,
        "output" => 2,
        "error" => 3,
        "examples" => 4,
        "example-call" => 5,
        "deprecated" | "allow" => 6,
        n if child_order(Some("tool")).contains(&n) => 0,
        _ => 7,
    }
}

/// Whether a blank line goes before the child `this` of `parent` after the sibling `prev`.
fn blank_between(parent: Option<&str>, prev: Option<&str>, this: &str) -> bool {
    match (parent, prev) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some("tool"), Some(prev)) => tool_section(prev) != tool_section(this),
        _ => false,
    }
}

fn rank(order: &[&str], name: &str) -> usize {
    order.iter().position(|n| *n == name).unwrap_or(order.len())
}

/// `items` stably sorted by `key`: borrowed as they are when already in that order (as the
/// nodes and entries of a formatted file are), else a sorted list of references.
fn in_order<'a, T>(items: &'a [T], key: impl Fn(&T) -> usize) -> InOrder<'a, T> {
    if items.is_sorted_by_key(&key) {
        return InOrder::AsIs(items.iter());
    }
    let mut sorted: Vec<&T> = items.iter().collect();
    sorted.sort_by_key(|t| key(t));
    InOrder::Sorted(sorted.into_iter())
}

/// What [`in_order`] gives.
enum InOrder<'a, T> {
    AsIs(std::slice::Iter<'a, T>),
    Sorted(std::vec::IntoIter<&'a T>),
}

impl<'a, T> Iterator for InOrder<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        match self {
            InOrder::AsIs(items) => items.next(),
            InOrder::Sorted(items) => items.next(),
        }
    }
}

// ---------------------------------------------------------------------------------------
// The layout tree.

#[derive(Debug, Clone, Copy)]
enum Comment<'s> {
    Line(&'s str),
    Block(&'s str),
}

impl<'s> Comment<'s> {
    fn text(self) -> &'s str {
        match self {
            Comment::Line(s) | Comment::Block(s) => s,
        }
    }
}

/// A node as it will be printed, with the comments inside it. Built when the node is
/// printed, from its group ([`NodeRef`]), and dropped after it: the layout of a file is
/// never held whole, only the nodes on the way down to the one being printed.
#[derive(Debug)]
struct NodeL<'s> {
    /// The name as written (bare when it can be), after its type annotation if any.
    head: Cow<'s, str>,
    /// The name, for sorting.
    name: &'s str,
    entries: Vec<EntryL<'s>>,
    blocks: Vec<BlockItem<'s>>,
    /// Comments after the last entry or block, on the node's last line.
    trailing: Vec<Comment<'s>>,
}

/// A node of a block, before it is laid out: its group and its name (to sort by).
#[derive(Debug, Clone, Copy)]
struct NodeRef<'s> {
    group: usize,
    name: &'s str,
}

/// An argument or property as it will be printed. A boxed slice rather than a vector and
/// the text borrowed when it is printed as written: a node may hold a million of them.
#[derive(Debug)]
struct EntryL<'s> {
    /// Comments written before the entry (or inside it), printed before it.
    leads: Box<[Comment<'s>]>,
    slashdash: bool,
    /// The property name (`None` for an argument), for sorting.
    key: Option<&'s str>,
    text: Cow<'s, str>,
}

#[derive(Debug)]
struct BlockItem<'s> {
    leads: Vec<Comment<'s>>,
    slashdash: bool,
    block: BlockL<'s>,
}

/// A node on its own line: block comments before it on that line, and its `/-`.
#[derive(Debug)]
struct Item<'s> {
    /// A blank line was written before it (kept only where the layout does not decide).
    blank: bool,
    prefix: Vec<&'s str>,
    slashdash: bool,
    node: NodeRef<'s>,
    /// Comments after the node on its last line, after those inside its group.
    trailing: Vec<Comment<'s>>,
}

/// What comes before a node and moves with it: comment lines and slashdashed nodes.
#[derive(Debug)]
enum Lead<'s> {
    Comments { blank: bool, list: Vec<&'s str> },
    Node(Item<'s>),
}

impl Lead<'_> {
    /// A blank line was written before it.
    fn blank(&self) -> bool {
        match self {
            Lead::Comments { blank, .. } => *blank,
            Lead::Node(item) => item.blank,
        }
    }
}

#[derive(Debug)]
struct Child<'s> {
    leads: Vec<Lead<'s>>,
    item: Item<'s>,
}

/// The inside of a `{ }` block, or a whole file.
#[derive(Debug, Default)]
struct BlockL<'s> {
    /// Comments on the line of the `{`.
    open: Vec<Comment<'s>>,
    children: Vec<Child<'s>>,
    /// Comment lines and slashdashed nodes after the last node.
    dangling: Vec<Lead<'s>>,
}

/// The parser's groups, nested. Groups come in pre-order (a group before the groups inside
/// it), so the groups inside group `g` are `g + 1..after[g]`, and its direct kids are found
/// by jumping from one kid past everything inside it to the next: one number per group, as a
/// catalog of a million enum values has a million groups.
struct Nested<'t> {
    groups: &'t [Group],
    /// For each group, the index of the first group after it and the groups inside it.
    after: Vec<u32>,
}

impl<'t> Nested<'t> {
    fn new(tree: &'t SyntaxTree) -> Self {
        let groups = tree.groups();
        let mut after = vec![0u32; groups.len()];
        // The groups still open: a group inside the top one is pushed on it, anything else
        // closes it.
        let mut open: Vec<usize> = Vec::new();
        for (i, g) in groups.iter().enumerate() {
            while let Some(&top) = open.last() {
                let t = &groups[top];
                if t.first <= g.first && g.end <= t.end {
                    break;
                }
                after[top] = i as u32;
                open.pop();
            }
            open.push(i);
        }
        for top in open {
            after[top] = groups.len() as u32;
        }
        Nested { groups, after }
    }

    /// The token range `first..end` of group `g`.
    fn range(&self, g: usize) -> (usize, usize) {
        self.groups
            .get(g)
            .map_or((0, 0), |g| (g.first as usize, g.end as usize))
    }

    fn kind(&self, g: usize) -> GroupKind {
        self.groups.get(g).map_or(GroupKind::Node, |g| g.kind)
    }

    /// The groups directly inside group `g`, in order.
    fn kids(&self, g: usize) -> Kids<'_> {
        Kids {
            after: &self.after,
            next: g + 1,
            end: self.after.get(g).map_or(0, |&a| a as usize),
        }
    }

    /// The groups inside no other, in order.
    fn roots(&self) -> Kids<'_> {
        Kids {
            after: &self.after,
            next: 0,
            end: self.after.len(),
        }
    }
}

/// The groups directly inside one group (or at the top), in order.
#[derive(Clone)]
struct Kids<'n> {
    after: &'n [u32],
    next: usize,
    end: usize,
}

impl Iterator for Kids<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.next >= self.end {
            return None;
        }
        let k = self.next;
        // `after[k] > k` always; the guard keeps a malformed list from looping.
        self.next = self
            .after
            .get(k)
            .map_or(self.end, |&a| (a as usize).max(k + 1));
        Some(k)
    }
}

struct Cx<'s, 't> {
    src: &'s str,
    tree: &'t SyntaxTree,
    groups: Nested<'t>,
    /// The lists of nodes already printed, emptied for the next ones.
    spare: RefCell<Spare<'s>>,
    /// Where an entry's canonical text is written before it is compared with the source.
    scratch: RefCell<String>,
}

/// Emptied lists of printed nodes, to be filled again: only the nodes on the way down to
/// the one being printed hold lists at a time, so a few of each serve a whole file.
#[derive(Default)]
struct Spare<'s> {
    entries: Vec<Vec<EntryL<'s>>>,
    blocks: Vec<Vec<BlockItem<'s>>>,
    children: Vec<Vec<Child<'s>>>,
}

/// One step through a token range: a group, or a token outside the groups.
#[derive(Clone, Copy)]
enum Part {
    Group(usize),
    Token(usize),
}

/// Where the last node of a level is, to give it the comments on its line.
#[derive(Clone, Copy)]
enum Last {
    None,
    Child,
    Lead,
}

impl<'s, 't> Cx<'s, 't> {
    fn new(src: &'s str, tree: &'t SyntaxTree) -> Self {
        Cx {
            src,
            tree,
            groups: Nested::new(tree),
            spare: RefCell::default(),
            scratch: RefCell::default(),
        }
    }

    fn kind(&self, i: usize) -> K {
        self.tree.token(i).map_or(K::Invalid, |t| t.kind)
    }

    fn text(&self, i: usize) -> &'s str {
        match self.tree.token(i) {
            Some(t) => self.src.get(t.span.start..t.span.end).unwrap_or(""),
            None => "",
        }
    }

    fn comment(&self, i: usize) -> Option<Comment<'s>> {
        match self.kind(i) {
            K::LineComment => Some(Comment::Line(self.text(i).trim_end())),
            K::BlockComment => Some(Comment::Block(self.text(i))),
            _ => None,
        }
    }

    fn unexpected(&self, i: usize, place: &str) -> FormatError {
        FormatError::Internal(format!(
            "unexpected {:?} token `{}` {place}",
            self.kind(i),
            self.text(i)
        ))
    }

    /// The tokens `from..to` in order, each group of `kids` (the groups directly inside
    /// that range) as one part.
    fn parts<'a>(
        &'a self,
        from: usize,
        to: usize,
        kids: Kids<'a>,
    ) -> impl Iterator<Item = Part> + 'a {
        let mut kids = kids.peekable();
        let mut i = from;
        std::iter::from_fn(move || {
            if i >= to {
                return None;
            }
            if let Some(&g) = kids.peek()
                && self.groups.range(g).0 == i
            {
                kids.next();
                i = self.groups.range(g).1.max(i);
                return Some(Part::Group(g));
            }
            i += 1;
            Some(Part::Token(i - 1))
        })
    }

    /// Tokens `from..to` holding nodes (the whole file, or a block without its braces);
    /// `kids` are the groups among them.
    fn level(&self, from: usize, to: usize, kids: Kids<'_>) -> Result<BlockL<'s>, FormatError> {
        let nodes = (kids.clone())
            .filter(|&k| self.groups.kind(k) == GroupKind::Node)
            .count();
        let mut children = self.spare.borrow_mut().children.pop().unwrap_or_default();
        children.reserve_exact(nodes);
        let mut block = BlockL {
            children,
            ..BlockL::default()
        };
        let mut pending: Vec<Lead<'s>> = Vec::new();
        // The comment line being read: its blank-line flag and comments.
        let mut line: Option<(bool, Vec<&'s str>)> = None;
        // Newlines since the last comment or node (a node's own newline counts).
        let mut newlines = 1usize;
        let mut last = Last::None;
        let mut last_open = false;
        let mut at_open = from > 0;
        let mut slashdash = false;
        for part in self.parts(from, to, kids) {
            let i = match part {
                Part::Token(i) => i,
                Part::Group(g) => {
                    let (first, end) = self.groups.range(g);
                    let node_group = match self.groups.kind(g) {
                        GroupKind::Node => g,
                        GroupKind::Slashdashed => {
                            // `/-`, then maybe comments, then the node: the comments go before.
                            slashdash = true;
                            let inner = self.groups.kids(g).next();
                            let Some(node) =
                                inner.filter(|&n| self.groups.kind(n) == GroupKind::Node)
                            else {
                                return Err(FormatError::Internal(
                                    "a `/-` without its node".into(),
                                ));
                            };
                            let between = first + 1..self.groups.range(node).0;
                            if between.clone().any(|t| self.comment(t).is_some())
                                && let Some((blank, list)) = line.take()
                            {
                                pending.push(Lead::Comments { blank, list });
                            }
                            for t in between {
                                if let Some(c) = self.comment(t) {
                                    pending.push(Lead::Comments {
                                        blank: false,
                                        list: vec![c.text()],
                                    });
                                }
                            }
                            node
                        }
                        _ => return Err(self.unexpected(first, "among nodes")),
                    };
                    let node = NodeRef {
                        group: node_group,
                        name: self.node_name(node_group),
                    };
                    let prefix = match line.take() {
                        Some((_, list)) if newlines == 0 => list,
                        Some((blank, list)) => {
                            pending.push(Lead::Comments { blank, list });
                            Vec::new()
                        }
                        None => Vec::new(),
                    };
                    let item = Item {
                        blank: newlines >= 2,
                        prefix,
                        slashdash: std::mem::take(&mut slashdash),
                        node,
                        trailing: Vec::new(),
                    };
                    if item.slashdash {
                        pending.push(Lead::Node(item));
                        last = Last::Lead;
                    } else {
                        block.children.push(Child {
                            leads: std::mem::take(&mut pending),
                            item,
                        });
                        last = Last::Child;
                    }
                    let ends_line = matches!(self.kind(end.saturating_sub(1)), K::Newline);
                    newlines = usize::from(ends_line);
                    last_open = !ends_line;
                    at_open = false;
                    continue;
                }
            };
            match self.kind(i) {
                K::Whitespace | K::Bom | K::EscLine | K::Semicolon => {}
                K::Newline => {
                    newlines += 1;
                    if let Some((blank, list)) = line.take() {
                        pending.push(Lead::Comments { blank, list });
                    }
                    last_open = false;
                    at_open = false;
                }
                K::LineComment | K::BlockComment => {
                    let Some(c) = self.comment(i) else {
                        return Err(self.unexpected(i, "among nodes"));
                    };
                    let text = c.text();
                    let trailing = match (last_open, last) {
                        (true, Last::Child) => block.children.last_mut().map(|c| &mut c.item),
                        (true, Last::Lead) => match pending.last_mut() {
                            Some(Lead::Node(item)) => Some(item),
                            _ => None,
                        },
                        _ => None,
                    };
                    if let Some(item) = trailing {
                        item.trailing.push(c);
                    } else if at_open {
                        block.open.push(c);
                    } else {
                        match &mut line {
                            Some((_, list)) if newlines == 0 => list.push(text),
                            _ => {
                                if let Some((blank, list)) = line.take() {
                                    pending.push(Lead::Comments { blank, list });
                                }
                                line = Some((newlines >= 2, vec![text]));
                            }
                        }
                        newlines = 0;
                    }
                }
                _ => return Err(self.unexpected(i, "among nodes")),
            }
        }
        if let Some((blank, list)) = line.take() {
            pending.push(Lead::Comments { blank, list });
        }
        block.dangling = pending;
        Ok(block)
    }

    /// The name of the node group `g`, for sorting: its first string outside the groups in
    /// it (as [`Cx::node`] reads it).
    fn node_name(&self, g: usize) -> &'s str {
        let (first, end) = self.groups.range(g);
        self.parts(first, end, self.groups.kids(g))
            .find_map(|part| match part {
                Part::Token(i) if self.kind(i).is_string() => {
                    Some(plain_name(self.kind(i), self.text(i)))
                }
                _ => None,
            })
            .unwrap_or("")
    }

    /// One node group: its name, entries, blocks and the comments among them.
    fn node(&self, g: usize) -> Result<NodeL<'s>, FormatError> {
        let (first, end) = self.groups.range(g);
        let (mut entries, mut blocks) = (0, 0);
        for k in self.groups.kids(g) {
            match self.groups.kind(k) {
                GroupKind::Entry => entries += 1,
                GroupKind::Children => blocks += 1,
                _ => {}
            }
        }
        let mut node = {
            let mut spare = self.spare.borrow_mut();
            NodeL {
                head: Cow::Borrowed(""),
                name: "",
                entries: spare.entries.pop().unwrap_or_default(),
                blocks: spare.blocks.pop().unwrap_or_default(),
                trailing: Vec::new(),
            }
        };
        node.entries.reserve_exact(entries);
        node.blocks.reserve_exact(blocks);
        let mut pending: Vec<Comment<'s>> = Vec::new();
        let mut terminator: Option<Comment<'s>> = None;
        let mut after_escline = false;
        let mut named = false;
        let mut slashdash = false;
        for part in self.parts(first, end, self.groups.kids(g)) {
            let i = match part {
                Part::Token(i) => i,
                Part::Group(k) => {
                    self.node_part(k, &mut node, &mut pending, &mut slashdash)?;
                    continue;
                }
            };
            match self.kind(i) {
                K::Whitespace => {}
                K::EscLine => after_escline = true,
                K::Newline if after_escline => after_escline = false,
                K::Newline | K::Semicolon => {}
                K::BlockComment => pending.extend(self.comment(i)),
                K::LineComment if after_escline => pending.extend(self.comment(i)),
                K::LineComment => terminator = self.comment(i),
                k if k.is_string() && !named => {
                    named = true;
                    node.name = plain_name(k, self.text(i));
                    let text = name_text(k, self.text(i));
                    if node.head.is_empty() {
                        node.head = Cow::Borrowed(text);
                    } else {
                        node.head.to_mut().push_str(text);
                    }
                }
                _ => return Err(self.unexpected(i, "in a node")),
            }
        }
        node.trailing = pending;
        node.trailing.extend(terminator);
        Ok(node)
    }

    /// Keeps the lists of a printed node for the next ones.
    fn recycle(&self, node: NodeL<'s>) {
        let NodeL {
            mut entries,
            mut blocks,
            ..
        } = node;
        let mut spare = self.spare.borrow_mut();
        for item in blocks.drain(..) {
            let mut children = item.block.children;
            if children.capacity() > 0 {
                children.clear();
                spare.children.push(children);
            }
        }
        if entries.capacity() > 0 {
            entries.clear();
            spare.entries.push(entries);
        }
        if blocks.capacity() > 0 {
            spare.blocks.push(blocks);
        }
    }

    /// A group directly inside a node: its type, an entry, a block, or a slashdashed one of
    /// those (`slashdash` carries the `/-` to what it comments out).
    fn node_part(
        &self,
        k: usize,
        node: &mut NodeL<'s>,
        pending: &mut Vec<Comment<'s>>,
        slashdash: &mut bool,
    ) -> Result<(), FormatError> {
        let (first, end) = self.groups.range(k);
        match self.groups.kind(k) {
            GroupKind::Type => node.head.to_mut().push_str(&self.type_text(first, end)),
            GroupKind::Entry => {
                let (key, text) = self.entry(k, pending)?;
                node.entries.push(EntryL {
                    leads: std::mem::take(pending).into_boxed_slice(),
                    slashdash: std::mem::take(slashdash),
                    key,
                    text,
                });
            }
            GroupKind::Children => {
                let block = self.level(first + 1, end.saturating_sub(1), self.groups.kids(k))?;
                node.blocks.push(BlockItem {
                    leads: std::mem::take(pending),
                    slashdash: std::mem::take(slashdash),
                    block,
                });
            }
            GroupKind::Slashdashed => {
                *slashdash = true;
                for part in self.parts(first + 1, end, self.groups.kids(k)) {
                    match part {
                        Part::Group(g) => self.node_part(g, node, pending, slashdash)?,
                        Part::Token(i) => pending.extend(self.comment(i)),
                    }
                }
            }
            GroupKind::Node => return Err(self.unexpected(first, "(a node inside a node)")),
        }
        Ok(())
    }

    /// An entry's property name (for sorting) and canonical text, borrowed from the source
    /// when it is printed as written; its comments go to `pending`, before it.
    fn entry(
        &self,
        g: usize,
        pending: &mut Vec<Comment<'s>>,
    ) -> Result<(Option<&'s str>, Cow<'s, str>), FormatError> {
        let (first, end) = self.groups.range(g);
        let mut key = None;
        let mut text = self.scratch.borrow_mut();
        text.clear();
        // The source bytes from the first printed token to the last.
        let mut written: Option<(usize, usize)> = None;
        for part in self.parts(first, end, self.groups.kids(g)) {
            let (i, last) = match part {
                Part::Token(i) => (i, i),
                Part::Group(k) => {
                    let (f, e) = self.groups.range(k);
                    text.push_str(&self.type_text(f, e));
                    written = self.widen(written, f, e.saturating_sub(1));
                    continue;
                }
            };
            let kind = self.kind(i);
            match kind {
                K::Whitespace | K::EscLine | K::Newline => continue,
                K::LineComment | K::BlockComment => {
                    pending.extend(self.comment(i));
                    continue;
                }
                K::Equals => text.push('='),
                k if k.is_string() && text.is_empty() && self.is_key(i, end) => {
                    key = Some(plain_name(k, self.text(i)));
                    text.push_str(name_text(k, self.text(i)));
                }
                K::Ident => text.push_str(&syntax::quote(self.text(i))),
                k if k.is_string() || matches!(k, K::Number | K::Keyword) => {
                    text.push_str(self.text(i))
                }
                _ => return Err(self.unexpected(i, "in an entry")),
            }
            written = self.widen(written, i, last);
        }
        let as_written = written.and_then(|(a, b)| self.src.get(a..b));
        Ok(match as_written {
            Some(w) if w == *text => (key, Cow::Borrowed(w)),
            _ => (key, Cow::Owned(text.clone())),
        })
    }

    /// The byte range `so_far` extended through the tokens `first..=last`.
    fn widen(
        &self,
        so_far: Option<(usize, usize)>,
        first: usize,
        last: usize,
    ) -> Option<(usize, usize)> {
        let start = self.tree.token(first)?.span.start;
        let end = self.tree.token(last)?.span.end;
        Some(match so_far {
            Some((a, _)) => (a, end),
            None => (start, end),
        })
    }

    /// Whether the string token `i` is a property name: an `=` follows before `end`.
    fn is_key(&self, i: usize, end: usize) -> bool {
        (i + 1..end)
            .map(|t| self.kind(t))
            .find(|k| !matches!(k, K::Whitespace | K::EscLine | K::Newline) && !k.is_trivia())
            == Some(K::Equals)
    }

    /// `(type)` as written, without white space.
    fn type_text(&self, first: usize, end: usize) -> String {
        (first..end)
            .filter(|&t| !matches!(self.kind(t), K::Whitespace | K::EscLine | K::Newline))
            .map(|t| self.text(t))
            .collect()
    }
}

/// A node name or property key as printed: bare when it is a plain identifier, else as
/// written.
fn name_text(kind: K, text: &str) -> &str {
    match kind {
        K::QuotedString => {
            let inner = &text[1..text.len().saturating_sub(1).max(1)];
            if !inner.contains('\\') && syntax::is_plain_identifier(inner) {
                inner
            } else {
                text
            }
        }
        _ => text,
    }
}

/// A name as the sort tables spell it (a name with escapes stays as written: unknown).
fn plain_name(kind: K, text: &str) -> &str {
    match kind {
        K::Ident => text,
        _ => name_text(kind, text),
    }
}

// ---------------------------------------------------------------------------------------
// Printing.

struct Printer<'c, 's, 't> {
    /// Where each node's layout is read from when it is printed.
    cx: &'c Cx<'s, 't>,
    out: String,
    /// Nothing but indentation written on the current line yet.
    line_start: bool,
}

impl<'s> Printer<'_, 's, '_> {
    fn indent(&mut self, level: usize) {
        self.out.extend(std::iter::repeat_n(' ', level * INDENT));
        self.line_start = true;
    }

    fn newline(&mut self) {
        self.out.push('\n');
        self.line_start = true;
    }

    /// Writes `s` after a space unless the line is empty so far.
    fn word(&mut self, s: &str) {
        if !self.line_start {
            self.out.push(' ');
        }
        self.out.push_str(s);
        self.line_start = false;
    }

    /// Writes `s` right after what precedes it.
    fn glue(&mut self, s: &str) {
        self.out.push_str(s);
        self.line_start = false;
    }

    /// Comments inside a node's line, before more of the node: a line comment needs a line
    /// continuation, the node goes on at `cont` levels.
    fn inline_comments(&mut self, comments: &[Comment<'_>], cont: usize) {
        for c in comments {
            match c {
                Comment::Block(s) => self.word(s),
                Comment::Line(s) => {
                    self.word("\\");
                    self.word(s);
                    self.newline();
                    self.indent(cont);
                }
            }
        }
    }

    fn block_body(
        &mut self,
        block: &BlockL<'s>,
        level: usize,
        parent: Option<&str>,
    ) -> Result<(), FormatError> {
        // Comments opening a file and set apart from the first node by a blank line are the
        // file's header: they stay on top whatever node comes first.
        let (first_child, header_len) = match block.children.first() {
            Some(first) if parent.is_none() => {
                let split = if first.item.blank {
                    first.leads.len()
                } else {
                    first.leads.iter().rposition(Lead::blank).unwrap_or(0)
                };
                (Some(first), split)
            }
            _ => (None, 0),
        };
        if let Some(first) = first_child {
            self.leads(&first.leads[..header_len], level, false)?;
        }
        let order = child_order(parent);
        let children = in_order(&block.children, |c| rank(order, c.item.node.name));
        let mut prev: Option<&str> = None;
        for child in children {
            let this = child.item.node.name;
            let skip = match first_child {
                Some(first) if std::ptr::eq(first, child) => header_len,
                _ => 0,
            };
            // The layout decides the blank line before what moves with the node; inside
            // that, the author's blank lines stay.
            let mut blank = blank_between(parent, prev, this) || (prev.is_none() && header_len > 0);
            let leads = &child.leads[skip..];
            if !leads.is_empty() {
                self.leads(leads, level, blank)?;
                blank = child.item.blank;
            }
            self.item(&child.item, level, blank)?;
            prev = Some(this);
        }
        // What follows the last node: at the top level set apart like a node.
        let first_blank = match prev {
            Some(_) if parent.is_none() => true,
            Some(_) => block.dangling.first().is_some_and(Lead::blank),
            None => false,
        };
        self.leads(&block.dangling, level, first_blank)
    }

    /// Comment lines and slashdashed nodes; `blank` for the first, the author's for the rest.
    fn leads(&mut self, leads: &[Lead<'s>], level: usize, blank: bool) -> Result<(), FormatError> {
        for (i, lead) in leads.iter().enumerate() {
            self.lead(lead, level, if i == 0 { blank } else { lead.blank() })?;
        }
        Ok(())
    }

    /// A comment line or slashdashed node before a node.
    fn lead(&mut self, lead: &Lead<'s>, level: usize, blank: bool) -> Result<(), FormatError> {
        match lead {
            Lead::Comments { list, .. } => {
                if blank {
                    self.blank_line();
                }
                self.indent(level);
                for c in list {
                    self.word(c);
                }
                self.newline();
                Ok(())
            }
            Lead::Node(item) => self.item(item, level, blank),
        }
    }

    fn blank_line(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    /// A node on its own line, laid out now from its group.
    fn item(&mut self, item: &Item<'s>, level: usize, blank: bool) -> Result<(), FormatError> {
        let node = self.cx.node(item.node.group)?;
        if blank {
            self.blank_line();
        }
        self.indent(level);
        for c in &item.prefix {
            self.word(c);
        }
        if item.slashdash {
            self.word("/-");
            self.glue(&node.head);
        } else {
            self.word(&node.head);
        }
        self.node_rest(&node, &item.trailing, level)?;
        self.cx.recycle(node);
        Ok(())
    }

    /// Everything after the node's name, through its final newline; `trailing` are the
    /// comments after the node's group on its line.
    fn node_rest(
        &mut self,
        node: &NodeL<'s>,
        trailing: &[Comment<'s>],
        level: usize,
    ) -> Result<(), FormatError> {
        let order = entry_order(node.name);
        for e in in_order(&node.entries, |e| rank(order, e.key.unwrap_or(""))) {
            self.inline_comments(&e.leads, level + 1);
            if e.slashdash {
                self.word("/-");
                self.glue(&e.text);
            } else {
                self.word(&e.text);
            }
        }
        for b in &node.blocks {
            self.inline_comments(&b.leads, level + 1);
            self.word(if b.slashdash { "/-{" } else { "{" });
            let body = &b.block;
            if body.open.is_empty() && body.children.is_empty() && body.dangling.is_empty() {
                self.glue("}");
                continue;
            }
            for c in &body.open {
                self.word(c.text());
            }
            self.newline();
            self.block_body(body, level + 1, Some(node.name))?;
            self.indent(level);
            self.glue("}");
        }
        let n = node.trailing.len() + trailing.len();
        for (i, c) in node.trailing.iter().chain(trailing).enumerate() {
            match c {
                Comment::Line(s) if i + 1 == n => self.word(s),
                _ => self.inline_comments(std::slice::from_ref(c), level + 1),
            }
        }
        self.newline();
        Ok(())
    }
}

#[cfg(test)]
mod tests;
