//! The catalog format's vocabulary as data: which nodes go where, which properties each
//! takes, what each means and which values it allows (docs/catalog-format.md).
//!
//! The lowering checks nodes and properties against these lists, and the language server
//! answers hover and completion from them, so the two cannot drift apart. Keyword values are
//! never listed here: they are the `NAMES` of the `keyword_enum!` types ([`Effect`],
//! [`ErrorClass`], …).

use super::{
    BuiltinType, ConfirmDigest, ContentKind, Effect, ErrorClass, Format, InputKind, Retry,
    Stability, TimeoutStrategy, Unit,
};

/// Nodes at the top level of a catalog file.
pub const TOP_LEVEL: &[&str] = &["catalog", "type", "tool"];
/// Children of `catalog`.
pub const CATALOG_CHILDREN: &[&str] = &["summary"];
/// Children of `tool`.
pub const TOOL_CHILDREN: &[&str] = &[
    "title",
    "summary",
    "when",
    "when-not",
    "effect",
    "open-world",
    "limits",
    "input",
    "output",
    "error",
    "idempotency",
    "confirm",
    "resource",
    "on-timeout",
    "needs-input",
    "examples",
    "example-call",
    "deprecated",
    "stability",
    "allow",
];
/// Children of a named `type`.
pub const TYPE_CHILDREN: &[&str] = &["doc", "field"];
/// Children of `input`, `output` and an `object` field.
pub const OBJECT_CHILDREN: &[&str] = &["field"];
/// Children of `error`.
pub const ERROR_CHILDREN: &[&str] = &["message", "next-step", "detail"];
/// Children of `examples`.
pub const EXAMPLES_CHILDREN: &[&str] = &["call", "no-call", "confusable"];
/// Children of `example-call`.
pub const EXAMPLE_CALL_CHILDREN: &[&str] = &["arguments", "result"];
/// Children every field takes besides its type's own (`items`, `enum`, …).
pub const FIELD_CHILDREN: &[&str] = &["doc", "title", "examples"];
/// Children of `needs-input`.
pub const NEEDS_INPUT_CHILDREN: &[&str] = &["doc"];

/// The field types built into the format.
pub const TYPE_KEYWORDS: &[&str] = BuiltinType::NAMES;
/// Properties every field takes, whatever its type.
pub const COMMON_FIELD_PROPS: &[&str] = &[
    "required",
    "nullable",
    "default",
    "sensitive",
    "deprecated",
    "header",
    "const",
];
/// Properties of a `string` field.
pub const STRING_PROPS: &[&str] = &[
    "min-length",
    "max-length",
    "pattern",
    "format",
    "extensible",
];
/// Properties of a `cursor` field.
pub const CURSOR_PROPS: &[&str] = &["min-length", "max-length"];
/// Properties of an `integer` or `number` field.
pub const NUM_PROPS: &[&str] = &[
    "min",
    "max",
    "exclusive-min",
    "exclusive-max",
    "multiple-of",
    "unit",
];
/// Properties of an `array` field.
pub const ARRAY_PROPS: &[&str] = &["min-items", "max-items", "unique"];
/// Properties of a `map` field.
pub const MAP_PROPS: &[&str] = &["min-entries", "max-entries"];
/// Properties of a `union` field.
pub const UNION_PROPS: &[&str] = &["discriminator"];
/// Children of a union's `variant`.
pub const VARIANT_CHILDREN: &[&str] = &["doc", "field"];
/// Properties of `limits`.
pub const LIMITS_PROPS: &[&str] = &["max-items", "max-result-bytes", "timeout-ms"];
/// Properties of `error`.
pub const ERROR_PROPS: &[&str] = &["class", "retry"];
/// Properties of `idempotency`.
pub const IDEMPOTENCY_PROPS: &[&str] = &["key", "scope", "ttl-s"];
/// Properties of `effect`.
pub const EFFECT_PROPS: &[&str] = &["idempotent"];
/// Properties of `output`.
pub const OUTPUT_PROPS: &[&str] = &["kind"];

/// The type-specific properties of a field type keyword.
pub fn type_props(keyword: &str) -> &'static [&'static str] {
    match keyword {
        "string" => STRING_PROPS,
        "cursor" => CURSOR_PROPS,
        "integer" | "number" => NUM_PROPS,
        "array" => ARRAY_PROPS,
        "map" | "object" => MAP_PROPS,
        "union" => UNION_PROPS,
        _ => &[],
    }
}

