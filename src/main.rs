// The CLI allocates many small strings and JSON values per tool; mimalloc's small-object
// path costs a fraction of glibc's (see the dependency's comment in Cargo.toml).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    catalogc::cli::main()
}
