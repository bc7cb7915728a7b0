//! One reader of KDL nodes for every file catalogc reads: catalogs (lowering), the project
//! file `catalogc.kdl` and lock files. It reads properties, arguments and children, checks
//! "at most once", converts strings, booleans, integers (with their range) and keywords, and
//! words every mistake the same way: unknown names get the closest valid one
//! ([`did_you_mean`]).
//!
//! Each user gives its own code prefix (`model`, `config`, `lock`), so the same mistake is
//! `model/unknown-property` in a catalog and `config/unknown-property` in the project file.
//! The reader also keeps the location a finding is about (the tool and the dotted field
//! path), which catalogs fill in and other files leave empty.

use crate::diag::suggest::did_you_mean;
use crate::diag::{Diagnostic, FileId, Level};
use crate::syntax::{Entry, Node, Number, Span, Spanned as Sp, Value};
use smallvec::SmallVec;

/// The hashes of the keys a list holds, each with the position of the first item that has
/// it, kept beside the list: a key whose hash is new differs from every key in the list, and
/// a repeated hash names the one item to compare with. Comparing each key with all before it
/// made one field of 850,000 enum values take minutes to lower, and an enum written twice over
/// as long again.
#[derive(Default)]
pub struct KeyHashes {
    state: foldhash::fast::RandomState,
    first: crate::FastMap<u64, usize>,
}

impl KeyHashes {
    /// Whether `key`, about to become item `len` of a list of `len` items, repeats one of
    /// them (`same(i)`: item `i` has this key). A new key is recorded. Only when two different
    /// keys share a hash does this compare with more than one item.
    pub fn repeats(
        &mut self,
        key: impl std::hash::Hash,
        len: usize,
        same: impl Fn(usize) -> bool,
    ) -> bool {
        let hash = std::hash::BuildHasher::hash_one(&self.state, key);
        match self.first.entry(hash) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(len);
                false
            }
            std::collections::hash_map::Entry::Occupied(held) => {
                same(*held.get()) || (0..len).any(same)
            }
        }
    }
}

/// A closed set of keywords a value may take (an effect, an error class, a unit...).
/// Implemented by `keyword_enum!`, which writes each keyword once.
pub trait Keyword: Sized + Copy + 'static {
    /// Every keyword, in declaration order.
    const NAMES: &'static [&'static str];
    /// The keyword as written.
    fn as_str(self) -> &'static str;
    /// The value spelled `s`; `None` for any other text.
    fn parse(s: &str) -> Option<Self>;
}

/// A fieldless enum whose variants are written as keywords: generates the enum, `ALL`,
/// `NAMES`, `as_str` and `parse` (inherent, and through [`Keyword`]).
macro_rules! keyword_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* #[doc = concat!("Written `", $text, "`.")] $variant ),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [$name; <[&str]>::len(&[$($text),+])] = [$($name::$variant),+];
            /// Every keyword, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The keyword as written in a catalog.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The value spelled `s`; `None` for any other text.
            pub fn parse(s: &str) -> Option<$name> {
                match s {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl $crate::model::read::Keyword for $name {
            const NAMES: &'static [&'static str] = $name::NAMES;
            fn as_str(self) -> &'static str {
                $name::as_str(self)
            }
            fn parse(s: &str) -> Option<Self> {
                $name::parse(s)
            }
        }
    };
}
pub(crate) use keyword_enum;

const U64_RANGE: (i128, i128) = (0, u64::MAX as i128);
const I64_RANGE: (i128, i128) = (i64::MIN as i128, i64::MAX as i128);

/// A name in backquotes, `` `name` ``, written only when a message needs it.
#[derive(Debug, Clone, Copy)]
pub struct Quoted<'a>(pub &'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`", self.0)
    }
}

/// `` `a`, `b`, `c` ``.
pub fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Help for an unknown name: the closest allowed one, if any is close, then `rest`.
pub fn suggest_help(name: &str, allowed: &[&str], rest: &str) -> String {
    match did_you_mean(name, allowed.iter().copied()) {
        Some(s) => format!("did you mean `{s}`? {rest}"),
        None => rest.to_string(),
    }
}

/// Help for an unknown name: the closest allowed one alone, else `otherwise`.
pub fn suggest_or(name: &str, allowed: &[&str], otherwise: &str) -> String {
    match did_you_mean(name, allowed.iter().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None => otherwise.to_string(),
    }
}

/// How a value is named in messages: `the string "x"`, `the number 5`, `#true`.
pub fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!("the string \"{s}\""),
        Value::Number(n) => format!("the number {}", number_text(n)),
        Value::Bool(b) => format!("#{b}"),
        Value::Null => "#null".to_string(),
    }
}

