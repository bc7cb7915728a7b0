//! The server driven through an in-memory connection, as an editor drives it.

use super::*;
use lsp_server::RequestId;
use serde_json::json;
use std::time::Duration;

struct Client {
    conn: Connection,
    thread: Option<std::thread::JoinHandle<Result<(), String>>>,
    next: i32,
    dir: tempfile::TempDir,
}

impl Client {
    fn start() -> Client {
        let (server, conn) = Connection::memory();
        let thread = std::thread::spawn(move || serve(&server));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut c = Client {
            conn,
            thread: Some(thread),
            next: 0,
            dir,
        };
        let init = c.request("initialize", json!({ "capabilities": {} }));
        assert!(
            init["capabilities"]["hoverProvider"].as_bool() == Some(true),
            "{init}"
        );
        c.notify("initialized", json!({}));
        c
    }

    fn uri(&self, name: &str) -> String {
        path_to_uri(&self.dir.path().join(name))
            .map(|u| u.as_str().to_string())
            .unwrap_or_default()
    }

    fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.to_string(), params);
        self.conn
            .sender
            .send(n.into())
            .unwrap_or_else(|e| panic!("{e}"));
    }

    fn request_raw(&mut self, method: &str, params: Value) -> Response {
        self.next += 1;
        let id = RequestId::from(self.next);
        let req = Request::new(id.clone(), method.to_string(), params);
        self.conn
            .sender
            .send(req.into())
            .unwrap_or_else(|e| panic!("{e}"));
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => return r,
                _ => continue,
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let r = self.request_raw(method, params);
        match r.response_result {
            Ok(v) => v,
            Err(e) => panic!("{method}: {e:?}"),
        }
    }

    fn recv(&self) -> Message {
        self.conn
            .receiver
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|e| panic!("no message from the server: {e}"))
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&self, uri: &str) -> Vec<Value> {
        loop {
            if let Message::Notification(n) = self.recv()
                && n.method == "textDocument/publishDiagnostics"
                && n.params["uri"] == uri
            {
                return n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
        }
    }

    fn open(&self, name: &str, text: &str) -> String {
        let uri = self.uri(name);
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "kdl", "version": 1, "text": text}}),
        );
        uri
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(t) = self.thread.take() {
            let _ = self.request_raw("shutdown", Value::Null);
            self.notify("exit", Value::Null);
            let _ = t.join();
        }
    }
}

fn codes(diags: &[Value]) -> Vec<&str> {
    diags.iter().filter_map(|d| d["code"].as_str()).collect()
}

fn pos(text: &str, needle: &str, plus: usize) -> Value {
    let offset = text.find(needle).unwrap_or_else(|| panic!("{needle}")) + plus;
    let ix = crate::diag::Utf16Index::new(text);
    let (line, character) = ix.position(text, offset);
    json!({"line": line, "character": character})
}

const SHOP: &str = r#"catalog "shop" version="1.0.0"
// Prix en €, commandes 🦀
tool "order_get" version="1.0.0" {
    summary "Return one order of the signed-in customer by its order reference."
    when "Use when the customer names an order reference such as ORD-7 (déjà vu 🦀)."
    when-not "Not for listing orders; use order_list for that."
    effect "reed"
    limits max-result-bytes=4096
    input {
        field "order_reference" "string" required=true max-length=16 pattern="^ORD-[0-9]+$" {
            doc "The order reference, e.g. ORD-7."
        }
    }
    examples {
        call "Where is order ORD-7?"
        no-call "What is your refund policy?"
        confusable "order_list"
    }
}
tool "order_list" version="1.0.0" {
    summary "List the orders of the signed-in customer, newest first."
    when "Use to browse the customer's orders."
    effect "read"
    limits max-items=20 max-result-bytes=8192
    input {
        field "status" "string"
    }
    examples {
        call "Show my orders."
        no-call "What is your refund policy?"
    }
}
"#;

