//! Whether the lists beside the results are shown: the reviewer's choice (remembered),
//! and, while a pair is open in a window narrower than [`NARROW_WINDOW`], folded away by
//! themselves so the two texts get the room (Ctrl+B shows them over the pair all the same).

use super::State;

/// Below this window width (points) an open pair folds the lists away.
pub const NARROW_WINDOW: f32 = 1200.0;

impl State {
    /// True when the open pair folds the lists away by itself: the window is narrow.
    pub fn lists_folded_by_width(&self) -> bool {
        self.narrow && self.pair.is_some()
    }

    /// True when the lists are drawn this frame.
    pub fn lists_shown(&self) -> bool {
        !self.persisted.sidebar_hidden && (!self.lists_folded_by_width() || self.lists_over_pair)
    }

    /// Ctrl+B: shows the lists when they are folded away (by choice or by width), else
    /// folds them away; a narrow pair view's fold is not remembered as a choice.
    pub fn toggle_lists(&mut self) {
        let by_width = self.lists_folded_by_width();
        if self.lists_shown() {
            if by_width {
                self.lists_over_pair = false;
            } else {
                self.persisted.sidebar_hidden = true;
            }
        } else {
            self.persisted.sidebar_hidden = false;
            self.lists_over_pair = by_width;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_narrow_pair_view_folds_the_lists_and_ctrl_b_still_shows_and_hides_them() {
        let mut state = State { narrow: true, ..State::default() };
        assert!(state.lists_shown(), "no pair open: the lists as chosen");
        let report = crate::Report {
            settings: crate::Settings::default(),
            mode: crate::Mode::default(),
            documents: vec![],
            pairs: vec![],
            near_duplicates: vec![],
            groups: vec![],
            skipped: vec![],
        };
        state.pair = Some(crate::gui::state::PairView::new(0, &report, &Default::default()));
        assert!(!state.lists_shown(), "a pair in a narrow window folds them away");
        state.toggle_lists();
        assert!(state.lists_shown() && !state.persisted.sidebar_hidden);
        state.toggle_lists();
        assert!(!state.lists_shown());
        assert!(!state.persisted.sidebar_hidden, "the fold by width is not remembered as a choice");
        state.narrow = false;
        assert!(state.lists_shown(), "a wide window shows them again");
        state.toggle_lists();
        assert!(!state.lists_shown() && state.persisted.sidebar_hidden, "a choice, remembered");
        state.narrow = true;
        state.toggle_lists();
        assert!(state.lists_shown(), "folded by choice and by width: Ctrl+B shows them");
    }
}