/// A number as a message shows it: as written for integers, `#inf`/`#nan` for the
/// specials, and words for floats out of range.
pub fn number_text(n: &Number) -> String {
    match n {
        Number::Int(i) => i.to_string(),
        Number::BigInt(s) => s.clone(),
        Number::Float(f) => format!("{f:?}"),
        Number::FloatOverflow => "(too large for a 64-bit float)".to_string(),
        Number::FloatUnderflow(_) => "(too small for a 64-bit float to hold exactly)".to_string(),
        Number::Inf => "#inf".to_string(),
        Number::NegInf => "#-inf".to_string(),
        Number::NaN => "#nan".to_string(),
    }
}

/// Properties of one node by name (first occurrence), after unknown and duplicate ones were
/// reported.
pub struct Props<'a> {
    map: Vec<(&'a str, Entry<'a>)>,
}

impl<'a> Props<'a> {
    /// The property `name`, when the node has it.
    pub fn get(&self, name: &str) -> Option<&Entry<'a>> {
        self.map.iter().find(|(n, _)| *n == name).map(|(_, e)| e)
    }
}

/// How many problems one reader lists; the rest are counted ([`Reader::finish`] reports how
/// many). A hostile file of a few MB can hold half a million mistakes, each a diagnostic of
/// several hundred bytes: listing them all would take far more memory than the file, and no
/// one reads past the first screens. The parser caps its own errors the same way.
pub const MAX_DIAGNOSTICS: usize = 1000;

/// The names of the single-valued children of one block met so far, for
/// [`Reader::once`]. A block has a handful of children, so a list beats hashing an owned copy
/// of each name: every block of every catalog load asks. The first few are held in place,
/// so most blocks keep their list without allocating one.
#[derive(Default)]
pub struct Seen<'a>(SmallVec<[&'a str; 8]>);

impl<'a> Seen<'a> {
    fn contains(&self, name: &str) -> bool {
        self.0.contains(&name)
    }

    fn push(&mut self, name: &'a str) {
        self.0.push(name);
    }
}

/// The dotted location of the field being read, as segments: `[]` segments and those
/// starting with `<` attach without a dot. The segments share one text, so entering and
/// leaving a field allocates nothing once the text has room for the deepest path.
#[derive(Debug, Default)]
pub struct FieldPath {
    text: String,
    /// Where each segment ends in `text`.
    ends: Vec<usize>,
}

impl FieldPath {
    /// Appends a segment.
    pub fn push(&mut self, segment: &str) {
        self.push_parts(&[segment]);
    }

    /// Appends one segment written in parts.
    pub fn push_parts(&mut self, parts: &[&str]) {
        for part in parts {
            self.text.push_str(part);
        }
        self.ends.push(self.text.len());
    }

    /// Removes the last segment.
    pub fn pop(&mut self) {
        self.ends.pop();
        self.text.truncate(self.ends.last().copied().unwrap_or(0));
    }

    /// Removes every segment.
    pub fn clear(&mut self) {
        self.ends.clear();
        self.text.clear();
    }

    /// The path of the one segment `segment`.
    pub fn set(&mut self, segment: &str) {
        self.clear();
        self.push(segment);
    }

    /// No segments.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The segments, in order.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let segment = self.text.get(start..end).unwrap_or("");
            start = end;
            segment
        })
    }
}

/// A node's arguments as [`Reader::args`] keeps them: the first two in place (no node of a
/// catalog takes more but `idempotency`'s scopes), any further ones on the heap.
pub type Args<'a> = SmallVec<[Entry<'a>; 2]>;

