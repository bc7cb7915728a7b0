//! The size of a result as sent, for `limits max-result-bytes=`: counted, not built.

use super::to_sdk;
use crate::runtime::CallResult;
use serde_json::Value;

/// Counts the bytes written to it.
struct Counter(u64);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The JSON length of `value` as serde_json writes it, without keeping the text.
fn json_len<T: serde::Serialize + ?Sized>(value: &T) -> u64 {
    let mut counter = Counter(0);
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => counter.0,
        Err(_) => u64::MAX,
    }
}

/// What `structuredContent` adds after `content`, besides its value.
const FIELD: &str = ",\"structuredContent\":";

/// The size of `result` as sent: its `CallToolResult` JSON ([`to_sdk`]), in bytes. The
/// result's content block is copied, its `structuredContent` only counted: it follows
/// `content` as `,"structuredContent":VALUE`.
pub(super) fn encoded_len(result: &CallResult) -> u64 {
    let block = CallResult {
        structured_content: None,
        content: result.content.clone(),
        is_error: result.is_error,
        input_required: None,
        withheld: None,
        failure: None,
    };
    let structured = match result.mcp_structured() {
        Some(value) => FIELD.len() as u64 + json_len::<Value>(value),
        None => 0,
    };
    json_len(&to_sdk(block)).saturating_add(structured)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::Content;
    use serde_json::json;

    fn built_len(result: &CallResult) -> u64 {
        serde_json::to_vec(&to_sdk(result.clone())).map_or(u64::MAX, |b| b.len() as u64)
    }

    #[test]
    fn the_count_is_the_length_of_the_built_result() {
        let output = json!({"invoice": "INV-1", "lines": [{"a": 1.5, "b": "é\"\n"}], "n": null});
        let success = CallResult {
            structured_content: Some(output.clone()),
            content: Content::Text(output.to_string()),
            is_error: false,
            input_required: None,
            withheld: None,
            failure: None,
        };
        let error = CallResult {
            is_error: true,
            ..success.clone()
        };
        let text = CallResult {
            structured_content: None,
            content: Content::Text("plain \u{1F600} text\t".into()),
            ..success.clone()
        };
        for result in [success, error, text] {
            assert_eq!(encoded_len(&result), built_len(&result), "{result:?}");
        }
    }
}
