//! `twinspot`: with no command (or only files) it opens the window; `compare`, `extract`
//! and `simhash` run the engine from the command line.

mod cli;

use std::process::ExitCode;

/// mimalloc rather than the system's allocator: the engine makes and frees many small
/// vectors on every thread (docs/speed.md, "Fifth look").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::main()
}
