//! Every catalog of the consumer crate included in a private module of a binary that uses
//! none of its items: the generated code compiles without a warning and passes clippy's
//! default and pedantic lints (CI runs clippy with `-D warnings`), but for the exceptions
//! docs/codegen.md lists.
#![warn(clippy::pedantic)]
// The exceptions: catalog prose in doc comments (`doc_markdown`) and field names as the
// catalog spells them (a leading digit's `_` prefix, a struct's name in its field's).
#![allow(
    clippy::doc_markdown,
    clippy::used_underscore_binding,
    clippy::pub_underscore_fields,
    clippy::struct_field_names
)]

mod billing {
    catalogc::include_catalog!("billing");
}
mod payments {
    catalogc::include_catalog!("payments");
}
mod hostile {
    catalogc::include_catalog!("match");
}
mod notes {
    catalogc::include_catalog!("notes");
}
mod free {
    catalogc::include_catalog!("free");
}

fn main() {}
