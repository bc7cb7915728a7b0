//! [`MemoryStore`]: records in this process's memory, lost when it exits.

use super::{Claim, IdempotencyStore, Slot, StoreError};
use crate::rmcp::BoxFuture;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// Idempotency records in memory: for tests and `serve --mock`, and the store a
/// [`Server`](crate::rmcp::Server) uses until it is given another. Records are lost when the
/// process exits, and are not shared with other processes.
#[derive(Debug, Default)]
pub struct MemoryStore {
    records: Mutex<Records>,
}

#[derive(Debug, Default)]
struct Records {
    by_key: HashMap<(String, String), Record>,
    /// Claims since expired records were last dropped.
    since_sweep: usize,
}

#[derive(Debug)]
struct Record {
    digest: String,
    owner: String,
    result: Option<Value>,
    expires: Instant,
}

/// Claims between two sweeps of expired records (each claim also drops its own key's).
const SWEEP_EVERY: usize = 1024;

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn with<T>(&self, f: impl FnOnce(&mut Records) -> T) -> Result<T, StoreError> {
        // A poisoned lock means a panic while the map was being changed; every change
        // below is a single insert or remove, so the map itself is still whole.
        let mut records = self.records.lock().unwrap_or_else(|e| e.into_inner());
        Ok(f(&mut records))
    }
}

fn same_claim(record: &Record, slot: &Slot) -> bool {
    record.owner == slot.owner && record.result.is_none()
}

impl IdempotencyStore for MemoryStore {
    fn begin<'a>(&'a self, slot: &'a Slot) -> BoxFuture<'a, Result<Claim, StoreError>> {
        Box::pin(std::future::ready(self.with(|records| {
            let now = Instant::now();
            records.since_sweep += 1;
            if records.since_sweep >= SWEEP_EVERY {
                records.since_sweep = 0;
                records.by_key.retain(|_, r| r.expires > now);
            }
            let id = (slot.scope.clone(), slot.key.clone());
            match records.by_key.get(&id) {
                Some(r) if r.expires > now => {
                    if r.digest != slot.digest {
                        Claim::Conflict
                    } else {
                        r.result.clone().map_or(Claim::Running, Claim::Done)
                    }
                }
                _ => {
                    records.by_key.insert(
                        id,
                        Record {
                            digest: slot.digest.clone(),
                            owner: slot.owner.clone(),
                            result: None,
                            expires: now + slot.ttl,
                        },
                    );
                    Claim::Claimed
                }
            }
        })))
    }

    fn finish<'a>(
        &'a self,
        slot: &'a Slot,
        result: &'a Value,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(std::future::ready(self.with(|records| {
            let id = (slot.scope.clone(), slot.key.clone());
            if let Some(r) = records.by_key.get_mut(&id)
                && same_claim(r, slot)
            {
                r.result = Some(result.clone());
            }
        })))
    }

    fn release<'a>(&'a self, slot: &'a Slot) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(std::future::ready(self.with(|records| {
            let id = (slot.scope.clone(), slot.key.clone());
            if records.by_key.get(&id).is_some_and(|r| same_claim(r, slot)) {
                records.by_key.remove(&id);
            }
        })))
    }
}
