fn main() {
    // The bundled example catalogs, linted with the default rules.
    catalogc::Builder::new()
        .catalogs("../../catalogs")
        .compile()
        .expect("example catalogs");
    // The hostile catalog breaks naming conventions on purpose; its project file allows that.
    catalogc::Builder::new()
        .catalogs("catalogs")
        .config("hostile.catalogc.kdl")
        .compile()
        .expect("hostile catalog");
    // Tool-level constructs: unstructured results, natural idempotency, confirmation
    // through elicitation, example calls.
    catalogc::Builder::new()
        .catalogs("content")
        .compile()
        .expect("content catalog");
    // The same catalogs with `schemars::JsonSchema` derives, for the schema agreement test.
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    catalogc::Builder::new()
        .catalogs("../../catalogs")
        .json_schema_derive(true)
        .out_dir(out.join("schemars"))
        .compile()
        .expect("example catalogs with schemars");
    catalogc::Builder::new()
        .catalogs("catalogs")
        .config("hostile.catalogc.kdl")
        .json_schema_derive(true)
        .out_dir(out.join("schemars"))
        .compile()
        .expect("hostile catalog with schemars");
}
