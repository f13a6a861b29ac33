//! The one integration test binary: runs the `twinspot` command line on small fixtures
//! and the development corpus, reads hostile and well-formed documents through ingest,
//! and drives the window with egui_kittest. Helpers print the command's whole output on
//! failure.

mod archive;
mod cli;
mod devset;
#[cfg(feature = "gui")]
mod gui;
mod ingest;
mod util;