/// The children a field (or `items`) of type `keyword` takes besides `doc`.
pub fn type_children(keyword: &str) -> &'static [&'static str] {
    match keyword {
        "string" | "integer" | "number" => &["enum"],
        "array" => &["items"],
        "map" => &["values"],
        "object" => &["field", "extra"],
        "union" => &["variant"],
        _ => &[],
    }
}

/// What a value is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// Free text.
    Text,
    /// `#true` or `#false`.
    Bool,
    /// A non-negative integer.
    Count,
    /// A number.
    Number,
    /// One of a closed set of keywords.
    Keyword(&'static [&'static str]),
    /// A field type: a built-in keyword or a type declared in the same file.
    Type,
    /// The name of a tool of the project.
    Tool,
    /// A lint rule ID.
    Rule,
    /// Any value of the field's type.
    Any,
}

/// One node of the format.
#[derive(Debug, Clone, Copy)]
pub struct NodeInfo {
    /// Its name.
    pub name: &'static str,
    /// The nodes it may appear in (`""`: the top level).
    pub parents: &'static [&'static str],
    /// How it is written.
    pub usage: &'static str,
    /// What it means.
    pub meaning: &'static str,
    /// Its properties (a field's type-specific ones come from [`type_props`]).
    pub props: &'static [&'static str],
    /// Its children (a field's type-specific ones come from [`type_children`]).
    pub children: &'static [&'static str],
    /// What its first argument is, when it takes one.
    pub arg: Option<ValueKind>,
}

const FIELD_PARENTS: &[&str] = &[
    "type", "input", "output", "field", "items", "values", "extra", "variant", "detail",
];
/// Where an element node (`items`, `values`, `extra`) may stand.
const ELEMENT_PARENTS: &[&str] = &["field", "items", "values", "extra"];
/// The nodes that carry a type: a field, an array's `items`, a map's `values`, an open
/// object's `extra`.
pub const TYPED_NODES: &[&str] = &["field", "items", "values", "extra"];
const TEXT: Option<ValueKind> = Some(ValueKind::Text);

