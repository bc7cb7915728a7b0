//! `catalogc lsp`: a language server over stdio.
//!
//! Built on rust-analyzer's `lsp-server` (a synchronous JSON-RPC transport over crossbeam
//! channels, fed by this module's own bounded framing reader, [`framing`]) and `lsp-types`: the server is one thread reading one message at a time, so
//! there is no async runtime and no locking, and every answer comes from the same
//! [`analysis::Snapshot`] the diagnostics came from.
//!
//! Every edit re-analyses the folder of the edited file ([`analysis`]): its catalogs (open
//! buffers winning over the disk), `catalogc.kdl`, the contracts and every syntax, model and
//! lint diagnostic; the files that did not change are neither read nor lowered again
//! ([`analysis::Cache`]). Edits arrive incrementally. Diagnostics are published as soon as no
//! message waits in the input queue: a burst of keystrokes that arrives while an analysis
//! runs costs one analysis after it, and a lone keystroke waits for no timer. A panic while
//! serving a request is answered as an error response and the server goes on.

pub mod analysis;
pub mod features;
pub mod framing;

use analysis::Snapshot;
use features::View;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Serves the protocol on stdin/stdout until the client says `exit`.
pub fn run_stdio() -> Result<(), String> {
    let (connection, threads) = framing::stdio();
    serve(&connection)?;
    drop(connection);
    threads.join()
}

/// What the server announces in its `initialize` answer.
pub fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
                ..lsp::TextDocumentSyncOptions::default()
            },
        )),
        position_encoding: Some(lsp::PositionEncodingKind::UTF16),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), "=".into(), " ".into()]),
            ..lsp::CompletionOptions::default()
        }),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        rename_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
                ..lsp::CodeActionOptions::default()
            },
        )),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        ..lsp::ServerCapabilities::default()
    }
}

/// Runs the initialize handshake and the main loop on `connection` until `exit`.
pub fn serve(connection: &Connection) -> Result<(), String> {
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    connection.initialize(caps).map_err(|e| e.to_string())?;
    let mut server = Server::default();
    let mut shut_down = false;
    loop {
        // With diagnostics owed, only what is already queued is read before publishing: the
        // messages of a burst coalesce, and nothing waits on a timer.
        let msg = if server.pending.is_empty() {
            match connection.receiver.recv() {
                Ok(m) => m,
                Err(_) => return Ok(()),
            }
        } else {
            match connection.receiver.try_recv() {
                Ok(m) => m,
                Err(e) if e.is_empty() => {
                    match catch_unwind(AssertUnwindSafe(|| server.publish_pending())) {
                        Ok(notifications) => {
                            for n in notifications {
                                send(connection, n.into());
                            }
                        }
                        Err(_) => {
                            server.pending.clear();
                            log_error(connection, "publishing diagnostics");
                        }
                    }
                    // Freed once the client has its diagnostics, not before.
                    server.stale.clear();
                    continue;
                }
                Err(_) => return Ok(()),
            }
        };
        match msg {
            Message::Request(req) => {
                // After `shutdown` only `exit` is expected, but a client may send more
                // (Neovim 0.7 sends `shutdown` twice): refused, never fatal.
                let resp = if req.method == lsp::request::Shutdown::METHOD {
                    shut_down = true;
                    Response::new_ok(req.id.clone(), ())
                } else if shut_down {
                    Response::new_err(
                        req.id.clone(),
                        ErrorCode::InvalidRequest as i32,
                        "the server is shutting down".to_string(),
                    )
                } else {
                    guarded(&req, |req| server.request(req))
                };
                send(connection, resp.into());
            }
            Message::Notification(n) => {
                if n.method == lsp::notification::Exit::METHOD {
                    return Ok(());
                }
                if shut_down {
                    continue;
                }
                let method = n.method.clone();
                if catch_unwind(AssertUnwindSafe(|| server.notification(n))).is_err() {
                    // Keep serving; the state of the one document may be stale until its
                    // next full change, and the client learns why.
                    log_error(connection, &format!("handling {method}"));
                }
            }
            Message::Response(_) => {}
        }
    }
}

fn send(connection: &Connection, msg: Message) {
    // The client went away: the read side ends the loop.
    let _ = connection.sender.send(msg);
}

/// Tells the client, in its log, that a panic interrupted `doing`.
fn log_error(connection: &Connection, doing: &str) {
    let params = lsp::LogMessageParams {
        typ: lsp::MessageType::ERROR,
        message: format!("catalogc lsp: internal error while {doing}"),
    };
    send(
        connection,
        Notification::new(lsp::notification::LogMessage::METHOD.into(), params).into(),
    );
}

/// Answers `req` with `handle`; a panic inside becomes an `InternalError` response naming
/// the method, and the server keeps serving.
pub fn guarded(
    req: &Request,
    handle: impl FnOnce(&Request) -> Result<Value, (ErrorCode, String)>,
) -> Response {
    match catch_unwind(AssertUnwindSafe(|| handle(req))) {
        Ok(Ok(v)) => Response::new_ok(req.id.clone(), v),
        Ok(Err((code, message))) => Response::new_err(req.id.clone(), code as i32, message),
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Response::new_err(
                req.id.clone(),
                ErrorCode::InternalError as i32,
                format!("catalogc lsp: internal error in {}: {what}", req.method),
            )
        }
    }
}

