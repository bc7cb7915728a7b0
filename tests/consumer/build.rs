use catalogc::{BuildError, Builder};

/// A lint error fails the build: `main` returns it, and the diagnostics are printed as
/// `catalogc lint` renders them.
fn main() -> Result<(), BuildError> {
    // The bundled example catalogs, linted with the default rules, with the budgets and
    // profiles of their project file.
    Builder::new()
        .catalogs("../../catalogs")
        .config("../../catalogc.kdl")
        .compile()?;
    // The hostile catalog breaks naming conventions on purpose; its project file allows that.
    Builder::new()
        .catalogs("catalogs")
        .config("hostile.catalogc.kdl")
        .compile()?;
    // Tool-level constructs: unstructured results, natural idempotency, confirmation
    // through elicitation, example calls.
    Builder::new().catalogs("content").compile()?;
    // The same catalogs with `schemars::JsonSchema` derives, for the schema agreement test.
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    Builder::new()
        .catalogs("../../catalogs")
        .config("../../catalogc.kdl")
        .json_schema_derive(true)
        .out_dir(out.join("schemars"))
        .compile()?;
    Builder::new()
        .catalogs("catalogs")
        .config("hostile.catalogc.kdl")
        .json_schema_derive(true)
        .out_dir(out.join("schemars"))
        .compile()?;
    Ok(())
}
