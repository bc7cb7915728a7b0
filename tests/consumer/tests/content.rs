//! The notes catalog's generated code, served through `call`: unstructured results (text,
//! Markdown, an image) become one content block without `structuredContent`; a naturally
//! idempotent delete is `idempotentHint: true`; its confirmation goes through
//! `Reply::InputRequired`.

use catalogc::runtime::serde_json::{Value, json};
use catalogc::runtime::{Answer, Call, CallResult, Catalog, Image, Markdown, Text};
use catalogc_consumer::block_on;
use catalogc_consumer::notes::{self, note_delete, note_markdown, note_text, note_thumbnail};
use std::sync::Mutex;

/// Notes by reference.
struct Notes {
    notes: Mutex<Vec<(String, String)>>,
}

struct Session;

impl Notes {
    fn find(&self, reference: &str) -> Option<String> {
        let notes = self.notes.lock().unwrap_or_else(|p| p.into_inner());
        notes
            .iter()
            .find(|(r, _)| r == reference)
            .map(|(_, t)| t.clone())
    }
}

impl notes::Notes for Notes {
    type Context = Session;

    async fn note_text(
        &self,
        _ctx: &Session,
        _call: &note_text::Call,
        input: note_text::Input,
    ) -> Result<note_text::Output, note_text::Error> {
        self.find(&input.note_reference)
            .map(Text)
            .ok_or(note_text::Error::NoteNotFound(None))
    }

    async fn note_markdown(
        &self,
        _ctx: &Session,
        _call: &note_markdown::Call,
        input: note_markdown::Input,
    ) -> Result<note_markdown::Output, note_markdown::Error> {
        self.find(&input.note_reference)
            .map(|t| Markdown(format!("# {}\n\n{t}", input.note_reference)))
            .ok_or(note_markdown::Error::NoteNotFound(None))
    }

    async fn note_thumbnail(
        &self,
        _ctx: &Session,
        _call: &note_thumbnail::Call,
        input: note_thumbnail::Input,
    ) -> Result<note_thumbnail::Output, note_thumbnail::Error> {
        self.find(&input.note_reference)
            .map(|t| Image {
                data: t.into_bytes(),
                mime_type: "image/png".into(),
            })
            .ok_or(note_thumbnail::Error::NoteNotFound(None))
    }

    async fn note_delete(
        &self,
        _ctx: &Session,
        call: &note_delete::Call,
        input: note_delete::Input,
    ) -> Result<note_delete::Reply, note_delete::Error> {
        if !call.answers().approval.is_confirmed() {
            return Ok(note_delete::Reply::InputRequired {
                needs: note_delete::NeedsInput::Approval,
                prompt: format!("Delete {} for good?", input.note_reference),
            });
        }
        let mut notes = self.notes.lock().unwrap_or_else(|p| p.into_inner());
        let before = notes.len();
        notes.retain(|(r, _)| *r != input.note_reference);
        Ok(note_delete::Reply::Complete(note_delete::Output {
            deleted: notes.len() < before,
        }))
    }
}

/// Calls `tool`; `approved`: with the user's confirmation of its `approval`.
fn call(notes: &Notes, approved: bool, tool: &str, args: Value) -> CallResult {
    let mut answers = catalogc::runtime::RawAnswers::new();
    if approved {
        let yes = Answer {
            accepted: true,
            ..Answer::default()
        };
        answers.insert("approval".into(), yes);
    }
    let call = Call::builder().answers(answers).build();
    block_on(<notes::Catalog as Catalog<Notes>>::call(
        notes, &Session, &call, tool, args,
    ))
    .unwrap_or_else(|e| panic!("protocol error: {e}"))
}

fn sample() -> Notes {
    Notes {
        notes: Mutex::new(vec![("NOTE-1".into(), "Buy milk.".into())]),
    }
}

#[test]
fn unstructured_results_are_one_content_block_without_structured_content() {
    let n = sample();
    let args = json!({ "note_reference": "NOTE-1" });
    let text = call(&n, false, "note_text", args.clone());
    assert_eq!(
        text.to_json(),
        json!({ "content": [{ "type": "text", "text": "Buy milk." }], "isError": false })
    );
    let md = call(&n, false, "note_markdown", args.clone());
    assert_eq!(md.text(), "# NOTE-1\n\nBuy milk.");
    assert!(md.structured_content.is_none());
    let image = call(&n, false, "note_thumbnail", args);
    assert_eq!(
        image.to_json()["content"],
        json!([{ "type": "image", "data": "QnV5IG1pbGsu", "mimeType": "image/png" }])
    );
    // Arguments are still checked, errors still structured.
    let missing = call(
        &n,
        false,
        "note_text",
        json!({ "note_reference": "NOTE-9" }),
    );
    assert_eq!(missing.error_code(), Some("NOTE_NOT_FOUND"));
    let bad = call(&n, false, "note_text", json!({ "note_reference": "x" }));
    assert_eq!(bad.error_code(), Some("INVALID_ARGUMENTS"));
}

#[test]
fn definitions_have_no_output_schema_and_the_delete_is_idempotent() {
    let list = <notes::Catalog as Catalog<Notes>>::tools_list();
    let tools = list["tools"].as_array().cloned().unwrap_or_default();
    let by_name = |name: &str| {
        tools
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
            .unwrap_or(Value::Null)
    };
    for name in ["note_text", "note_markdown", "note_thumbnail"] {
        assert!(by_name(name).get("outputSchema").is_none(), "{name}");
    }
    let delete = by_name("note_delete");
    assert!(delete.get("outputSchema").is_some());
    assert_eq!(
        delete["annotations"],
        json!({
            "readOnlyHint": false,
            "destructiveHint": true,
            "idempotentHint": true,
            "openWorldHint": false
        })
    );
}

#[test]
fn a_confirmation_goes_through_input_required_and_a_repeat_changes_nothing() {
    let n = sample();
    let args = json!({ "note_reference": "NOTE-1" });
    let asked = call(&n, false, "note_delete", args.clone());
    let need = asked.input_required.as_deref().cloned();
    assert_eq!(
        need.map(|i| (i.name, i.kind)),
        Some(("approval".to_string(), "confirmation".to_string()))
    );
    let first = call(&n, true, "note_delete", args.clone());
    assert_eq!(first.structured_content, Some(json!({ "deleted": true })));
    let again = call(&n, true, "note_delete", args);
    assert_eq!(again.structured_content, Some(json!({ "deleted": false })));
}
