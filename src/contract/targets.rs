//! What each LLM provider accepts as a tool definition, and each tool's definition for it:
//! one table of rules ([`RULES`]: names, description lengths, schema keywords and formats)
//! that both `catalogc export openai|anthropic|gemini` and the `target/*` lint rules
//! (`catalogc lint --target …`) read, so what the linter warns about is exactly what the
//! export drops or refuses. Sources for every rule are in docs/providers.md.
//!
//! Choices where the providers are silent or disagree:
//! - OpenAI strict mode requires every property; an optional field becomes required and
//!   nullable (`"type": ["string","null"]`, `null` added to an `enum`; an object as
//!   `anyOf` with `{"type":"null"}`). The model then sends `null` for "absent", which the
//!   contract (and generated validation) rejects: a client forwards such a call to the MCP
//!   server without its `null` members.
//! - Gemini has no `exclusiveMinimum`/`exclusiveMaximum`: on an integer they become the
//!   equivalent `minimum`/`maximum` (±1, nothing lost); on a number they are dropped.
//! - `$schema` is left out of every provider export (it names the dialect, constrains
//!   nothing, and Gemini's schema has no such field), and Gemini's `additionalProperties`
//!   too (its schema has no such field; every contract object is closed, so the loss is the
//!   same for every tool); neither is reported as a loss.
//! - A kept keyword is kept as the contract states it; what a target drops is reported, never
//!   weakened silently, and the server still enforces it when the call arrives.

use super::{Artifacts, catalogs_by_name};
use crate::model::{Project, Tool};
use serde_json::{Map, Value, json};

/// A place a tool definition goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Target {
    /// OpenAI function tools in strict mode.
    Openai,
    /// Anthropic Messages API tools.
    Anthropic,
    /// Gemini function declarations.
    Gemini,
    /// MCP `tools/list` (what `export tools-json` prints).
    Mcp,
}

impl Target {
    /// Every target, in [`RULES`] order.
    pub const ALL: [Target; 4] = [
        Target::Openai,
        Target::Anthropic,
        Target::Gemini,
        Target::Mcp,
    ];

    /// The target's rules.
    pub fn rules(self) -> &'static TargetRules {
        &RULES[self as usize]
    }

    /// The spelling on the command line.
    pub fn as_str(self) -> &'static str {
        self.rules().id
    }
}

/// What a tool name must look like on a target: `first` for the first character, `rest` for
/// the others, 1 to `max` characters (ASCII, so characters are bytes).
#[derive(Debug)]
pub struct NameRule {
    /// The rule as the provider's documentation states it, as a regular expression.
    pub pattern: &'static str,
    /// Longest name.
    pub max: usize,
    first: fn(char) -> bool,
    rest: fn(char) -> bool,
}

impl NameRule {
    /// Whether `name` satisfies the rule.
    pub fn accepts(&self, name: &str) -> bool {
        let mut chars = name.chars();
        chars.next().is_some_and(self.first)
            && chars.all(self.rest)
            && name.chars().count() <= self.max
    }
}

/// One target's rules.
#[derive(Debug)]
pub struct TargetRules {
    /// `openai`, `anthropic`, `gemini`, `mcp`.
    pub id: &'static str,
    /// What the definition is called there.
    pub what: &'static str,
    /// Tool names.
    pub name: NameRule,
    /// Names of the input's properties (top level, where the providers check them), when
    /// the target restricts them.
    pub field_name: Option<NameRule>,
    /// Longest description in characters, when the target has a limit.
    pub description_max: Option<usize>,
    /// The schema keywords the target keeps; `None`: all of them.
    pub keywords: Option<&'static [&'static str]>,
    /// The string formats the target keeps; `None`: all of them.
    pub formats: Option<&'static [&'static str]>,
    /// Where the rules are documented (docs/providers.md cites more).
    pub source: &'static str,
}

fn alnum_us_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn mcp_name_char(c: char) -> bool {
    alnum_us_dash(c) || c == '.'
}

