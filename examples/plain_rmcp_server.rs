//! The peer of the latency benchmark (benches/mcp_latency.rs): the billing example's
//! `invoice_get` served by a plain rmcp server whose `#[tool]` handler does the same work
//! — parse the arguments, run the same in-memory handler (`tests/consumer`), encode the
//! output — with none of catalogc's runtime: no contract check of the arguments or the
//! output, no approvals, idempotency, limits or traces. Not shipped; stdio only.
//!
//! ```sh
//! cargo run --release --example plain_rmcp_server
//! ```

use catalogc_consumer::billing::{Billing, invoice_get};
use catalogc_consumer::memory::{Memory, Session};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, ServiceExt, schemars, tool, tool_router};
use std::process::ExitCode;
use std::sync::Arc;

/// The arguments of `invoice_get`, as the plain server declares them.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct InvoiceGetArgs {
    /// The invoice number, e.g. INV-1042.
    invoice_reference: String,
    /// The key of a reminder, to learn whether it went out.
    idempotency_key: Option<String>,
}

#[derive(Clone)]
struct Plain {
    memory: Arc<Memory>,
}

#[tool_router(server_handler)]
impl Plain {
    /// Read one invoice of the tenant with its reminder history.
    #[tool(name = "invoice_get")]
    async fn invoice_get(
        &self,
        Parameters(args): Parameters<InvoiceGetArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let input = invoice_get::Input {
            invoice_reference: args.invoice_reference,
            idempotency_key: args.idempotency_key,
        };
        let session = Session {
            tenant: "acme".into(),
        };
        let call = catalogc::runtime::Call::default();
        match self.memory.invoice_get(&session, &call, input).await {
            Ok(output) => serde_json::to_value(output)
                .map(CallToolResult::structured)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None)),
            Err(e) => Ok(CallToolResult::structured_error(
                serde_json::json!({"code": format!("{e:?}")}),
            )),
        }
    }
}

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("plain_rmcp_server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let server = Plain {
        memory: Arc::new(Memory::sample()),
    };
    let served = runtime.block_on(async move {
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| e.to_string())?;
        running.waiting().await.map_err(|e| e.to_string())?;
        Ok::<(), String>(())
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("plain_rmcp_server: {e}");
            ExitCode::FAILURE
        }
    }
}