/// Reads nodes of one file, collecting every problem as a [`Diagnostic`] (all errors).
pub struct Reader {
    /// The file being read; every diagnostic points into it.
    pub file: FileId,
    /// `model`, `config`, `lock`: the first part of every code the reader itself reports.
    prefix: &'static str,
    /// The first [`MAX_DIAGNOSTICS`] problems found so far, in reading order.
    pub diags: Vec<Diagnostic>,
    /// Problems found beyond [`MAX_DIAGNOSTICS`] (or the reader's lower limit): counted,
    /// not kept.
    pub dropped: usize,
    /// How many problems this reader keeps: [`MAX_DIAGNOSTICS`], or fewer for a reader of
    /// one part of a file that follows parts which kept some already.
    limit: usize,
    /// The tool the nodes being read belong to, if any.
    pub tool: Option<std::sync::Arc<str>>,
    /// Dotted location of the field being read; `[]` segments attach without a dot.
    pub path: FieldPath,
}

impl Reader {
    /// A reader of `file` whose own codes start with `prefix` (`model`, `config`, `lock`).
    pub fn new(file: FileId, prefix: &'static str) -> Reader {
        Reader {
            file,
            prefix,
            diags: Vec::new(),
            dropped: 0,
            limit: MAX_DIAGNOSTICS,
            tool: None,
            path: FieldPath::default(),
        }
    }

    /// This reader keeping at most `limit` problems (never more than [`MAX_DIAGNOSTICS`]):
    /// for a part of a file read after parts that kept problems already, whose own would
    /// come after theirs and be dropped in any case.
    pub fn with_limit(mut self, limit: usize) -> Reader {
        self.limit = limit.min(MAX_DIAGNOSTICS);
        self
    }

    /// Takes in the problems another reader of the same file found (in its reading order), as
    /// if this reader had found them at this point: the cap on kept problems applies alike.
    pub fn absorb(&mut self, diags: Vec<Diagnostic>, dropped: usize) {
        let room = self.limit.saturating_sub(self.diags.len());
        self.dropped += dropped + diags.len().saturating_sub(room);
        self.diags.extend(diags.into_iter().take(room));
    }

    /// `PREFIX/kind`.
    pub fn code(&self, kind: &str) -> String {
        format!("{}/{kind}", self.prefix)
    }

    /// Whether a further problem would only be counted: callers skip composing its message
    /// and help (a suggestion compares the word with every candidate) and call
    /// [`Reader::count`].
    pub fn is_full(&self) -> bool {
        self.diags.len() >= self.limit
    }

    /// Counts a problem without keeping it, once [`Reader::is_full`].
    pub fn count(&mut self) {
        self.dropped += 1;
    }

    /// Reports an error under a full code (`naming/duplicate`), at the current location.
    pub fn err(
        &mut self,
        rule: impl Into<std::borrow::Cow<'static, str>>,
        span: Span,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        if self.diags.len() >= self.limit {
            self.dropped += 1;
            return;
        }
        let mut d = Diagnostic::new(rule, Level::Error, self.file, span, message);
        d.help = help.map(Into::into);
        d.tool = self.tool.clone();
        if !self.path.is_empty() {
            let mut p = String::new();
            for seg in self.path.segments() {
                if !p.is_empty() && seg != "[]" && !seg.starts_with('<') {
                    p.push('.');
                }
                p.push_str(seg);
            }
            d.path = Some(p);
        }
        self.diags.push(d);
    }

    /// Every problem listed, then, when some were only counted, one `PREFIX/too-many-errors`
    /// error at `end` (the end of the file) saying how many.
    pub fn finish(mut self, end: usize) -> Vec<Diagnostic> {
        if self.dropped > 0 {
            let d = Diagnostic::new(
                self.code("too-many-errors"),
                Level::Error,
                self.file,
                Span::new(end, end),
                format!("{} more errors were not reported", self.dropped),
            )
            .with_help("fix the errors above first");
            self.diags.push(d);
        }
        self.diags
    }

    /// Reports an error under this reader's prefix (`kind` = `unknown-property`).
    pub fn fail(
        &mut self,
        kind: &str,
        span: Span,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        let code = self.code(kind);
        self.err(code, span, message, help);
    }

