//! Side effects: writes that can be retried, confirmed and recovered after a timeout.

crate::lint::declare_rules! {
    write_idempotency,
    idempotency_key,
    destructive_confirm,
    timeout_recovery,
    status_by_key,
    pointless,
    write_without_input,
    missing_hints,
    hint_contradiction,
    switching_argument,
    resource_key,
}
