//! Which documents are compared with which, as data: a [`PairPolicy`] says who is a
//! suspect, who is a reference, and which (suspect, reference) pairs are aligned, for a
//! check of suspects against references, all against all, a class against its
//! classmates and its sources, against a store, or over a list of candidate pairs. The
//! matcher and the index only ask it.

use rustc_hash::FxHashMap;

use super::DocumentInput;
use super::identical::IdenticalFiles;
use super::memory_index::Loaded;
use crate::model::{Mode, Role};

/// Whether the run's own index will hold the character grams of `input` (a reference of a
/// pairing that searches short copies, [`PairPolicy::short_copies`]), decided before
/// reading so that they are taken in the pass that tokenizes it. Only a guess at speed:
/// a reference read without them has them taken when the index is built, and grams of a
/// document that is no reference are dropped there.
pub(crate) fn reads_char_grams(mode: Mode, against_store: bool, input: &DocumentInput) -> bool {
    let reference = input.role == Role::Reference || input.also_reference;
    !against_store
        && match mode {
            Mode::SuspectsVsReferences => reference,
            Mode::Classmates => input.role != Role::Template,
            Mode::AllVsAll => input.role != Role::Template,
        }
}

/// How the documents of one run are paired.
pub(crate) enum Pairing<'a> {
    /// Every suspect against every reference; suspects that are also references (the
    /// same file given in both parts) against each other once, from the smaller id.
    SuspectsVsReferences,
    /// Every document but templates against every other, each unordered pair once, from
    /// its smaller id.
    AllVsAll,
    /// A class against its classmates and its sources: every suspect against every other
    /// suspect (each unordered pair once, from its smaller id) and against every
    /// reference; references never against each other. `classmate`: per document id,
    /// whether it is a suspect.
    Classmates { classmate: &'a [bool] },
    /// The run's documents, all suspects, against stored references (numbered apart from
    /// them): every pair is new but a suspect and its identical stored twin, which is
    /// stated whole (`twins`: suspect → stored id).
    AgainstStore { twins: &'a FxHashMap<usize, u32> },
    /// Only the listed pairs (an SQL engine's candidates): suspect → its candidates, sorted.
    CandidateList { candidates: &'a FxHashMap<usize, &'a [usize]> },
}

/// The pairing of one run, with what it needs to know of the run's documents.
pub(crate) struct PairPolicy<'a> {
    pub pairing: Pairing<'a>,
    /// Files with the same bytes: a later copy takes no part, identical files are not
    /// aligned (their pair is stated whole).
    pub identical: &'a IdenticalFiles,
    /// Per document id: a suspect that is also a reference.
    pub also_reference: Vec<bool>,
}

impl PairPolicy<'_> {
    /// Whether `d` is indexed as a reference of the run.
    pub fn is_reference(&self, d: &Loaded) -> bool {
        let copy = self.identical.is_copy(d.entry.id);
        match self.pairing {
            Pairing::SuspectsVsReferences => !copy && (d.entry.role == Role::Reference || d.also_reference),
            Pairing::AllVsAll | Pairing::Classmates { .. } => !copy && d.entry.role != Role::Template,
            Pairing::AgainstStore { .. } => false,
            Pairing::CandidateList { .. } => d.prints.is_some() && !copy,
        }
    }

    /// Whether `d` is matched as a suspect.
    pub fn is_suspect(&self, d: &Loaded) -> bool {
        let copy = self.identical.is_copy(d.entry.id);
        match self.pairing {
            Pairing::SuspectsVsReferences | Pairing::Classmates { .. } => !copy && d.entry.role == Role::Suspect,
            Pairing::AllVsAll => !copy && matches!(d.entry.role, Role::Suspect | Role::Reference),
            Pairing::AgainstStore { .. } | Pairing::CandidateList { .. } => !copy,
        }
    }

    /// Whether suspect `a` is aligned with reference `b`. Nothing is compared with itself.
    pub fn wanted(&self, a: usize, b: usize) -> bool {
        let both_parts = |id: usize| self.also_reference.get(id).copied().unwrap_or(false);
        let in_run = || a != b && !self.identical.same(a, b);
        match self.pairing {
            Pairing::SuspectsVsReferences => in_run() && (!(both_parts(a) && both_parts(b)) || b > a),
            Pairing::AllVsAll => in_run() && b > a,
            Pairing::Classmates { classmate } => in_run() && (b > a || !classmate.get(b).copied().unwrap_or(false)),
            Pairing::AgainstStore { twins } => u32::try_from(b).map_or(true, |b| twins.get(&a) != Some(&b)),
            Pairing::CandidateList { candidates } => candidates.get(&a).is_some_and(|bs| bs.binary_search(&b).is_ok()),
        }
    }

    /// Whether short edited copies are searched with character grams in the run's own
    /// index: in every pairing but a check against a store (which holds its own grams, or
    /// searches among what it reads). All against all gives what `align` gives, whose
    /// candidate pairs include those the character grams tie (sql/char_gram_pairs.sql).
    pub fn short_copies(&self) -> bool {
        !matches!(self.pairing, Pairing::AgainstStore { .. })
    }

    /// Whether short edited copies are searched among the references a check reads for
    /// a suspect, where the index holds no character grams: a check against a store (an
    /// archive), whose answer should be what a check against the same references as files
    /// gives as far as the documents read allow.
    pub fn short_copies_among_read(&self) -> bool {
        matches!(self.pairing, Pairing::AgainstStore { .. })
    }

    /// SimHash candidates are taken only among ids after the suspect's own: each
    /// unordered pair is compared from its smaller id.
    pub fn simhash_after_suspect(&self) -> bool {
        matches!(self.pairing, Pairing::AllVsAll | Pairing::CandidateList { .. })
    }
}
