//! [`PostgresStore`]: records in a PostgreSQL table shared by a server's replicas.

use super::db::{EXPIRY_INDEX, TABLE, held_by, now_ms, ttl_ms};
use super::{Claim, IdempotencyStore, Slot, StoreError};
use crate::rmcp::BoxFuture;
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::Mutex;
use tokio_postgres::{Client, NoTls};

/// Idempotency records in PostgreSQL: shared by every replica of a server that connects to
/// the same database, so a key sent to any replica runs the tool once. The connection is
/// opened on first use (and again after it was lost), creating the table when missing.
pub struct PostgresStore {
    config: tokio_postgres::Config,
    client: Mutex<Option<Arc<Client>>>,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The connection string may carry a password.
        f.debug_struct("PostgresStore").finish_non_exhaustive()
    }
}

/// Creates the table unless it exists; replicas starting together may race to create it,
/// which the exception handler absorbs.
fn schema() -> String {
    format!(
        "DO $$ BEGIN {TABLE}; {EXPIRY_INDEX};
        EXCEPTION WHEN unique_violation OR duplicate_table OR duplicate_object THEN NULL;
        END $$;"
    )
}

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError(format!("postgres: {e}"))
}

async fn connect(config: &tokio_postgres::Config) -> Result<Client, StoreError> {
    let (client, connection) = config.connect(NoTls).await.map_err(err)?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            eprintln!("catalogc: idempotency store: postgres connection: {e}");
        }
    });
    client.batch_execute(&schema()).await.map_err(err)?;
    Ok(client)
}

impl PostgresStore {
    /// The store in the database `config` names (`postgres://user@host:port/db` or
    /// `host=… port=… user=… dbname=…`; without TLS: use a local or tunnelled server).
    /// Nothing is connected until the first call.
    pub fn new(config: &str) -> Result<PostgresStore, StoreError> {
        Ok(PostgresStore {
            config: config.parse().map_err(err)?,
            client: Mutex::new(None),
        })
    }

    /// [`new`](Self::new), connected now: an unreachable database is an error here rather
    /// than at the first call.
    pub async fn connect(config: &str) -> Result<PostgresStore, StoreError> {
        let store = PostgresStore::new(config)?;
        store.client().await?;
        Ok(store)
    }

    /// The open client, connecting when there is none or the connection was lost.
    async fn client(&self) -> Result<Arc<Client>, StoreError> {
        let mut client = self.client.lock().await;
        match &*client {
            Some(open) if !open.is_closed() => Ok(Arc::clone(open)),
            _ => {
                let open = Arc::new(connect(&self.config).await?);
                *client = Some(Arc::clone(&open));
                Ok(open)
            }
        }
    }

    async fn claim(&self, slot: &Slot) -> Result<Claim, StoreError> {
        let client = self.client().await?;
        let now = now_ms();
        client
            .execute(
                "DELETE FROM catalogc_idempotency WHERE expires_at <= $1",
                &[&now],
            )
            .await
            .map_err(err)?;
        loop {
            client
                .execute(
                    "DELETE FROM catalogc_idempotency
                        WHERE scope = $1 AND key = $2 AND expires_at <= $3",
                    &[&slot.scope, &slot.key, &now],
                )
                .await
                .map_err(err)?;
            let inserted = client
                .execute(
                    "INSERT INTO catalogc_idempotency
                        (scope, key, digest, owner, result, expires_at)
                        VALUES ($1, $2, $3, $4, NULL, $5)
                        ON CONFLICT (scope, key) DO NOTHING",
                    &[
                        &slot.scope,
                        &slot.key,
                        &slot.digest,
                        &slot.owner,
                        &now.saturating_add(ttl_ms(slot.ttl)),
                    ],
                )
                .await
                .map_err(err)?;
            if inserted == 1 {
                return Ok(Claim::Claimed);
            }
            let held = client
                .query_opt(
                    "SELECT digest, result FROM catalogc_idempotency
                        WHERE scope = $1 AND key = $2 AND expires_at > $3",
                    &[&slot.scope, &slot.key, &now],
                )
                .await
                .map_err(err)?;
            // No row: its holder released it, or it expired, since the insert: claim again.
            if let Some(row) = held {
                let digest: String = row.try_get(0).map_err(err)?;
                let result: Option<String> = row.try_get(1).map_err(err)?;
                return Ok(held_by(slot, &digest, result.as_deref()));
            }
        }
    }
}

impl IdempotencyStore for PostgresStore {
    fn begin<'a>(&'a self, slot: &'a Slot) -> BoxFuture<'a, Result<Claim, StoreError>> {
        Box::pin(self.claim(slot))
    }

    fn finish<'a>(
        &'a self,
        slot: &'a Slot,
        result: &'a Value,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let text = result.to_string();
            self.client()
                .await?
                .execute(
                    "UPDATE catalogc_idempotency SET result = $4
                        WHERE scope = $1 AND key = $2 AND owner = $3 AND result IS NULL",
                    &[&slot.scope, &slot.key, &slot.owner, &text],
                )
                .await
                .map(drop)
                .map_err(err)
        })
    }

    fn release<'a>(&'a self, slot: &'a Slot) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            self.client()
                .await?
                .execute(
                    "DELETE FROM catalogc_idempotency
                        WHERE scope = $1 AND key = $2 AND owner = $3 AND result IS NULL",
                    &[&slot.scope, &slot.key, &slot.owner],
                )
                .await
                .map(drop)
                .map_err(err)
        })
    }
}
