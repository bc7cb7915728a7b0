//! The billing catalog served over MCP (`catalogc::rmcp`): what a server author adds to the
//! handler — where each call's trusted context comes from.

use crate::billing;
use crate::memory::{Memory, Session};
use catalogc::rmcp::{DefinitionError, ErrorData, Request, Server};

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
/// TENANT` header (over HTTP), else `default_tenant`. (What the protocol says of the call —
/// its deadline, cancellation, progress token and the user's answers — the handler reads
/// from its `Call`.)
pub fn session(r: &Request<'_>, default_tenant: &str) -> Result<Session, ErrorData> {
    let tenant = match r.header("authorization") {
        None => default_tenant.to_string(),
        Some(auth) => match auth.strip_prefix("Bearer ") {
            Some(t) if TENANTS.contains(&t) => t.to_string(),
            _ => return Err(ErrorData::invalid_request("unknown bearer token", None)),
        },
    };
    Ok(Session { tenant })
}
