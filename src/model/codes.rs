//! The error codes of the loader (`model/…`, `naming/duplicate`, and `syntax/…` from the
//! parser) with a summary and a fix for each, which output formats show (SARIF rule
//! metadata).

/// ID, one-line summary, how to fix it.
pub const CODES: &[(&str, &str, &str)] = &[
    (
        "model/unknown-node",
        "A node that has no meaning where it is written.",
        "Use one of the nodes listed in the message; check the spelling.",
    ),
    (
        "model/unknown-property",
        "A property that does not apply to this node or field type.",
        "Use one of the properties listed in the message; check the spelling.",
    ),
    (
        "model/wrong-type",
        "A value of the wrong kind (string, number, boolean).",
        "Write the value as the message says, e.g. remove quotes around a number.",
    ),
    (
        "model/missing-argument",
        "A node lacks a required argument.",
        "Add the argument shown in the message.",
    ),
    (
        "model/unexpected-argument",
        "A node has more arguments than it takes.",
        "Remove the extra argument.",
    ),
    (
        "model/missing-property",
        "A node lacks a required property.",
        "Add the property shown in the message.",
    ),
    (
        "model/unsupported-type",
        "A type the format has no form for in this place yet (map values of an array, object or named type).",
        "Use a type the message lists, e.g. `json` for free-form values.",
    ),
    (
        "model/missing-child",
        "A required child node is missing.",
        "Add the child node shown in the message.",
    ),
    (
        "model/missing-catalog",
        "A catalog file without a `catalog` node.",
        "Start the file with `catalog \"NAME\" version=\"1.0.0\"`.",
    ),
    (
        "model/unexpected-children",
        "A children block on a node that takes none.",
        "Remove the `{ ... }` block.",
    ),
    (
        "model/duplicate-property",
        "The same property twice on one node.",
        "Keep one of them.",
    ),
    (
        "model/duplicate-node",
        "A single-valued child (or the `catalog` node) given twice.",
        "Keep one of them.",
    ),
    (
        "model/out-of-range",
        "An integer outside the range the model holds.",
        "Write a value inside the range given in the message.",
    ),
    (
        "model/invalid-value",
        "A text value that does not parse as what the property holds (a semver version, an ISO 8601 date).",
        "Write the value in the form the message shows, e.g. `since=\"1.4.0\"`, `sunset=\"2027-03-01\"`.",
    ),
    (
        "model/number-overflow",
        "A decimal number too large for a 64-bit float (e.g. 1e400).",
        "Write a number of a sensible magnitude.",
    ),
    (
        "model/number-underflow",
        "A non-zero decimal number too small for a 64-bit float to hold as written (e.g. 1e-400, which reads as 0, or 1.2345678901234567e-310, which keeps only part of its digits). A subnormal that reads back as written (5e-324, 1e-308) is a value like any other.",
        "Write 0, or a number of a sensible magnitude.",
    ),
    (
        "model/not-finite",
        "#nan, #inf or #-inf where a number is needed.",
        "Write a finite number.",
    ),
    (
        "model/invalid-name",
        "A catalog name that is not a plain name (empty, `..`, a path, spaces, non-ASCII): it names the lock, generated and docs files.",
        "Use ASCII letters, digits, `-` and `_`, starting with a letter or digit, at most 64 characters.",
    ),
    (
        "model/unknown-keyword",
        "A value outside a fixed set (effect, class, retry, unit, format, kind, digest, strategy).",
        "Use one of the values listed in the message.",
    ),
    (
        "model/type-annotation",
        "A KDL type annotation `(type)`; catalogs use none.",
        "Remove the annotation.",
    ),
    (
        "model/unresolved-type",
        "A field type that is neither a built-in type nor a `type` declared in the file.",
        "Use a built-in type or declare the named type.",
    ),
    (
        "model/recursive-type",
        "A named type that contains itself; schemas inline named types, so it would be infinite.",
        "Break the cycle, e.g. with a reference string field.",
    ),
    (
        "model/too-deep",
        "Fields nested deeper than the lowering follows.",
        "Flatten the structure.",
    ),
    (
        "model/schema-too-large",
        "A tool whose schema, once named types are inlined, has more fields than the cap (10,000 per side); the tool is left out.",
        "Flatten the named types or split the tool.",
    ),
    (
        "model/schema-too-deep",
        "A tool whose schema, once named types are inlined, nests objects deeper than the cap (128); the tool is left out.",
        "Flatten the chain of named types.",
    ),
    (
        "model/too-many-errors",
        "More than 1,000 lowering errors in one file: the rest are counted, not listed.",
        "Fix the errors listed first.",
    ),
    (
        "naming/duplicate",
        "A duplicate tool, type, field, error code or enum value.",
        "Rename or remove one of them.",
    ),
    (
        "profile/unknown-tool",
        "A profile disables a tool the catalogs do not have (`lint --profile`): a misspelled name leaves the real tool enabled.",
        "Write the tool's exact name in `disable`.",
    ),
    (
        "profile/missing-approval",
        "A tool of an effect class the profile's `require-approval` names does not ask the user to confirm each call.",
        "Add `needs-input \"approval\" kind=\"confirmation\"` to the tool, or disable it in the profile.",
    ),
    (
        "profile/disabled-tool-named",
        "A tool the profile keeps still names a disabled tool (its `on-timeout` status tool, or its description): the model is sent to a tool that is not listed.",
        "Stop naming the disabled tool, or keep it enabled.",
    ),
    (
        "profile/missing-guard",
        "The profile has `require-guard` and catalogc.kdl declares no `guard { … }` budgets.",
        "Add a `guard` block to catalogc.kdl.",
    ),
    (
        "profile/mock-forbidden",
        "`serve --mock --profile` with a profile that has `forbid-mock`.",
        "Serve the real server under this profile, or use another profile for the mock.",
    ),
];

/// The summary and the fix of loader error code `id`; `None` for a code of another layer.
pub fn code(id: &str) -> Option<(&'static str, &'static str)> {
    match CODES.iter().find(|(r, _, _)| *r == id) {
        Some((_, summary, help)) => Some((*summary, *help)),
        None if id.starts_with("syntax/") => {
            Some((crate::syntax::ERROR_SUMMARY, crate::syntax::ERROR_HELP))
        }
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_model_and_syntax_codes_only() {
        let summary = code("model/too-deep").map(|(summary, _)| summary);
        assert_eq!(
            summary,
            Some("Fields nested deeper than the lowering follows.")
        );
        assert!(code("syntax/unclosed-string").is_some());
        assert!(code("naming/vague-name").is_none());
    }
}