    /// Appends `item` unless one of the same name is there already: a repeat is reported as
    /// `naming/duplicate` (`message` names it) and dropped, so no list holds a name twice.
    /// `keys` holds the hashes of the names in `items` (see [`KeyHashes`]).
    pub fn push_unique<T>(
        &mut self,
        items: &mut Vec<T>,
        keys: &mut KeyHashes,
        item: T,
        name: impl Fn(&T) -> &Sp<String>,
        message: impl FnOnce(&str) -> String,
        help: &str,
    ) {
        let new = name(&item);
        let same = |i: usize| items.get(i).is_some_and(|x| name(x).value == new.value);
        if keys.repeats(new.value.as_str(), items.len(), same) {
            let span = new.span;
            let message = message(&new.value);
            self.err("naming/duplicate", span, message, Some(help.to_string()));
        } else {
            items.push(item);
        }
    }

    // ---- nodes ----

    /// The property `key` of `node`, or a `missing-property` report (`message`, `help`).
    pub fn required<'a>(
        &mut self,
        props: &Props<'a>,
        node: &Node,
        key: &str,
        message: &str,
        help: impl FnOnce() -> String,
    ) -> Option<Entry<'a>> {
        // `help` is written only for the missing property: every tool asks for its `version`.
        let found = props.get(key).copied();
        if found.is_none() {
            self.fail("missing-property", node.name.span, message, Some(help()));
        }
        found
    }

    /// Reports type annotations on the node and its entries: these files use none.
    pub fn check_annotations(&mut self, node: &Node) {
        if let Some(ty) = &node.ty {
            self.fail(
                "type-annotation",
                ty.span,
                format!(
                    "type annotation `({})` on `{}`: catalogs use no type annotations",
                    ty.value, node.name.value
                ),
                Some("remove the parenthesised annotation".to_string()),
            );
        }
        if !node.has_annotated_entries() {
            return;
        }
        for e in node.entries() {
            if let Some(ty) = &e.ty {
                self.fail(
                    "type-annotation",
                    ty.span,
                    format!(
                        "type annotation `({})` on a value of `{}`: catalogs use no type annotations",
                        ty.value, node.name.value
                    ),
                    Some("remove the parenthesised annotation".to_string()),
                );
            }
        }
    }

    /// The node's properties, reporting unknown and duplicate ones. `explain_unknown` may
    /// word the message for an unknown property (one that belongs to another field type).
    pub fn props<'a>(
        &mut self,
        node: &Node<'a>,
        allowed: &[&str],
        explain_unknown: &dyn Fn(&str) -> Option<String>,
    ) -> Props<'a> {
        self.props_of_lists(node, &[allowed], explain_unknown)
    }

    /// [`Reader::props`] where the allowed names are those of the lists `allowed`, one after
    /// the other (a field's common properties and its type's own).
    pub fn props_of_lists<'a>(
        &mut self,
        node: &Node<'a>,
        allowed: &[&[&str]],
        explain_unknown: &dyn Fn(&str) -> Option<String>,
    ) -> Props<'a> {
        let mut map: Vec<(&'a str, Entry<'a>)> = Vec::new();
        for e in node.entries() {
            let Some(name) = e.name else { continue };
            let key = name.value;
            if !allowed.iter().any(|list| list.contains(&key)) {
                let allowed = allowed.concat();
                let allowed = allowed.as_slice();
                let message = explain_unknown(key).unwrap_or_else(|| {
                    format!("unknown property `{key}` on `{}`", node.name.value)
                });
                let allowed_text = if allowed.is_empty() {
                    format!("`{}` takes no properties", node.name.value)
                } else {
                    format!("allowed here: {}", quoted_list(allowed))
                };
                let help = suggest_help(key, allowed, &allowed_text);
                self.fail("unknown-property", name.span, message, Some(help));
                continue;
            }
            if map.iter().any(|(n, _)| *n == key) {
                self.fail(
                    "duplicate-property",
                    e.span,
                    format!("property `{key}` is given twice on `{}`", node.name.value),
                    Some("keep one of them; this one is ignored".to_string()),
                );
                continue;
            }
            map.push((key, e));
        }
        Props { map }
    }

    /// The node's arguments; reports missing (below `min`) and extra (above `max`) ones.
    /// `usage` shows how the node is written.
    pub fn args<'a>(
        &mut self,
        node: &Node<'a>,
        min: usize,
        max: usize,
        usage: impl std::fmt::Display,
    ) -> Args<'a> {
        // One pass: the arguments past `max` are reported, not kept.
        let mut args = Args::default();
        let mut extra = Vec::new();
        for e in node.entries().filter(|e| e.name.is_none()) {
            if args.len() < max {
                args.push(e);
            } else {
                extra.push(e);
            }
        }
        if args.len() < min {
            self.fail(
                "missing-argument",
                node.name.span,
                format!(
                    "`{}` needs {} argument{}",
                    node.name.value,
                    min,
                    if min == 1 { "" } else { "s" }
                ),
                Some(format!("write it as `{usage}`")),
            );
        }
        for extra in &extra {
            self.fail(
                "unexpected-argument",
                extra.span,
                format!(
                    "`{}` takes {} argument{}; this one is extra",
                    node.name.value,
                    if max == usize::MAX {
                        "any number of".to_string()
                    } else {
                        max.to_string()
                    },
                    if max == 1 { "" } else { "s" }
                ),
                Some(format!("write it as `{usage}`")),
            );
        }
        args
    }

    /// A node that takes no children block.
    pub fn no_children(&mut self, node: &Node) {
        if let Some(ch) = node.children()
            && !ch.nodes().is_empty()
        {
            self.fail(
                "unexpected-children",
                ch.span,
                format!("`{}` takes no children block", node.name.value),
                Some("remove the `{ ... }` block".to_string()),
            );
        }
    }

    /// A child (or top-level node) whose name is not one of `allowed`.
    pub fn unknown_node(&mut self, node: &Node, where_: &str, allowed: &[&str]) {
        let name = node.name.value;
        let allowed_text = format!("allowed {where_}: {}", quoted_list(allowed));
        let help = suggest_help(name, allowed, &allowed_text);
        self.fail(
            "unknown-node",
            node.name.span,
            format!("unknown node `{name}` {where_}"),
            Some(help),
        );
    }

    /// Reports the second and later occurrence of a single-valued child; true for the first.
    pub fn once<'a>(
        &mut self,
        seen: &mut Seen<'a>,
        node: &Node<'a>,
        parent: impl std::fmt::Display,
    ) -> bool {
        if !seen.contains(node.name.value) {
            seen.push(node.name.value);
            return true;
        }
        self.fail(
            "duplicate-node",
            node.name.span,
            format!("`{}` is given twice in {parent}", node.name.value),
            Some("keep one of them; this one is ignored".to_string()),
        );
        false
    }

    /// A node of the form `NAME "text"` (summary, doc, when, ...).
    pub fn text_node(&mut self, node: &Node) -> Option<Sp<String>> {
        self.check_annotations(node);
        let name = node.name.value;
        self.props(node, &[], &|_| None);
        self.no_children(node);
        let args = self.args(node, 1, 1, format_args!("{name} \"...\""));
        let e = args.first()?;
        self.string(e, format_args!("`{name}`"))
    }

    // ---- values ----

    /// Reports `<prefix>/wrong-type`: `what` (e.g. ``the `name` property``) is not
    /// `expected`; `help` says how to fix it.
    pub fn wrong_type(&mut self, e: &Entry, what: &str, expected: &str, help: String) {
        self.fail(
            "wrong-type",
            e.value.span,
            format!(
                "{what}: expected {expected}, found {}",
                describe(&e.value.value)
            ),
            Some(help),
        );
    }

    /// The string value of `e`; reports a wrong type (with quoting help for numbers) and
    /// returns `None` otherwise.
    pub fn string(&mut self, e: &Entry, what: impl std::fmt::Display) -> Option<Sp<String>> {
        self.str(e, what)
            .map(|s| Sp::new(s.value.to_string(), s.span))
    }

    /// [`Reader::string`] borrowed from the document, for a string that is read and not kept.
    pub fn str<'e>(&mut self, e: &Entry<'e>, what: impl std::fmt::Display) -> Option<Sp<&'e str>> {
        let what = match e.value.value {
            Value::String(s) => return Some(Sp::new(s, e.value.span)),
            // `what` only appears in messages: callers pass `format_args!`, formatted here.
            _ => what.to_string(),
        };
        let what = what.as_str();
        match e.value.value {
            Value::String(_) => None,
            Value::Number(n) => {
                self.number_problem(e, n, what);
                let text = number_text(n);
                self.wrong_type(e, what, "a string", format!("put it in quotes: \"{text}\""));
                None
            }
            other => {
                let help = match other {
                    Value::Null => "write a string in quotes, or leave the entry out".to_string(),
                    _ => "write a string in quotes".to_string(),
                };
                self.wrong_type(e, what, "a string", help);
                None
            }
        }
    }

    /// The boolean value of `e` (`#true`/`#false`); reports a wrong type (with help for the
    /// strings `"true"`/`"false"`) and returns `None` otherwise.
    pub fn boolean(&mut self, e: &Entry, what: impl std::fmt::Display) -> Option<Sp<bool>> {
        match e.value.value {
            Value::Bool(b) => Some(Sp::new(b, e.value.span)),
            Value::String(s) if s == "true" || s == "false" => {
                self.wrong_type(
                    e,
                    &what.to_string(),
                    "#true or #false",
                    format!("write `#{s}` without quotes"),
                );
                None
            }
            _ => {
                self.wrong_type(
                    e,
                    &what.to_string(),
                    "#true or #false",
                    "write `#true` or `#false`".to_string(),
                );
                None
            }
        }
    }

    /// Reports the number kinds no value may hold. Returns true when it reported.
    pub fn number_problem(&mut self, e: &Entry, n: &Number, what: &str) -> bool {
        match n {
            Number::FloatOverflow => {
                self.fail(
                    "number-overflow",
                    e.value.span,
                    format!("{what}: this number is too large for a 64-bit float"),
                    Some("write a number of a sensible magnitude".to_string()),
                );
                true
            }
            Number::FloatUnderflow(f) => {
                let reads = if *f == 0.0 {
                    "it would read as 0".to_string()
                } else {
                    format!("it would read as {f:e}, keeping only part of the digits written")
                };
                self.fail(
                    "number-underflow",
                    e.value.span,
                    format!(
                        "{what}: this number is below what a 64-bit float holds exactly; {reads}"
                    ),
                    Some("write 0 if 0 is meant, or a number of a sensible magnitude".to_string()),
                );
                true
            }
            Number::Inf | Number::NegInf | Number::NaN => {
                self.fail(
                    "not-finite",
                    e.value.span,
                    format!(
                        "{what}: `{}` is not a finite number, which JSON cannot carry",
                        number_text(n)
                    ),
                    Some("write a finite number".to_string()),
                );
                true
            }
            _ => false,
        }
    }

    /// Help for a value where a number was expected: quoting advice for numeric strings.
    pub fn not_a_number_help(v: &Value) -> String {
        match v {
            Value::String(s) if s.trim().parse::<f64>().is_ok() => {
                format!("remove the quotes: {}", s.trim())
            }
            _ => "write a number without quotes, e.g. 50".to_string(),
        }
    }

    /// A non-negative integer that fits a `u64`.
    pub fn uint(&mut self, e: &Entry, what: impl std::fmt::Display) -> Option<Sp<u64>> {
        if let Value::Number(Number::Int(i)) = e.value.value
            && let Ok(v) = u64::try_from(*i)
        {
            return Some(Sp::new(v, e.value.span));
        }
        // `what` (a `Quoted` property name, say) only appears in messages: written from
        // here on, once a value needs one.
        let what = what.to_string();
        let what = what.as_str();
        if let Some(int) = self.whole(e, what, U64_RANGE) {
            return int;
        }
        match e.value.value {
            Value::Number(n @ Number::Float(_)) => {
                self.wrong_type(
                    e,
                    what,
                    "an integer",
                    format!(
                        "write a whole number without a fraction or exponent (found {})",
                        number_text(n)
                    ),
                );
                None
            }
            Value::Number(n) => {
                self.number_problem(e, n, what);
                None
            }
            v => {
                let help = Self::not_a_number_help(&v).replace("a number", "a whole number");
                self.wrong_type(e, what, "an integer", help);
                None
            }
        }
    }

    /// An integer that fits an `i64`; `None` (nothing reported) for a value that is not an
    /// integer, so the caller decides what else it accepts.
    pub fn int64(&mut self, e: &Entry, what: impl std::fmt::Display) -> Option<Option<Sp<i64>>> {
        if let Value::Number(Number::Int(i)) = e.value.value
            && let Ok(v) = i64::try_from(*i)
        {
            return Some(Some(Sp::new(v, e.value.span)));
        }
        self.whole(e, &what.to_string(), I64_RANGE)
    }

    /// An integer literal converted to `T` (whose range is `range`), out-of-range ones
    /// reported; `None` when the value is not an integer literal.
    fn whole<T: TryFrom<i128>>(
        &mut self,
        e: &Entry,
        what: &str,
        range: (i128, i128),
    ) -> Option<Option<Sp<T>>> {
        let span = e.value.span;
        match e.value.value {
            Value::Number(Number::Int(i)) => Some(match T::try_from(*i) {
                Ok(v) => Some(Sp::new(v, span)),
                Err(_) => {
                    self.out_of_range(span, what, &i.to_string(), range);
                    None
                }
            }),
            Value::Number(Number::BigInt(s)) => {
                self.out_of_range(span, what, s, range);
                Some(None)
            }
            _ => None,
        }
    }

    /// A whole number outside what is stored (`u64` counts, `i64` bounds): never wrapped,
    /// always reported with the range that fits.
    pub fn out_of_range(&mut self, span: Span, what: &str, found: &str, range: (i128, i128)) {
        self.fail(
            "out-of-range",
            span,
            format!("{what}: {found} is out of range"),
            Some(format!(
                "write a whole number from {} to {}",
                range.0, range.1
            )),
        );
    }

    /// A string that must be one of a fixed set of keywords.
    pub fn keyword<T: Keyword>(&mut self, e: &Entry, what: &str) -> Option<Sp<T>> {
        let s = self.string(e, what)?;
        match T::parse(&s.value) {
            Some(v) => Some(Sp::new(v, s.span)),
            None if self.is_full() => {
                self.count();
                None
            }
            None => {
                let list = format!("one of {}", quoted_list(T::NAMES));
                let help = match did_you_mean(&s.value, T::NAMES.iter().copied()) {
                    Some(m) => format!("did you mean `{m}`? write {list}"),
                    None => format!("write {list}"),
                };
                self.fail(
                    "unknown-keyword",
                    s.span,
                    format!("{what}: `{}` is not a known value", s.value),
                    Some(help),
                );
                None
            }
        }
    }
}

