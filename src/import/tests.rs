use super::*;

fn imported(json: &str) -> Imported {
    match import(json, "t") {
        Ok(i) => i,
        Err(e) => panic!("{e}"),
    }
}

/// The imported catalog loads without syntax or model errors.
fn assert_loads(i: &Imported) {
    let loaded = crate::project::load_source(std::path::Path::new("t.kdl"), i.text.clone());
    let errors: Vec<&str> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.rule.starts_with("model/") || d.rule.starts_with("syntax/"))
        .map(|d| d.rule.as_ref())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{}", i.text);
}

#[test]
fn a_tool_list_becomes_a_canonical_catalog() {
    let i = imported(
        r#"{"tools":[{"name":"get_time","title":"Get time","description":"Current time in a zone. Use this when the user asks for the time. Do not use for conversions.",
        "inputSchema":{"type":"object","properties":{"timezone":{"type":"string","description":"IANA zone","maxLength":64,"pattern":"^[A-Za-z/_]+$","default":"UTC"},
        "n":{"type":"integer","minimum":1,"maximum":10}},"required":["timezone"],"additionalProperties":false},
        "annotations":{"readOnlyHint":true,"openWorldHint":false}}]}"#,
    );
    assert_eq!(i.tools, 1);
    assert!(i.notes.is_empty(), "{:?}", i.notes);
    assert_eq!(crate::fmt::format(&i.text).as_deref(), Ok(i.text.as_str()));
    assert!(
        i.text
            .contains("when \"Use this when the user asks for the time.\""),
        "{}",
        i.text
    );
    assert!(
        i.text.contains("when-not \"Do not use for conversions.\""),
        "{}",
        i.text
    );
    assert!(
        i.text.contains("summary \"Current time in a zone.\""),
        "{}",
        i.text
    );
    assert!(
        i.text.contains(r#"field "timezone" "string" required=#true max-length=64 pattern="^[A-Za-z/_]+$" default="UTC""#),
        "{}",
        i.text
    );
    assert!(
        i.text.contains("effect \"read\"\n    open-world #false"),
        "{}",
        i.text
    );
}

#[test]
fn what_cannot_be_said_is_a_comment_at_its_place_and_a_note() {
    let i = imported(
        r#"[{"name":"q","description":"Runs a query.","inputSchema":{"type":"object","properties":{
        "filter":{"type":"object","additionalProperties":true,"description":"A filter"},
        "limit":{"anyOf":[{"type":"number"},{"type":"null"}]},
        "ip":{"type":"string","format":"ipv8"}}}}]"#,
    );
    let whats: Vec<&str> = i.notes.iter().map(|n| n.what.as_str()).collect();
    assert!(
        whats
            .iter()
            .any(|w| w.contains("open object (no `additionalProperties`)")),
        "{whats:?}"
    );
    assert!(
        whats.iter().any(|w| w.contains("format \"ipv8\"")),
        "{whats:?}"
    );
    assert!(
        whats.iter().any(|w| w.contains("effect `append` guessed")),
        "{whats:?}"
    );
    for n in &i.notes {
        assert!(
            i.text.contains(&n.what),
            "comment for {n} missing in\n{}",
            i.text
        );
    }
    let paths: Vec<&str> = i.notes.iter().map(|n| n.path.as_str()).collect();
    assert!(paths.contains(&"input.ip"), "{paths:?}");
}

#[test]
fn open_maps_any_values_and_null_have_their_own_forms() {
    let i = imported(
        r#"[{"name":"q","description":"Runs a query.","annotations":{"readOnlyHint":true},
        "inputSchema":{"type":"object","additionalProperties":false,"properties":{
        "filter":{"type":"object","additionalProperties":true,"description":"A filter"},
        "labels":{"type":"object","additionalProperties":{"type":"string","maxLength":63},"maxProperties":64},
        "nested":{"type":"object","additionalProperties":{"type":"object","properties":{"x":{"type":"string"}}}},
        "limit":{"anyOf":[{"type":"integer","maximum":50},{"type":"null"}],"default":null},
        "kind":{"type":["string","null"],"enum":["a","b",null]},
        "any":{"description":"Anything."},
        "ip":{"type":"string","format":"ipv6"}}}}]"#,
    );
    for line in [
        r#"field "filter" "map" {"#,
        r#"values "json""#,
        r#"field "labels" "map" max-entries=64 {"#,
        r#"values "string" max-length=63"#,
        r#"field "limit" "integer" nullable=#true max=50 default=#null"#,
        r#"field "any" "json" {"#,
        r#"field "ip" "string" format="ipv6""#,
    ] {
        assert!(i.text.contains(line), "{line} in\n{}", i.text);
    }
    let whats: Vec<&str> = i.notes.iter().map(|n| n.what.as_str()).collect();
    // The map of objects keeps its value fields; only its open value object is closed.
    let paths: Vec<&str> = i.notes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(paths, ["input.nested{}"], "{whats:?}");
    assert!(whats[0].contains("closed by import"), "{whats:?}");
    assert_loads(&i);
}