#[test]
fn diagnostics_arrive_on_open_and_follow_edits_with_utf16_positions() {
    let c = Client::start();
    let uri = c.open("shop.kdl", SHOP);
    let diags = c.diagnostics(&uri);
    let found = codes(&diags);
    for code in [
        "model/unknown-keyword",
        "syntax/v1-keyword",
        "selection/missing-text",
        "bounds/string-unbounded",
    ] {
        assert!(found.contains(&code), "{code} not in {found:?}");
    }
    let reed = diags
        .iter()
        .find(|d| d["code"] == "model/unknown-keyword")
        .cloned()
        .unwrap_or_default();
    assert_eq!(reed["range"]["start"], pos(SHOP, "\"reed\"", 0));
    assert!(
        reed["message"]
            .as_str()
            .is_some_and(|m| m.contains("did you mean `read`?")),
        "{reed}"
    );
    let unbounded = diags
        .iter()
        .find(|d| d["code"] == "bounds/string-unbounded")
        .cloned()
        .unwrap_or_default();
    assert!(
        unbounded["codeDescription"]["href"]
            .as_str()
            .is_some_and(|h| h.ends_with("docs/rules.md#boundsstring-unbounded")),
        "{unbounded}"
    );
    // The non-ASCII line before the edit: `🦀` counts two UTF-16 units.
    let start = pos(SHOP, "reed", 0);
    let end = pos(SHOP, "reed", 4);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": {"start": start, "end": end}, "text": "read"}]}),
    );
    let after = c.diagnostics(&uri);
    assert!(
        !codes(&after).contains(&"model/unknown-keyword"),
        "{after:?}"
    );
    assert!(codes(&after).contains(&"syntax/v1-keyword"));
}

