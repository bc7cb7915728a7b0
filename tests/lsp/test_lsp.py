"""End-to-end tests of `catalogc lsp` through pytest-lsp's client (pygls) over stdio.

Run by `.ci/lsp`: `CATALOGC` names the binary under test. The project is a temporary copy of
catalogs/ plus `shop.kdl`, a catalog with known mistakes that names a billing tool, so
cross-catalog definition and rename are exercised too.
"""

import os
import pathlib
import shutil

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
CATALOGC = os.environ.get("CATALOGC", str(ROOT / "target" / "debug" / "catalogc"))

SHOP = """catalog "shop" version="1.0.0"
// Prix en €, commandes 🦀
tool "order_get" version="1.0.0" {
    summary "Return one order of the signed-in customer by its order reference."
    when "Use when the customer names an order reference such as ORD-7 (déjà vu 🦀)."
    effect "reed"
    limits max-result-bytes=4096
    input {
        field "order_reference" "string" required=true pattern="^ORD-[0-9]+$" {
            doc "The order reference, e.g. ORD-7."
        }
    }
    examples {
        call "Where is order ORD-7?"
        no-call "What is your refund policy?"
        confusable "invoice_gett"
    }
}
"""


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[CATALOGC, "lsp"]),
)
async def client(lsp_client: LanguageClient, tmp_path_factory):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=pytest_lsp.client_capabilities("visual-studio-code")
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def project(tmp_path):
    for kdl in (ROOT / "catalogs").glob("*.kdl"):
        shutil.copy(kdl, tmp_path / kdl.name)
    (tmp_path / "shop.kdl").write_text(SHOP, encoding="utf-8")
    return tmp_path


def utf16_position(text: str, needle: str, plus: int = 0) -> types.Position:
    offset = text.index(needle) + plus
    before = text[:offset]
    line = before.count("\n")
    col = before[before.rfind("\n") + 1 :]
    return types.Position(line=line, character=len(col.encode("utf-16-le")) // 2)


def apply(text: str, edits) -> str:
    """Applies LSP text edits (UTF-16 positions) to a text."""
    lines = text.split("\n")

    def offset(p: types.Position) -> int:
        start = sum(len(l) + 1 for l in lines[: p.line])
        line = lines[p.line] if p.line < len(lines) else ""
        units, chars = 0, 0
        for ch in line:
            if units >= p.character:
                break
            units += len(ch.encode("utf-16-le")) // 2
            chars += 1
        return start + chars

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


async def open_doc(client: LanguageClient, path: pathlib.Path, text: str) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="kdl", version=1, text=text)
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


def codes(client: LanguageClient, uri: str):
    return sorted(str(d.code) for d in client.diagnostics[uri])


@pytest.mark.asyncio
async def test_diagnostics_follow_edits(client: LanguageClient, project):
    uri = await open_doc(client, project / "shop.kdl", SHOP)
    # A tool without a valid effect is not lowered: only its syntax and model errors.
    assert codes(client, uri) == ["model/unknown-keyword", "syntax/v1-keyword"]
    reed = next(d for d in client.diagnostics[uri] if d.code == "model/unknown-keyword")
    # UTF-16 columns: the line before holds `é` and `🦀`; this one is ASCII.
    assert reed.range.start == utf16_position(SHOP, '"reed"')
    assert "did you mean `read`?" in reed.message

    # One keystroke after the non-ASCII line: `reed` → `read`.
    start = utf16_position(SHOP, "reed", 2)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=start, end=types.Position(line=start.line, character=start.character + 1)),
                    text="a",
                )
            ],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    after = codes(client, uri)
    # The tool lowers now: lint runs, and its reference to a billing.kdl tool is checked.
    assert after == [
        "bounds/string-unbounded",
        "errors/undeclared",
        "output/missing-schema",
        "selection/missing-text",
        "selection/unknown-tool",
        "syntax/v1-keyword",
    ], after
    unbounded = next(d for d in client.diagnostics[uri] if d.code == "bounds/string-unbounded")
    assert unbounded.code_description.href.endswith("docs/rules.md#boundsstring-unbounded")
    typo = next(d for d in client.diagnostics[uri] if d.code == "selection/unknown-tool")
    assert "did you mean `invoice_get`?" in typo.message