/// Every node of the format.
pub const NODES: &[NodeInfo] = &[
    NodeInfo {
        name: "catalog",
        parents: &[""],
        usage: "catalog \"NAME\" version=\"1.0.0\" { summary \"…\" }",
        meaning: "The catalog this file holds; exactly one per file. Its name is unique across the catalogs loaded together.",
        props: &["version"],
        children: CATALOG_CHILDREN,
        arg: TEXT,
    },
    NodeInfo {
        name: "type",
        parents: &[""],
        usage: "type \"Name\" { doc \"…\" field … }",
        meaning: "A named object type, usable as a field type anywhere in this file and inlined in schemas.",
        props: &[],
        children: TYPE_CHILDREN,
        arg: TEXT,
    },
    NodeInfo {
        name: "tool",
        parents: &[""],
        usage: "tool \"resource_action\" version=\"1.0.0\" { … }",
        meaning: "One MCP tool. Its name is unique across every catalog loaded together.",
        props: &["version"],
        children: TOOL_CHILDREN,
        arg: TEXT,
    },
    NodeInfo {
        name: "summary",
        parents: &["catalog", "tool"],
        usage: "summary \"…\"",
        meaning: "One sentence: what the tool (or catalog) does. Required by lint (`selection/missing-text`).",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "title",
        parents: &["tool"],
        usage: "title \"…\"",
        meaning: "A human display title (MCP `title`).",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "when",
        parents: &["tool"],
        usage: "when \"…\"",
        meaning: "When the model should call the tool. Required by lint.",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "when-not",
        parents: &["tool"],
        usage: "when-not \"…\"",
        meaning: "When the model should not call the tool, naming the tool to use instead. Required by lint.",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "effect",
        parents: &["tool"],
        usage: "effect \"destructive\" idempotent=#true",
        meaning: "Required: the side-effect class, from which the MCP annotations are derived. `idempotent=#true` on `append`/`destructive`: repeating the call needs no key to be harmless.",
        props: EFFECT_PROPS,
        children: &[],
        arg: Some(ValueKind::Keyword(Effect::NAMES)),
    },
    NodeInfo {
        name: "open-world",
        parents: &["tool"],
        usage: "open-world #true",
        meaning: "The tool reaches outside the server's own data (`openWorldHint`); default `#true` for `external-read`, else `#false`.",
        props: &[],
        children: &[],
        arg: Some(ValueKind::Bool),
    },
    NodeInfo {
        name: "limits",
        parents: &["tool"],
        usage: "limits max-items=50 max-result-bytes=65536 timeout-ms=5000",
        meaning: "Result size and time bounds; each optional.",
        props: LIMITS_PROPS,
        children: &[],
        arg: None,
    },
    NodeInfo {
        name: "input",
        parents: &["tool"],
        usage: "input { field … }",
        meaning: "Required: the tool's arguments (the input JSON Schema).",
        props: &[],
        children: OBJECT_CHILDREN,
        arg: None,
    },
    NodeInfo {
        name: "output",
        parents: &["tool"],
        usage: "output { field … }",
        meaning: "The structured result (`outputSchema`); or `output kind=\"text\"` (`markdown`, `image`): an unstructured result sent as MCP content blocks, without `outputSchema`.",
        props: OUTPUT_PROPS,
        children: OBJECT_CHILDREN,
        arg: None,
    },
    NodeInfo {
        name: "error",
        parents: &["tool"],
        usage: "error \"CODE\" class=\"invalid-argument\" retry=\"never\" { message \"…\" next-step \"…\" }",
        meaning: "An error the tool may return; repeatable. `class` is required, `retry` defaults to the class's first policy.",
        props: ERROR_PROPS,
        children: ERROR_CHILDREN,
        arg: TEXT,
    },
    NodeInfo {
        name: "message",
        parents: &["error"],
        usage: "message \"…\"",
        meaning: "The error message the model sees.",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "next-step",
        parents: &["error"],
        usage: "next-step \"…\"",
        meaning: "What the model should do after this error.",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "detail",
        parents: &["error"],
        usage: "detail { field … }",
        meaning: "The typed fields an occurrence of the error carries to the model beside its message: a closed object, part of the error's contract.",
        props: &[],
        children: OBJECT_CHILDREN,
        arg: None,
    },
    NodeInfo {
        name: "idempotency",
        parents: &["tool"],
        usage: "idempotency key=\"FIELD\" scope=\"tenant\" \"operation\" ttl-s=86400",
        meaning: "How a repeated call is recognised: the input field carrying the key, its scope and how long it is remembered.",
        props: IDEMPOTENCY_PROPS,
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "confirm",
        parents: &["tool"],
        usage: "confirm digest=\"arguments\"",
        meaning: "The confirmation a destructive call must carry.",
        props: &["digest"],
        children: &[],
        arg: None,
    },
    NodeInfo {
        name: "resource",
        parents: &["tool"],
        usage: "resource key=\"FIELD\"",
        meaning: "On a write tool: the input field naming the resource it changes; the server runs the writes on one resource value one at a time.",
        props: &["key"],
        children: &[],
        arg: None,
    },
    NodeInfo {
        name: "on-timeout",
        parents: &["tool"],
        usage: "on-timeout \"query-status\" tool=\"STATUS_TOOL\"",
        meaning: "How the model recovers when a call times out; `tool=` (a read tool) with `query-status` only.",
        props: &["tool"],
        children: &[],
        arg: Some(ValueKind::Keyword(TimeoutStrategy::NAMES)),
    },
    NodeInfo {
        name: "needs-input",
        parents: &["tool"],
        usage: "needs-input \"NAME\" kind=\"confirmation\" { doc \"…\" }",
        meaning: "Input the tool may ask the user for during the call; repeatable.",
        props: &["kind"],
        children: NEEDS_INPUT_CHILDREN,
        arg: TEXT,
    },
    NodeInfo {
        name: "examples",
        parents: &["tool"],
        usage: "examples { call \"…\" no-call \"…\" confusable \"TOOL\" }",
        meaning: "Requests that should and should not select the tool (description and `export eval`).",
        props: &[],
        children: EXAMPLES_CHILDREN,
        arg: None,
    },
    NodeInfo {
        name: "call",
        parents: &["examples"],
        usage: "call \"…\"",
        meaning: "A request for which the model should call this tool.",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "no-call",
        parents: &["examples"],
        usage: "no-call \"…\"",
        meaning: "A request for which the model should call no tool like this one.",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "confusable",
        parents: &["examples"],
        usage: "confusable \"TOOL\"",
        meaning: "A similar tool the model may confuse with this one; checked by `selection/unknown-tool`.",
        props: &[],
        children: &[],
        arg: Some(ValueKind::Tool),
    },
    NodeInfo {
        name: "example-call",
        parents: &["tool"],
        usage: "example-call \"NAME\" { arguments #\"{\"a\": 1}\"#; result #\"{\"b\": 2}\"# }",
        meaning: "A concrete call and its result; repeatable. Checked against the schemas by lint (`output/example-invalid`), shown in docs, answered by `serve --mock`; enters no hash.",
        props: &[],
        children: EXAMPLE_CALL_CHILDREN,
        arg: TEXT,
    },
    NodeInfo {
        name: "arguments",
        parents: &["example-call"],
        usage: "arguments #\"{\"status\": \"open\"}\"#",
        meaning: "The example's arguments, as JSON text (default `{}`).",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "result",
        parents: &["example-call"],
        usage: "result #\"{\"items\": []}\"#",
        meaning: "The example's result: JSON text of the structured output, or the text itself for `output kind=\"text\"`/`\"markdown\"` (none for `image`).",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "deprecated",
        parents: &["tool"],
        usage: "deprecated \"reason\" replacement=\"OTHER_TOOL\" since=\"1.4.0\" sunset=\"2027-03-01\"",
        meaning: "The tool should no longer be used; every part optional. `since`: the version that deprecated it; `sunset`: the date (ISO 8601) from which it may be removed.",
        props: &["replacement", "since", "sunset"],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "stability",
        parents: &["tool"],
        usage: "stability \"experimental\"",
        meaning: "How much the tool's contract is promised: `experimental` (breaking changes need no major version), `beta` (they need one, but `--policy no-major` lets them pass) or `stable` (the default).",
        props: &[],
        children: &[],
        arg: Some(ValueKind::Keyword(Stability::NAMES)),
    },
    NodeInfo {
        name: "allow",
        parents: &["tool"],
        usage: "allow \"RULE-ID\" reason=\"…\"",
        meaning: "Suppresses one lint rule for this tool; repeatable; lint requires the reason.",
        props: &["reason"],
        children: &[],
        arg: Some(ValueKind::Rule),
    },
    NodeInfo {
        name: "field",
        parents: FIELD_PARENTS,
        usage: "field \"name\" \"TYPE\" required=#true … { doc \"…\" }",
        meaning: "One property of the JSON object: its name, type (built-in or a declared `type`) and constraints.",
        props: COMMON_FIELD_PROPS,
        children: FIELD_CHILDREN,
        arg: TEXT,
    },
    NodeInfo {
        name: "doc",
        parents: &["type", "field", "needs-input", "variant"],
        usage: "doc \"…\"",
        meaning: "What it is, for the model and for readers; becomes the schema `description`.",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "title",
        parents: &["field"],
        usage: "title \"…\"",
        meaning: "A short human label of the field; becomes the schema `title`.",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "examples",
        parents: &["field"],
        usage: "examples \"a\" \"b\" …",
        meaning: "Sample values of the field (JSON text for arrays, objects, maps and `json`); become the schema `examples` and must satisfy the field's constraints (`bounds/example-invalid`).",
        props: &[],
        children: &[],
        arg: Some(ValueKind::Any),
    },
    NodeInfo {
        name: "enum",
        parents: &["field", "items", "values", "extra"],
        usage: "enum \"a\" \"b\" …",
        meaning: "The only values a string, integer or number may take (`extensible=#true` on a string field: more may be added later).",
        props: &[],
        children: &[],
        arg: TEXT,
    },
    NodeInfo {
        name: "items",
        parents: ELEMENT_PARENTS,
        usage: "items \"TYPE\" …",
        meaning: "The type of an array's items, with its own constraints; `nullable=#true` admits `null` items.",
        props: &["nullable"],
        children: &[],
        arg: Some(ValueKind::Type),
    },
    NodeInfo {
        name: "extra",
        parents: ELEMENT_PARENTS,
        usage: "extra \"json\"",
        meaning: "Opens an `object`: every property its fields do not name has this type (a scalar type, `json`, an `array`, an `object` or a named type); `nullable=#true` admits `null`.",
        props: &["nullable"],
        children: &[],
        arg: Some(ValueKind::Type),
    },
    NodeInfo {
        name: "values",
        parents: ELEMENT_PARENTS,
        usage: "values \"string\" max-length=256",
        meaning: "The type of every value of a `map` (a scalar type, `json`, an `array`, an `object` or a named type), with its own constraints; `nullable=#true` admits `null`.",
        props: &["nullable"],
        children: &[],
        arg: Some(ValueKind::Type),
    },
    NodeInfo {
        name: "variant",
        parents: &["field", "items"],
        usage: "variant \"NAME\" { doc \"…\" field … }",
        meaning: "One object shape of a `union`: its fields besides the discriminator, whose value is NAME.",
        props: &[],
        children: VARIANT_CHILDREN,
        arg: TEXT,
    },
];

