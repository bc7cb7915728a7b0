//! Places in a published tools/list: where a finding on the imported catalog sits in the
//! JSON file it came from. `catalogc lint tools.json` lints the catalog the list imports to;
//! its findings name a tool and a dotted path inside it (`input.items[].amount`), which
//! [`ToolsList::locate`] turns back into a JSON pointer and the byte range of that member in
//! the file, so that every output format points into the file the user gave.

use jsonc_parser::ast::{Object, ObjectPropName, Value};
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};

use crate::syntax::Span;

/// How deep in nested `anyOf` / `oneOf` / `allOf` a member is looked for.
const MAX_NESTING: usize = 4;

/// A tools/list file parsed with the byte range of every value and member name.
pub struct ToolsList<'a> {
    /// The parsed file (after a byte order mark), `None` when it does not parse.
    root: Option<Value<'a>>,
    /// Bytes before the parsed text: a byte order mark.
    offset: usize,
}

/// Where a finding sits in a tools/list file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonPlace {
    /// RFC 6901 JSON pointer to the value the finding is about (`/tools/0/inputSchema/properties/url`).
    pub pointer: String,
    /// The bytes to underline: the member's name (a property, `"name"` of a tool), else the value.
    pub span: Span,
}

impl<'a> ToolsList<'a> {
    /// Parses `text`, a tools/list (`{"tools": […]}` or a bare array of tools).
    pub fn parse(text: &'a str) -> Self {
        let body = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        let root =
            jsonc_parser::parse_to_ast(body, &CollectOptions::default(), &ParseOptions::default())
                .ok()
                .and_then(|r| r.value);
        ToolsList {
            root,
            offset: text.len() - body.len(),
        }
    }

    /// The place of a finding on tool `tool` at the dotted `path` inside it (as findings
    /// name them: `input.a.b`, `output.items[].id`, `input.query<Variant>.x`). A path part
    /// the file does not hold (a variant the importer named, a member it derived) stops the
    /// walk at the deepest place found. Without a tool, the list itself; a tool the list
    /// does not hold, `None`.
    pub fn locate(&self, tool: Option<&str>, path: Option<&str>) -> Option<JsonPlace> {
        let root = self.root.as_ref()?;
        let (tools, mut pointer) = match root {
            Value::Array(a) => (a, String::new()),
            Value::Object(o) => match o.get("tools").map(|p| &p.value) {
                Some(Value::Array(a)) => (a, "/tools".to_string()),
                _ => return None,
            },
            _ => return None,
        };
        let Some(tool) = tool else {
            return Some(self.place(pointer, span_of(root)));
        };
        let (index, object) = tools.elements.iter().enumerate().find_map(|(i, t)| {
            let o = t.as_object()?;
            let name = o.get("name")?.value.as_string_lit()?;
            (name.value == tool).then_some((i, o))
        })?;
        pointer.push_str(&format!("/{index}"));
        // A tool-level finding underlines the tool's name.
        let name = object.get("name").map(|p| span_of(&p.value));
        let mut here = Here {
            pointer,
            span: name.unwrap_or_else(|| span_of_object(object)),
            schema: None,
        };
        let mut parts = path.map(split_path).unwrap_or_default().into_iter();
        match parts.next() {
            Some(Part::Member(side)) => {
                let key = match side {
                    "input" => "inputSchema",
                    "output" => "outputSchema",
                    _ => return Some(self.place(here.pointer, here.span)),
                };
                if let Some(prop) = object.get(key) {
                    here.descend(key, prop_span(prop), &prop.value);
                }
            }
            _ => return Some(self.place(here.pointer, here.span)),
        }
        for part in parts {
            if !here.step(&part) {
                break;
            }
        }
        Some(self.place(here.pointer, here.span))
    }

    fn place(&self, pointer: String, span: Span) -> JsonPlace {
        JsonPlace {
            pointer,
            span: Span::new(span.start + self.offset, span.end + self.offset),
        }
    }
}

