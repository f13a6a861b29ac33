//! What the user asked for: the panels push [`Action`]s while drawing and the app applies
//! them after. Below every panel and the app; it names only plain data.

use std::path::PathBuf;

use super::export::ExportKind;
use super::i18n::Lang;
use super::state::{CheckSource, ListKind, MarkFilter, ResultsTab, SharedForm, SortColumn};
use crate::Settings;
use crate::report::html::Scope;
use crate::report::marks::Mark;
use crate::report::view::ViewFilter;

/// What the user asked for, collected while drawing and applied after.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    AddFiles(ListKind),
    AddFolder(ListKind),
    Remove(ListKind, usize),
    Clear(ListKind),
    /// Files dropped on the window (on a list, or anywhere: the suspects).
    Dropped(Option<ListKind>, Vec<PathBuf>),
    Check,
    Cancel,
    /// Opens pair `i` of the filtered view (`State::view`).
    OpenPair(usize),
    ClosePair,
    StepPassage(isize),
    /// Puts passage `i` of the open pair in focus.
    FocusPassage(usize),
    SwapSides,
    /// Marks pair `i` of the full report (or clears its mark).
    MarkPair(usize, Option<Mark>),
    /// Marks passage `p` of pair `i` of the full report.
    MarkPassage(usize, usize, Option<Mark>),
    /// Sets the note of pair `i` of the full report.
    SetNote(usize, String),
    /// The filters changed: recompute the view.
    FilterChanged,
    /// Moves the table's selection up (-1) or down (+1).
    MoveSelection(isize),
    /// Moves the overview's selected student up (-1) or down (+1).
    MoveDocument(isize),
    /// Exports the view; the scope's indices are of the view.
    Export(ExportKind, Scope),
    /// Stops the running export (nothing is written).
    CancelExport,
    /// Picks an archive folder (or an empty one for a new archive) in a dialog.
    OpenArchive,
    /// Uses the archive at this folder (creating it when the folder is missing or empty),
    /// and checks the suspects against it.
    UseArchive(PathBuf),
    /// Opens the form of a shared archive (a PostgreSQL server).
    OpenSharedForm,
    /// The form as edited.
    EditSharedForm(SharedForm),
    /// Connects to the shared archive of the form (creating it when its schema holds
    /// none), and checks the suspects against it.
    ConnectShared,
    /// Closes the form without connecting.
    CloseSharedForm,
    /// Stops waiting for an archive being opened (a server that does not answer).
    CancelArchiveOpen,
    /// Stops using the archive (nothing is deleted).
    CloseArchive,
    /// Picks files, or a folder, in a dialog and adds them to the archive.
    AddFilesToArchive,
    AddFolderToArchive,
    /// Adds these files and folders to the archive.
    AddToArchive(Vec<PathBuf>),
    CancelArchiveAdd,
    /// What the suspects are compared with.
    SetSource(CheckSource),
    /// Selects row `i` of a list (`None`: no row).
    SelectInput(ListKind, Option<usize>),
    /// The matching settings as edited in the sidebar.
    SetSettings(Settings),
    /// The window's language.
    SetLang(Lang),
    /// Shows or hides the problems panel.
    ShowProblems(bool),
    /// The name filter of the table and overview.
    SetNameFilter(String),
    /// The pairs shown by their review mark.
    SetMarkFilter(MarkFilter),
    /// Only the documents with signs that a copy was hidden (and their pairs), or all.
    SetFlaggedOnly(bool),
    /// A PDF export prints the report's appendix too, or not.
    SetPrintAppendix(bool),
    /// New filters of the view: recompute it.
    SetFilter(ViewFilter),
    /// Leaves document `doc` out of the view as a source.
    ExcludeSource(usize),
    /// Opens or closes overview row `doc` to show its sources.
    ToggleSources(usize),
    /// Selects document `doc` in the overview.
    SelectDocument(usize),
    /// Selects pair `i` of the view in the table.
    SelectPair(usize),
    /// Sorts the table by this column (again: the other way).
    SortBy(SortColumn),
    /// The table has scrolled pair `i` (its selected row then) into view.
    ScrolledToSelected(Option<usize>),
    /// Shows the results in this tab.
    SetTab(ResultsTab),
    /// Passage `passage` was clicked on side `side` (0 = left): focus it, show its twin.
    PassageClicked {
        side: usize,
        passage: usize,
    },
    /// Side `side` of the pair view has scrolled to its pending passage `passage`.
    ScrolledSide {
        side: usize,
        passage: usize,
    },
    /// The text of the pair view can be selected (else clicks jump between twins).
    SelectText(bool),
    /// The note of the open pair as typed (kept on [`Action::SetNote`]).
    EditNote(String),
    /// Folds the sidebar away, or brings it back (Ctrl+B).
    ToggleSidebar,
    /// Saves the lists, mode and settings as a named check (a dialog asks where).
    SaveCheck,
    /// Opens a named check saved before (a dialog asks which).
    OpenCheck,
    /// Opens the named check saved at this path.
    LoadCheck(PathBuf),
    /// Shows or hides the sheet of keyboard shortcuts (F1).
    ToggleShortcuts,
    /// Finds this text in both documents of the open pair.
    Find(String),
    /// Moves to the next (+1) or previous (-1) match.
    FindStep(isize),
    /// Puts the keyboard in the find field (Ctrl+F), or notes that it is there (false).
    FocusFind(bool),
    /// The match in focus has been scrolled into view.
    FindScrolled,
}