/// Each diagnostic as (code, the text it points at, help): what reader tests compare.
#[cfg(test)]
pub(crate) fn rule_text_help(diags: Vec<Diagnostic>, text: &str) -> Vec<(String, String, String)> {
    diags
        .into_iter()
        .map(|d| {
            let at = text.get(d.span.start..d.span.end).unwrap_or_default();
            (
                d.rule.into(),
                at.to_string(),
                d.help.unwrap_or_default().into(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    keyword_enum! {
        #[derive(Debug, Clone, Copy, PartialEq)]
        enum Colour {
            Red = "red",
            DarkBlue = "dark-blue",
        }
    }

    #[test]
    fn keyword_enums_are_written_once() {
        assert_eq!(Colour::ALL, [Colour::Red, Colour::DarkBlue]);
        assert_eq!(Colour::NAMES, ["red", "dark-blue"]);
        for c in Colour::ALL {
            assert_eq!(Colour::parse(c.as_str()), Some(c));
        }
        assert_eq!(Colour::parse("blue"), None);
    }

    #[test]
    fn codes_carry_the_readers_prefix() {
        let parsed = parse("colour \"dark-blu\" shade=1 shade=2\n");
        let mut r = Reader::new(FileId(0), "config");
        let nodes: Vec<Node> = parsed.document.nodes().collect();
        let props = r.props(&nodes[0], &["shade"], &|_| None);
        assert!(props.get("shade").is_some());
        let args = r.args(&nodes[0], 1, 1, "colour \"red\"");
        let colour = args.first().expect("one argument");
        assert_eq!(r.keyword::<Colour>(colour, "`colour`"), None);
        let codes: Vec<&str> = r.diags.iter().map(|d| d.rule.as_ref()).collect();
        assert_eq!(
            codes,
            ["config/duplicate-property", "config/unknown-keyword"]
        );
        assert_eq!(
            r.diags[1].help.as_deref(),
            Some("did you mean `dark-blue`? write one of `red`, `dark-blue`")
        );
    }
}
