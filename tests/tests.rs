//! The one integration test binary: runs the `twinspot` command line on small fixtures
//! and the development corpus, reads hostile and well-formed documents through ingest,
//! and drives the window with egui_kittest. Helpers print the command's whole output on
//! failure.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "helpers of tests: a failed unwrap is a failed test")]
#![allow(clippy::cast_possible_truncation, reason = "the tests' values are small")]

mod archive;
mod archive_cut;
#[cfg(unix)]
mod archive_daily;
#[cfg(unix)]
mod archive_frozen;
mod archive_groups;
#[cfg(unix)]
mod archive_keys;
#[cfg(unix)]
mod archive_pressure;
#[cfg(unix)]
mod archive_same_answer;
#[cfg(unix)]
mod archive_server;
#[cfg(unix)]
mod archive_short_copies;
mod cli;
mod devset;
#[cfg(feature = "distributed")]
mod distributed;
mod exclusions;
#[cfg(feature = "gui")]
mod gui;
#[cfg(feature = "gui")]
mod gui_archive;
#[cfg(feature = "gui")]
mod gui_class;
#[cfg(feature = "gui")]
mod gui_evidence;
#[cfg(feature = "gui")]
mod gui_export;
#[cfg(feature = "gui")]
mod gui_flags;
#[cfg(feature = "gui")]
mod gui_languages;
mod gui_layers;
#[cfg(feature = "gui")]
mod gui_lms;
mod hostile_cli;
#[cfg(target_os = "linux")]
mod hostile_content;
mod html_scope;
mod ingest;
#[cfg(feature = "gui")]
mod launch;
mod lms;
mod meaning;
mod meaning_compare;
mod other_languages;
mod packaging;
mod pdf_producers;
#[cfg(unix)]
mod pg;
mod reference_cache;
mod report_fixture;
mod report_pdf;
mod report_targets;
mod reworded;
#[cfg(feature = "gui")]
mod review;
mod short_copies;
#[cfg(unix)]
mod special_files;
mod util;
