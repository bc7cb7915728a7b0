//! Unstructured results (`output kind="text"`, `"markdown"`, `"image"`): what a handler of
//! such a tool returns, and the one MCP content block each becomes. A structured output is
//! any [`Validate`] type; both are a [`ToolOutput`], so `call::run` serves either.

use super::call::{CallResult, complete};
use super::validate::Validate;

/// The result of an `output kind="text"` tool: plain text, sent as one text block.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Text(pub String);

/// The result of an `output kind="markdown"` tool: Markdown, sent as one text block.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Markdown(pub String);

/// The result of an `output kind="image"` tool: the image's bytes and MIME type, sent as one
/// image block (base64).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Image {
    /// The encoded image (PNG, JPEG, …), not base64.
    pub data: Vec<u8>,
    /// Its MIME type, e.g. `image/png`.
    pub mime_type: String,
}

/// The one content block of a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// `{"type":"text","text":…}`: text, Markdown, or the JSON of a structured result.
    Text(String),
    /// `{"type":"image","data":…,"mimeType":…}` (boxed: results are passed by value, and
    /// most are text).
    Image(Box<ImageBlock>),
}

/// An image content block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageBlock {
    /// The image, base64-encoded (RFC 4648, with padding).
    pub data: String,
    /// Its MIME type.
    pub mime_type: String,
}

impl Content {
    /// The MCP content block.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Content::Text(text) => serde_json::json!({ "type": "text", "text": text }),
            Content::Image(image) => serde_json::json!({
                "type": "image", "data": image.data, "mimeType": image.mime_type
            }),
        }
    }
}

/// What a tool's handler returns on success, and how it becomes the call's result.
pub trait ToolOutput {
    /// The successful result, or `INVALID_TOOL_OUTPUT` when a structured output breaks its
    /// own schema.
    fn into_result(self) -> CallResult;
}

impl<T: Validate> ToolOutput for T {
    fn into_result(self) -> CallResult {
        complete(&self)
    }
}

impl ToolOutput for Text {
    fn into_result(self) -> CallResult {
        CallResult::unstructured(Content::Text(self.0))
    }
}

impl ToolOutput for Markdown {
    fn into_result(self) -> CallResult {
        CallResult::unstructured(Content::Text(self.0))
    }
}

impl ToolOutput for Image {
    fn into_result(self) -> CallResult {
        CallResult::unstructured(Content::Image(Box::new(ImageBlock {
            data: base64(&self.data),
            mime_type: self.mime_type,
        })))
    }
}

/// Standard base64 with padding (RFC 4648 §4), as MCP image blocks carry it. Written out so
/// the runtime keeps its four dependencies.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain:?}");
        }
        assert_eq!(base64(&[0xff, 0xfe, 0xfd]), "//79");
    }

    #[test]
    fn each_kind_is_one_block_without_structured_content() {
        let text = Text("3 files changed".into()).into_result();
        assert_eq!(
            text.to_json(),
            json!({ "content": [{ "type": "text", "text": "3 files changed" }], "isError": false })
        );
        let md = Markdown("# Title".into()).into_result();
        assert_eq!(md.text(), "# Title");
        assert!(md.structured_content.is_none());
        let image = Image {
            data: b"PNG".to_vec(),
            mime_type: "image/png".into(),
        }
        .into_result();
        assert_eq!(
            image.to_json()["content"],
            json!([{ "type": "image", "data": "UE5H", "mimeType": "image/png" }])
        );
        assert_eq!(image.text(), "");
    }
}
