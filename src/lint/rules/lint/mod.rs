//! Checks of the linter's own directives: the `allow "RULE-ID" reason="…"` lines in tools.
//! Findings of these rules cannot themselves be allowed in a tool (an `allow` that hides
//! problems with `allow` would defeat the point); set their level in `catalogc.kdl` instead.

crate::lint::declare_rules! {
    allow_without_reason,
    unknown_rule,
    unused_allow,
}