/// One property of the format.
#[derive(Debug, Clone, Copy)]
pub struct PropInfo {
    /// The node it is written on (`field` covers `items` too).
    pub node: &'static str,
    /// Its name.
    pub name: &'static str,
    /// What it means.
    pub meaning: &'static str,
    /// What its value is.
    pub value: ValueKind,
}

const fn prop(
    node: &'static str,
    name: &'static str,
    value: ValueKind,
    meaning: &'static str,
) -> PropInfo {
    PropInfo {
        node,
        name,
        meaning,
        value,
    }
}

/// Every property of the format.
pub const PROPS: &[PropInfo] = {
    use ValueKind::*;
    &[
        prop(
            "catalog",
            "version",
            Text,
            "The catalog's semver version (`catalog/version`).",
        ),
        prop(
            "tool",
            "version",
            Text,
            "The tool's own semver version; `catalogc breaking` checks its bumps.",
        ),
        prop(
            "limits",
            "max-items",
            Count,
            "Most items one result returns.",
        ),
        prop(
            "limits",
            "max-result-bytes",
            Count,
            "Largest result, in bytes.",
        ),
        prop(
            "limits",
            "timeout-ms",
            Count,
            "Longest a call may take, in milliseconds.",
        ),
        prop(
            "error",
            "class",
            Keyword(ErrorClass::NAMES),
            "Required: what kind of failure; decides the allowed retry policies.",
        ),
        prop(
            "error",
            "retry",
            Keyword(Retry::NAMES),
            "What the model may do after the error; default: the class's first policy.",
        ),
        prop(
            "idempotency",
            "key",
            Text,
            "Required: the input field carrying the idempotency key.",
        ),
        prop(
            "idempotency",
            "scope",
            Text,
            "What a key is unique within (followed by the node's arguments).",
        ),
        prop(
            "idempotency",
            "ttl-s",
            Count,
            "How long the server remembers a key, in seconds.",
        ),
        prop(
            "confirm",
            "digest",
            Keyword(ConfirmDigest::NAMES),
            "Required: what the confirmation digest covers.",
        ),
        prop(
            "resource",
            "key",
            Text,
            "Required: the top-level required scalar input field naming the resource.",
        ),
        prop(
            "on-timeout",
            "tool",
            Tool,
            "With `query-status`: the read tool that tells the outcome.",
        ),
        prop(
            "effect",
            "idempotent",
            Bool,
            "On `append`/`destructive`: a repeated call has no further effect without a key \
             (a delete by name, an upsert by natural key); `idempotentHint` becomes true.",
        ),
        prop(
            "output",
            "kind",
            Keyword(ContentKind::NAMES),
            "An unstructured result: MCP content blocks of this kind instead of structured \
             JSON; no `outputSchema`, no fields.",
        ),
        prop(
            "needs-input",
            "kind",
            Keyword(InputKind::NAMES),
            "Required: what kind of input is asked for.",
        ),
        prop(
            "deprecated",
            "replacement",
            Tool,
            "The tool to call instead.",
        ),
        prop(
            "deprecated",
            "since",
            Text,
            "The version of the tool that deprecated it (semver).",
        ),
        prop(
            "deprecated",
            "sunset",
            Text,
            "The date (`YYYY-MM-DD`) from which the tool may be removed: `breaking` fails on a removal before it.",
        ),
        prop(
            "allow",
            "reason",
            Text,
            "Why the rule does not apply to this tool.",
        ),
        prop("field", "required", Bool, "The field must be present."),
        prop(
            "field",
            "nullable",
            Bool,
            "`null` is a value of the field too (`\"type\": [T, \"null\"]`); `default=#null` needs it.",
        ),
        prop(
            "field",
            "default",
            Any,
            "The value a reader assumes when the field is absent.",
        ),
        prop(
            "field",
            "const",
            Any,
            "The only value the field takes (a string, number or boolean): the schema `const`, e.g. the discriminator of a tagged object.",
        ),
        prop(
            "field",
            "sensitive",
            Bool,
            "A secret or personal data: kept out of logs, redacted in generated `Debug`.",
        ),
        prop(
            "field",
            "deprecated",
            Bool,
            "Still accepted, no longer to be used.",
        ),
        prop(
            "field",
            "header",
            Text,
            "Mirror this input into the HTTP header `Mcp-Param-NAME` (MCP `x-mcp-header`), so \
             gateways can route on it; an HTTP token, string/integer/boolean fields only.",
        ),
        prop(
            "field",
            "min-length",
            Count,
            "Shortest string, in characters.",
        ),
        prop(
            "field",
            "max-length",
            Count,
            "Longest string, in characters (`bounds/string-unbounded` asks for it).",
        ),
        prop(
            "field",
            "pattern",
            Text,
            "An anchored ECMA-262 regular expression the whole value matches.",
        ),
        prop(
            "field",
            "format",
            Keyword(Format::NAMES),
            "A well-known string format.",
        ),
        prop(
            "field",
            "extensible",
            Bool,
            "The `enum` may gain values later; clients must accept unknown ones.",
        ),
        prop(
            "field",
            "min",
            Number,
            "Smallest allowed value (inclusive).",
        ),
        prop("field", "max", Number, "Largest allowed value (inclusive)."),
        prop(
            "field",
            "exclusive-min",
            Number,
            "The value must be greater.",
        ),
        prop(
            "field",
            "exclusive-max",
            Number,
            "The value must be smaller.",
        ),
        prop(
            "field",
            "multiple-of",
            Number,
            "The value is a multiple of it (positive).",
        ),
        prop(
            "field",
            "unit",
            Keyword(Unit::NAMES),
            "What the number counts.",
        ),
        prop("field", "min-items", Count, "Fewest items in the array."),
        prop(
            "field",
            "max-items",
            Count,
            "Most items in the array (`bounds/array-unbounded` asks for it).",
        ),
        prop("field", "unique", Bool, "No two items are equal."),
        prop(
            "field",
            "min-entries",
            Count,
            "Fewest keys in the map, or properties of an open object.",
        ),
        prop(
            "field",
            "discriminator",
            Text,
            "The property whose string value names the union's variant (required).",
        ),
        prop(
            "field",
            "max-entries",
            Count,
            "Most keys in the map, or properties of an open object (`bounds/free-form` asks for it).",
        ),
    ]
};

