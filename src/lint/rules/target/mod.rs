//! What would not survive on a target (`catalogc lint --target openai,anthropic,gemini,mcp`):
//! the provider rules of [`crate::contract::targets::RULES`], the table the provider exports
//! read. Without `--target` these rules find nothing.

crate::lint::declare_rules! {
    tool_name,
    field_name,
    description_length,
    dropped_keyword,
}
