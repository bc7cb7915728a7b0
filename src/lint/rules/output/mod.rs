//! What the caller and the model consume: a result contract, money, time.

crate::lint::declare_rules! {
    example_invalid,
    missing_schema,
    money,
    time_zone,
    unbounded_result,
}