/// The node `name` as a child of `parent` (`""`: top level); with no exact match, the first
/// node of that name anywhere.
pub fn node(parent: &str, name: &str) -> Option<&'static NodeInfo> {
    NODES
        .iter()
        .find(|n| n.name == name && n.parents.contains(&parent))
        .or_else(|| NODES.iter().find(|n| n.name == name))
}

/// The property `name` of node `node` (`items` and `values` read as `field`).
pub fn property(node: &str, name: &str) -> Option<&'static PropInfo> {
    let node = if matches!(node, "items" | "values" | "extra") {
        "field"
    } else {
        node
    };
    PROPS.iter().find(|p| p.node == node && p.name == name)
}

/// The children `parent` takes (`""`: the top level); `ty` is a field's type argument.
pub fn children_of(parent: &str, ty: Option<&str>) -> Vec<&'static str> {
    if parent.is_empty() {
        return TOP_LEVEL.to_vec();
    }
    let mut out: Vec<&str> = match parent {
        "items" | "values" | "extra" => Vec::new(),
        _ => NODES
            .iter()
            .find(|n| n.name == parent)
            .map_or(Vec::new(), |n| n.children.to_vec()),
    };
    if TYPED_NODES.contains(&parent) {
        match ty {
            Some(t) => out.extend_from_slice(type_children(t)),
            None => out.extend_from_slice(&["enum", "items", "values", "extra", "field"]),
        }
    }
    out
}

