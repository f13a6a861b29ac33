//! The one integration test binary: runs the `twinspot` command line on small fixtures
//! and the development corpus. Helpers print the command's whole output on failure.

mod cli;
mod devset;
mod util;
