//! Recursive descent over the token list. No backtracking: lookahead is bounded by the
//! white space before a `=`, and each token is consumed once, so parsing is linear.

use super::lexer::Errors;
use super::tree::{Group, GroupKind, TokenKind};
use super::value::{decode_number, decode_string};
use super::view::{
    ChildRec, Document, EntryRec, HAS_NAME, NONE, NodeRec, Sp32, Str, TyRec, V_FALSE, V_NULL,
    V_NUMBER, V_STRING, V_TRUE,
};
use super::{Number, Span};

/// Deepest `{` nesting read; deeper blocks are skipped with `syntax/too-deep`.
pub const MAX_DEPTH: usize = 128;

pub(crate) struct Parser<'a> {
    pub src: &'a str,
    pub kinds: &'a [TokenKind],
    pub ends: &'a [u32],
    pub pos: usize,
    pub groups: Vec<Group>,
    pub errors: &'a mut Errors,
    /// The typed view being built. A node's entries are pushed straight into it (they all
    /// come before its children); its children are not contiguous in parse order, so each
    /// level collects its nodes on `node_stack` and moves them into `doc.node_recs` at its end.
    pub doc: Document,
    pub node_stack: Vec<NodeRec>,
    /// `false`: keep nothing in `doc` (for [`super::parse_tree`], and while inside a
    /// slashdashed part, which is checked but not part of the view).
    pub keep_document: bool,
    /// `false`: record no [`Group`]s (for [`super::parse`]).
    pub keep_groups: bool,
}

/// An empty document with room for what `kinds` will give, so that building it does not
/// grow (and briefly double) its arrays. Every string or number token is a node name, a
/// type name, a property key or a value; a node name is the first such token of its line.
pub(crate) fn reserve_document(src: &str, kinds: &[TokenKind], ends: &[u32]) -> Document {
    let (mut strings, mut values, mut nodes, mut children, mut types, mut numbers) =
        (0usize, 0usize, 0usize, 0usize, 0usize, 0usize);
    let mut keys = 0usize;
    let mut line_start = true;
    let mut start = 0usize;
    for (&k, &end) in kinds.iter().zip(ends) {
        let end = end as usize;
        match k {
            _ if k.is_string() => {
                // Decoded text is never longer than the token.
                strings += end - start;
                values += 1;
                if line_start {
                    nodes += 1;
                }
                line_start = false;
            }
            K::Number | K::Keyword | K::V1Keyword => {
                values += 1;
                numbers += usize::from(k == K::Number);
                line_start = false;
            }
            K::Newline | K::Semicolon | K::RBrace => line_start = true,
            K::LBrace => {
                children += 1;
                line_start = true;
            }
            K::LParen => types += 1,
            K::Equals => keys += 1,
            _ => {}
        }
        start = end;
    }
    let entries = values.saturating_sub(nodes + keys + types);
    Document {
        node_recs: Vec::with_capacity(nodes),
        entry_recs: Vec::with_capacity(entries),
        child_recs: Vec::with_capacity(children),
        type_recs: Vec::with_capacity(types),
        numbers: Vec::with_capacity(numbers),
        strings: String::with_capacity(strings.min(src.len())),
        top: (0, 0),
    }
}

type K = TokenKind;

