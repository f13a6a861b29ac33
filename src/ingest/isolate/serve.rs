//! The helper's side: reads extraction requests on standard input, applies the resource
//! limits to its own process, extracts on a contained thread and answers on the original
//! standard output (which is moved aside first, so a library that prints cannot corrupt
//! the protocol).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::os::fd::FromRawFd;

use super::super::contain::{self, Budget, Escape};
use super::super::error::Failure;
use super::protocol::{MAX_HEADER_BYTES, Reply, Request, read_frame, write_frame};

/// Serves extraction requests until standard input ends. Meant as the whole body of a
/// hidden subcommand of the front end's executable (see [`crate::ingest::Isolation`]).
pub fn serve_helper() -> io::Result<()> {
    let mut replies = BufWriter::new(protocol_output()?);
    let mut requests = BufReader::new(io::stdin().lock());
    loop {
        let Some(header) = read_frame(&mut requests, MAX_HEADER_BYTES)? else {
            return Ok(());
        };
        let request: Request =
            serde_json::from_slice(&header).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        let bytes = read_frame(&mut requests, request.limits.max_file_bytes.saturating_add(1))?
            .ok_or(io::ErrorKind::UnexpectedEof)?;
        apply_limits(&request);
        let budget = Budget::new(request.limits.effective_timeout_secs());
        let (ext, limits) = (request.ext, request.limits);
        let label = super::super::format_label(&bytes, &ext);
        let result = contain::run_contained(label, &budget, move |budget| {
            super::super::extract_bytes(&bytes, &ext, &limits, budget)
        });
        let abandoned = matches!(result, Err(Escape::TimedOut));
        let (reply, text) = match result {
            Ok(Ok((text, format, warnings))) => (Reply::Done { format, warnings }, Some(text)),
            Ok(Err(failure)) => (Reply::Failed(failure), None),
            Err(Escape::TimedOut) => (Reply::Failed(Failure::TimedOut), None),
            Err(Escape::Panicked(message)) => (Reply::Panicked(message), None),
        };
        let header = serde_json::to_vec(&reply).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        write_frame(&mut replies, &header)?;
        if let Some(text) = text {
            write_frame(&mut replies, text.as_bytes())?;
        }
        replies.flush()?;
        if abandoned {
            // The abandoned thread may still be running: end the process, and it with it.
            return Ok(());
        }
    }
}

/// The process's standard output, moved to a new descriptor; descriptor 1 then points at
/// standard error, so whatever a library prints goes there.
fn protocol_output() -> io::Result<File> {
    // SAFETY: dup/dup2 on descriptors this process owns; the new descriptor is owned by
    // the returned File alone.
    unsafe {
        let fd = libc::dup(libc::STDOUT_FILENO);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::dup2(libc::STDERR_FILENO, libc::STDOUT_FILENO) < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(File::from_raw_fd(fd))
    }
}

/// Bounds this process: its address space, and its CPU time to the request's time limit
/// from now (the process lives on, so the CPU bound is moved forward for each request).
/// The kernel stops the process when it overruns; the engine reports it.
#[expect(clippy::cast_possible_truncation, reason = "a time limit of seconds; `as` saturates")]
fn apply_limits(request: &Request) {
    let cpu_now = cpu_seconds();
    let cpu_secs = request.limits.effective_timeout_secs().ceil() as u64 + 1;
    set_soft_limit(libc::RLIMIT_AS, request.max_memory_bytes);
    set_soft_limit(libc::RLIMIT_CPU, cpu_now.saturating_add(cpu_secs));
}

/// CPU seconds (user + system) this process used so far, rounded up.
fn cpu_seconds() -> u64 {
    // SAFETY: getrusage writes into the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return 0;
        }
        usage
    };
    let secs = usage.ru_utime.tv_sec.saturating_add(usage.ru_stime.tv_sec);
    u64::try_from(secs).unwrap_or(0).saturating_add(1)
}

/// Sets the soft limit of `resource` to `value` (never above the hard limit). A limit
/// that cannot be set leaves the helper bounded by the engine's wall clock alone.
fn set_soft_limit(resource: libc::__rlimit_resource_t, value: u64) {
    // SAFETY: getrlimit/setrlimit on this process with a struct owned here.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(resource, &mut limit) != 0 {
            return;
        }
        let value = value as libc::rlim_t;
        limit.rlim_cur = if limit.rlim_max == libc::RLIM_INFINITY { value } else { value.min(limit.rlim_max) };
        libc::setrlimit(resource, &limit);
    }
}