#[test]
fn maps_of_objects_and_arrays_and_nullable_items_keep_their_form() {
    let i = imported(
        r#"[{"name":"q","description":"Runs a query.","annotations":{"readOnlyHint":true},
        "inputSchema":{"type":"object","additionalProperties":false,"properties":{
        "quota":{"type":"object","maxProperties":8,"additionalProperties":{"type":"object",
            "additionalProperties":false,"required":["cpu"],"properties":{"cpu":{"type":"integer","maximum":64}}}},
        "tags":{"type":"object","additionalProperties":{"type":"array","maxItems":4,"items":{"type":"string","maxLength":9}}},
        "deep":{"type":"object","additionalProperties":{"type":"object","additionalProperties":{"type":"string"}}},
        "cells":{"type":"array","maxItems":9,"items":{"type":["string","null"],"maxLength":5}},
        "marks":{"type":"array","maxItems":9,"items":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}}}]"#,
    );
    for line in [
        r#"values "object" {"#,
        r#"field "cpu" "integer" required=#true max=64"#,
        r#"values "array" max-items=4 {"#,
        r#"items "string" max-length=5 nullable=#true"#,
        r#"items "integer" nullable=#true"#,
    ] {
        assert!(
            i.text.contains(line),
            "{line} in
{}",
            i.text
        );
    }
    let paths: Vec<&str> = i.notes.iter().map(|n| n.path.as_str()).collect();
    // Only the map of maps has no form.
    assert_eq!(paths, ["input.deep{}"], "{:?}", i.notes);
    assert_loads(&i);
}

#[test]
fn refs_resolve_and_recursion_stops() {
    let i = imported(
        r##"[{"name":"list_nodes","inputSchema":{"type":"object","$defs":{"N":{"type":"object","properties":{"child":{"$ref":"#/$defs/N"},"tag":{"type":"string","maxLength":3}},"additionalProperties":false}},
        "properties":{"root":{"$ref":"#/$defs/N"}},"additionalProperties":false}}]"##,
    );
    assert!(
        i.text.contains(r#"field "tag" "string" max-length=3"#),
        "{}",
        i.text
    );
    assert!(
        i.notes.iter().any(|n| n.what.contains("recursive")),
        "{:?}",
        i.notes
    );
}

#[test]
fn bad_input_is_an_error_or_a_note_never_a_panic() {
    assert!(matches!(import("{", "t"), Err(ImportError::Json(_))));
    assert!(matches!(
        import("{\"x\":1}", "t"),
        Err(ImportError::Shape(_))
    ));
    assert!(matches!(import("3", "t"), Err(ImportError::Shape(_))));
    let i = imported(
        r#"[1, {"name":2}, {"name":"a"}, {"name":"a"}, {"name":"b","inputSchema":{"type":"string"}}]"#,
    );
    assert_eq!(i.tools, 2);
    assert_eq!(i.notes.iter().filter(|n| n.tool.is_empty()).count(), 3);
    let deep = format!(
        "[{{\"name\":\"d\",\"inputSchema\":{}{}}}]",
        "{\"type\":\"object\",\"properties\":{\"x\":".repeat(40),
        "{}".to_string() + &"}}".repeat(40)
    );
    let i = imported(&deep);
    assert!(
        i.notes.iter().any(|n| n.what.contains("nested deeper")),
        "{:?}",
        i.notes
    );
}

#[test]
fn descriptions_split_only_where_they_say_when() {
    let s =
        split_description("Lists pods.\nUse when you need pod names. Not for logs; use pods_log.");
    assert_eq!(s.summary, "Lists pods.");
    assert_eq!(s.when.as_deref(), Some("Use when you need pod names."));
    assert_eq!(s.when_not.as_deref(), Some("Not for logs; use pods_log."));
    let s = split_description("Reads a file. Returns v1.2 text.");
    assert_eq!(s.summary, "Reads a file. Returns v1.2 text.");
    assert!(s.when.is_none() && s.when_not.is_none());
}

