//! The billing catalog served over MCP (`catalogc::rmcp`): what a server author adds to the
//! handler — where each call's trusted context comes from.

use crate::billing::{self, invoice_send_reminder};
use crate::memory::{Memory, Session};
use catalogc::rmcp::{DefinitionError, ErrorData, Request, Server};
use catalogc::runtime::serde_json;

/// The tenants the in-memory data knows.
pub const TENANTS: [&str; 2] = ["acme", "other"];

/// The billing server over [`Memory::sample`]; calls without credentials act for
/// `default_tenant`.
pub fn server(default_tenant: &str) -> Result<Server<Session>, DefinitionError> {
    let tenant = default_tenant.to_string();
    Server::catalog::<billing::Catalog, _, _>(Memory::sample(), move |r| session(r, &tenant))
}

/// The trusted context of one call: the tenant from the request's `Authorization: Bearer
/// TENANT` header (over HTTP), else `default_tenant`; and the approval of exactly these
/// arguments when the user confirmed them.
pub fn session(r: &Request<'_>, default_tenant: &str) -> Result<Session, ErrorData> {
    let tenant = match r.header("authorization") {
        None => default_tenant.to_string(),
        Some(auth) => match auth.strip_prefix("Bearer ") {
            Some(t) if TENANTS.contains(&t) => t.to_string(),
            _ => return Err(ErrorData::invalid_request("unknown bearer token", None)),
        },
    };
    let mut approved = Vec::new();
    if r.tool == invoice_send_reminder::NAME && r.accepted("approval") {
        // The digest binds the approval to these arguments; arguments that do not parse
        // are refused by the contract check anyway.
        if let Ok(input) =
            serde_json::from_value::<invoice_send_reminder::Input>(r.arguments.clone())
        {
            approved.push(input.approval_digest());
        }
    }
    Ok(Session { tenant, approved })
}
