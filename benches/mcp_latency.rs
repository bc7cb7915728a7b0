//! `tools/call` round-trip latency of the example server (examples/billing_server.rs, built
//! with the bench profile by this bench) through the official Rust MCP client, over stdio and over
//! Streamable HTTP on 127.0.0.1: median and p99 of 400 calls of `invoice_get` after 50
//! warm-up calls. Side by side over stdio, in the same run and interleaved call by call: a
//! plain rmcp server whose `#[tool]` handler does the same work
//! (examples/plain_rmcp_server.rs), and the example server with JSON trace lines on
//! (`CATALOGC_TRACE_FILE`), its approvals and idempotency store configured; the ratio of
//! the medians is the cost of catalogc's runtime. A third server, the example server without
//! trace lines, tells the cost of the traces from the rest. `CATALOGC_BENCH_BASELINE=PATH`
//! adds another build of the example server (with trace lines) to the same interleaving.
//! Run with `cargo bench --bench mcp_latency`; it reports, it asserts nothing.

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// One session's calls stay within the bundled catalogc.kdl's `guard { max-calls 500 }`,
// so every measured call runs its handler rather than being refused by the budget.
const CALLS: usize = 400;
const WARM_UP: usize = 50;

fn server_binary() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--profile",
            "bench",
            "--quiet",
            "--example",
            "billing_server",
            "--example",
            "plain_rmcp_server",
        ])
        .status()
        .map_err(|e| format!("cargo build: {e}"))?;
    if !status.success() {
        return Err("cargo build --profile bench --example billing_server failed".into());
    }
    // The build above goes where cargo puts this bench's own build (CARGO_TARGET_DIR when set);
    // the bench profile writes `release`, as the release profile does.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    Ok(target.join("release/examples"))
}

/// Calls `invoice_get` on each client in turn, [`CALLS`] times each after the warm-up, so
/// all meet the same load on a shared machine; each client's times, sorted.
async fn interleaved(
    clients: &[&RunningService<RoleClient, ()>],
) -> Result<Vec<Vec<Duration>>, String> {
    let args = serde_json::json!({"invoice_reference": "INV-1"});
    let params = CallToolRequestParams::new("invoice_get")
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    let mut times = vec![Vec::with_capacity(CALLS); clients.len()];
    for i in 0..WARM_UP + CALLS {
        for (client, times) in clients.iter().zip(times.iter_mut()) {
            let start = Instant::now();
            client
                .call_tool_once(params.clone())
                .await
                .map_err(|e| e.to_string())?;
            if i >= WARM_UP {
                times.push(start.elapsed());
            }
        }
    }
    for t in &mut times {
        t.sort();
    }
    Ok(times)
}

/// A client of `command` over its stdio.
async fn stdio_client(
    mut command: tokio::process::Command,
) -> Result<RunningService<RoleClient, ()>, String> {
    command.stderr(Stdio::null());
    ().serve(TokioChildProcess::new(command).map_err(|e| e.to_string())?)
        .await
        .map_err(|e| e.to_string())
}

/// [`CALLS`] calls of `invoice_get` after the warm-up, sorted.
async fn measure(client: &RunningService<RoleClient, ()>) -> Result<Vec<Duration>, String> {
    // As a client does before calling: over Streamable HTTP the listed schema says which
    // arguments travel as `Mcp-Param-*` headers too (`invoice_reference` does).
    client.list_all_tools().await.map_err(|e| e.to_string())?;
    Ok(interleaved(&[client]).await?.pop().unwrap_or_default())
}

/// The duration at quantile `q` (nearest rank) of sorted `times`, in microseconds.
fn quantile_us(times: &[Duration], q: f64) -> f64 {
    let i = ((times.len() as f64 * q).ceil() as usize).clamp(1, times.len().max(1)) - 1;
    times.get(i).map_or(0.0, |d| d.as_secs_f64() * 1e6)
}

fn report(transport: &str, times: &[Duration]) {
    println!(
        "tools/call over {transport:<6} {} calls: median {:>7.0} µs, p99 {:>7.0} µs",
        times.len(),
        quantile_us(times, 0.5),
        quantile_us(times, 0.99)
    );
}