fn gemini_first(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn gemini_rest(c: char) -> bool {
    mcp_name_char(c) || c == ':'
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The one table of provider rules, indexed by [`Target`].
pub static RULES: [TargetRules; 4] = [
    TargetRules {
        id: "openai",
        what: "OpenAI function tool in strict mode",
        name: NameRule {
            pattern: "^[a-zA-Z0-9_-]{1,64}$",
            max: 64,
            first: alnum_us_dash,
            rest: alnum_us_dash,
        },
        field_name: None,
        description_max: Some(1024),
        keywords: Some(&[
            "type",
            "description",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "enum",
            "anyOf",
            "pattern",
            "format",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minItems",
            "maxItems",
        ]),
        formats: Some(&[
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "ipv4",
            "ipv6",
            "uuid",
        ]),
        source: "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
    },
    TargetRules {
        id: "anthropic",
        what: "Anthropic tool",
        name: NameRule {
            pattern: "^[a-zA-Z0-9_-]{1,128}$",
            max: 128,
            first: alnum_us_dash,
            rest: alnum_us_dash,
        },
        field_name: Some(NameRule {
            pattern: "^[a-zA-Z0-9_.-]{1,64}$",
            max: 64,
            first: mcp_name_char,
            rest: mcp_name_char,
        }),
        description_max: None,
        keywords: None,
        formats: None,
        source: "https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools",
    },
    TargetRules {
        id: "gemini",
        what: "Gemini function declaration",
        name: NameRule {
            pattern: "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$",
            max: 64,
            first: gemini_first,
            rest: gemini_rest,
        },
        field_name: Some(NameRule {
            pattern: "^[a-zA-Z_][a-zA-Z0-9_]{0,63}$",
            max: 64,
            first: gemini_first,
            rest: word_char,
        }),
        description_max: None,
        keywords: Some(&[
            "type",
            "description",
            "properties",
            "required",
            "items",
            "enum",
            "format",
            "nullable",
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
            "pattern",
            "minimum",
            "maximum",
            "default",
            "title",
            "anyOf",
        ]),
        formats: Some(&["date-time", "enum"]),
        source: "https://ai.google.dev/api/caching#Schema",
    },
    TargetRules {
        id: "mcp",
        what: "MCP tool",
        name: NameRule {
            pattern: "^[a-zA-Z0-9_.-]{1,128}$",
            max: 128,
            first: mcp_name_char,
            rest: mcp_name_char,
        },
        field_name: None,
        description_max: None,
        keywords: None,
        formats: None,
        source: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names",
    },
];

/// A constraint a target's definition cannot carry.
#[derive(Debug, Clone, PartialEq)]
pub struct Loss {
    /// Property names from the schema's root to the object or field that loses it; an array's
    /// items add `[]` to the last name (`items[]`), as lint paths do.
    pub path: Vec<String>,
    /// The keyword.
    pub keyword: String,
    /// Its value in the contract.
    pub value: Value,
}

impl Loss {
    /// The dotted path as lint rules report it, under `side` (`input.items[].amount`).
    pub fn dotted(&self, side: &str) -> String {
        let mut s = side.to_string();
        for p in &self.path {
            if p == "[]" {
                s.push_str("[]");
            } else {
                s.push('.');
                s.push_str(p);
            }
        }
        s
    }
}

/// `schema` as `target` takes it, and what it had to drop. `schema` is an input schema as the
/// contract layer emits it.
pub fn convert(target: Target, schema: &Value) -> (Value, Vec<Loss>) {
    let mut losses = Vec::new();
    let mut path = Vec::new();
    let out = convert_at(target, schema, &mut path, &mut losses);
    (out, losses)
}

fn convert_at(
    target: Target,
    schema: &Value,
    path: &mut Vec<String>,
    losses: &mut Vec<Loss>,
) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let rules = target.rules();
    let integer = map.get("type").and_then(Value::as_str) == Some("integer");
    let mut out = Map::new();
    for (key, value) in map {
        // Structural, not an author's constraint: `$schema` names the dialect; every
        // contract object is closed, so Gemini losing `additionalProperties: false` is the
        // same for every tool and nothing a catalog can change (docs/providers.md says it once).
        if key == "$schema" || (target == Target::Gemini && key == "additionalProperties") {
            continue;
        }
        match key.as_str() {
            "properties" => {
                let mut props = Map::new();
                for (name, sub) in value.as_object().into_iter().flatten() {
                    path.push(name.clone());
                    props.insert(name.clone(), convert_at(target, sub, path, losses));
                    path.pop();
                }
                out.insert(key.clone(), Value::Object(props));
                continue;
            }
            "items" => {
                let pushed = match path.last_mut() {
                    Some(last) => {
                        last.push_str("[]");
                        false
                    }
                    None => {
                        path.push("[]".into());
                        true
                    }
                };
                let items = convert_at(target, value, path, losses);
                if pushed {
                    path.pop();
                } else if let Some(last) = path.last_mut() {
                    last.truncate(last.len() - 2);
                }
                out.insert(key.clone(), items);
                continue;
            }
            _ => {}
        }
        if target == Target::Gemini
            && integer
            && let Some(n) = value.as_i64()
        {
            let (as_key, n) = match key.as_str() {
                "exclusiveMinimum" => ("minimum", n.checked_add(1)),
                "exclusiveMaximum" => ("maximum", n.checked_sub(1)),
                _ => ("", None),
            };
            if let Some(n) = n {
                out.insert(as_key.into(), json!(n));
                continue;
            }
        }
        let kept = rules.keywords.is_none_or(|k| k.contains(&key.as_str()));
        let format_kept = key != "format"
            || rules
                .formats
                .is_none_or(|f| value.as_str().is_some_and(|v| f.contains(&v)));
        if kept && format_kept {
            out.insert(key.clone(), value.clone());
        } else {
            losses.push(Loss {
                path: path.clone(),
                keyword: key.clone(),
                value: value.clone(),
            });
        }
    }
    if target == Target::Openai {
        make_strict(&mut out);
    }
    Value::Object(out)
}

/// OpenAI strict mode: every property required, the optional ones nullable.
fn make_strict(obj: &mut Map<String, Value>) {
    let required: Vec<String> = obj
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(String::from))
        .collect();
    let Some(Value::Object(props)) = obj.get_mut("properties") else {
        return;
    };
    let mut all = Vec::with_capacity(props.len());
    for (name, sub) in props.iter_mut() {
        all.push(json!(name));
        if !required.contains(name) {
            nullable(sub);
        }
    }
    obj.insert("required".into(), Value::Array(all));
}

