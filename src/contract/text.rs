//! The contract's JSON text: tool definitions are kept as compact JSON
//! ([`super::schema`] writes them), and `export tools-json` and the generated `tools.json`
//! print them indented. This re-indents compact text to exactly the bytes serde_json's
//! pretty printer gives for the same value (two spaces, `": "`, empty `{}` and `[]` kept on
//! one line), copying strings and numbers as they are, without building a tree.

/// Appends `compact` (compact JSON, as serde_json writes it) pretty-printed as if it were
/// nested `level` containers deep, as serde_json's pretty printer writes a value there.
pub fn pretty_into(out: &mut Vec<u8>, compact: &str, level: usize) {
    let b = compact.as_bytes();
    let mut depth = level;
    let mut i = 0;
    let newline = |out: &mut Vec<u8>, depth: usize| {
        out.push(b'\n');
        out.extend(std::iter::repeat_n(b' ', 2 * depth));
    };
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => {
                // Copy the string through its closing quote, stepping over escapes.
                let start = i;
                i += 1;
                while let Some(&s) = b.get(i) {
                    i += if s == b'\\' { 2 } else { 1 };
                    if s == b'"' {
                        break;
                    }
                }
                out.extend_from_slice(b.get(start..i).unwrap_or_default());
                continue;
            }
            b'{' | b'[' => {
                out.push(c);
                let close = if c == b'{' { b'}' } else { b']' };
                if b.get(i + 1) == Some(&close) {
                    out.push(close);
                    i += 1;
                } else {
                    depth += 1;
                    newline(out, depth);
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline(out, depth);
                out.push(c);
            }
            b',' => {
                out.push(b',');
                newline(out, depth);
            }
            b':' => out.extend_from_slice(b": "),
            _ => out.push(c),
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::pretty_into;
    use serde_json::json;

    /// The same bytes as serde_json's pretty printer, at the top and nested.
    #[test]
    fn reindents_as_serde_json_does() {
        let v = json!({
            "a": [], "b": {}, "c": [1, [2, {}], {"d": "x,y:{}[]\"\\"}],
            "e\"f": null, "g": -1.5e-7, "h": {"i": [true, false]}, "": "\u{1}é"
        });
        let compact = v.to_string();
        let mut out = Vec::new();
        pretty_into(&mut out, &compact, 0);
        assert_eq!(
            String::from_utf8_lossy(&out),
            serde_json::to_string_pretty(&v).unwrap_or_default()
        );
        let wrapped = json!({ "tools": [v.clone(), v] });
        let mut nested = Vec::new();
        pretty_into(&mut nested, &compact, 2);
        let pretty = serde_json::to_string_pretty(&wrapped).unwrap_or_default();
        assert!(pretty.contains(&*String::from_utf8_lossy(&nested)));
    }
}
