//! The language server's stdio: LSP base-protocol framing (`Content-Length` headers), read
//! here rather than by `lsp-server`, which allocates whatever length a header names and stops
//! serving at the first body that is not JSON.
//!
//! A body is read as it arrives, never allocated ahead, up to [`MAX_MESSAGE`]; a longer one
//! is skipped byte for byte and answered with −32700 (its id cannot be read). A body that is
//! not JSON is answered with −32700, JSON that is no message with −32600; a header block
//! without a readable `Content-Length` with −32700, after which reading goes on at the next
//! header block. The server keeps serving through all of them.

use lsp_server::{Connection, Message};
use serde_json::{Value, json};
use std::io::{self, BufRead, Read, Write};

/// The longest message body read, in bytes: an 8 MiB catalog sent as JSON text with every
/// character escaped fits.
pub const MAX_MESSAGE: u64 = 64 * 1024 * 1024;

/// The longest header line read; the rest of a longer one is skipped.
const MAX_HEADER_LINE: u64 = 8 * 1024;

/// One read from the stream.
#[derive(Debug)]
pub enum Frame {
    /// A message for the server.
    Message(Message),
    /// Not a message: answer the client with this JSON-RPC error (a whole response).
    Reply(Value),
    /// The stream ended.
    End,
}

/// Reads the next frame. Only an I/O error of the stream itself is an `Err`.
pub fn read_frame(r: &mut impl BufRead) -> io::Result<Frame> {
    let mut length: Option<Result<u64, String>> = None;
    let mut line = Vec::new();
    let mut any = false;
    loop {
        line.clear();
        let n = r
            .by_ref()
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(Frame::End);
        }
        if !line.ends_with(b"\n") {
            skip_line(r)?;
            length = Some(Err("a header line is too long".into()));
            any = true;
            continue;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text.is_empty() {
            if any {
                break;
            }
            // Blank lines between messages are tolerated.
            continue;
        }
        any = true;
        let text = String::from_utf8_lossy(text);
        let Some((name, value)) = text.split_once(':') else {
            length = Some(Err(format!("malformed header {:?}", truncate(&text))));
            continue;
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            length = Some(
                value
                    .parse::<u64>()
                    .map_err(|_| format!("Content-Length {:?} is not a length", truncate(value))),
            );
        }
    }
    let length = match length {
        Some(Ok(n)) => n,
        Some(Err(why)) => return Ok(Frame::Reply(error(None, -32700, &why))),
        None => {
            return Ok(Frame::Reply(error(
                None,
                -32700,
                "no Content-Length header",
            )));
        }
    };
    if length > MAX_MESSAGE {
        let skipped = io::copy(&mut r.by_ref().take(length), &mut io::sink())?;
        if skipped < length {
            return Ok(Frame::End);
        }
        return Ok(Frame::Reply(error(
            None,
            -32700,
            &format!("a message of {length} bytes is over the limit of {MAX_MESSAGE}"),
        )));
    }
    let mut body = Vec::new();
    r.by_ref().take(length).read_to_end(&mut body)?;
    if (body.len() as u64) < length {
        return Ok(Frame::End);
    }
    Ok(parse(&body))
}

/// A body as a message, or the error that answers it.
pub fn parse(body: &[u8]) -> Frame {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return Frame::Reply(error(None, -32700, &format!("not JSON: {e}"))),
    };
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .cloned();
    match serde_json::from_value::<Message>(value) {
        Ok(m) => Frame::Message(m),
        Err(e) => Frame::Reply(error(id, -32600, &format!("not a JSON-RPC message: {e}"))),
    }
}

fn truncate(s: &str) -> &str {
    let end = s.char_indices().nth(80).map_or(s.len(), |(i, _)| i);
    &s[..end]
}

fn skip_line(r: &mut impl BufRead) -> io::Result<()> {
    loop {
        let (done, used) = {
            let buf = r.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (true, i + 1),
                None => (false, buf.len()),
            }
        };
        r.consume(used);
        if done {
            return Ok(());
        }
    }
}

fn error(id: Option<Value>, code: i64, message: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(Value::Null),
        "error": {"code": code, "message": message},
    })
}

