//! The sidebar's inputs as plain data: the three lists of files and folders the user gave,
//! and what the suspects are checked against.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// One of the sidebar's three lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ListKind {
    Reference,
    Suspect,
    Template,
}

impl ListKind {
    pub const ALL: [ListKind; 3] = [ListKind::Reference, ListKind::Suspect, ListKind::Template];

    /// Position in [`Inputs::lists`].
    pub fn index(self) -> usize {
        match self {
            ListKind::Reference => 0,
            ListKind::Suspect => 1,
            ListKind::Template => 2,
        }
    }
}

/// The three input lists: files and folders as the user gave them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    pub lists: [Vec<PathBuf>; 3],
    pub selected: [Option<usize>; 3],
}

impl Inputs {
    pub fn list(&self, kind: ListKind) -> &[PathBuf] {
        &self.lists[kind.index()]
    }

    /// Adds paths not yet in the list.
    pub fn add(&mut self, kind: ListKind, paths: impl IntoIterator<Item = PathBuf>) {
        let list = &mut self.lists[kind.index()];
        for path in paths {
            if !list.contains(&path) {
                list.push(path);
            }
        }
    }

    pub fn remove(&mut self, kind: ListKind, index: usize) {
        let list = &mut self.lists[kind.index()];
        if index < list.len() {
            list.remove(index);
        }
        self.selected[kind.index()] = None;
    }

    pub fn clear(&mut self, kind: ListKind) {
        self.lists[kind.index()].clear();
        self.selected[kind.index()] = None;
    }

    pub fn is_empty(&self) -> bool {
        self.lists.iter().all(Vec::is_empty)
    }

    /// True when both the suspects and the references are given.
    pub fn both_filled(&self) -> bool {
        !self.list(ListKind::Suspect).is_empty() && !self.list(ListKind::Reference).is_empty()
    }
}

/// What the suspects are checked against: the sidebar's "Compare" choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckSource {
    /// Suspects against the reference list.
    References,
    /// Suspects against the chosen archive.
    Archive,
    /// Every document against every other.
    AllVsAll,
    /// Each suspect against its classmates (the other suspects) and the reference list.
    Classmates,
}
