//! Input and output shape: every value the model produces or reads has a stated bound.

crate::lint::declare_rules! {
    string_unbounded,
    array_unbounded,
    free_form,
    number_unbounded,
    integer_as_number,
    pseudo_bound,
    offset_pagination,
    depth,
    field_count,
    pattern,
    pattern_backtracking,
    contradiction,
    example_invalid,
    prose_enum,
}
