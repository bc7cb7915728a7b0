//! Names the model and clients read: tools, fields, error codes, types.

crate::lint::declare_rules! {
    tool_name,
    vague_name,
    field_name,
    error_code,
    type_name,
    duplicate,
    opaque_field,
}

/// The lowercase words of a name in any style: `runSql`, `run_sql`, `RUN-SQL` → `run`, `sql`.
pub(crate) fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// `invoiceList`, `Invoice-List` → `invoice_list`.
pub(crate) fn snake_case(name: &str) -> String {
    words(name).join("_")
}

#[cfg(test)]
mod tests {
    use super::{snake_case, words};

    #[test]
    fn splits_every_style() {
        assert_eq!(words("runSql"), ["run", "sql"]);
        assert_eq!(words("RUN-SQL"), ["run", "sql"]);
        assert_eq!(words("invoice_list2"), ["invoice", "list2"]);
        assert_eq!(snake_case("InvoiceList"), "invoice_list");
        assert!(words("__").is_empty());
    }
}
