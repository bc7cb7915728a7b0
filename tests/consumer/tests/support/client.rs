//! A raw JSON-RPC MCP client over an in-memory pipe, for the tests that check what reaches
//! the wire.

use catalogc::rmcp::Server;
use catalogc::runtime::serde_json::{self, Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

pub const MODERN: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";

pub struct Client {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: u64,
    /// Per-request `_meta` of the 2026-07-28 era; `None` after a 2025 `initialize`.
    meta: Option<Value>,
    /// How a 2025 client answers `elicitation/create`; `None`: it never is asked;
    /// `Some(Null)`: it never answers.
    pub elicit: Option<Value>,
    /// The `elicitation/create` requests the server sent.
    pub asked: Vec<Value>,
    /// The notifications the server sent (`notifications/progress`, …), in order.
    pub notifications: Vec<Value>,
    /// The `initialize` response (2025); `Null` for 2026-07-28.
    pub init: Value,
}

impl Client {
    /// `server`, served, and a client that said `initialize` (2025) with `capabilities`,
    /// or that sends 2026-07-28 `_meta` with every request.
    pub async fn start<Ctx: Send + Sync + 'static>(
        server: Server<Ctx>,
        version: &str,
        capabilities: Value,
    ) -> Client {
        let (ours, theirs) = tokio::io::duplex(1 << 20);
        let (r, w) = tokio::io::split(theirs);
        tokio::spawn(server.serve_io(r, w));
        let (read, write) = tokio::io::split(ours);
        let mut c = Client {
            write,
            lines: BufReader::new(read).lines(),
            next_id: 0,
            meta: None,
            elicit: None,
            asked: Vec::new(),
            notifications: Vec::new(),
            init: Value::Null,
        };
        if version == MODERN {
            c.meta = Some(json!({
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
                "io.modelcontextprotocol/clientCapabilities": capabilities,
            }));
        } else {
            let init = c
                .rpc(
                    "initialize",
                    json!({"protocolVersion": version, "capabilities": capabilities,
                       "clientInfo": {"name": "test", "version": "0"}}),
                )
                .await;
            assert_eq!(init["result"]["protocolVersion"], json!(version), "{init}");
            c.init = init;
            c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .await;
        }
        c
    }

    pub async fn send(&mut self, msg: Value) {
        let mut line = msg.to_string();
        line.push('\n');
        self.write
            .write_all(line.as_bytes())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }

    /// Sends one request and returns its response, answering server requests meanwhile.
    pub async fn rpc(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params).await;
        self.response(id, method).await
    }

    /// Sends one request (its `_meta` joined with the era's) and returns its id.
    pub async fn request(&mut self, method: &str, mut params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        if let (Some(meta), Some(p)) = (&self.meta, params.as_object_mut()) {
            let mut joined = meta.clone();
            if let (Some(own), Some(all)) = (p.get("_meta"), joined.as_object_mut()) {
                for (k, v) in own.as_object().into_iter().flatten() {
                    all.insert(k.clone(), v.clone());
                }
            }
            p.insert("_meta".into(), joined);
        }
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        id
    }

    /// The response to request `id`, answering server requests and keeping notifications
    /// meanwhile.
    pub async fn response(&mut self, id: u64, method: &str) -> Value {
        loop {
            let line =
                tokio::time::timeout(std::time::Duration::from_secs(10), self.lines.next_line())
                    .await
                    .unwrap_or_else(|_| panic!("no response to {method}"))
                    .unwrap_or_else(|e| panic!("{e}"))
                    .unwrap_or_else(|| panic!("server closed"));
            let msg: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
            if msg["method"] == json!("elicitation/create") {
                self.asked.push(msg["params"].clone());
                let answer = self
                    .elicit
                    .clone()
                    .unwrap_or_else(|| panic!("asked: {msg}"));
                if !answer.is_null() {
                    let reply = json!({"jsonrpc": "2.0", "id": msg["id"], "result": answer});
                    self.send(reply).await;
                }
            } else if msg.get("id").is_none() && msg.get("method").is_some() {
                self.notifications.push(msg);
            } else if msg["id"] == json!(id) {
                return msg;
            }
        }
    }

    pub async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.rpc("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }
}
