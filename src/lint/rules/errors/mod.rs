//! Tool errors and recovery: retry policies, leaks in messages, next steps.

crate::lint::declare_rules! {}
