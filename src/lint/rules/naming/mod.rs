//! Names the model and clients read: tools, fields, error codes, types.

crate::lint::declare_rules! {
    tool_name,
}
