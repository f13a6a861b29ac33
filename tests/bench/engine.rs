//! Engine benchmarks (criterion).
fn main() {}
