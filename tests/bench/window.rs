//! The window's check against the command line's on the same generated files: the same
//! engine call, once as the command line makes it, once through the window's worker
//! thread alone (progress events, throttling, the waker that asks for a repaint), and
//! once through the window itself: the app (driven by egui_kittest, without a GPU) runs
//! `logic` and `ui` for a frame whenever a repaint it asked for is due, as eframe
//! schedules them, from the Check action until the results table is drawn. Prints the times, the frames drawn and
//! the repaints asked for; not a criterion benchmark because one run of thousands of
//! files takes many seconds. `TWINSPOT_FILES` sets the count (2,700).
//!
//! Run: `cargo bench --bench window`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a benchmark or test that cannot set up stops with the message"
)]
#![allow(clippy::cast_possible_truncation, reason = "a benchmark's sizes are small")]

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use twinspot::engine::collect_inputs;
use twinspot::gui::state::ListKind;
use twinspot::gui::worker::{CheckPlan, Command, Event, Worker};
use twinspot::gui::{Action, TwinspotApp, install_fonts};
use twinspot::{CancelFlag, CheckRequest, Mode, NoProgress, Role, Settings, run_check};

/// A deterministic text of about `words` words; every tenth file shares a stretch with
/// the file before it, so there are passages to find.
fn write_files(dir: &Path, count: usize) {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    // Words of 3 to 7 random letters: a vocabulary large enough that documents share
    // nothing by chance.
    let mut word = move || -> String {
        let len = 3 + (next() % 5) as usize;
        (0..len).map(|_| char::from(b'a' + (next() % 26) as u8)).collect()
    };
    let mut previous = String::new();
    for i in 0..count {
        let mut text: String = (0..400).map(|_| word()).collect::<Vec<_>>().join(" ");
        if i % 10 == 1 {
            let cut: String = previous.chars().take(600).collect();
            text.push_str(&cut);
        }
        std::fs::write(dir.join(format!("doc{i:05}.txt")), &text).expect("write a generated file");
        previous = text;
    }
}

fn main() {
    let count: usize = std::env::var("TWINSPOT_FILES").ok().and_then(|s| s.parse().ok()).unwrap_or(2700);
    let dir = tempfile::tempdir().expect("a temporary folder");
    write_files(dir.path(), count);
    let folder = vec![dir.path().to_path_buf()];

    // The command line: `twinspot compare --all DIR`.
    let started = Instant::now();
    let request = CheckRequest {
        documents: collect_inputs(&folder, Role::Suspect),
        mode: Mode::AllVsAll,
        settings: Settings::default(),
        ..CheckRequest::default()
    };
    let report = run_check(&request, &NoProgress, &CancelFlag::new()).expect("the check runs");
    let cli = started.elapsed();
    println!("command line: {count} files, {} pairs, {:.2} s", report.pairs.len(), cli.as_secs_f64());

    // The window: the worker thread, its progress events and repaint requests.
    let wakes = Arc::new(AtomicUsize::new(0));
    let counter = wakes.clone();
    let worker = Worker::spawn(Arc::new(move || {
        counter.fetch_add(1, Ordering::Relaxed);
    }))
    .expect("the worker starts");
    let plan = CheckPlan {
        suspects: folder.clone(),
        mode: Mode::AllVsAll,
        settings: Settings::default(),
        ..CheckPlan::default()
    };
    let started = Instant::now();
    assert!(worker.send(Command::Check { job: 1, plan, cancel: CancelFlag::new() }));
    let mut events = 0usize;
    let window = loop {
        std::thread::sleep(Duration::from_millis(16));
        let mut done = None;
        for event in worker.drain() {
            events += 1;
            if let Event::Finished { report, .. } = event {
                done = Some(report.pairs.len());
            }
        }
        if let Some(pairs) = done {
            break (started.elapsed(), pairs);
        }
    };
    println!(
        "window:       {count} files, {} pairs, {:.2} s, {events} events, {} repaint requests ({:+.1} % of the command line)",
        window.1,
        window.0.as_secs_f64(),
        wakes.load(Ordering::Relaxed),
        (window.0.as_secs_f64() / cli.as_secs_f64() - 1.0) * 100.0
    );

    // The window itself: frames on demand, as eframe draws them.
    let marks = tempfile::tempdir().expect("a temporary folder");
    let mut harness = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_context_setup(install_fonts)
        .build_eframe(|cc| TwinspotApp::new(cc, vec![]));
    harness.state_mut().set_marks_path(marks.path().join("twinspot-review.json"));
    harness.state_mut().state.persisted.settings = Settings::default();
    harness.state_mut().state.persisted.mode = Mode::AllVsAll;
    harness.state_mut().apply(Action::Dropped(Some(ListKind::Suspect), folder.clone()));
    harness.run();
    // eframe's scheduling: a frame when the earliest requested repaint is due (the
    // worker's waker asks for one at once, the app's clock after a second).
    let due: Arc<Mutex<Option<Instant>>> = Arc::new(Mutex::new(None));
    let requests = due.clone();
    harness.ctx.set_request_repaint_callback(move |info| {
        let at = Instant::now() + info.delay;
        let mut next = requests.lock().expect("the repaint clock");
        *next = Some(next.map_or(at, |n| n.min(at)));
    });
    let started = Instant::now();
    harness.state_mut().apply(Action::Check);
    let mut frames = 0usize;
    while harness.state().state.is_running() {
        let now = Instant::now();
        let ready = {
            let mut next = due.lock().expect("the repaint clock");
            let ready = next.is_some_and(|at| at <= now);
            if ready {
                *next = None;
            }
            ready
        };
        if ready {
            harness.step();
            frames += 1;
        } else {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    harness.step();
    let app = started.elapsed();
    let pairs = harness.state().state.report.as_ref().map_or(0, |r| r.pairs.len());
    println!(
        "window (app): {count} files, {pairs} pairs, {:.2} s, {} frames drawn ({:+.1} % of the command line)",
        app.as_secs_f64(),
        frames + 1,
        (app.as_secs_f64() / cli.as_secs_f64() - 1.0) * 100.0
    );
}