/// An open document.
struct Doc {
    uri: lsp::Uri,
    text: String,
}

/// The server's state: open documents, the latest analysis per folder, what waits to be
/// published.
#[derive(Default)]
struct Server {
    docs: HashMap<PathBuf, Doc>,
    /// The analysis of a folder, valid until a file below it changes.
    snapshots: HashMap<PathBuf, Rc<Snapshot>>,
    /// What the analyses reuse of the files that did not change.
    cache: analysis::Cache,
    /// Documents whose diagnostics are owed, published in path order.
    pending: BTreeSet<PathBuf>,
    /// Analyses made stale by an edit, freed after the next publish.
    stale: Vec<Rc<Snapshot>>,
}

type Answer = Result<Value, (ErrorCode, String)>;

fn invalid(e: impl std::fmt::Display) -> (ErrorCode, String) {
    (ErrorCode::InvalidParams, e.to_string())
}

fn to_value(v: impl serde::Serialize) -> Answer {
    serde_json::to_value(v).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

fn folder(path: &Path) -> PathBuf {
    path.parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

impl Server {
    /// The analysis of the folder of `path`, built when an edit made the last one stale.
    fn snapshot(&mut self, path: &Path) -> Rc<Snapshot> {
        let dir = folder(path);
        if let Some(s) = self.snapshots.get(&dir)
            && s.file_id(path).is_some()
        {
            return Rc::clone(s);
        }
        let docs = &self.docs;
        let overlay = |p: &Path| docs.get(p).map(|d| d.text.clone());
        let snap = Rc::new(Snapshot::build_cached(
            &dir,
            path,
            &overlay,
            &mut self.cache,
        ));
        if let Some(old) = self.snapshots.insert(dir, Rc::clone(&snap)) {
            self.stale.push(old);
        }
        snap
    }

    /// `path` changed (in the editor or on disk): every analysis that holds it is stale
    /// (the folders are searched recursively, so each folder above it), and every open
    /// document of those folders may gain or lose a cross-catalog finding.
    fn changed(&mut self, path: &Path) {
        let stale: Vec<PathBuf> = self
            .snapshots
            .keys()
            .filter(|dir| path.starts_with(dir))
            .cloned()
            .collect();
        for dir in &stale {
            if let Some(old) = self.snapshots.remove(dir) {
                self.stale.push(old);
            }
        }
        let own = folder(path);
        for p in self.docs.keys() {
            let dir = folder(p);
            if dir == own || stale.contains(&dir) {
                self.pending.insert(p.clone());
            }
        }
    }

    /// Files may have changed on disk (`paths`; `None`: any): every analysis is stale and
    /// every open document owes its diagnostics again.
    fn changed_on_disk(&mut self, paths: Option<&[PathBuf]>) {
        self.cache.forget_disk(paths);
        self.stale.extend(self.snapshots.drain().map(|(_, s)| s));
        self.pending.extend(self.docs.keys().cloned());
    }

    /// The `publishDiagnostics` notifications owed, one per pending open document.
    fn publish_pending(&mut self) -> Vec<Notification> {
        let mut out = Vec::new();
        for path in std::mem::take(&mut self.pending) {
            let Some(uri) = self.docs.get(&path).map(|d| d.uri.clone()) else {
                continue;
            };
            let snap = self.snapshot(&path);
            let diagnostics = View::new(&snap, &path)
                .map(|v| features::diagnostics(&v))
                .unwrap_or_default();
            let params = lsp::PublishDiagnosticsParams {
                uri,
                diagnostics,
                version: None,
            };
            out.push(Notification::new(
                lsp::notification::PublishDiagnostics::METHOD.into(),
                params,
            ));
        }
        out
    }

    fn notification(&mut self, n: Notification) {
        use lsp::notification as N;
        match n.method.as_str() {
            N::DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(n.params)
                else {
                    return;
                };
                let Some(path) = uri_to_path(&p.text_document.uri) else {
                    return;
                };
                self.docs.insert(
                    path.clone(),
                    Doc {
                        uri: p.text_document.uri,
                        text: p.text_document.text,
                    },
                );
                self.changed(&path);
            }
            N::DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(n.params)
                else {
                    return;
                };
                let Some(path) = uri_to_path(&p.text_document.uri) else {
                    return;
                };
                let Some(doc) = self.docs.get_mut(&path) else {
                    return;
                };
                for change in p.content_changes {
                    apply_change(&mut doc.text, change);
                }
                self.changed(&path);
            }
            N::DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(n.params)
                else {
                    return;
                };
                if let Some(path) = uri_to_path(&p.text_document.uri) {
                    self.docs.remove(&path);
                    self.pending.remove(&path);
                    // The file is read from disk again, which may hold another text.
                    self.changed(&path);
                }
            }
            N::DidSaveTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidSaveTextDocumentParams>(n.params)
                else {
                    return self.changed_on_disk(None);
                };
                let paths: Vec<PathBuf> = uri_to_path(&p.text_document.uri).into_iter().collect();
                self.changed_on_disk(Some(&paths));
            }
            N::DidChangeWatchedFiles::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp::DidChangeWatchedFilesParams>(n.params)
                else {
                    return self.changed_on_disk(None);
                };
                let paths: Vec<PathBuf> = p
                    .changes
                    .iter()
                    .filter_map(|c| uri_to_path(&c.uri))
                    .collect();
                self.changed_on_disk(Some(&paths));
            }
            _ => {}
        }
    }

    fn request(&mut self, req: &Request) -> Answer {
        use lsp::request as R;
        let params = req.params.clone();
        match req.method.as_str() {
            R::HoverRequest::METHOD => {
                let p: lsp::HoverParams = serde_json::from_value(params).map_err(invalid)?;
                let pos = p.text_document_position_params;
                self.at(&pos, |view, offset| to_value(features::hover(view, offset)))
            }
            R::Completion::METHOD => {
                let p: lsp::CompletionParams = serde_json::from_value(params).map_err(invalid)?;
                self.at(&p.text_document_position, |view, offset| {
                    to_value(features::completion(view, offset))
                })
            }
            R::GotoDefinition::METHOD => {
                let p: lsp::GotoDefinitionParams =
                    serde_json::from_value(params).map_err(invalid)?;
                self.at(&p.text_document_position_params, |view, offset| {
                    to_value(features::definition(view, offset))
                })
            }
            R::References::METHOD => {
                let p: lsp::ReferenceParams = serde_json::from_value(params).map_err(invalid)?;
                let decl = p.context.include_declaration;
                self.at(&p.text_document_position, |view, offset| {
                    to_value(features::references(view, offset, decl))
                })
            }
            R::Rename::METHOD => {
                let p: lsp::RenameParams = serde_json::from_value(params).map_err(invalid)?;
                let name = p.new_name;
                self.at(&p.text_document_position, |view, offset| {
                    features::rename(view, offset, &name)
                        .map_err(|m| (ErrorCode::RequestFailed, m))
                        .and_then(to_value)
                })
            }
            R::DocumentSymbolRequest::METHOD => {
                let p: lsp::DocumentSymbolParams =
                    serde_json::from_value(params).map_err(invalid)?;
                self.view(&p.text_document.uri, |view| {
                    to_value(lsp::DocumentSymbolResponse::Nested(features::symbols(view)))
                })
            }
            R::CodeActionRequest::METHOD => {
                let p: lsp::CodeActionParams = serde_json::from_value(params).map_err(invalid)?;
                let uri = p.text_document.uri.clone();
                self.view(&p.text_document.uri, |view| {
                    let start = view.offset(p.range.start);
                    let end = view.offset(p.range.end);
                    to_value(features::code_actions(
                        view,
                        crate::syntax::Span::new(start, end.max(start)),
                        &uri,
                    ))
                })
            }
            R::Formatting::METHOD => {
                let p: lsp::DocumentFormattingParams =
                    serde_json::from_value(params).map_err(invalid)?;
                self.view(&p.text_document.uri, |view| {
                    features::formatting(view)
                        .map_err(|m| (ErrorCode::RequestFailed, m))
                        .and_then(to_value)
                })
            }
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("catalogc lsp does not serve {}", req.method),
            )),
        }
    }

    fn view(&mut self, uri: &lsp::Uri, f: impl FnOnce(&View) -> Answer) -> Answer {
        let path = uri_to_path(uri).ok_or_else(|| invalid("not a file: URI"))?;
        if !self.docs.contains_key(&path) {
            return Err(invalid(format!("{} is not open", uri.as_str())));
        }
        let snap = self.snapshot(&path);
        let view = View::new(&snap, &path).ok_or_else(|| invalid("not a catalog"))?;
        f(&view)
    }

    fn at(
        &mut self,
        pos: &lsp::TextDocumentPositionParams,
        f: impl FnOnce(&View, usize) -> Answer,
    ) -> Answer {
        self.view(&pos.text_document.uri, |view| {
            f(view, view.offset(pos.position))
        })
    }
}

/// Applies one incremental (or whole-text) change.
fn apply_change(text: &mut String, change: lsp::TextDocumentContentChangeEvent) {
    match change.range {
        Some(r) => {
            let index = crate::diag::Utf16Index::new(text);
            let start = index.offset(text, r.start.line, r.start.character);
            let end = index.offset(text, r.end.line, r.end.character).max(start);
            text.replace_range(start..end, &change.text);
        }
        None => *text = change.text,
    }
}

/// The path of a `file:` URI, percent-decoded.
pub fn uri_to_path(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path` names another machine; only the local host is served.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = path.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

/// The `file:` URI of an absolute path, percent-encoding what a URI path may not hold.
pub fn path_to_uri(path: &Path) -> Option<lsp::Uri> {
    let s = path.to_str()?;
    let mut uri = String::from("file://");
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.parse().ok()
}

#[cfg(test)]
mod tests;
