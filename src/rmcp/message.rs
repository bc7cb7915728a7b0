//! One incoming JSON-RPC message, checked before rmcp sees it, over stdio and HTTP alike.
//!
//! rmcp drops what it cannot parse without a word, which leaves a client waiting forever,
//! and reads a known method with bad parameters as an unknown method. Here every message a
//! client sends is either handed on or answered with the JSON-RPC error it deserves:
//! - not UTF-8, not JSON, a number out of the double range (`1e400`), a lone surrogate
//!   escape, nesting deeper than serde_json's 128 levels: −32700 (parse error), without id;
//! - JSON that is no message (an array, a batch, a request without `method`): −32600
//!   (invalid request), with the request's id when it has one;
//! - a request for a method the server serves in every protocol version (`ping`,
//!   `tools/list`, `tools/call`) whose parameters do not fit it, e.g. `tools/call` without
//!   `name`: −32602 (invalid params).
//!
//! A notification or a response that does not parse is dropped: JSON-RPC answers neither.

use ::rmcp::ErrorData;
use ::rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, JsonRpcError, JsonRpcMessage, RequestId,
    ServerJsonRpcMessage,
};
use serde_json::Value;

/// What to do with one incoming message.
#[derive(Debug)]
pub enum Checked {
    /// A message for rmcp.
    Message(Box<ClientJsonRpcMessage>),
    /// Not a message rmcp can serve: answer with this error instead.
    Reply(Box<ServerJsonRpcMessage>),
    /// Nothing to do (a blank line, or a notification or response that does not parse).
    Ignore,
}

/// The methods this server serves in every protocol version: a request for one of them that
/// rmcp cannot read has bad parameters, not an unknown method. (`initialize` is not one:
/// protocol 2026-07-28 removed it, and answers it as an unknown method, HTTP 404.)
const SERVED: [&str; 3] = ["ping", "tools/list", "tools/call"];

/// Checks one message (a line over stdio, a body over HTTP).
pub fn check(bytes: &[u8]) -> Checked {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let Ok(text) = std::str::from_utf8(bytes) else {
        return reply(
            None,
            ErrorData::parse_error("the message is not UTF-8", None),
        );
    };
    if text.trim().is_empty() {
        return Checked::Ignore;
    }
    // Nearly every message is a well-formed object rmcp reads as it is: read it once, as the
    // message. Anything else, and a served method that rmcp reads as unknown, takes the
    // path below, which finds out what to answer.
    if text.trim_start().starts_with('{')
        && let Ok(message) = serde_json::from_str::<ClientJsonRpcMessage>(text)
        && !matches!(&message, JsonRpcMessage::Request(r) if matches!(r.request, ClientRequest::CustomRequest(_)))
    {
        return Checked::Message(Box::new(message));
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return reply(None, ErrorData::parse_error(format!("not JSON: {e}"), None)),
    };
    let Value::Object(object) = &value else {
        return reply(
            None,
            ErrorData::invalid_request("a message is one JSON-RPC object (no batches)", None),
        );
    };
    let id = object
        .get("id")
        .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    let method = object
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let is_response = object.contains_key("result") || object.contains_key("error");
    match serde_json::from_value::<ClientJsonRpcMessage>(value) {
        Ok(JsonRpcMessage::Request(request))
            if matches!(request.request, ClientRequest::CustomRequest(_))
                && method.as_deref().is_some_and(|m| SERVED.contains(&m)) =>
        {
            let method = method.unwrap_or_default();
            reply(
                Some(request.id),
                ErrorData::invalid_params(format!("invalid parameters for {method}"), None),
            )
        }
        Ok(message) => Checked::Message(Box::new(message)),
        Err(_) if is_response => Checked::Ignore,
        Err(_) if id.is_none() && method.is_some() => Checked::Ignore,
        Err(e) => reply(
            id,
            ErrorData::invalid_request(format!("not a JSON-RPC request: {e}"), None),
        ),
    }
}

fn reply(id: Option<RequestId>, error: ErrorData) -> Checked {
    Checked::Reply(Box::new(ServerJsonRpcMessage::Error(JsonRpcError::new(
        id, error,
    ))))
}

#[cfg(test)]
mod tests {
    use super::{Checked, check};
    use serde_json::{Value, json};

    /// The error code and id of the reply to `input`.
    fn error(input: &[u8]) -> (i64, Value) {
        match check(input) {
            Checked::Reply(reply) => {
                let v = serde_json::to_value(&reply).unwrap_or_default();
                (v["error"]["code"].as_i64().unwrap_or(0), v["id"].clone())
            }
            other => panic!("no error reply: {other:?}"),
        }
    }

    #[test]
    fn malformed_messages_get_a_parse_error() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"a":{}1{}}}}}}}"#,
            "[".repeat(130),
            "]".repeat(130)
        );
        for input in [
            b"{not json".as_slice(),
            b"\xff\xfe{}",
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1e400}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\ud800"}}"#,
            deep.as_bytes(),
        ] {
            assert_eq!(
                error(input),
                (-32700, Value::Null),
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn json_that_is_no_request_is_an_invalid_request() {
        assert_eq!(error(b"[1,2]"), (-32600, Value::Null));
        assert_eq!(error(br#"{"jsonrpc":"2.0","id":7}"#), (-32600, json!(7)));
        assert_eq!(error(b"42"), (-32600, Value::Null));
    }

    #[test]
    fn tools_call_without_a_name_is_invalid_params() {
        let input =
            br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"arguments":{}}}"#;
        assert_eq!(error(input), (-32602, json!("a")));
    }

    #[test]
    fn a_message_read_at_once_is_the_message_read_through_a_tree() {
        for input in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,2.5,"\u00e9"],"b":null}}}"#,
            r#"{"jsonrpc":"2.0","id":"x","method":"tools/list","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        ] {
            let Checked::Message(read) = check(input.as_bytes()) else {
                panic!("not a message: {input}");
            };
            let tree: Value = serde_json::from_str(input).unwrap_or_default();
            let through = serde_json::from_value::<super::ClientJsonRpcMessage>(tree).ok();
            assert_eq!(
                serde_json::to_value(&*read).ok(),
                through.and_then(|m| serde_json::to_value(m).ok()),
                "{input}"
            );
        }
    }

    #[test]
    fn messages_pass_and_bad_notifications_are_dropped() {
        assert!(matches!(
            check(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#),
            Checked::Message(_)
        ));
        assert!(matches!(
            check(br#"{"jsonrpc":"2.0","method":"notifications/whatever","params":7}"#),
            Checked::Message(_) | Checked::Ignore
        ));
        assert!(matches!(check(b"  \r"), Checked::Ignore));
    }
}
