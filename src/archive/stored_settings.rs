//! The settings an archive keeps beside its documents, the same for both stores: those
//! that shape fingerprints (an archive is only used with the settings it was made with)
//! and its format, written when it is made and read back when it is opened.

use super::error::ArchiveError;
use super::signals;
use crate::normalize::NormalizeOptions;
use crate::settings::Settings;

/// The settings that shape fingerprints, as stored in the catalog, with the `format` of
/// the store that keeps them.
pub(super) fn shaping_settings(s: &Settings, format: u32) -> Vec<(&'static str, String)> {
    vec![
        ("format", format.to_string()),
        ("k", s.k.to_string()),
        ("w", s.w.to_string()),
        ("min_sentence_tokens", s.min_sentence_tokens.to_string()),
        ("nfkc", s.normalize.nfkc.to_string()),
        ("case_fold", s.normalize.case_fold.to_string()),
        ("traditional_to_simplified", s.normalize.traditional_to_simplified.to_string()),
        ("drop_punctuation", s.normalize.drop_punctuation.to_string()),
    ]
}

/// The settings a new archive starts with: its fingerprints' shape, and every document's
/// character grams kept ([`signals::CHAR_GRAMS_FROM`]).
pub(super) fn settings_of_new(s: &Settings, format: u32) -> Vec<(&'static str, String)> {
    let mut settings = shaping_settings(s, format);
    settings.push((signals::CHAR_GRAMS_FROM, "1".to_string()));
    settings
}

/// Reads a stored setting by key, whichever store keeps them.
pub(super) type SettingFn<'a> = dyn Fn(&str) -> Result<Option<String>, ArchiveError> + 'a;

/// Refuses an archive of a newer format than `supported` (the newest its store reads) or
/// made with other fingerprint settings than `settings`, its settings read through `get`
/// (`shown` names it). The archive's format, when it is not refused.
pub(super) fn refuse_other_settings(
    get: &SettingFn<'_>,
    settings: &Settings,
    (shown, supported): (&str, u32),
) -> Result<u32, ArchiveError> {
    let found: u32 = get("format")?
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| ArchiveError::Corrupt(format!("{shown}: the catalog has no format version")))?;
    if found > supported {
        return Err(ArchiveError::NewerFormat { found, supported });
    }
    for (key, current) in shaping_settings(settings, supported).into_iter().skip(1) {
        let stored = get(key)?.unwrap_or_default();
        if stored != current {
            return Err(ArchiveError::SettingsMismatch { setting: key, archive: stored, current });
        }
    }
    Ok(found)
}

/// The fingerprint settings an archive stores, read through `get`, as [`Settings`] (the
/// others at their defaults).
pub(super) fn settings_from(get: &SettingFn<'_>) -> Result<Settings, ArchiveError> {
    let num = |key: &str, default: usize| -> Result<usize, ArchiveError> {
        Ok(get(key)?.and_then(|v| v.parse().ok()).unwrap_or(default))
    };
    let flag = |key: &str, default: bool| -> Result<bool, ArchiveError> {
        Ok(get(key)?.and_then(|v| v.parse().ok()).unwrap_or(default))
    };
    let d = Settings::default();
    let n = NormalizeOptions::default();
    Ok(Settings {
        k: num("k", d.k)?,
        w: num("w", d.w)?,
        min_sentence_tokens: num("min_sentence_tokens", d.min_sentence_tokens)?,
        normalize: NormalizeOptions {
            nfkc: flag("nfkc", n.nfkc)?,
            case_fold: flag("case_fold", n.case_fold)?,
            traditional_to_simplified: flag("traditional_to_simplified", n.traditional_to_simplified)?,
            drop_punctuation: flag("drop_punctuation", n.drop_punctuation)?,
        },
        ..d
    })
}