#[test]
fn hover_completion_navigation_fixes_and_format() {
    let mut c = Client::start();
    // With the effect fixed, both tools lower and refer to each other.
    let text = SHOP.replace("effect \"reed\"", "effect \"read\"");
    let uri = c.open("shop.kdl", &text);
    c.diagnostics(&uri);
    let doc = json!({"uri": uri});
    let pos = |needle: &str, plus: usize| pos(&text, needle, plus);
    let at =
        |needle: &str, plus: usize| json!({"textDocument": doc, "position": pos(needle, plus)});

    let h = c.request("textDocument/hover", at("\"order_list\" version", 2));
    let md = h["contents"]["value"].as_str().unwrap_or_default();
    assert!(md.contains("Description the model sees"), "{md}");
    assert!(md.contains("sha256:"), "{md}");
    let h = c.request("textDocument/hover", at("limits max-items", 1));
    let md = h["contents"]["value"].as_str().unwrap_or_default();
    assert!(md.contains("max-result-bytes"), "{md}");
    let h = c.request("textDocument/hover", at("=true", 2));
    let md = h["contents"]["value"].as_str().unwrap_or_default();
    assert!(md.contains("**`required=`**"), "{md}");
    assert!(md.contains("# syntax/v1-keyword"), "{md}");

    let items = c.request(
        "textDocument/completion",
        at("read\"\n    limits max-result-bytes=4096", 0),
    );
    let labels: Vec<&str> = items
        .as_array()
        .map(|a| a.iter().filter_map(|i| i["label"].as_str()).collect())
        .unwrap_or_default();
    assert!(labels.contains(&"external-read"), "{labels:?}");
    let items = c.request("textDocument/completion", at("confusable \"order_list", 12));
    assert!(items.to_string().contains("\"order_get\""), "{items}");

    let def = c.request("textDocument/definition", at("confusable \"order_list", 13));
    assert_eq!(def["range"]["start"], pos("\"order_list\" version", 0));
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": doc, "position": pos("\"order_list\" version", 1), "context": {"includeDeclaration": true}}),
    );
    assert_eq!(refs.as_array().map(Vec::len), Some(2), "{refs}");
    let edit = c.request(
        "textDocument/rename",
        json!({"textDocument": doc, "position": pos("\"order_list\" version", 1), "newName": "order_search"}),
    );
    let edits = edit["changes"][&uri]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(edits.len(), 2, "{edit}");
    assert!(edits.iter().all(|e| e["newText"] == "\"order_search\""));

    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": doc, "range": {"start": pos("=true", 1), "end": pos("=true", 5)}, "context": {"diagnostics": []}}),
    );
    assert!(
        actions.to_string().contains("\"newText\":\"#true\""),
        "{actions}"
    );
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": doc, "range": {"start": pos("\"status\" \"string\"", 1), "end": pos("\"status\" \"string\"", 1)}, "context": {"diagnostics": []}}),
    );
    assert!(actions.to_string().contains("max-length=256"), "{actions}");

    let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": doc}));
    assert!(symbols.to_string().contains("order_reference"), "{symbols}");
    // Syntax errors: formatting is refused with the reason.
    let r = c.request_raw(
        "textDocument/formatting",
        json!({"textDocument": doc, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert!(matches!(r.response_result, Err(e) if e.message.contains("syntax error")));
}

#[test]
fn a_panic_inside_a_request_is_an_error_response() {
    let req = Request::new(RequestId::from(7), "textDocument/hover".into(), Value::Null);
    let resp = guarded(&req, |_| panic!("boom"));
    let Err(err) = resp.response_result else {
        panic!("no error")
    };
    assert_eq!(err.code, ErrorCode::InternalError as i32);
    assert!(
        err.message.contains("textDocument/hover: boom"),
        "{}",
        err.message
    );
    // And the server answers the next request.
    let mut c = Client::start();
    let r = c.request_raw("catalogc/unknown", Value::Null);
    assert!(r.response_result.is_err());
    let uri = c.open("a.kdl", "catalog \"a\" version=\"1.0.0\"\n");
    assert!(c.diagnostics(&uri).is_empty());
}

#[test]
fn a_second_shutdown_is_refused_not_fatal() {
    let mut c = Client::start();
    assert!(
        c.request_raw("shutdown", Value::Null)
            .response_result
            .is_ok()
    );
    let again = c.request_raw("shutdown", Value::Null);
    assert!(again.response_result.is_ok());
    let hover = c.request_raw("textDocument/hover", Value::Null);
    assert!(matches!(hover.response_result, Err(e) if e.message.contains("shutting down")));
    c.notify("exit", Value::Null);
    let served = c.thread.take().map(|t| t.join());
    assert!(matches!(served, Some(Ok(Ok(())))));
}

#[test]
fn uris_and_paths_round_trip() {
    let p = Path::new("/tmp/a dir/caf\u{e9}.kdl");
    let uri = path_to_uri(p).unwrap_or_else(|| panic!("no uri"));
    assert_eq!(uri.as_str(), "file:///tmp/a%20dir/caf%C3%A9.kdl");
    assert_eq!(uri_to_path(&uri).as_deref(), Some(p));
}

/// A rename to a name lint would reject, or to one already taken, is refused with an error
/// response before any edit is offered; a valid one is not.
#[test]
fn rename_refuses_invalid_or_taken_names() {
    let mut c = Client::start();
    let text = format!(
        "{}type \"OrderLine\" {{\n    field \"sku\" \"string\" max-length=16\n}}\n",
        SHOP.replace("effect \"reed\"", "effect \"read\"")
    );
    let uri = c.open("shop.kdl", &text);
    c.diagnostics(&uri);
    let doc = json!({"uri": uri});
    let tool = pos(&text, "\"order_list\" version", 1);
    let ty = pos(&text, "\"OrderLine\"", 1);
    let mut rename = |position: &Value, name: &str| {
        c.request_raw(
            "textDocument/rename",
            json!({"textDocument": doc, "position": position, "newName": name}),
        )
        .response_result
    };
    for (position, name, why) in [
        (&tool, "OrderSearch", "is not snake_case"),
        (&tool, "order-search", "is not snake_case"),
        (&tool, "orders", "is one word"),
        (&tool, "", "is not snake_case"),
        (&tool, "order_get", "already exists"),
        (&ty, "order_line", "is not PascalCase"),
        (&ty, "Order Line", "is not PascalCase"),
    ] {
        match rename(position, name) {
            Err(e) => {
                assert_eq!(e.code, ErrorCode::RequestFailed as i32, "{name}");
                assert!(e.message.contains(why), "{name}: {}", e.message);
            }
            Ok(v) => panic!("`{name}` was accepted: {v}"),
        }
    }
    assert!(rename(&tool, "order_search").is_ok());
    assert!(rename(&ty, "OrderItem").is_ok());
}

/// A catalog `name` declaring `tool` (read-only, bounded), naming `confusable` when given.
fn catalog(name: &str, tool: &str, confusable: Option<&str>) -> String {
    let examples = confusable.map_or(String::new(), |c| format!("        confusable \"{c}\"\n"));
    format!(
        r#"catalog "{name}" version="1.0.0"
tool "{tool}" version="1.0.0" {{
    summary "Return one order of the signed-in customer by its order reference."
    when "Use when the customer names an order reference such as ORD-7."
    effect "read"
    limits max-result-bytes=4096
    examples {{
        call "Where is order ORD-7?"
        no-call "What is your refund policy?"
{examples}    }}
}}
"#
    )
}

/// An `override` block of catalogc.kdl turns a rule off for the files its glob matches
/// and for those only: the same finding stays in a catalog outside the glob.
#[test]
fn overrides_of_catalogc_kdl_apply_to_the_files_they_match() {
    let c = Client::start();
    let unknown = |diags: &[Value]| codes(diags).contains(&"selection/unknown-tool");
    let kdl = "override \"legacy/**\" { rule \"selection/unknown-tool\" level=\"off\"; }\n";
    std::fs::write(c.dir.path().join("catalogc.kdl"), kdl).unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(c.dir.path().join("legacy")).unwrap_or_else(|e| panic!("{e}"));
    let a = c.open("a.kdl", &catalog("a", "order_get", Some("invoice_get")));
    assert!(unknown(&c.diagnostics(&a)));
    let b = c.open(
        "legacy/b.kdl",
        &catalog("b", "order_find", Some("invoice_get")),
    );
    assert!(!unknown(&c.diagnostics(&b)), "{:?}", c.diagnostics(&b));
}

/// The cross-catalog findings of an open catalog follow every way another catalog of its
/// folder changes: edited in the editor, closed, rewritten on disk with or without an event
/// from the editor.
#[test]
fn cross_catalog_findings_follow_the_other_catalogs() {
    let c = Client::start();
    let write = |name: &str, text: &str| {
        std::fs::write(c.dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
    };
    let unknown = |diags: &[Value]| codes(diags).contains(&"selection/unknown-tool");
    write("b.kdl", &catalog("b", "invoice_list", None));
    // On disk too, as an open file usually is; the editor's text wins.
    write("a.kdl", "");
    let a = c.open("a.kdl", &catalog("a", "order_get", Some("invoice_get")));
    assert!(unknown(&c.diagnostics(&a)));

    // On disk, announced by the editor's file watcher.
    write("b.kdl", &catalog("b", "invoice_get", None));
    let b = c.uri("b.kdl");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": b, "type": 2}]}),
    );
    assert!(!unknown(&c.diagnostics(&a)));

    // In the editor, unsaved: the open catalog's findings are published again too.
    let text = catalog("b", "invoice_get", None);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": b, "languageId": "kdl", "version": 1, "text": text}}),
    );
    // While both are open, a change of either publishes both, in path order; each step waits
    // for them, so no step's publishes are taken for the next one's.
    let both = || (c.diagnostics(&a), c.diagnostics(&b));
    assert!(!unknown(&both().0));
    let at = pos(&text, "invoice_get", 0);
    let end = pos(&text, "invoice_get", "invoice_get".len());
    let rename = |to: &str, version: i32| {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": b, "version": version},
                   "contentChanges": [{"range": {"start": at, "end": end}, "text": to}]}),
        );
    };
    rename("invoice_put", 2);
    assert!(unknown(&both().0));
    // A duplicate tool name is reported in the later file of the two.
    rename("order_get", 3);
    let (in_a, in_b) = both();
    assert!(codes(&in_b).contains(&"naming/duplicate"), "{in_b:?}");
    assert!(!codes(&in_a).contains(&"naming/duplicate"), "{in_a:?}");

    // Closed without saving: the file on disk counts again.
    c.notify("textDocument/didClose", json!({"textDocument": {"uri": b}}));
    let after = c.diagnostics(&a);
    assert!(!unknown(&after) && !codes(&after).contains(&"naming/duplicate"));

    // Rewritten on disk with no event: the next analysis sees the new size and time.
    write("b.kdl", &catalog("b", "invoice_gone", None));
    let text = catalog("a", "order_get", Some("invoice_get"));
    let at = pos(&text, "Return", 0);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": a, "version": 2},
               "contentChanges": [{"range": {"start": at, "end": at}, "text": "x"}]}),
    );
    assert!(unknown(&c.diagnostics(&a)));
    // Saved: every open catalog is published again.
    write("b.kdl", &catalog("b", "invoice_get", None));
    c.notify("textDocument/didSave", json!({"textDocument": {"uri": b}}));
    assert!(!unknown(&c.diagnostics(&a)));
}

