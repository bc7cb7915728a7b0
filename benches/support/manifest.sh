# Sourced by the benchmark scripts that build a consumer crate.
# catalogc_manifest NAME REPO: the Cargo.toml of a server crate NAME on the build.rs route,
# as a consumer writes it: catalogc at REPO as a build-dependency with the compiler, and as a
# dependency with the runtime only; its own workspace.
catalogc_manifest() {
    cat <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
catalogc = { path = "$2", default-features = false }

[build-dependencies]
catalogc = { path = "$2", default-features = false, features = ["compiler"] }

[workspace]
TOML
}
