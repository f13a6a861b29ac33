//! The one integration test binary: runs the `twinspot` command line on small fixtures
//! and drives the window with egui_kittest.

mod cli;
#[cfg(feature = "gui")]
mod gui;