/// Every keystroke's change is applied before the diagnostics are published: a burst sent
/// at once ends with diagnostics of its last text.
#[test]
fn a_burst_of_changes_ends_with_the_diagnostics_of_its_last_text() {
    let c = Client::start();
    let text = catalog("a", "order_get", None);
    let a = c.open("a.kdl", &text);
    assert!(!codes(&c.diagnostics(&a)).contains(&"model/unknown-keyword"));
    let at = pos(&text, "\"read\"", 1);
    for (version, ch) in ["r", "e", "e"].into_iter().enumerate() {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": a, "version": version + 2},
                   "contentChanges": [{"range": {"start": at, "end": at}, "text": ch}]}),
        );
    }
    // `read` → `eerread`, whatever number of publishes the burst caused (`recv` gives up
    // after 20 s when the last text is never published).
    while !c.diagnostics(&a).iter().any(|d| {
        d["code"] == "model/unknown-keyword" && d["message"].to_string().contains("eerread")
    }) {}
}

#[test]
fn published_diagnostics_are_capped_with_a_count_of_the_rest() {
    let c = Client::start();
    let fields: String = (0..1_100)
        .map(|i| format!("        field \"f{i}\" \"string\"\n"))
        .collect();
    let text = catalog("big", "order_get", None).replacen(
        "    examples {",
        &format!("    input {{\n{fields}    }}\n    examples {{"),
        1,
    );
    let uri = c.open("big.kdl", &text);
    let diags = c.diagnostics(&uri);
    assert_eq!(diags.len(), features::MAX_DIAGNOSTICS + 1);
    let last = &diags[features::MAX_DIAGNOSTICS];
    assert!(
        last["message"]
            .as_str()
            .is_some_and(|m| m.contains("more findings")),
        "{last}"
    );
}