/// One part of a finding's dotted path.
#[derive(Debug, PartialEq, Eq)]
enum Part<'p> {
    /// A field (`a` in `input.a`).
    Member(&'p str),
    /// The items of an array (`[]`).
    Items,
    /// A named alternative of a union (`<Variant>`).
    Variant(&'p str),
}

/// `input.items[].x<V>.y` → `input`, `items`, `[]`, `x`, `<V>`, `y`.
fn split_path(path: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    for segment in path.split('.') {
        let mut rest = segment;
        let end = rest.find(['[', '<']).unwrap_or(rest.len());
        if end > 0 {
            parts.push(Part::Member(&rest[..end]));
        }
        rest = &rest[end..];
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix("[]") {
                parts.push(Part::Items);
                rest = r;
            } else if let Some(r) = rest.strip_prefix('<') {
                let close = r.find('>').unwrap_or(r.len());
                parts.push(Part::Variant(&r[..close]));
                rest = r.get(close + 1..).unwrap_or("");
            } else {
                // Not a path this module knows; the walk stops here.
                parts.push(Part::Member(""));
                break;
            }
        }
    }
    parts
}

/// The walk through a tool's schemas: the deepest place found so far.
struct Here<'v, 'a> {
    pointer: String,
    span: Span,
    /// The schema object at `pointer`, when it is one.
    schema: Option<&'v Object<'a>>,
}

impl<'v, 'a> Here<'v, 'a> {
    fn descend(&mut self, key: &str, span: Span, value: &'v Value<'a>) {
        self.pointer.push('/');
        self.pointer.push_str(&escape(key));
        self.span = span;
        self.schema = value.as_object();
    }

    /// Takes one step; `false` when the file does not hold it. A member or the items the
    /// schema here does not hold directly are looked for in the alternatives it is made of
    /// (`anyOf`, `oneOf`, `allOf` — a nullable field is one — and a local `$ref`), as the
    /// importer merged them.
    fn step(&mut self, part: &Part<'_>) -> bool {
        let Some(schema) = self.schema else {
            return false;
        };
        if let Part::Variant(name) = part {
            return self.variant(schema, name);
        }
        let mut found = None;
        self.candidates(schema, String::new(), MAX_NESTING, &mut |at, o| {
            if found.is_some() {
                return;
            }
            let hit = match part {
                Part::Member(name) => match o.get("properties").map(|p| &p.value) {
                    Some(Value::Object(props)) => props.get(name).map(|prop| {
                        (
                            format!("{at}/properties/{}", escape(name)),
                            prop_span(prop),
                            &prop.value,
                        )
                    }),
                    _ => None,
                },
                _ => o
                    .get("items")
                    .map(|items| (format!("{at}/items"), prop_span(items), &items.value)),
            };
            found = hit;
        });
        let Some((at, span, value)) = found else {
            return false;
        };
        self.pointer.push_str(&at);
        self.span = span;
        self.schema = value.as_object();
        true
    }

    /// Calls `each` with `schema` and every schema it is made of, each with its pointer
    /// relative to the place here, alternatives at most `depth` deep.
    fn candidates(
        &self,
        schema: &'v Object<'a>,
        at: String,
        depth: usize,
        each: &mut dyn FnMut(&str, &'v Object<'a>),
    ) {
        each(&at, schema);
        if depth == 0 {
            return;
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(alternatives)) = schema.get(key).map(|p| &p.value) {
                for (i, alt) in alternatives.elements.iter().enumerate() {
                    if let Some(o) = alt.as_object() {
                        self.candidates(o, format!("{at}/{key}/{i}"), depth - 1, each);
                    }
                }
            }
        }
    }

    /// The alternative of `anyOf` / `oneOf` named `name`: by its `title`, the last part of
    /// its `$ref`, or a `const` it sets.
    fn variant(&mut self, schema: &'v Object<'a>, name: &str) -> bool {
        for key in ["anyOf", "oneOf"] {
            let Some(Value::Array(alternatives)) = schema.get(key).map(|p| &p.value) else {
                continue;
            };
            for (i, alt) in alternatives.elements.iter().enumerate() {
                let Some(o) = alt.as_object() else {
                    continue;
                };
                if names_variant(o, name) {
                    self.pointer.push_str(&format!("/{key}/{i}"));
                    self.span = span_of(alt);
                    self.schema = Some(o);
                    return true;
                }
            }
        }
        false
    }
}

