//! Recursive descent over the token list. No backtracking: lookahead is bounded by the
//! white space before a `=`, and each token is consumed once, so parsing is linear.

use super::lexer::Errors;
use super::tree::{Group, GroupKind, TokenKind};
use super::value::{decode_number, decode_string};
use super::{Children, Entry, Node, Number, Span, Spanned, Value};

/// Deepest `{` nesting read; deeper blocks are skipped with `syntax/too-deep`.
pub const MAX_DEPTH: usize = 128;

pub(crate) struct Parser<'a> {
    pub src: &'a str,
    pub kinds: &'a [TokenKind],
    pub ends: &'a [u32],
    pub pos: usize,
    pub groups: Vec<Group>,
    pub errors: &'a mut Errors,
    /// Entries and nodes being collected, shared by all levels: each level drains its own
    /// top part into an exactly sized `Vec`, avoiding growth slack in the typed view.
    pub entry_stack: Vec<Entry>,
    pub node_stack: Vec<Node>,
    /// `false`: check everything but keep no typed view (see [`super::parse_tree`]).
    pub keep_document: bool,
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

    pub fn parse_nodes(&mut self, depth: usize, in_children: bool) -> Vec<Node> {
        let mark = self.node_stack.len();
        self.parse_nodes_into_stack(depth, in_children);
        self.node_stack.drain(mark..).collect()
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
                                self.parse_node(depth);
                            }
                        }
                        _ => {
                            self.parse_node(depth);
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
    /// (so their errors are reported too) and returned.
    fn recover(&mut self, depth: usize) -> Option<Children> {
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

    fn parse_node(&mut self, depth: usize) -> Option<Node> {
        let mark = self.entry_stack.len();
        let mut node = self.parse_node_inner(depth);
        let entries = self.entry_stack.drain(mark..);
        match &mut node {
            Some(n) => n.entries = entries.collect(),
            None => drop(entries),
        }
        node
    }

    /// A node; its entries are left on `entry_stack`.
    fn parse_node_inner(&mut self, depth: usize) -> Option<Node> {
        let g = self.open(GroupKind::Node);
        let start = self.span().start;
        let mut ty = None;
        if self.peek() == Some(K::LParen) {
            match self.parse_type() {
                Some(t) => ty = t,
                None => {
                    self.recover(depth);
                    self.close(g);
                    return None;
                }
            }
            self.skip_node_space();
        }
        let name = match self.peek() {
            Some(k) if k.is_string() => {
                let s = self.span();
                let v = decode_string(k, self.text_at(self.pos), s.start, self.errors);
                self.bump();
                Spanned::new(v, s)
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
        let mut node = Node {
            ty,
            name,
            entries: Vec::new(),
            children: None,
            span: Span::new(start, start),
        };
        let mut last_end = node.name.span.end;
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
                    let children = self.parse_children(depth);
                    last_end = children.span.end;
                    if block_state == 2 {
                        self.error(
                            "syntax/extra-children",
                            at,
                            "a node has at most one children block",
                            "merge the blocks into one `{ ... }`",
                        );
                    } else {
                        node.children = Some(children);
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
                            let c = self.parse_children(depth);
                            last_end = c.span.end;
                            block_state = block_state.max(1);
                        }
                        Some(k) if is_value_start(k) => {
                            if block_state > 0 {
                                self.entry_after_block(at);
                            }
                            if let Some((e, _)) = self.parse_entry() {
                                last_end = e.span.end;
                            } else {
                                self.close(sg);
                                node.span.end = last_end;
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
                    match self.parse_entry() {
                        Some((e, valid)) => {
                            last_end = e.span.end;
                            if block_state == 0 && valid {
                                self.entry_stack.push(e);
                            }
                        }
                        None => {
                            node.span.end = last_end;
                            node.children = node.children.or(self.recover(depth));
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
                    node.span.end = last_end;
                    node.children = node.children.or(self.recover(depth));
                    self.close(g);
                    return Some(node);
                }
            }
        }
        node.span.end = last_end;
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

    /// `(type)`: `Some(None)` when there was an error the node can go on after.
    fn parse_type(&mut self) -> Option<Option<Spanned<String>>> {
        let g = self.open(GroupKind::Type);
        let open = self.span();
        self.bump();
        self.skip_node_space();
        let name = match self.peek() {
            Some(k) if k.is_string() => {
                let s = self.span();
                let v = decode_string(k, self.text_at(self.pos), s.start, self.errors);
                self.bump();
                Some(Spanned::new(v, s))
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
        Some(name)
    }

    /// An entry and whether its value is real (see [`Parser::parse_value`]).
    fn parse_entry(&mut self) -> Option<(Entry, bool)> {
        let g = self.open(GroupKind::Entry);
        let start = self.span().start;
        let mut key = None;
        let mut ty = None;
        // What the value should follow (`=` or `)`), for the error when it is missing.
        let mut anchor = self.span();
        if let Some(k) = self.peek()
            && k.is_string()
        {
            let after = self.node_space_end(self.pos + 1);
            if self.kind_at(after) == Some(K::Equals) {
                let s = self.span();
                let v = decode_string(k, self.text_at(self.pos), s.start, self.errors);
                key = Some(Spanned::new(v, s));
                self.bump();
                self.skip_node_space();
                anchor = self.span();
                self.bump();
                self.skip_node_space();
            }
        }
        if self.peek() == Some(K::LParen) {
            match self.parse_type() {
                Some(t) => ty = t,
                None => {
                    self.close(g);
                    return None;
                }
            }
            anchor = self.span_at(self.pos - 1);
            self.skip_node_space();
        }
        let (value, valid) = match self.parse_value() {
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
                let help = if ty.is_some() {
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
        let span = Span::new(start, value.span.end);
        self.close(g);
        Some((
            Entry {
                name: key,
                ty,
                value,
                span,
            },
            valid,
        ))
    }

    /// A value and whether it is real (`false`: a malformed token, already reported).
    fn parse_value(&mut self) -> Option<(Spanned<Value>, bool)> {
        let k = self.peek()?;
        let s = self.span();
        let text = self.text_at(self.pos);
        let v = match k {
            _ if k.is_string() => Value::String(decode_string(k, text, s.start, self.errors)),
            K::Number => match decode_number(text, s, self.errors) {
                Some(n) => Value::Number(n),
                None => {
                    self.bump();
                    return Some((Spanned::new(Value::Null, s), false));
                }
            },
            K::Keyword | K::V1Keyword => match text.trim_start_matches('#') {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                "inf" => Value::Number(Number::Inf),
                "-inf" => Value::Number(Number::NegInf),
                "nan" => Value::Number(Number::NaN),
                _ => Value::Null,
            },
            K::Invalid => {
                self.bump();
                return Some((Spanned::new(Value::Null, s), false));
            }
            _ => return None,
        };
        self.bump();
        Some((Spanned::new(v, s), true))
    }

    fn parse_children(&mut self, depth: usize) -> Children {
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
            return Children {
                nodes: Vec::new(),
                span: Span::new(open.start, end),
            };
        }
        let nodes = self.parse_nodes(depth + 1, true);
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
        Children {
            nodes,
            span: Span::new(open.start, end),
        }
    }
}
