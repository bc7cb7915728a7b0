fn main() {
    println!("catalogc {}", env!("CARGO_PKG_VERSION"));
}
