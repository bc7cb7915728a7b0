//! A small tree of KDL nodes the importer fills in, printed with the syntax module's own
//! quoting and then laid out by [`crate::fmt::format`], so an imported catalog is canonical
//! and every string reads back as the value it was built from.

use crate::syntax::{is_plain_identifier, quote};
use std::fmt::Write;

/// A value of a node argument or property.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// A string, quoted on output.
    Str(String),
    /// An integer.
    Int(i64),
    /// A finite decimal.
    Float(f64),
    /// `#true` / `#false`.
    Bool(bool),
    /// `#null`.
    Null,
}

impl From<&str> for Val {
    fn from(s: &str) -> Val {
        Val::Str(s.to_string())
    }
}

impl From<String> for Val {
    fn from(s: String) -> Val {
        Val::Str(s)
    }
}

impl From<bool> for Val {
    fn from(b: bool) -> Val {
        Val::Bool(b)
    }
}

impl From<u64> for Val {
    fn from(n: u64) -> Val {
        i64::try_from(n).map_or(Val::Float(n as f64), Val::Int)
    }
}

/// A node or a `//` comment line inside a block (or at the top level).
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A node.
    Node(Node),
    /// One comment line, placed before the item that follows it.
    Comment(String),
}

/// One KDL node: name, arguments, properties and children.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    name: String,
    args: Vec<Val>,
    props: Vec<(String, Val)>,
    children: Option<Vec<Item>>,
}

impl Node {
    /// A node without entries or children.
    pub fn new(name: impl Into<String>) -> Node {
        Node {
            name: name.into(),
            args: Vec::new(),
            props: Vec::new(),
            children: None,
        }
    }

    /// Adds an argument.
    pub fn arg(mut self, v: impl Into<Val>) -> Node {
        self.args.push(v.into());
        self
    }

    /// Adds a property.
    pub fn prop(mut self, key: impl Into<String>, v: impl Into<Val>) -> Node {
        self.props.push((key.into(), v.into()));
        self
    }

    /// Adds a child item; the node then has a block, even when it stays empty otherwise.
    pub fn push(&mut self, item: Item) {
        self.children.get_or_insert_with(Vec::new).push(item);
    }

    /// Adds a child node.
    pub fn child(&mut self, node: Node) {
        self.push(Item::Node(node));
    }

    /// Adds a comment line before the next child.
    pub fn comment(&mut self, text: impl AsRef<str>) {
        self.push(Item::Comment(text.as_ref().to_string()));
    }

    /// Gives the node an (empty) block.
    pub fn block(mut self) -> Node {
        self.children.get_or_insert_with(Vec::new);
        self
    }
}

/// The items as KDL text (not yet in the canonical layout).
pub fn render(items: &[Item]) -> String {
    let mut out = String::new();
    for item in items {
        item_text(&mut out, item, 0);
    }
    out
}

fn item_text(out: &mut String, item: &Item, depth: usize) {
    let indent = "    ".repeat(depth);
    match item {
        Item::Comment(text) => {
            // A comment is one line: a newline inside would end it and start stray syntax.
            let line: String = text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            let _ = writeln!(out, "{indent}// {}", line.trim_end());
        }
        Item::Node(n) => {
            out.push_str(&indent);
            out.push_str(&name(&n.name));
            for a in &n.args {
                out.push(' ');
                out.push_str(&value(a));
            }
            for (k, v) in &n.props {
                let _ = write!(out, " {}={}", name(k), value(v));
            }
            match &n.children {
                None => out.push('\n'),
                Some(children) => {
                    out.push_str(" {\n");
                    for c in children {
                        item_text(out, c, depth + 1);
                    }
                    let _ = writeln!(out, "{indent}}}");
                }
            }
        }
    }
}

fn name(s: &str) -> String {
    if is_plain_identifier(s) {
        s.to_string()
    } else {
        quote(s)
    }
}

fn value(v: &Val) -> String {
    match v {
        Val::Str(s) => quote(s),
        Val::Int(i) => i.to_string(),
        // `{:?}` keeps a decimal point (`2.0`), so a float reads back as a float.
        Val::Float(f) => format!("{f:?}"),
        Val::Bool(b) => format!("#{b}"),
        Val::Null => "#null".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_quoted_names_bare_and_comments_one_line() {
        let mut tool = Node::new("tool").arg("a b").prop("version", "1.0.0");
        tool.comment("two\nlines");
        tool.child(
            Node::new("field")
                .arg("x")
                .arg("number")
                .prop("min", Val::Float(0.5)),
        );
        let text = render(&[Item::Node(tool)]);
        assert_eq!(
            text,
            "tool \"a b\" version=\"1.0.0\" {\n    // two lines\n    field \"x\" \"number\" min=0.5\n}\n"
        );
    }

    #[test]
    fn floats_keep_their_point_and_big_unsigned_become_floats() {
        assert_eq!(value(&Val::Float(2.0)), "2.0");
        assert_eq!(
            value(&Val::from(u64::MAX)),
            format!("{:?}", u64::MAX as f64)
        );
        assert_eq!(value(&Val::Bool(true)), "#true");
    }
}
