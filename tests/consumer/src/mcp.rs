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
    server_over(Memory::sample(), default_tenant)
}

/// The billing server over `memory`. An approval is bound to the tenant: one tenant's
/// approval is refused for any other.
pub fn server_over(
    memory: Memory,
    default_tenant: &str,
) -> Result<Server<Session>, DefinitionError> {
    let tenant = default_tenant.to_string();
    let server = Server::catalog::<billing::Catalog, _, _>(memory, move |r| session(r, &tenant))?;
    Ok(server.with_principal(|s: &Session| Some(s.tenant.clone())))
}

/// The trusted context of one call: the tenant from the request's `Authorization: Bearer
/// TENANT` header (over HTTP), else `default_tenant`; the approval of exactly these
/// arguments when the user confirmed them (the server has checked that the answer is bound
/// to this call); and the call's cancellation token and deadline.
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
    Ok(Session {
        tenant,
        approved,
        cancel: r.cancel.clone(),
        deadline: r.deadline,
    })
}