FIXED = SHOP.replace('effect "reed"', 'effect "read"')


@pytest.mark.asyncio
async def test_hover_completion_definition_rename(client: LanguageClient, project):
    text = FIXED.replace("invoice_gett", "invoice_get")
    uri = await open_doc(client, project / "shop.kdl", text)
    doc = types.TextDocumentIdentifier(uri=uri)

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc, position=utf16_position(text, '"order_get"', 2))
    )
    assert "Description the model sees" in hover.contents.value
    assert "sha256:" in hover.contents.value
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc, position=utf16_position(text, "effect", 1))
    )
    assert "`external-read`" in hover.contents.value

    items = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc, position=utf16_position(text, 'read"', 0))
    )
    labels = [i.label for i in (items.items if hasattr(items, "items") else items)]
    assert "destructive" in labels, labels
    items = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc, position=utf16_position(text, '"invoice_get"', 1))
    )
    labels = [i.label for i in (items.items if hasattr(items, "items") else items)]
    assert "invoice_list" in labels and "order_get" in labels, labels

    # Across catalogs: the confusable tool is declared in billing.kdl.
    where = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=utf16_position(text, '"invoice_get"', 3))
    )
    where = where[0] if isinstance(where, list) else where
    assert where.uri == (project / "billing.kdl").as_uri()
    billing = (project / "billing.kdl").read_text(encoding="utf-8")
    assert where.range.start == utf16_position(billing, 'tool "invoice_get"', 5)

    edit = await client.text_document_rename_async(
        types.RenameParams(
            text_document=doc,
            position=utf16_position(text, '"invoice_get"', 3),
            new_name="invoice_read",
        )
    )
    assert set(edit.changes) == {uri, (project / "billing.kdl").as_uri()}
    renamed = apply(billing, edit.changes[(project / "billing.kdl").as_uri()])
    assert 'tool "invoice_read"' in renamed and 'tool "invoice_get"' not in renamed


@pytest.mark.asyncio
async def test_code_actions_and_format(client: LanguageClient, project):
    uri = await open_doc(client, project / "shop.kdl", FIXED)
    doc = types.TextDocumentIdentifier(uri=uri)

    version = 1

    async def fix(needle: str, plus: int, expect: str) -> str:
        """Applies the quick fix titled like `expect` at `needle` and sends the new text."""
        nonlocal version
        pos = utf16_position(text, needle, plus)
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=doc,
                range=types.Range(start=pos, end=pos),
                context=types.CodeActionContext(diagnostics=list(client.diagnostics[uri])),
            )
        )
        titles = [a.title for a in actions]
        action = next((a for a in actions if expect in a.title), None)
        assert action is not None, titles
        fixed = apply(text, action.edit.changes[uri])
        version += 1
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
            )
        )
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return fixed

    text = FIXED
    text = await fix("=true", 1, "#true")
    assert "required=#true" in text
    text = await fix("invoice_gett", 2, "invoice_get")
    assert 'confusable "invoice_get"' in text
    text = await fix('"order_get"', 2, "when-not")
    assert "    when-not \"Not for" in text
    text = await fix('"order_reference"', 2, "max-length")
    assert "max-length=256" in text
    left = codes(client, uri)
    for gone in ["syntax/v1-keyword", "selection/unknown-tool", "selection/missing-text", "bounds/string-unbounded"]:
        assert gone not in left, left

    messy = text.replace("    effect", "effect").replace('limits max-result-bytes=4096', 'limits   max-result-bytes=4096')
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version + 1),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=messy)],
        )
    )
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc, options=types.FormattingOptions(tab_size=4, insert_spaces=True)
        )
    )
    formatted = apply(messy, edits)
    assert "\n    effect \"read\"" in formatted
    assert "limits max-result-bytes=4096" in formatted
