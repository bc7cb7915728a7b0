//! Names the model and clients read: tools, fields, error codes, types.

crate::lint::declare_rules! {
    tool_name,
    vague_name,
    field_name,
    error_code,
    type_name,
    duplicate,
    opaque_field,
}
