//! The entries of a segment written before hashes were cut ([`kept_hash`]), as a segment
//! written now holds them: for a merge that packs older segments into a new one.
//!
//! Cutting keeps the order of hashes, but two different whole hashes may become one kept
//! hash, and their postings, each run in document order, must then be read as one run in
//! document order. So the entries of each kept hash are gathered, and put in order when
//! they came from more than one whole hash (a few pairs in a hundred million entries).

use std::collections::VecDeque;

use super::packing::kept_hash;
use crate::archive::error::ArchiveError;
use crate::index::Posting;

type Entry = (u64, Posting);

/// `inner`'s entries with their hashes cut, ascending by (hash, document, position).
pub struct Recut<I> {
    inner: I,
    /// Whether `inner`'s hashes are whole (else passed through as they are).
    cut: bool,
    /// Entries of the kept hash being handed out, in order.
    run: VecDeque<Entry>,
    /// The first entry after the run, read to find where it ends.
    ahead: Option<Entry>,
}

impl<I: Iterator<Item = Result<Entry, ArchiveError>>> Recut<I> {
    /// The entries of `inner`, whose hashes are whole when `cut` (they are then cut and
    /// put in order) or already kept.
    pub fn new(inner: I, cut: bool) -> Self {
        Recut { inner, cut, run: VecDeque::new(), ahead: None }
    }

    /// The next entry of `inner` with its hash cut; `None` at the end.
    fn next_cut(&mut self) -> Option<Result<Entry, ArchiveError>> {
        match self.ahead.take() {
            Some(entry) => Some(Ok(entry)),
            None => self.inner.next().map(|read| read.map(|(hash, posting)| (kept_hash(hash), posting))),
        }
    }

    /// Reads the entries of the next kept hash into `run`, in order.
    fn gather(&mut self) -> Result<(), ArchiveError> {
        let Some(first) = self.next_cut().transpose()? else { return Ok(()) };
        self.run.push_back(first);
        // Whole hashes are ascending, so an entry below the one before it came from
        // another whole hash with the same kept bits.
        let mut ordered = true;
        while let Some(entry) = self.next_cut().transpose()? {
            if entry.0 != first.0 {
                self.ahead = Some(entry);
                break;
            }
            ordered &= self.run.back().is_some_and(|last| *last < entry);
            self.run.push_back(entry);
        }
        if !ordered {
            self.run.make_contiguous().sort_unstable();
        }
        Ok(())
    }
}

impl<I: Iterator<Item = Result<Entry, ArchiveError>>> Iterator for Recut<I> {
    type Item = Result<Entry, ArchiveError>;

    fn next(&mut self) -> Option<Self::Item> {
        if !self.cut {
            return self.inner.next();
        }
        if self.run.is_empty()
            && let Err(error) = self.gather()
        {
            self.run.clear();
            return Some(Err(error));
        }
        self.run.pop_front().map(Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(doc: u32, position: u32) -> Posting {
        Posting { doc, position }
    }

    #[test]
    fn whole_hashes_that_share_their_kept_bits_become_one_run_in_document_order() {
        let a = 0x1234_5678_9abc_0001u64;
        let b = 0x1234_5678_9abc_0002u64;
        let c = 0x1234_5678_9abd_0000u64;
        let whole = vec![(a, p(1, 5)), (a, p(4, 0)), (b, p(2, 7)), (b, p(4, 1)), (c, p(0, 0))];
        let recut: Vec<Entry> = Recut::new(whole.into_iter().map(Ok), true).map(Result::unwrap).collect();
        let k = kept_hash(a);
        assert_eq!(recut, vec![(k, p(1, 5)), (k, p(2, 7)), (k, p(4, 0)), (k, p(4, 1)), (c, p(0, 0))]);
    }

    #[test]
    fn kept_hashes_pass_as_they_are_and_a_read_error_is_handed_on() {
        let kept = vec![(kept_hash(9 << 20), p(1, 1)), (kept_hash(10 << 20), p(1, 2))];
        let passed: Vec<Entry> = Recut::new(kept.clone().into_iter().map(Ok), false).map(Result::unwrap).collect();
        assert_eq!(passed, kept);
        let failing = vec![Ok((5u64 << 20, p(1, 1))), Err(ArchiveError::Corrupt("read".into()))];
        let read: Vec<Result<Entry, ArchiveError>> = Recut::new(failing.into_iter(), true).collect();
        assert!(read.iter().any(Result::is_err));
    }
}
