//! `twinspot`: with no command (or only files) it opens the window; `compare`, `extract`
//! and `simhash` run the engine from the command line.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