/// The properties `node` takes; `ty` is a field's type argument.
pub fn props_of(node: &str, ty: Option<&str>) -> Vec<&'static str> {
    let mut out: Vec<&str> = match node {
        "field" => COMMON_FIELD_PROPS.to_vec(),
        "items" | "values" | "extra" => vec!["nullable"],
        _ => NODES
            .iter()
            .find(|n| n.name == node)
            .map_or(Vec::new(), |n| n.props.to_vec()),
    };
    if TYPED_NODES.contains(&node)
        && let Some(t) = ty
    {
        out.extend_from_slice(type_props(t));
    }
    out
}

/// Markdown: what node `name` (in `parent`) means, how it is written, its properties and
/// the values its argument allows.
pub fn node_markdown(parent: &str, name: &str) -> Option<String> {
    let n = node(parent, name)?;
    let mut md = format!(
        "**`{}`**: {}\n\n```kdl\n{}\n```",
        n.name, n.meaning, n.usage
    );
    if let Some(ValueKind::Keyword(values)) = n.arg {
        md.push_str(&format!("\n\nValues: {}", super::read::quoted_list(values)));
    }
    if !n.props.is_empty() {
        md.push_str(&format!(
            "\n\nProperties: {}",
            super::read::quoted_list(n.props)
        ));
    }
    let children = children_of(n.name, None);
    if !children.is_empty() {
        md.push_str(&format!(
            "\n\nChildren: {}",
            super::read::quoted_list(&children)
        ));
    }
    Some(md)
}

