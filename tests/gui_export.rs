//! Exports printed while the window keeps drawing (egui_kittest, with a fake printer in
//! place of Chromium): the status line says the report is printing and offers Cancel; a
//! cancel leaves no file, not even a temporary one; a finished print writes the PDF; a
//! failed one is said once, in the problems panel; the export menu's appendix choice
//! reaches the printer.

use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use twinspot::Mode;
use twinspot::gui::export::ExportKind;
use twinspot::gui::export::PrintAsk;
use twinspot::gui::export_job::Printer;
use twinspot::gui::i18n::Lang;
use twinspot::gui::state::Status;
use twinspot::gui::{TwinspotApp, install_fonts};
use twinspot::report::html::Scope;
use twinspot::report::pdf::PdfError;

use super::gui::{marks_dir, ready_report};

/// A printer that prints only when the test says so (or fails, when told to), and says
/// when it has returned.
struct SlowPrinter {
    release: Sender<bool>,
    returned: Receiver<()>,
}

fn slow_printer() -> (Printer, SlowPrinter) {
    let (release, wait) = channel::<bool>();
    let (done, returned) = channel::<()>();
    let wait = Mutex::new(wait);
    let done = Mutex::new(done);
    let printer: Printer = Arc::new(move |html: &str, _ask: &PrintAsk<'_>| {
        let succeed = wait.lock().unwrap().recv_timeout(Duration::from_secs(60)).unwrap_or(false);
        done.lock().unwrap().send(()).ok();
        if succeed {
            Ok(format!("%PDF-1.7 fake print of {} bytes of HTML", html.len()).into_bytes())
        } else {
            Err(PdfError::Failed { browser: "fake-chromium".into(), detail: "it crashed".into() })
        }
    });
    (printer, SlowPrinter { release, returned })
}

/// A window printing with `printer`, showing a finished report.
fn harness<'a>(printer: Printer) -> Harness<'a, TwinspotApp> {
    let mut harness = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_context_setup(install_fonts)
        .build_eframe(move |cc| TwinspotApp::new(cc, vec![]).with_printer(printer));
    harness.state_mut().state.persisted.lang = Lang::En;
    harness.state_mut().set_marks_path(marks_dir().join("twinspot-review.json"));
    harness.state_mut().show_report(Arc::new(ready_report(Mode::SuspectsVsReferences)));
    harness.run();
    harness
}