fn is_value_start(k: K) -> bool {
    k.is_string()
        || matches!(
            k,
            K::Number | K::Keyword | K::V1Keyword | K::LParen | K::Invalid
        )
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<K> {
        self.kinds.get(self.pos).copied()
    }

    fn kind_at(&self, i: usize) -> Option<K> {
        self.kinds.get(i).copied()
    }

    fn span_at(&self, i: usize) -> Span {
        let start = if i == 0 {
            0
        } else {
            self.ends.get(i - 1).map_or(self.src.len(), |&e| e as usize)
        };
        let end = self.ends.get(i).map_or(self.src.len(), |&e| e as usize);
        Span::new(start, end)
    }

    fn span(&self) -> Span {
        self.span_at(self.pos)
    }

    fn text_at(&self, i: usize) -> &'a str {
        let s = self.span_at(i);
        self.src.get(s.start..s.end).unwrap_or("")
    }

    fn bump(&mut self) {
        if self.pos < self.kinds.len() {
            self.pos += 1;
        }
    }

    fn open(&mut self, kind: GroupKind) -> usize {
        if !self.keep_groups {
            return usize::MAX;
        }
        self.groups.push(Group {
            kind,
            first: self.pos as u32,
            end: self.pos as u32,
        });
        self.groups.len() - 1
    }

    fn close(&mut self, g: usize) {
        if let Some(group) = self.groups.get_mut(g) {
            group.end = self.pos as u32;
        }
    }

    fn error(
        &mut self,
        code: &'static str,
        span: Span,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.errors
            .push(code, span, message.into(), Some(help.into()));
    }

    /// `node-space*`; returns whether anything was skipped.
    fn skip_node_space(&mut self) -> bool {
        let start = self.pos;
        loop {
            match self.peek() {
                Some(K::Whitespace | K::BlockComment) => self.bump(),
                Some(K::EscLine) => self.escline(),
                _ => break,
            }
        }
        self.pos != start
    }

    fn escline(&mut self) {
        let at = self.span();
        self.bump();
        while matches!(self.peek(), Some(K::Whitespace | K::BlockComment)) {
            self.bump();
        }
        match self.peek() {
            Some(K::Newline) | None => self.bump(),
            Some(K::LineComment) => {
                self.bump();
                if self.peek() == Some(K::Newline) {
                    self.bump();
                }
            }
            Some(_) => self.error(
                "syntax/invalid-escline",
                at,
                "a `\\` outside a string continues the node on the next line, so only white space or a comment may follow it",
                "break the line right after the `\\`, or remove it; inside a string, escapes only work between quotes",
            ),
        }
    }

    /// Index of the first token after `node-space*` starting at `i`, without reporting.
    fn node_space_end(&self, mut i: usize) -> usize {
        loop {
            match self.kind_at(i) {
                Some(K::Whitespace | K::BlockComment) => i += 1,
                Some(K::EscLine) => {
                    i += 1;
                    while matches!(self.kind_at(i), Some(K::Whitespace | K::BlockComment)) {
                        i += 1;
                    }
                    if self.kind_at(i) == Some(K::LineComment) {
                        i += 1;
                    }
                    if self.kind_at(i) == Some(K::Newline) {
                        i += 1;
                    }
                }
                _ => return i,
            }
        }
    }

    /// `line-space*`.
    fn skip_line_space(&mut self) {
        loop {
            match self.peek() {
                Some(K::Whitespace | K::BlockComment | K::Newline | K::LineComment | K::Bom) => {
                    self.bump()
                }
                Some(K::EscLine) => self.escline(),
                _ => break,
            }
        }
    }

    /// Appends a string token's value to the string arena (nothing when not keeping the view).
    fn string_at(&mut self, k: K, i: usize) -> Str {
        let at = self.span_at(i).start;
        let off = self.doc.strings.len();
        decode_string(k, self.text_at(i), at, self.errors, &mut self.doc.strings);
        if !self.keep_document {
            self.doc.strings.truncate(off);
        }
        Str {
            off: off as u32,
            len: (self.doc.strings.len() - off) as u32,
        }
    }

    /// Runs `f` without keeping anything in the view: for slashdashed parts.
    fn discarding<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let keep = self.keep_document;
        self.keep_document = false;
        let r = f(self);
        self.keep_document = keep;
        r
    }

    /// The nodes of one level, moved into `doc.node_recs`: their first index and count.
    pub fn parse_nodes(&mut self, depth: usize, in_children: bool) -> (u32, u32) {
        let mark = self.node_stack.len();
        self.parse_nodes_into_stack(depth, in_children);
        let first = self.doc.node_recs.len() as u32;
        let len = (self.node_stack.len() - mark) as u32;
        self.doc.node_recs.extend(self.node_stack.drain(mark..));
        (first, len)
    }

    fn parse_nodes_into_stack(&mut self, depth: usize, in_children: bool) {
        loop {
            self.skip_line_space();
            match self.peek() {
                None => return,
                Some(K::RBrace) => {
                    if in_children {
                        return;
                    }
                    self.error(
                        "syntax/unmatched-brace",
                        self.span(),
                        "this `}` closes no block",
                        "remove it, or add the `{` it was meant to close",
                    );
                    self.bump();
                }
                Some(K::Semicolon) => {
                    self.error(
                        "syntax/stray-semicolon",
                        self.span(),
                        "a `;` must end a node, and there is no node before it",
                        "remove the extra `;`",
                    );
                    self.bump();
                }
                Some(K::Slashdash) => {
                    let g = self.open(GroupKind::Slashdashed);
                    let at = self.span();
                    self.bump();
                    self.skip_line_space();
                    match self.peek() {
                        None | Some(K::RBrace) => self.error(
                            "syntax/dangling-slashdash",
                            at,
                            "`/-` comments out nothing here",
                            "put the node to comment out right after `/-`, or remove the `/-`",
                        ),
                        Some(K::Slashdash) => {
                            self.double_slashdash(at);
                            if !matches!(self.peek(), None | Some(K::RBrace)) {
                                self.discarding(|p| p.parse_node(depth));
                            }
                        }
                        _ => {
                            self.discarding(|p| p.parse_node(depth));
                        }
                    }
                    self.close(g);
                }
                Some(_) => {
                    if let Some(node) = self.parse_node(depth)
                        && self.keep_document
                    {
                        self.node_stack.push(node);
                    }
                }
            }
        }
    }

    /// Skips to the end of the current node after an error: through the next terminator,
    /// or up to a `}` that closes the enclosing block. Blocks met on the way are parsed
    /// (so their errors are reported too); the first one is returned.
    fn recover(&mut self, depth: usize) -> Option<ChildRec> {
        let mut children = None;
        loop {
            match self.peek() {
                None | Some(K::RBrace) => return children,
                Some(K::Newline | K::Semicolon) => {
                    self.bump();
                    return children;
                }
                Some(K::LineComment) => {
                    self.bump();
                    if self.peek() == Some(K::Newline) {
                        self.bump();
                    }
                    return children;
                }
                Some(K::LBrace) => {
                    let c = self.parse_children(depth);
                    if children.is_none() {
                        children = Some(c);
                    }
                }
                Some(_) => self.bump(),
            }
        }
    }

    /// Records a children block in the view: its index, or [`NONE`].
    fn attach(&mut self, c: Option<ChildRec>) -> u32 {
        match c {
            Some(c) if self.keep_document => {
                self.doc.child_recs.push(c);
                (self.doc.child_recs.len() - 1) as u32
            }
            _ => NONE,
        }
    }

    /// Where the string arena, numbers and types end, to drop what an entry left there when
    /// it is not kept.
    fn marks(&self) -> (usize, usize, usize) {
        (
            self.doc.strings.len(),
            self.doc.numbers.len(),
            self.doc.type_recs.len(),
        )
    }

    fn rollback(&mut self, (s, n, t): (usize, usize, usize)) {
        self.doc.strings.truncate(s);
        self.doc.numbers.truncate(n);
        self.doc.type_recs.truncate(t);
    }

    /// A node; its entries are pushed into `doc.entry_recs` (when keeping the view), its
    /// children into `doc.node_recs`.
    fn parse_node(&mut self, depth: usize) -> Option<NodeRec> {
        let g = self.open(GroupKind::Node);
        let start = self.span().start;
        let mut ty = NONE;
        if self.peek() == Some(K::LParen) {
            match self.parse_type() {
                Some((t, _)) => ty = t,
                None => {
                    self.recover(depth);
                    self.close(g);
                    return None;
                }
            }
            self.skip_node_space();
        }
        let (name, name_span) = match self.peek() {
            Some(k) if k.is_string() => {
                let s = self.span();
                let v = self.string_at(k, self.pos);
                self.bump();
                (v, s)
            }
            other => {
                let (msg, help) = match other {
                    Some(K::Number) => (
                        "a node name must be a string, not a number".to_string(),
                        format!("quote it: `\"{}\"`", self.text_at(self.pos)),
                    ),
                    Some(K::Keyword | K::V1Keyword) => (
                        "a node name must be a string, not a keyword".to_string(),
                        format!(
                            "quote it: `\"{}\"`",
                            self.text_at(self.pos).trim_start_matches('#')
                        ),
                    ),
                    Some(K::LBrace) => (
                        "a `{` block must follow a node name".to_string(),
                        "write the node name before the `{`".to_string(),
                    ),
                    Some(K::Slashdash) => (
                        "`/-` cannot come after a type annotation".to_string(),
                        "put the `/-` before the `(type)`".to_string(),
                    ),
                    Some(K::Invalid) => (String::new(), String::new()),
                    _ => (
                        "expected a node name".to_string(),
                        "a node starts with its name: an identifier like `tool` or a quoted string"
                            .to_string(),
                    ),
                };
                if !msg.is_empty() {
                    self.error("syntax/expected-node-name", self.span(), msg, help);
                }
                if matches!(
                    other,
                    Some(K::LBrace | K::RParen | K::Equals | K::Slashdash | K::Invalid)
                ) {
                    self.bump();
                }
                self.recover(depth);
                self.close(g);
                return None;
            }
        };
        let mut node = NodeRec {
            name,
            name_span: Sp32::new(name_span),
            end: start as u32,
            ty,
            entries: self.doc.entry_recs.len() as u32,
            n_entries: 0,
            children: NONE,
        };
        let mut children: Option<ChildRec> = None;
        let mut last_end = name_span.end;
        // 0: entries allowed; 1: after a slashdashed block; 2: after the real block.
        let mut block_state = 0u8;
        loop {
            let had_space = self.skip_node_space();
            match self.peek() {
                None | Some(K::RBrace) => break,
                Some(K::Newline | K::Semicolon) => {
                    self.bump();
                    break;
                }
                Some(K::LineComment) => {
                    self.bump();
                    if self.peek() == Some(K::Newline) {
                        self.bump();
                    }
                    break;
                }
                Some(K::LBrace) => {
                    let at = self.span();
                    let c = self.parse_children(depth);
                    last_end = c.span.end as usize;
                    if block_state == 2 {
                        self.error(
                            "syntax/extra-children",
                            at,
                            "a node has at most one children block",
                            "merge the blocks into one `{ ... }`",
                        );
                    } else {
                        children = Some(c);
                    }
                    block_state = 2;
                }
                Some(K::Slashdash) => {
                    let sg = self.open(GroupKind::Slashdashed);
                    let at = self.span();
                    self.bump();
                    self.skip_line_space();
                    if self.peek() == Some(K::Slashdash) {
                        self.double_slashdash(at);
                    }
                    match self.peek() {
                        Some(K::LBrace) => {
                            let c = self.discarding(|p| p.parse_children(depth));
                            last_end = c.span.end as usize;
                            block_state = block_state.max(1);
                        }
                        Some(k) if is_value_start(k) => {
                            if block_state > 0 {
                                self.entry_after_block(at);
                            }
                            if let Some((e, _)) = self.discarding(|p| p.parse_entry()) {
                                last_end = e.value_span.end as usize;
                            } else {
                                self.close(sg);
                                node.end = last_end as u32;
                                node.children = self.attach(children);
                                self.recover(depth);
                                self.close(g);
                                return Some(node);
                            }
                        }
                        _ => self.error(
                            "syntax/dangling-slashdash",
                            at,
                            "`/-` must be followed by the argument, property or `{ }` block it comments out",
                            "remove the `/-`, or put what it should comment out right after it",
                        ),
                    }
                    self.close(sg);
                }
                Some(k) if is_value_start(k) => {
                    let at = self.span();
                    if block_state > 0 {
                        self.entry_after_block(at);
                    } else if !had_space
                        && self.kind_at(self.pos.wrapping_sub(1)) != Some(K::Invalid)
                    {
                        // (After a malformed token the missing space is a follow-on error.)
                        self.error(
                            "syntax/missing-space",
                            Span::new(at.start, at.start),
                            "entries must be separated by white space",
                            "insert a space here",
                        );
                    }
                    let marks = self.marks();
                    match self.parse_entry() {
                        Some((e, valid)) => {
                            last_end = e.value_span.end as usize;
                            if block_state == 0 && valid && self.keep_document {
                                self.doc.entry_recs.push(e);
                                node.n_entries += 1;
                            } else {
                                self.rollback(marks);
                            }
                        }
                        None => {
                            self.rollback(marks);
                            node.end = last_end as u32;
                            let c = children.or(self.recover(depth));
                            node.children = self.attach(c);
                            self.close(g);
                            return Some(node);
                        }
                    }
                }
                Some(_) => {
                    let at = self.span();
                    let (msg, help) = match self.peek() {
                        Some(K::Equals) => (
                            "a `=` must follow a property name",
                            "write `key=value` with a string key",
                        ),
                        Some(K::RParen) => ("this `)` closes no `(`", "remove it"),
                        _ => (
                            "unexpected token in a node",
                            "end the node with a newline or `;` first",
                        ),
                    };
                    self.error("syntax/unexpected-token", at, msg, help);
                    node.end = last_end as u32;
                    let c = children.or(self.recover(depth));
                    node.children = self.attach(c);
                    self.close(g);
                    return Some(node);
                }
            }
        }
        node.end = last_end as u32;
        node.children = self.attach(children);
        self.close(g);
        Some(node)
    }

    /// Reports `/- /-` once for a whole run of slashdashes and skips the run.
    fn double_slashdash(&mut self, at: Span) {
        self.error(
            "syntax/dangling-slashdash",
            at,
            "a `/-` cannot comment out another `/-`",
            "remove the extra `/-`",
        );
        while self.peek() == Some(K::Slashdash) {
            self.bump();
            self.skip_line_space();
        }
    }

    fn entry_after_block(&mut self, at: Span) {
        self.error(
            "syntax/entry-after-children",
            at,
            "arguments and properties must come before the node's `{ }` block",
            "move this entry before the `{`, or end the node with a newline or `;` if it starts a new node",
        );
    }

    /// `(type)`: its index in `doc.types` ([`NONE`] when not keeping the view) and whether
    /// it has a valid name, or `None` after an error the node cannot go on after. A type with a malformed name is kept
    /// without a name, for where its node or entry starts.
    fn parse_type(&mut self) -> Option<(u32, bool)> {
        let g = self.open(GroupKind::Type);
        let open = self.span();
        self.bump();
        self.skip_node_space();
        let name = match self.peek() {
            Some(k) if k.is_string() => {
                let s = self.span();
                let v = self.string_at(k, self.pos);
                self.bump();
                Some((v, s))
            }
            Some(K::Invalid) => {
                self.bump();
                None
            }
            _ => {
                self.error(
                    "syntax/expected-type-name",
                    self.span(),
                    "expected a type name after `(`",
                    "a type annotation is a string in parentheses, like `(date)`",
                );
                self.close(g);
                return None;
            }
        };
        self.skip_node_space();
        if self.peek() == Some(K::RParen) {
            self.bump();
        } else {
            self.error(
                "syntax/unclosed-type",
                open,
                "this type annotation is not closed",
                "close it with `)` right after the type name",
            );
            self.close(g);
            return None;
        }
        self.close(g);
        let named = name.is_some();
        if !self.keep_document {
            return Some((NONE, named));
        }
        let (name, span) = match name {
            Some((v, s)) => (v, Sp32::new(s)),
            None => (
                Str::default(),
                Sp32 {
                    start: NONE,
                    end: NONE,
                },
            ),
        };
        self.doc.type_recs.push(TyRec {
            name,
            span,
            paren: open.start as u32,
        });
        Some(((self.doc.type_recs.len() - 1) as u32, named))
    }

    /// An entry and whether its value is real (see [`Parser::parse_value`]). Its strings,
    /// number and type are already in `doc`; the caller pushes the record or rolls back.
    fn parse_entry(&mut self) -> Option<(EntryRec, bool)> {
        let g = self.open(GroupKind::Entry);
        let mut key = None;
        let mut ty = NONE;
        let mut named_type = false;
        // What the value should follow (`=` or `)`), for the error when it is missing.
        let mut anchor = self.span();
        if let Some(k) = self.peek()
            && k.is_string()
        {
            let after = self.node_space_end(self.pos + 1);
            if self.kind_at(after) == Some(K::Equals) {
                let s = self.span();
                let v = self.string_at(k, self.pos);
                key = Some((v, s));
                self.bump();
                self.skip_node_space();
                anchor = self.span();
                self.bump();
                self.skip_node_space();
            }
        }
        if self.peek() == Some(K::LParen) {
            match self.parse_type() {
                Some((t, named)) => {
                    ty = t;
                    named_type = named;
                }
                None => {
                    self.close(g);
                    return None;
                }
            }
            anchor = self.span_at(self.pos - 1);
            self.skip_node_space();
        }
        let (tag, value, value_span, valid) = match self.parse_value() {
            Some(v) => v,
            None => {
                self.close(g);
                let msg = if key.is_some() {
                    "expected a value after `=`"
                } else {
                    "expected a value after the type annotation"
                };
                self.error(
                    "syntax/expected-value",
                    anchor,
                    msg,
                    "values are strings, numbers, `#true`, `#false` or `#null`; a slashdash `/-` goes before the property name",
                );
                return None;
            }
        };
        if key.is_none() && self.node_space_end(self.pos) < self.kinds.len() {
            let after = self.node_space_end(self.pos);
            if self.kind_at(after) == Some(K::Equals) {
                let at = self.span_at(after);
                let help = if named_type {
                    "a type annotation goes on the value: `key=(type)value`"
                } else {
                    "a property name must be a string: quote it"
                };
                self.error(
                    "syntax/invalid-property",
                    at,
                    "this `=` has no valid property name before it",
                    help,
                );
                self.close(g);
                return None;
            }
        }
        self.close(g);
        let (name, name_span, tag) = match key {
            Some((v, s)) => (v, Sp32::new(s), tag | HAS_NAME),
            None => (Str::default(), Sp32::default(), tag),
        };
        Some((
            EntryRec {
                name,
                name_span,
                value_span: Sp32::new(value_span),
                value,
                ty,
                tag,
            },
            valid,
        ))
    }

    /// A value: its tag and payload (see [`EntryRec`]), span, and whether it is real
    /// (`false`: a malformed token, already reported).
    fn parse_value(&mut self) -> Option<(u8, Str, Span, bool)> {
        let k = self.peek()?;
        let s = self.span();
        let text = self.text_at(self.pos);
        let number = |p: &mut Self, n: Number| {
            if !p.keep_document {
                return Str::default();
            }
            p.doc.numbers.push(n);
            Str {
                off: (p.doc.numbers.len() - 1) as u32,
                len: 0,
            }
        };
        let (tag, payload) = match k {
            _ if k.is_string() => (V_STRING, self.string_at(k, self.pos)),
            K::Number => match decode_number(text, s, self.errors) {
                Some(n) => (V_NUMBER, number(self, n)),
                None => {
                    self.bump();
                    return Some((V_NULL, Str::default(), s, false));
                }
            },
            K::Keyword | K::V1Keyword => match text.trim_start_matches('#') {
                "true" => (V_TRUE, Str::default()),
                "false" => (V_FALSE, Str::default()),
                "inf" => (V_NUMBER, number(self, Number::Inf)),
                "-inf" => (V_NUMBER, number(self, Number::NegInf)),
                "nan" => (V_NUMBER, number(self, Number::NaN)),
                _ => (V_NULL, Str::default()),
            },
            K::Invalid => {
                self.bump();
                return Some((V_NULL, Str::default(), s, false));
            }
            _ => return None,
        };
        self.bump();
        Some((tag, payload, s, true))
    }

    fn parse_children(&mut self, depth: usize) -> ChildRec {
        let g = self.open(GroupKind::Children);
        let open = self.span();
        self.bump();
        if depth >= MAX_DEPTH {
            self.error(
                "syntax/too-deep",
                open,
                format!("blocks are nested more than {MAX_DEPTH} levels deep"),
                "flatten the structure; catalogs never need this much nesting",
            );
            // Skip to the matching `}` without recursing.
            let mut level = 1usize;
            while let Some(k) = self.peek() {
                match k {
                    K::LBrace => level += 1,
                    K::RBrace => {
                        level -= 1;
                        if level == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                self.bump();
            }
            let end = if self.peek() == Some(K::RBrace) {
                let e = self.span().end;
                self.bump();
                e
            } else {
                self.src.len()
            };
            self.close(g);
            return ChildRec {
                first: 0,
                len: 0,
                span: Sp32::new(Span::new(open.start, end)),
            };
        }
        let (first, len) = self.parse_nodes(depth + 1, true);
        let end = if self.peek() == Some(K::RBrace) {
            let e = self.span().end;
            self.bump();
            e
        } else {
            self.error(
                "syntax/unclosed-block",
                open,
                "this `{` is never closed",
                "add the matching `}` after the last child node",
            );
            self.src.len()
        };
        self.close(g);
        ChildRec {
            first,
            len,
            span: Sp32::new(Span::new(open.start, end)),
        }
    }
}
