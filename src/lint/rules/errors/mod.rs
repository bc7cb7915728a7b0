//! Tool errors and recovery: retry policies, leaks in messages, next steps.

crate::lint::declare_rules! {
    retry_policy,
    unsafe_retry,
    message_leak,
    existence_leak,
    missing_next_step,
    undeclared,
    sensitive_detail,
}
