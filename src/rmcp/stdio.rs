//! Newline-delimited JSON-RPC over a byte stream (stdio, a pipe, a socket): rmcp's
//! `Transport`, with every line checked first ([`super::message`]) so that a client gets an
//! answer to anything it sends.
//!
//! A line longer than [`MAX_LINE`] is never buffered whole: it is skipped up to its newline
//! and answered with −32700. Replies to malformed lines are written whole, under the same
//! lock as rmcp's own messages, so lines never interleave.

use super::message::{self, Checked};
use ::rmcp::ErrorData;
use ::rmcp::RoleServer;
use ::rmcp::model::{ClientJsonRpcMessage, JsonRpcError, ServerJsonRpcMessage};
use ::rmcp::transport::Transport;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

/// The longest line read, in bytes (16 MiB, rmcp's own limit).
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// The server side of newline-delimited JSON-RPC over `R` and `W`.
pub struct LineTransport<R, W> {
    read: BufReader<R>,
    /// The line read so far (kept across a cancelled `receive`).
    line: Vec<u8>,
    /// Skipping the rest of a line over [`MAX_LINE`].
    discarding: bool,
    write: Arc<Mutex<Option<W>>>,
    /// The reply to a malformed line being written; the next line waits for it.
    replying: Option<JoinHandle<bool>>,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// Reads requests from `read` and writes answers to `write`.
    pub fn new(read: R, write: W) -> LineTransport<R, W> {
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            write: Arc::new(Mutex::new(Some(write))),
            replying: None,
        }
    }

    /// Reads up to the next newline into `self.line`. Cancel safe: what was read stays in
    /// `self.line` (or, for a line too long, `self.discarding` remembers to skip on).
    async fn read_line(&mut self) -> Line {
        loop {
            let (consumed, step) = {
                let available = match self.read.fill_buf().await {
                    Ok(a) => a,
                    Err(_) => return Line::End,
                };
                if available.is_empty() {
                    return Line::End;
                }
                let newline = available.iter().position(|&b| b == b'\n');
                let take = newline.map_or(available.len(), |i| i + 1);
                if self.discarding {
                    (
                        take,
                        if newline.is_some() {
                            Step::EndSkip
                        } else {
                            Step::More
                        },
                    )
                } else if self.line.len().saturating_add(take) > MAX_LINE + 1 {
                    self.line.clear();
                    let step = if newline.is_some() {
                        Step::TooLong
                    } else {
                        Step::TooLongSkip
                    };
                    (take, step)
                } else {
                    self.line.extend_from_slice(&available[..take]);
                    (
                        take,
                        if newline.is_some() {
                            Step::Line
                        } else {
                            Step::More
                        },
                    )
                }
            };
            self.read.consume(consumed);
            match step {
                Step::Line => return Line::Whole,
                Step::More => {}
                Step::EndSkip => self.discarding = false,
                Step::TooLong => return Line::TooLong,
                Step::TooLongSkip => {
                    self.discarding = true;
                    return Line::TooLong;
                }
            }
        }
    }

    fn reply(&mut self, message: &ServerJsonRpcMessage) {
        let bytes = encode(message);
        let write = Arc::clone(&self.write);
        self.replying = Some(tokio::spawn(
            async move { write_line(&write, &bytes).await },
        ));
    }
}

enum Line {
    Whole,
    TooLong,
    End,
}

enum Step {
    Line,
    More,
    EndSkip,
    TooLong,
    TooLongSkip,
}

fn encode(message: &ServerJsonRpcMessage) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(message).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Writes one whole line under the lock; `false` once the output is closed or failed.
async fn write_line<W: AsyncWrite + Unpin>(write: &Mutex<Option<W>>, bytes: &[u8]) -> bool {
    let mut guard = write.lock().await;
    let Some(w) = guard.as_mut() else {
        return false;
    };
    w.write_all(bytes).await.is_ok() && w.flush().await.is_ok()
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = Arc::clone(&self.write);
        async move {
            if write_line(&write, &encode(&item)).await {
                Ok(())
            } else {
                Err(std::io::Error::new(
                    std::io::ErrorKind::BrokenPipe,
                    "the client's input is closed",
                ))
            }
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if let Some(replying) = &mut self.replying {
                let written = replying.await.unwrap_or(false);
                self.replying = None;
                if !written {
                    return None;
                }
            }
            match self.read_line().await {
                Line::End => return None,
                Line::TooLong => {
                    let error = ErrorData::parse_error("the message is longer than 16 MiB", None);
                    self.reply(&ServerJsonRpcMessage::Error(JsonRpcError::new(None, error)));
                }
                Line::Whole => {
                    let checked =
                        message::check(self.line.strip_suffix(b"\n").unwrap_or(&self.line));
                    self.line.clear();
                    match checked {
                        Checked::Message(m) => return Some(*m),
                        Checked::Reply(r) => self.reply(&r),
                        Checked::Ignore => {}
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let taken = self.write.lock().await.take();
        if let Some(mut w) = taken {
            let _ = w.shutdown().await;
        }
        Ok(())
    }
}
