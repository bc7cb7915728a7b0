//! [`SqliteStore`]: records in an embedded SQLite database file.

use super::db::{EXPIRY_INDEX, TABLE, held_by, now_ms, ttl_ms};
use super::{Claim, IdempotencyStore, Slot, StoreError};
use crate::rmcp::BoxFuture;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde_json::Value;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Idempotency records in a SQLite database file: kept across restarts, and shared by the
/// processes that open the same file on one machine (SQLite locks it). The store for a
/// server that runs as one process.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
}

/// The table without SQLite's implicit rowid: the primary key is the only lookup.
fn schema() -> String {
    format!("PRAGMA journal_mode = WAL; {TABLE} WITHOUT ROWID; {EXPIRY_INDEX};")
}

/// How long a statement waits for another process's write lock on the file.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError(format!("sqlite: {e}"))
}

impl SqliteStore {
    /// Opens (creating when missing) the database at `path` and its table.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path).map_err(err)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(err)?;
        conn.execute_batch(&schema()).map_err(err)?;
        Ok(SqliteStore {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// Runs `f` on the connection on a blocking thread: SQLite's calls block.
    fn blocking<'a, T: Send + 'static>(
        &'a self,
        f: impl FnOnce(&mut Connection) -> Result<T, rusqlite::Error> + Send + 'static,
    ) -> BoxFuture<'a, Result<T, StoreError>> {
        let conn = Arc::clone(&self.conn);
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                // A panic while the connection was held leaves it usable: every write
                // below is one transaction, rolled back when it was not committed.
                let mut conn = conn.lock().unwrap_or_else(|e| e.into_inner());
                f(&mut conn).map_err(err)
            })
            .await
            .map_err(err)?
        })
    }
}

impl IdempotencyStore for SqliteStore {
    fn begin<'a>(&'a self, slot: &'a Slot) -> BoxFuture<'a, Result<Claim, StoreError>> {
        let slot = slot.clone();
        self.blocking(move |conn| {
            let now = now_ms();
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "DELETE FROM catalogc_idempotency WHERE expires_at <= ?1",
                params![now],
            )?;
            let held: Option<(String, Option<String>)> = tx
                .query_row(
                    "SELECT digest, result FROM catalogc_idempotency WHERE scope = ?1 AND key = ?2",
                    params![slot.scope, slot.key],
                    |row| Ok((row.get(0)?, row.get(1)?)),
                )
                .optional()?;
            let claim = match held {
                Some((digest, result)) => held_by(&slot, &digest, result.as_deref()),
                None => {
                    tx.execute(
                        "INSERT INTO catalogc_idempotency
                            (scope, key, digest, owner, result, expires_at)
                            VALUES (?1, ?2, ?3, ?4, NULL, ?5)",
                        params![
                            slot.scope,
                            slot.key,
                            slot.digest,
                            slot.owner,
                            now.saturating_add(ttl_ms(slot.ttl))
                        ],
                    )?;
                    Claim::Claimed
                }
            };
            tx.commit()?;
            Ok(claim)
        })
    }

    fn finish<'a>(
        &'a self,
        slot: &'a Slot,
        result: &'a Value,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        let (scope, key, owner) = (slot.scope.clone(), slot.key.clone(), slot.owner.clone());
        let text = result.to_string();
        self.blocking(move |conn| {
            conn.execute(
                "UPDATE catalogc_idempotency SET result = ?4
                    WHERE scope = ?1 AND key = ?2 AND owner = ?3 AND result IS NULL",
                params![scope, key, owner, text],
            )
            .map(drop)
        })
    }

    fn release<'a>(&'a self, slot: &'a Slot) -> BoxFuture<'a, Result<(), StoreError>> {
        let (scope, key, owner) = (slot.scope.clone(), slot.key.clone(), slot.owner.clone());
        self.blocking(move |conn| {
            conn.execute(
                "DELETE FROM catalogc_idempotency
                    WHERE scope = ?1 AND key = ?2 AND owner = ?3 AND result IS NULL",
                params![scope, key, owner],
            )
            .map(drop)
        })
    }
}
