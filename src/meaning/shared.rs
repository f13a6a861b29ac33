//! The meaning layer's model and dictionary as a value that clones share: loaded when a
//! check first needs them (to cross languages, or to read a sentence beside a copy),
//! kept by the window across checks, let go by a one-shot command with the check.

use std::sync::{Arc, Mutex, PoisonError};

use super::Meaning;

/// What loading gave: the layer, or why it is off (the error's text, said once a check).
type Loaded = Result<Arc<Meaning>, String>;

/// The shared, lazily loaded meaning layer.
#[derive(Clone, Default)]
pub struct SharedMeaning(Arc<Mutex<Option<Loaded>>>);

impl std::fmt::Debug for SharedMeaning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let loaded = self.0.lock().unwrap_or_else(PoisonError::into_inner).as_ref().map(Result::is_ok);
        f.debug_struct("SharedMeaning").field("loaded", &loaded).finish()
    }
}

impl SharedMeaning {
    /// A layer not loaded yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A layer already loaded (tests, or a program that loaded it its own way).
    pub fn with(meaning: Meaning) -> Self {
        Self(Arc::new(Mutex::new(Some(Ok(Arc::new(meaning))))))
    }

    /// The layer, loaded now from where [`super::locate`] finds it if it is not yet; an
    /// error is kept, so that it is looked for once.
    pub fn get(&self) -> Loaded {
        let mut loaded = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        loaded.get_or_insert_with(|| Meaning::load_default().map(Arc::new).map_err(|e| e.to_string())).clone()
    }

    /// Lets the loaded layer go; the next use loads it again.
    pub fn release(&self) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}
