//! The billing catalog's mock server, for the MCP targets (included with `#[path]`).

use catalogc::rmcp::{Answer, Server};
use std::collections::BTreeMap;

/// The handler context of `serve --mock`: the answers to input requests.
pub type Ctx = BTreeMap<String, Answer>;

/// `catalogc serve --mock catalogs/billing.kdl`, as a server value.
pub fn billing() -> Server<Ctx> {
    let loaded = catalogc::testing::load_clean_source(
        "billing.kdl",
        include_str!("../../catalogs/billing.kdl").to_string(),
    );
    let artifacts = catalogc::contract::Artifacts::build(
        &loaded.project,
        &catalogc::contract::Templates::builtin(),
    )
    .expect("contracts");
    let mock = catalogc::mock::Mock::new(&loaded.project, &artifacts, &[]).expect("mock");
    Server::new(mock, |r| Ok(r.answers.clone())).expect("server")
}