/// Writes one framed JSON value.
pub fn write_value(w: &mut impl Write, value: &Value) -> io::Result<()> {
    let body = serde_json::to_vec(value)?;
    write!(w, "Content-Length: {}\r\n\r\n", body.len())?;
    w.write_all(&body)?;
    w.flush()
}

/// A connection over this process's stdin and stdout through [`read_frame`]: the server
/// side, and the threads that move the messages (joined by [`Threads::join`]).
pub fn stdio() -> (Connection, Threads) {
    let (server, client) = Connection::memory();
    let Connection {
        sender: to_server,
        receiver: from_server,
    } = client;
    let reader = std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        loop {
            match read_frame(&mut input) {
                Ok(Frame::Message(m)) => {
                    let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                    if to_server.send(m).is_err() || exit {
                        return;
                    }
                }
                Ok(Frame::Reply(v)) => {
                    if write_value(&mut io::stdout().lock(), &v).is_err() {
                        return;
                    }
                }
                Ok(Frame::End) | Err(_) => return,
            }
        }
    });
    let writer = std::thread::spawn(move || {
        for m in from_server {
            let mut out = io::stdout().lock();
            if m.write(&mut out).and_then(|()| out.flush()).is_err() {
                return;
            }
        }
    });
    (server, Threads { reader, writer })
}

/// The threads of [`stdio`].
pub struct Threads {
    reader: std::thread::JoinHandle<()>,
    writer: std::thread::JoinHandle<()>,
}

impl Threads {
    /// Waits for the writer to send everything the server sent (call after dropping the
    /// server's connection). The reader is left blocked on stdin when the client keeps it
    /// open; it ends with the process.
    pub fn join(self) -> Result<(), String> {
        drop(self.reader);
        self.writer
            .join()
            .map_err(|_| "the writer thread panicked".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::{Frame, MAX_MESSAGE, read_frame};
    use std::io::Cursor;

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut r = Cursor::new(input.to_vec());
        let mut out = Vec::new();
        loop {
            match read_frame(&mut r) {
                Ok(Frame::End) | Err(_) => return out,
                Ok(f) => out.push(f),
            }
        }
    }

    fn code(f: &Frame) -> i64 {
        match f {
            Frame::Reply(v) => v["error"]["code"].as_i64().unwrap_or(0),
            other => panic!("not an error reply: {other:?}"),
        }
    }

    const PING: &[u8] =
        b"Content-Length: 40\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    #[test]
    fn huge_content_lengths_neither_allocate_nor_panic() {
        for n in [
            "4294967296",
            "9223372036854775807",
            "18446744073709551615",
            "99999999999999999999999",
        ] {
            let mut input = format!("Content-Length: {n}\r\n\r\n").into_bytes();
            input.extend_from_slice(b"{}");
            // The body is cut off: the stream ends, nothing was allocated for it.
            let got = frames(&input);
            assert!(got.len() <= 1, "{n}: {got:?}");
            if let Some(f) = got.first() {
                assert_eq!(code(f), -32700, "{n}");
            }
        }
        // A long body that does arrive is skipped, answered, and the next message read.
        let long = MAX_MESSAGE + 1;
        let mut input = format!("Content-Length: {long}\r\n\r\n").into_bytes();
        input.resize(input.len() + usize::try_from(long).unwrap_or(0), b' ');
        input.extend_from_slice(PING);
        let got = frames(&input);
        assert_eq!(got.len(), 2);
        assert_eq!(code(&got[0]), -32700);
        assert!(matches!(got[1], Frame::Message(_)));
    }

    #[test]
    fn a_framed_body_that_is_not_json_is_answered_and_reading_goes_on() {
        let mut input = b"Content-Length: 5\r\n\r\nhello".to_vec();
        input.extend_from_slice(b"Content-Length: 7\r\n\r\n[1,2,3]");
        input.extend_from_slice(b"Content-Length: 7\r\n\r\n{\"x\":1}");
        input.extend_from_slice(b"Content-Type: x\r\n\r\n");
        input.extend_from_slice(PING);
        let got = frames(&input);
        assert_eq!(got.len(), 5, "{got:?}");
        assert_eq!(code(&got[0]), -32700);
        assert_eq!(code(&got[1]), -32600);
        assert_eq!(code(&got[2]), -32600);
        assert_eq!(code(&got[3]), -32700);
        assert!(matches!(got[4], Frame::Message(_)));
    }
}
