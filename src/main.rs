#![forbid(unsafe_code)]

// A run allocates many small strings, vectors and JSON values per tool; mimalloc serves
// them with less work than the platform's allocator (docs/performance.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(catalogc::cli::main())
}
