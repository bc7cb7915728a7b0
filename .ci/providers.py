"""Checks `catalogc export openai|anthropic|gemini` with each provider's own SDK, offline.

Usage: python .ci/providers.py CATALOGC
CATALOGC is the built binary. Exports the example catalogs (every tool must pass) and
tests/fixtures/providers/hostile.kdl (the tools a provider cannot take must be left out and
named on stderr, everything exported must pass), then checks each definition:
- OpenAI: pydantic validation of `ChatCompletionFunctionToolParam`; the Agents SDK's
  `ensure_strict_json_schema` (rejecting open objects) must leave `parameters` unchanged,
  i.e. the export is already what strict mode requires; the documented name rule, the
  1024-character description limit, and only strict mode's documented keywords.
- Anthropic: pydantic validation of `anthropic.types.ToolParam`, no keys it does not
  define, the documented name rule.
- Gemini: `google.genai.types.Tool` validation (pydantic, unknown schema keywords are
  errors), the SDK's own schema processing for the Gemini Developer API, the documented
  name rule.
The rules restated here come from the providers' documentation (docs/providers.md), not from
catalogc's table, so the two check each other.
"""

import copy
import json
import re
import subprocess
import sys

from agents.strict_schema import ensure_strict_json_schema
from anthropic.types import ToolParam
from google.genai import Client
from google.genai import _transformers as genai_transformers
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.shared_params import FunctionDefinition
from pydantic import TypeAdapter

OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ANTHROPIC_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
GEMINI_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$")
# Property keys of the input: Anthropic's API error names this pattern; google-genai's
# `FunctionDeclaration.parameters` documents Gemini's.
ANTHROPIC_PROPERTY = re.compile(r"^[a-zA-Z0-9_.-]{1,64}$")
GEMINI_PARAMETER = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]{0,63}$")
OPENAI_KEYWORDS = {
    "type", "description", "properties", "required", "additionalProperties", "items",
    "enum", "anyOf", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
}
OPENAI_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

HOSTILE = "tests/fixtures/providers/hostile.kdl"
# What each provider cannot take from the hostile catalog (docs/providers.md).
HOSTILE_LEFT_OUT = {
    "openai": {
        "billing.invoice_get",
        "invoice_get_with_every_line_item_and_the_payment_history_for_accountants",
        "report_export",
    },
    "anthropic": {"billing.invoice_get"},
    "gemini": {
        "invoice_get_with_every_line_item_and_the_payment_history_for_accountants",
        "login_verify",
    },
}


def export(catalogc, target, path):
    run = subprocess.run([catalogc, "export", target, path], capture_output=True, text=True, check=False)
    if run.returncode not in (0, 1):
        sys.exit(f"{target} {path}: exit {run.returncode}: {run.stderr}")
    left_out = set(re.findall(rf"^catalogc: {target}: (\S+): left out:", run.stderr, re.M))
    if (run.returncode == 1) != bool(left_out):
        sys.exit(f"{target} {path}: exit {run.returncode} but left out {left_out}")
    return json.loads(run.stdout), left_out


def walk(schema, path="parameters"):
    """Every subschema with its path."""
    yield path, schema
    for key, sub in schema.get("properties", {}).items():
        yield from walk(sub, f"{path}.{key}")
    if isinstance(schema.get("items"), dict):
        yield from walk(schema["items"], f"{path}[]")
    for i, sub in enumerate(schema.get("anyOf", [])):
        yield from walk(sub, f"{path}|{i}")


def check_openai(tools):
    adapter = TypeAdapter(ChatCompletionFunctionToolParam)
    names = []
    for tool in tools:
        adapter.validate_python(tool)
        fn = tool["function"]
        name = fn["name"]
        names.append(name)
        assert set(fn) <= set(FunctionDefinition.__annotations__), fn.keys()
        assert fn["strict"] is True, name
        assert OPENAI_NAME.match(name), name
        assert len(fn["description"]) <= 1024, name
        params = fn["parameters"]
        strict = ensure_strict_json_schema(copy.deepcopy(params), _reject_open_objects=True)
        assert strict == params, f"{name}: the SDK's strict conversion changes the export:\n{strict}\n{params}"
        for path, sub in walk(params):
            extra = set(sub) - OPENAI_KEYWORDS
            assert not extra, f"{name} {path}: keywords strict mode does not support: {extra}"
            if "format" in sub:
                assert sub["format"] in OPENAI_FORMATS, f"{name} {path}: {sub['format']}"
            if sub.get("type") == "object" or "properties" in sub:
                assert sub.get("additionalProperties") is False, f"{name} {path}"
                assert sub.get("required", []) == list(sub.get("properties", {})), f"{name} {path}"
    return names


def check_anthropic(tools):
    adapter = TypeAdapter(ToolParam)
    names = []
    for tool in tools:
        adapter.validate_python(tool)
        assert set(tool) <= set(ToolParam.__annotations__), tool.keys()
        assert ANTHROPIC_NAME.match(tool["name"]), tool["name"]
        assert tool["input_schema"]["type"] == "object", tool["name"]
        for key in tool["input_schema"]["properties"]:
            assert ANTHROPIC_PROPERTY.match(key), (tool["name"], key)
        names.append(tool["name"])
    return names


def check_gemini(tools):
    client = Client(api_key="offline-check-no-request-is-sent")._api_client
    assert not client.vertexai, "the check is for the Gemini Developer API"
    names = []
    for tool in tools:
        validated = genai_types.Tool.model_validate(tool)
        assert validated.function_declarations is not None
        assert genai_transformers.t_tools(client, [tool])
        for decl in tool["functionDeclarations"]:
            genai_types.FunctionDeclaration.model_validate(decl)
            genai_transformers.process_schema(copy.deepcopy(decl["parameters"]), client)
            assert GEMINI_NAME.match(decl["name"]), decl["name"]
            for key in decl["parameters"]["properties"]:
                assert GEMINI_PARAMETER.match(key), (decl["name"], key)
            names.append(decl["name"])
    return names


CHECKS = {"openai": check_openai, "anthropic": check_anthropic, "gemini": check_gemini}


def main():
    catalogc = sys.argv[1]
    for target, check in CHECKS.items():
        payload, left_out = export(catalogc, target, "catalogs")
        assert not left_out, f"{target}: the example catalogs must export whole: {left_out}"
        names = check(payload["tools"])
        assert len(names) == 6, names
        payload, left_out = export(catalogc, target, HOSTILE)
        assert left_out == HOSTILE_LEFT_OUT[target], f"{target}: left out {left_out}"
        exported = check(payload["tools"])
        assert not set(exported) & left_out, exported
        assert len(exported) + len(left_out) == 5, (exported, left_out)
        print(f"providers: {target}: {len(names)} example and {len(exported)} hostile definitions pass the SDK checks")


if __name__ == "__main__":
    main()