async fn run(examples: PathBuf) -> Result<(), String> {
    let server = examples.join("billing_server");
    let trace = std::env::temp_dir().join(format!("catalogc-bench-{}.jsonl", std::process::id()));
    let plain = stdio_client(tokio::process::Command::new(
        examples.join("plain_rmcp_server"),
    ))
    .await?;
    let mut command = tokio::process::Command::new(&server);
    command
        .args(["--store", "memory"])
        .env("CATALOGC_TRACE_FILE", &trace);
    let ours = stdio_client(command).await?;
    ours.list_all_tools().await.map_err(|e| e.to_string())?;
    let mut command = tokio::process::Command::new(&server);
    command
        .args(["--store", "memory"])
        .env_remove("CATALOGC_TRACE_FILE");
    let untraced = stdio_client(command).await?;
    untraced.list_all_tools().await.map_err(|e| e.to_string())?;
    // Another build of the example server (`CATALOGC_BENCH_BASELINE=PATH`, e.g. the
    // release example built from an earlier commit), with its trace lines on, as a fourth
    // server: a change measured against the code before it under the same load.
    let baseline = match std::env::var_os("CATALOGC_BENCH_BASELINE") {
        None => None,
        Some(path) => {
            let mut command = tokio::process::Command::new(path);
            command.args(["--store", "memory"]).env(
                "CATALOGC_TRACE_FILE",
                trace.with_extension("baseline.jsonl"),
            );
            let client = stdio_client(command).await?;
            client.list_all_tools().await.map_err(|e| e.to_string())?;
            Some(client)
        }
    };
    let mut clients = vec![&plain, &ours, &untraced];
    clients.extend(baseline.as_ref());
    let mut times = interleaved(&clients).await?;
    let baseline_times = baseline.as_ref().and_then(|_| times.pop());
    let untraced_times = times.pop().unwrap_or_default();
    let our_times = times.pop().unwrap_or_default();
    let plain_times = times.pop().unwrap_or_default();
    let _ = plain.cancel().await;
    let _ = ours.cancel().await;
    let _ = untraced.cancel().await;
    if let Some(client) = baseline {
        let _ = client.cancel().await;
    }
    let _ = std::fs::remove_file(&trace);
    let _ = std::fs::remove_file(trace.with_extension("baseline.jsonl"));
    report("stdio, plain rmcp #[tool]", &plain_times);
    report("stdio, catalogc + JSON traces", &our_times);
    report("stdio, catalogc, no trace lines", &untraced_times);
    if let Some(times) = &baseline_times {
        report("stdio, baseline build + JSON traces", times);
    }
    let mut ratios = vec![
        ("catalogc", &our_times),
        ("no trace lines", &untraced_times),
    ];
    ratios.extend(baseline_times.as_ref().map(|t| ("baseline", t)));
    for (what, times) in ratios {
        println!(
            "ratio {what} / plain: median {:.2}x, p99 {:.2}x",
            quantile_us(times, 0.5) / quantile_us(&plain_times, 0.5),
            quantile_us(times, 0.99) / quantile_us(&plain_times, 0.99)
        );
    }

    let port = 39_000 + (std::process::id() % 1000) as u16;
    let mut http_server = Command::new(&server)
        .args(["--http", &format!("127.0.0.1:{port}")])
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut client = None;
    for _ in 0..100 {
        match ().serve(StreamableHttpClientTransport::from_uri(url.as_str())).await {
            Ok(c) => {
                client = Some(c);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    let result = match client {
        Some(c) => {
            let times = measure(&c).await;
            let _ = c.cancel().await;
            times.map(|t| report("HTTP", &t))
        }
        None => Err(format!("no server at {url}")),
    };
    let _ = http_server.kill();
    let _ = http_server.wait();
    result
}

fn main() {
    let outcome = server_binary().and_then(|server| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
            .and_then(|rt| rt.block_on(run(server)))
    });
    if let Err(e) = outcome {
        eprintln!("mcp_latency: {e}");
        std::process::exit(1);
    }
}