fn names_variant(o: &Object<'_>, name: &str) -> bool {
    let text = |key: &str| {
        o.get(key)
            .and_then(|p| p.value.as_string_lit())
            .map(|s| s.value.clone())
    };
    if text("title").is_some_and(|t| t == name) {
        return true;
    }
    if text("$ref").is_some_and(|r| r.rsplit('/').next() == Some(name)) {
        return true;
    }
    let Some(Value::Object(props)) = o.get("properties").map(|p| &p.value) else {
        return false;
    };
    props.properties.iter().any(|p| {
        p.value
            .as_object()
            .and_then(|s| s.get("const"))
            .and_then(|c| c.value.as_string_lit())
            .is_some_and(|c| c.value == name)
    })
}

/// The bytes of a member's name.
fn prop_span(prop: &jsonc_parser::ast::ObjectProp<'_>) -> Span {
    let range = match &prop.name {
        ObjectPropName::String(s) => s.range,
        ObjectPropName::Word(w) => w.range,
    };
    Span::new(range.start, range.end)
}

fn span_of(value: &Value<'_>) -> Span {
    let r = value.range();
    Span::new(r.start, r.end)
}

fn span_of_object(o: &Object<'_>) -> Span {
    Span::new(o.range.start, o.range.end)
}

/// RFC 6901: `~` → `~0`, `/` → `~1`.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = r#"{
  "tools": [
    {
      "name": "get_time",
      "inputSchema": {
        "type": "object",
        "properties": {
          "zone": { "type": "string" },
          "items": { "type": "array", "items": { "type": "object", "properties": { "a/b": { "type": "string" } } } },
          "query": { "anyOf": [ { "title": "Simple", "type": "object", "properties": { "q": { "type": "string" } } } ] }
        }
      }
    }
  ]
}"#;

    fn at(text: &str, tool: Option<&str>, path: Option<&str>) -> (String, String) {
        let place = ToolsList::parse(text)
            .locate(tool, path)
            .expect("the test list holds the place");
        (
            place.pointer,
            text[place.span.start..place.span.end].to_string(),
        )
    }

    #[test]
    fn fields_point_at_their_property_name() {
        assert_eq!(
            at(LIST, Some("get_time"), Some("input.zone")),
            (
                "/tools/0/inputSchema/properties/zone".into(),
                "\"zone\"".into()
            )
        );
        assert_eq!(
            at(LIST, Some("get_time"), Some("input.items[].a/b")).0,
            "/tools/0/inputSchema/properties/items/items/properties/a~1b"
        );
        assert_eq!(
            at(LIST, Some("get_time"), Some("input.query<Simple>.q")).0,
            "/tools/0/inputSchema/properties/query/anyOf/0/properties/q"
        );
    }

    #[test]
    fn tool_findings_point_at_the_name_and_unknown_parts_stop_the_walk() {
        assert_eq!(
            at(LIST, Some("get_time"), None),
            ("/tools/0".into(), "\"get_time\"".into())
        );
        assert_eq!(
            at(LIST, Some("get_time"), Some("input.missing.deeper")).0,
            "/tools/0/inputSchema"
        );
        assert_eq!(at(LIST, Some("get_time"), Some("output.x")).0, "/tools/0");
        assert!(ToolsList::parse(LIST).locate(Some("other"), None).is_none());
    }

    #[test]
    fn a_bare_array_and_a_byte_order_mark() {
        let text = "\u{FEFF}[{\"name\":\"t\"}]";
        let (pointer, shown) = at(text, Some("t"), None);
        assert_eq!((pointer.as_str(), shown.as_str()), ("/0", "\"t\""));
        assert_eq!(at(text, None, None).0, "");
    }

    #[test]
    fn split_path_reads_items_and_variants() {
        assert_eq!(
            split_path("input.q<V>.s[].x"),
            vec![
                Part::Member("input"),
                Part::Member("q"),
                Part::Variant("V"),
                Part::Member("s"),
                Part::Items,
                Part::Member("x"),
            ]
        );
    }
}