/// Markdown: what property `name` of `node` means and the values it allows.
pub fn property_markdown(node: &str, name: &str) -> Option<String> {
    let p = property(node, name)?;
    let value = match p.value {
        ValueKind::Text => "a string".to_string(),
        ValueKind::Bool => "`#true` or `#false`".to_string(),
        ValueKind::Count => "a non-negative integer".to_string(),
        ValueKind::Number => "a number".to_string(),
        ValueKind::Keyword(values) => format!("one of {}", super::read::quoted_list(values)),
        ValueKind::Type => "a field type".to_string(),
        ValueKind::Tool => "the name of a tool of the project".to_string(),
        ValueKind::Rule => "a lint rule ID".to_string(),
        ValueKind::Any => "a value of the field's type".to_string(),
    };
    let owners = if p.node == "field" {
        let types: Vec<&str> = TYPE_KEYWORDS
            .iter()
            .copied()
            .filter(|t| type_props(t).contains(&p.name))
            .collect();
        if types.is_empty() {
            String::new()
        } else {
            format!(" (on {} fields)", super::read::quoted_list(&types))
        }
    } else {
        String::new()
    };
    Some(format!(
        "**`{}=`** on `{}`{owners}: {}\n\nValue: {value}",
        p.name, p.node, p.meaning
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_node_and_property_is_described() {
        for parent in NODES.iter().map(|n| n.name).chain([""]) {
            for child in children_of(parent, None) {
                let n = node(parent, child);
                assert!(
                    n.is_some_and(|n| n.parents.contains(&parent)),
                    "{parent} > {child}"
                );
            }
        }
        for n in NODES {
            for p in props_of(n.name, None) {
                assert!(property(n.name, p).is_some(), "{} {p}", n.name);
            }
        }
        for t in TYPE_KEYWORDS {
            for p in type_props(t) {
                assert!(property("field", p).is_some(), "{t} {p}");
            }
        }
        for p in PROPS {
            assert!(
                props_of(p.node, None).contains(&p.name) || p.node == "field",
                "{}",
                p.name
            );
        }
    }

    #[test]
    fn keyword_values_come_from_the_enums() {
        assert_eq!(
            property("tool", "version").map(|p| p.value),
            Some(ValueKind::Text)
        );
        assert_eq!(
            property("error", "class").map(|p| p.value),
            Some(ValueKind::Keyword(ErrorClass::NAMES))
        );
        let md = node_markdown("tool", "effect").unwrap_or_default();
        assert!(md.contains("`external-read`"), "{md}");
        let md = property_markdown("field", "max-length").unwrap_or_default();
        assert!(md.contains("`string`, `cursor`"), "{md}");
    }
}
