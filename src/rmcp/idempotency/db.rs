//! What the database stores share: the table, expiry in milliseconds, and what a live
//! record means for a claim.

use super::{Claim, Slot};
use serde_json::Value;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, as the durable stores record expiry.
pub(super) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `ttl` in milliseconds, as the durable stores add it to [`now_ms`].
pub(super) fn ttl_ms(ttl: Duration) -> i64 {
    i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX)
}

/// What a live record with `digest` and the kept `result` text (none while its call runs)
/// means for a call claiming `slot`. A result that does not parse is reported as
/// `Done(null)`, which [`enforce`](super::enforce) refuses as unreadable.
pub(super) fn held_by(slot: &Slot, digest: &str, result: Option<&str>) -> Claim {
    if digest != slot.digest {
        return Claim::Conflict;
    }
    match result {
        None => Claim::Running,
        Some(text) => Claim::Done(serde_json::from_str(text).unwrap_or(Value::Null)),
    }
}

/// The records' table, as the database stores create it (SQLite reads `BIGINT` as its
/// `INTEGER`).
pub(super) const TABLE: &str = "CREATE TABLE IF NOT EXISTS catalogc_idempotency (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    digest TEXT NOT NULL,
    owner TEXT NOT NULL,
    result TEXT,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
)";

/// The index expired records are found by.
pub(super) const EXPIRY_INDEX: &str = "CREATE INDEX IF NOT EXISTS catalogc_idempotency_expiry
    ON catalogc_idempotency (expires_at)";