fn nullable(schema: &mut Value) {
    let Value::Object(m) = schema else { return };
    match m.get("type").cloned() {
        Some(Value::String(t)) if t == "object" => {
            let description = m.remove("description");
            let inner = Value::Object(std::mem::take(m));
            m.insert("anyOf".into(), json!([inner, {"type": "null"}]));
            if let Some(d) = description {
                m.insert("description".into(), d);
            }
        }
        Some(Value::String(t)) => {
            m.insert("type".into(), json!([t, "null"]));
            if let Some(Value::Array(values)) = m.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        _ => {}
    }
}

/// Why a tool cannot be exported to a target at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The name breaks the target's name rule.
    Name,
    /// This input field's name breaks the target's property-name rule.
    FieldName(String),
    /// The description is over the target's limit (its length in characters).
    Description(usize),
}

/// What `catalogc export <target>` found: each refusal and loss, by tool.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// `(tool, refusal)`: tools that cannot be exported.
    pub refused: Vec<(String, Refusal)>,
    /// `(tool, loss)`: constraints the definitions do not carry.
    pub lost: Vec<(String, Loss)>,
}

/// Why `tool`, with the rendered `description`, cannot go to `target`, if it cannot.
pub fn refusals(target: Target, tool: &Tool, description: &str) -> Vec<Refusal> {
    let rules = target.rules();
    let mut out = Vec::new();
    if !rules.name.accepts(&tool.name.value) {
        out.push(Refusal::Name);
    }
    if let Some(rule) = &rules.field_name {
        for f in &tool.input.fields {
            if !rule.accepts(&f.name.value) {
                out.push(Refusal::FieldName(f.name.value.clone()));
            }
        }
    }
    let len = description.chars().count();
    if rules.description_max.is_some_and(|max| len > max) {
        out.push(Refusal::Description(len));
    }
    out
}