fn did_open(uri: &str, text: &str) -> Notification {
    Notification::new(
        "textDocument/didOpen".into(),
        json!({"textDocument": {"uri": uri, "languageId": "kdl", "version": 1, "text": text}}),
    )
}

#[test]
fn edits_do_not_search_the_folder_again() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let text = catalog("a", "order_get", None);
    std::fs::write(dir.path().join("b.kdl"), catalog("b", "order_list", None))
        .unwrap_or_else(|e| panic!("{e}"));
    let uri = path_to_uri(&dir.path().join("a.kdl"))
        .map(|u| u.as_str().to_string())
        .unwrap_or_default();
    let mut server = Server::default();
    server.notification(did_open(&uri, &text));
    assert_eq!(server.publish_pending().len(), 1);
    for version in 2..7 {
        server.notification(Notification::new(
            "textDocument/didChange".into(),
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"text": format!("{text}// {version}\n")}]}),
        ));
        assert_eq!(server.publish_pending().len(), 1);
    }
    assert_eq!(server.cache.walks, 1);
    // A change on disk may add or remove a file: the folder is searched again.
    server.notification(Notification::new(
        "textDocument/didSave".into(),
        json!({"textDocument": {"uri": uri}}),
    ));
    server.publish_pending();
    assert_eq!(server.cache.walks, 2);
}

#[test]
fn a_file_at_the_root_searches_a_bounded_number_of_entries() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for i in 0..30 {
        let sub = dir.path().join(format!("d{i:02}"));
        std::fs::create_dir(&sub).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(sub.join("c.kdl"), "catalog \"c\"\n").unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(
        crate::project::discover_bounded(dir.path(), usize::MAX).len(),
        30
    );
    assert!(crate::project::discover_bounded(dir.path(), 20).len() <= 10);
    // A buffer at `/` is analysed with what the bounded search of `/` finds.
    let mut server = Server::default();
    server.notification(did_open(
        "file:///catalogc-lsp-test-at-the-root.kdl",
        &catalog("root", "order_get", None),
    ));
    assert_eq!(server.publish_pending().len(), 1);
    assert_eq!(server.cache.walks, 1);
}

#[test]
fn a_hover_behind_a_hundred_edits_is_answered() {
    let mut c = Client::start();
    let text = catalog("a", "order_get", None);
    let a = c.open("a.kdl", &text);
    c.diagnostics(&a);
    for version in 2..102 {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": a, "version": version},
                   "contentChanges": [{"text": format!("{text}// {version}\n")}]}),
        );
    }
    // Queued behind the edits, the hover is answered from the last text (`request` gives
    // up after 20 s).
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": a}, "position": pos(&text, "\"order_get\"", 2)}),
    );
    let md = h["contents"]["value"].as_str().unwrap_or_default();
    assert!(md.contains("order_get"), "{md}");
}
