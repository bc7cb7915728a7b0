fn main() -> std::process::ExitCode {
    catalogc::cli::main()
}
