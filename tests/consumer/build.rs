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
}