/// The `tools` member of a request to `target` (`mcp`: the `tools/list` payload), over every
/// tool of `project` in `tools/list` order, and what it refused and dropped.
pub fn export(target: Target, project: &Project, artifacts: &Artifacts) -> (Value, Report) {
    let mut report = Report::default();
    let mut defs = Vec::new();
    for c in catalogs_by_name(project) {
        let cat = &project.catalogs[c];
        for (t, tool) in cat.tools.iter().enumerate() {
            let Some(contract) = artifacts.tool(c, t) else {
                continue;
            };
            let name = tool.name.value.as_str();
            let refused = refusals(target, tool, &contract.description);
            if !refused.is_empty() {
                report
                    .refused
                    .extend(refused.into_iter().map(|r| (name.to_string(), r)));
                continue;
            }
            if target == Target::Mcp {
                defs.push(contract.definition_value());
                continue;
            }
            let (schema, losses) = convert(target, &contract.input_schema_value());
            report
                .lost
                .extend(losses.into_iter().map(|l| (name.to_string(), l)));
            let description = &contract.description;
            defs.push(match target {
                Target::Openai => json!({
                    "type": "function",
                    "function": {
                        "name": name,
                        "description": description,
                        "parameters": schema,
                        "strict": true,
                    },
                }),
                Target::Anthropic => json!({
                    "name": name,
                    "description": description,
                    "input_schema": schema,
                }),
                Target::Gemini | Target::Mcp => json!({
                    "name": name,
                    "description": description,
                    "parameters": schema,
                }),
            });
        }
    }
    let value = match target {
        Target::Gemini => json!({ "tools": [{ "functionDeclarations": defs }] }),
        _ => json!({ "tools": defs }),
    };
    (value, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> Value {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "reference": {"type": "string", "maxLength": 32, "pattern": "^INV-[0-9]+$"},
                "count": {"type": "integer", "exclusiveMinimum": 0, "maximum": 50, "default": 10},
                "state": {"type": "string", "enum": ["open", "paid"]},
                "due": {"type": "string", "format": "date"},
                "filter": {"type": "object", "description": "Narrows the list.",
                           "properties": {"tag": {"type": "string"}}, "additionalProperties": false},
                "ids": {"type": "array", "items": {"type": "string", "minLength": 2}, "uniqueItems": true}
            },
            "required": ["reference"],
            "additionalProperties": false
        })
    }

    fn lost(losses: &[Loss]) -> Vec<String> {
        losses
            .iter()
            .map(|l| format!("{}:{}", l.dotted("input"), l.keyword))
            .collect()
    }

    #[test]
    fn openai_strict_requires_everything_and_drops_what_it_cannot_say() {
        let (s, losses) = convert(Target::Openai, &input());
        assert!(s.get("$schema").is_none());
        assert_eq!(
            s["required"],
            json!(["reference", "count", "state", "due", "filter", "ids"])
        );
        assert_eq!(s["properties"]["count"]["type"], json!(["integer", "null"]));
        assert_eq!(
            s["properties"]["state"]["enum"],
            json!(["open", "paid", null])
        );
        assert_eq!(
            s["properties"]["filter"]["anyOf"][1],
            json!({"type": "null"})
        );
        assert_eq!(
            s["properties"]["filter"]["description"],
            json!("Narrows the list.")
        );
        assert_eq!(
            s["properties"]["filter"]["anyOf"][0]["required"],
            json!(["tag"])
        );
        assert_eq!(
            lost(&losses),
            [
                "input.reference:maxLength",
                "input.count:default",
                "input.ids[]:minLength",
                "input.ids:uniqueItems"
            ]
        );
    }

    #[test]
    fn gemini_keeps_its_subset_and_rewrites_integer_exclusive_bounds() {
        let (s, losses) = convert(Target::Gemini, &input());
        assert_eq!(s["properties"]["count"]["minimum"], json!(1));
        assert!(s["properties"]["count"].get("exclusiveMinimum").is_none());
        assert_eq!(lost(&losses), ["input.due:format", "input.ids:uniqueItems"]);
    }

    #[test]
    fn anthropic_and_mcp_keep_the_schema() {
        for t in [Target::Anthropic, Target::Mcp] {
            let (s, losses) = convert(t, &input());
            assert!(losses.is_empty());
            assert_eq!(s["properties"], input()["properties"]);
        }
    }

    #[test]
    fn name_rules() {
        let long = "a".repeat(65);
        assert!(Target::Openai.rules().name.accepts("invoice_list"));
        assert!(!Target::Openai.rules().name.accepts("billing.invoice_list"));
        assert!(!Target::Openai.rules().name.accepts(&long));
        assert!(Target::Anthropic.rules().name.accepts(&long));
        assert!(Target::Gemini.rules().name.accepts("billing.invoice:list"));
        assert!(!Target::Gemini.rules().name.accepts("1invoice"));
        assert!(Target::Mcp.rules().name.accepts("billing.invoice_list"));
        assert!(!Target::Mcp.rules().name.accepts(""));
        for t in Target::ALL {
            assert_eq!(t.rules().id, t.as_str());
        }
        let gemini = Target::Gemini.rules().field_name.as_ref();
        assert!(gemini.is_some_and(|r| r.accepts("_code2") && !r.accepts("2fa_code")));
        let anthropic = Target::Anthropic.rules().field_name.as_ref();
        assert!(anthropic.is_some_and(|r| r.accepts("2fa.code") && !r.accepts("a b")));
    }
}