#[test]
fn headers_and_units_are_kept() {
    let i = imported(
        r#"[{"name":"charge","description":"Charges an account.",
        "inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},
        "amount":{"type":"integer","minimum":0,"x-unit":"minor"}},"additionalProperties":false},
        "annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}}]"#,
    );
    assert!(i.notes.is_empty(), "{:?}", i.notes);
    assert!(
        i.text
            .contains(r#"field "region" "string" header="Region""#),
        "{}",
        i.text
    );
    assert!(
        i.text
            .contains(r#"field "amount" "integer" min=0 unit="minor""#),
        "{}",
        i.text
    );
}

#[test]
fn notes_say_their_json_path() {
    let i = imported(
        r#"[{"name":"find","description":"Finds.","inputSchema":{"type":"object","properties":{
        "tags":{"type":"array","items":{"oneOf":[{"type":"string"},{"type":"integer"}]}},
        "who":{"type":"object","properties":{"id":{"type":["string","null"]}},"additionalProperties":false}},
        "additionalProperties":false},"annotations":{"readOnlyHint":true}}]"#,
    );
    let places: Vec<(&str, &str)> = i
        .notes
        .iter()
        .map(|n| (n.path.as_str(), n.json_path.as_str()))
        .collect();
    assert_eq!(
        places,
        [("input.tags[]", "inputSchema.properties.tags.items"),]
    );
}

#[test]
fn constants_numeric_enums_titles_and_examples_are_imported() {
    let i = imported(
        r#"[{"name":"shape_get","description":"Reads a shape.","annotations":{"readOnlyHint":true},
        "inputSchema":{"type":"object","properties":{
        "kind":{"type":"string","const":"circle","title":"Kind","examples":["circle"]},
        "level":{"type":"integer","enum":[1,2,3],"examples":[2,"x"]},
        "ratio":{"type":"number","enum":[0.5,1,1]},
        "pick":{"anyOf":[{"type":"string"},{"type":"integer"}],"examples":["a"]},
        "flag":{"const":false},
        "tags":{"type":"array","items":{"type":"integer","enum":[7]},"examples":[[7]]}},
        "additionalProperties":false}}]"#,
    );
    for want in [
        r#"field "kind" "string" const="circle""#,
        "title \"Kind\"",
        "examples \"circle\"",
        "enum 1 2 3",
        "examples 2",
        "enum 0.5 1",
        r#"field "flag" "boolean" const=#false"#,
        "items \"integer\" {",
        "enum 7",
        r#"examples "[7]""#,
    ] {
        assert!(i.text.contains(want), "{want} missing in\n{}", i.text);
    }
    let whats: Vec<&str> = i.notes.iter().map(|n| n.what.as_str()).collect();
    assert!(
        whats.iter().any(|w| w.contains("listed twice")),
        "{whats:?}"
    );
    assert!(
        whats.iter().any(|w| w.contains("example \"x\"")),
        "{whats:?}"
    );
    assert!(
        whats
            .iter()
            .any(|w| w.contains("examples [\"a\"] left out")),
        "{whats:?}"
    );
    assert_loads(&i);
}

#[test]
fn unions_of_objects_tagged_by_a_constant_become_unions() {
    let i = imported(
        r##"[{"name":"survey_create","description":"Creates a survey.","annotations":{"readOnlyHint":false},
        "inputSchema":{"type":"object","properties":{
        "question":{"description":"The question.","oneOf":[
            {"type":"object","description":"Pick one.","properties":{"type":{"const":"choice"},"options":{"type":"array","items":{"type":"string"},"maxItems":3}},"required":["type","options"],"additionalProperties":false},
            {"$ref":"#/$defs/text"}]},
        "other":{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"string"}}}]}},
        "required":["question"],"additionalProperties":false,
        "$defs":{"text":{"type":"object","properties":{"type":{"type":"string","enum":["text"]}},"required":["type"],"additionalProperties":false}}}}]"##,
    );
    for want in [
        r#"field "question" "union" required=#true discriminator="type" {"#,
        "doc \"The question.\"",
        "variant \"choice\" {",
        "doc \"Pick one.\"",
        r#"field "options" "array" required=#true max-items=3"#,
        "variant \"text\"",
        r#"field "other" "object" {"#,
    ] {
        assert!(i.text.contains(want), "{want} missing in\n{}", i.text);
    }
    let whats: Vec<&str> = i.notes.iter().map(|n| n.what.as_str()).collect();
    assert!(
        whats
            .iter()
            .any(|w| w.contains("`anyOf` union (object | object) is not expressible")),
        "{whats:?}"
    );
    assert!(!whats.iter().any(|w| w.contains("oneOf")), "{whats:?}");
    assert_loads(&i);
}

