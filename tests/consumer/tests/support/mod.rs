//! What the MCP tests share.

pub mod client;
