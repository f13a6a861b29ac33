//! The one integration test binary: runs the `twinspot` command line on small fixtures.

mod cli;
mod ingest;