#[test]
fn open_objects_with_fields_keep_their_extras() {
    let i = imported(
        r#"[{"name":"q","description":"Starts a job.","annotations":{"readOnlyHint":false},
        "inputSchema":{"type":"object","additionalProperties":false,"properties":{
        "options":{"type":"object","maxProperties":8,"required":["image"],
            "properties":{"image":{"type":"string","maxLength":64}},
            "additionalProperties":{"type":"string","maxLength":32}},
        "meta":{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":true},
        "deep":{"type":"object","properties":{"a":{"type":"integer"}},
            "additionalProperties":{"type":"object","properties":{"x":{"type":"string"}}}},
        "implicit":{"type":"object","properties":{"a":{"type":"integer"}}},
        "pools":{"type":"object","properties":{"a":{"type":"integer"}},
            "additionalProperties":{"anyOf":[{"type":"object","additionalProperties":false,
                "properties":{"n":{"type":"integer","maximum":9}}},{"type":"null"}]}},
        "lists":{"type":"object","properties":{"a":{"type":"integer"}},
            "additionalProperties":{"type":"array","maxItems":3,"items":{"type":"string","maxLength":4}}},
        "maybe":{"type":"object","properties":{"a":{"type":"integer"}},
            "additionalProperties":{"type":["string","null"],"maxLength":5}},
        "labels":{"type":"object","maxProperties":4,
            "additionalProperties":{"type":["string","null"],"maxLength":3}},
        "anything":{"type":"object","additionalProperties":{"type":["integer","string","null"]}},
        "maps":{"type":"object","properties":{"a":{"type":"integer"}},
            "additionalProperties":{"type":"object","additionalProperties":{"type":"string"}}}}}}]"#,
    );
    for line in [
        r#"field "options" "object" max-entries=8 {"#,
        r#"field "image" "string" required=#true max-length=64"#,
        r#"extra "string" max-length=32"#,
        r#"extra "json""#,
        // Structured and nullable extras, nullable map values.
        r#"extra "object" {"#,
        r#"field "x" "string""#,
        r#"extra "object" nullable=#true {"#,
        r#"field "n" "integer" max=9"#,
        r#"extra "array" max-items=3 {"#,
        r#"extra "string" max-length=5 nullable=#true"#,
        r#"values "string" max-length=3 nullable=#true"#,
    ] {
        assert!(i.text.contains(line), "{line} in\n{}", i.text);
    }
    // A value of any type admits `null` already: no `nullable` on `json`.
    assert!(!i.text.contains(r#""json" nullable"#), "{}", i.text);
    let notes: Vec<(&str, &str)> = i
        .notes
        .iter()
        .filter(|n| n.path != "annotations" && !n.what.starts_with("effect"))
        .map(|n| (n.path.as_str(), n.what.as_str()))
        .collect();
    // An object that omits `additionalProperties` is closed (the extras' own object too);
    // extras that are maps have no form; a value of several types is any value.
    let at = |p: &str| {
        notes
            .iter()
            .filter(|n| n.0 == p)
            .map(|n| n.1)
            .collect::<Vec<_>>()
    };
    assert!(
        at("input.deep")
            .iter()
            .any(|w| w.contains("closed by import")),
        "{notes:?}"
    );
    assert!(
        at("input.implicit")
            .iter()
            .any(|w| w.contains("closed by import")),
        "{notes:?}"
    );
    assert!(
        at("input.maps")
            .iter()
            .any(|w| w.contains("extra properties")),
        "{notes:?}"
    );
    for quiet in ["input.pools", "input.lists", "input.maybe", "input.labels"] {
        assert!(at(quiet).is_empty(), "{quiet}: {notes:?}");
    }
    assert_loads(&i);
}

/// `"minimum": 5e-324` (the smallest double) failed with "this is a catalogc bug": the
/// importer wrote a number the loader refused. Every double prints back as written now.
#[test]
fn a_subnormal_minimum_imports_and_loads() {
    for min in ["5e-324", "1e-308", "-2.2250738585072e-308"] {
        let i = imported(&format!(
            r#"[{{"name":"get_x","inputSchema":{{"type":"object","properties":{{"x":{{"type":"number","minimum":{min}}}}}}}}}]"#
        ));
        assert_loads(&i);
        assert!(i.text.contains(&format!("min={min}")), "{}", i.text);
    }
}

/// One 200,000-value enum took 38 s to import: each value was compared with every value kept
/// before it. Repeats are now found by hashing; the first of each stays, in order, and
/// numbers are equal by value as the loader reads them (`0` and `-0.0`, `1` and `1.0`).
#[test]
fn a_huge_enum_with_repeats_keeps_first_occurrences_in_order() {
    let n = 50_000;
    let mut values: Vec<String> = (0..n).map(|i| format!("\"v{i}\"")).collect();
    values.push("\"v7\"".into());
    values.push("\"v0\"".into());
    let i = imported(&format!(
        r#"[{{"name":"get_x","inputSchema":{{"type":"object","properties":{{"s":{{"type":"string","enum":[{}]}}}}}}}}]"#,
        values.join(",")
    ));
    assert_loads(&i);
    assert_eq!(i.text.matches("\"v7\"").count(), 1);
    assert_eq!(i.text.matches("\"v0\"").count(), 1);
    let last = format!("\"v{}\"", n - 1);
    assert!(i.text.find("\"v0\"") < i.text.find(&last));
    assert!(
        i.notes.iter().any(|n| n.what.contains("listed twice")),
        "{:?}",
        i.notes
    );
    let i = imported(
        r#"[{"name":"get_x","inputSchema":{"type":"object","properties":{"n":{"type":"number","enum":[0,-0.0,1,1.0,1.5,1.5]}}}}]"#,
    );
    assert_loads(&i);
    assert!(
        i.notes.iter().any(|n| n.what.contains("listed twice")),
        "{:?}",
        i.notes
    );
}

/// `allOf` kept the first schema on every conflict (`maxLength` 5 and 2 → 5, `minimum` 0
/// and 5 → 0, enums not intersected, a second `pattern` dropped silently): every part holds
/// now, and the note says what each combined keyword became.
#[test]
fn all_of_intersects_its_parts_and_says_how() {
    let i = imported(
        r#"[{"name":"get_x","inputSchema":{"type":"object","properties":{
            "s":{"allOf":[{"type":"string","maxLength":5,"pattern":"^a","enum":["ab","ac","b"]},
                          {"maxLength":2,"pattern":"b$","enum":["ab","b","zz"]}]},
            "n":{"allOf":[{"type":"integer","minimum":0,"maximum":9},{"minimum":5,"maximum":20}]},
            "o":{"allOf":[{"type":"object","properties":{"a":{"type":"integer","maximum":10}}},
                          {"properties":{"a":{"minimum":3}},"required":["a"]}]}
        }}}]"#,
    );
    assert_loads(&i);
    let t = &i.text;
    assert!(t.contains("max-length=2"), "{t}");
    assert!(t.contains("min=5") && t.contains("max=9"), "{t}");
    assert!(t.contains("enum \"ab\" \"b\""), "{t}");
    assert!(t.contains("min=3 max=10"), "{t}");
    let notes: Vec<String> = i.notes.iter().map(|n| n.to_string()).collect();
    let has = |s: &str| assert!(notes.iter().any(|n| n.contains(s)), "{s}: {notes:#?}");
    has("`maxLength` 5 and 2 → 2");
    has("`minimum` 0 and 5 → 5");
    has("`maximum` 9 and 20 → 9");
    has("`enum` of 3 and 3 values intersected to 2");
    has("a second `pattern` \"b$\" is dropped");
}

/// A list whose catalog outgrows the file cap is refused before it is laid out and loaded
/// (a 50,000-tool list wrote 21 MB that no command could read).
#[test]
fn a_catalog_over_the_cap_is_refused_before_it_is_laid_out() {
    let tools: Vec<String> = (0..50)
        .map(|i| format!(r#"{{"name":"get_{i}","description":"Get item {i}."}}"#))
        .collect();
    let json = format!("[{}]", tools.join(","));
    let whole = imported(&json).text.len() as u64;
    assert!(import_within(&json, "t", whole).is_ok());
    match import_within(&json, "t", whole / 2) {
        Err(ImportError::TooLarge { cap, .. }) => assert_eq!(cap, whole / 2),
        other => panic!("{other:?}"),
    }
}