/// Steps the window until the export has ended.
fn wait_for_export(harness: &mut Harness<'_, TwinspotApp>) {
    let start = Instant::now();
    while harness.state().state.exporting.is_some() {
        assert!(start.elapsed() < Duration::from_secs(60), "the export did not end");
        std::thread::sleep(Duration::from_millis(10));
        harness.step();
    }
    harness.run();
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// Starts printing the whole check to `pdf` and draws frames while the printer works.
fn printing(harness: &mut Harness<'_, TwinspotApp>, pdf: &Path) {
    harness.state_mut().start_export(ExportKind::Html, Scope::Run, pdf.to_path_buf(), false);
    let before = harness.ctx.cumulative_pass_nr();
    for _ in 0..5 {
        harness.step();
    }
    assert!(harness.ctx.cumulative_pass_nr() >= before + 5, "the window stopped drawing");
    assert!(harness.state().state.exporting.is_some());
    harness.get_by_label_contains("Printing the report… (");
}

#[test]
fn a_pdf_prints_while_the_window_draws_and_is_written_when_done() {
    let (printer, control) = slow_printer();
    let mut harness = harness(printer);
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("class.pdf");
    printing(&mut harness, &pdf);
    assert!(files_in(dir.path()).is_empty(), "nothing is written while printing");
    control.release.send(true).unwrap();
    wait_for_export(&mut harness);
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
    assert_eq!(files_in(dir.path()), ["class.pdf"], "only the PDF, no temporary file left");
    assert_eq!(harness.state().state.status, Some(Status::Saved(pdf.clone())));
    assert_eq!(harness.state().state.persisted.last_dir.as_deref(), Some(dir.path()));
    let saved = format!("Saved {}", pdf.display());
    assert!(harness.query_all_by_label(&saved).next().is_some(), "the status line says where");
}

#[test]
fn a_cancelled_print_writes_no_file() {
    let (printer, control) = slow_printer();
    let mut harness = harness(printer);
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("class.pdf");
    printing(&mut harness, &pdf);
    harness.get_by_label("Cancel").click();
    harness.run();
    assert!(harness.state().state.exporting.is_none());
    harness.get_by_label("Export cancelled: no file was written.");
    // The printer's late result is dropped: neither the PDF nor a temporary file appears.
    control.release.send(true).unwrap();
    control.returned.recv_timeout(Duration::from_secs(30)).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..3 {
        harness.step();
    }
    assert!(files_in(dir.path()).is_empty(), "{:?}", files_in(dir.path()));
    assert_eq!(harness.state().state.status, Some(Status::ExportCancelled));
}

/// A cancel reaches the printer while it prints, so it stops (the browser is killed)
/// instead of finishing a PDF nobody saves.
#[test]
fn a_cancelled_print_stops_the_printer_at_once() {
    let (stopped, said) = channel::<()>();
    let stopped = Mutex::new(stopped);
    let printer: Printer = Arc::new(move |_html: &str, ask: &PrintAsk<'_>| {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            if (ask.cancelled)() {
                stopped.lock().unwrap().send(()).ok();
                return Err(PdfError::Stopped);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(b"%PDF-1.7 too late".to_vec())
    });
    let mut harness = harness(printer);
    let dir = tempfile::tempdir().unwrap();
    printing(&mut harness, &dir.path().join("class.pdf"));
    harness.get_by_label("Cancel").click();
    harness.run();
    said.recv_timeout(Duration::from_secs(30)).expect("the printer was told of the cancel");
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn a_failed_print_is_said_once_in_the_problems_panel_with_the_html_kept() {
    let (printer, control) = slow_printer();
    let mut harness = harness(printer);
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("class.pdf");
    printing(&mut harness, &pdf);
    control.release.send(false).unwrap();
    wait_for_export(&mut harness);
    assert!(!pdf.exists());
    assert!(dir.path().join("class.html").is_file(), "the HTML is kept beside");
    let state = &harness.state().state;
    assert!(state.show_problems, "the problems panel opens");
    assert_eq!(state.status, None, "the error is not said in the status line as well");
    assert_eq!(harness.query_all_by_label_contains("it crashed").count(), 1);
    harness.get_by_label_contains("The report was not saved: fake-chromium did not print the PDF: it crashed.");
}

/// A printer that says whether it was asked for the appendix, and prints at once.
fn recording_printer() -> (Printer, Receiver<bool>) {
    let (tx, asked) = channel::<bool>();
    let tx = Mutex::new(tx);
    let printer: Printer = Arc::new(move |_html: &str, ask: &PrintAsk<'_>| {
        tx.lock().unwrap().send(ask.appendix).ok();
        Ok(b"%PDF-1.7 fake".to_vec())
    });
    (printer, asked)
}

/// Prints the whole check to a PDF and says whether the printer was asked for the appendix.
fn printed_with_appendix(harness: &mut Harness<'_, TwinspotApp>, asked: &Receiver<bool>) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("class.pdf");
    harness.state_mut().start_export(ExportKind::Html, Scope::Run, pdf.clone(), false);
    wait_for_export(harness);
    assert!(pdf.is_file());
    asked.recv_timeout(Duration::from_secs(30)).unwrap()
}

#[test]
fn the_export_menus_appendix_choice_reaches_the_printer() {
    let (printer, asked) = recording_printer();
    let mut harness = harness(printer);
    assert!(!printed_with_appendix(&mut harness, &asked), "off by default");
    harness.get_by_label("Export").click();
    harness.run();
    harness.get_by_label("PDF with appendix").click();
    harness.run();
    assert!(harness.state().state.persisted.print_appendix, "the choice is remembered");
    assert!(printed_with_appendix(&mut harness, &asked));
}
