//! What a check cannot see: a suspect that shares no text with anything, compared with
//! references in another script than its own (a translation is not found), is told so
//! ([`Notice::OtherLanguages`]), so that 0 % does not read as original work.

use std::collections::BTreeMap;

use crate::meaning::units::{Language as UnitLanguage, language_of};
use crate::model::{DocumentEntry, Language, Mode, Notice, Role};

/// Characters of a document read to tell whether its Latin text is English.
const SAMPLE: usize = 4000;

/// Whether `text`'s beginning reads as English (the meaning layer's test of a unit).
fn reads_as_english(text: &str) -> bool {
    let sample: Vec<char> = text.chars().take(SAMPLE).collect();
    language_of(&sample) == Some(UnitLanguage::English)
}

/// Adds [`Notice::OtherLanguages`] to each document of `quiet` (checked, nothing counted)
/// whose compared documents in a check of `mode` are, some of them, in another script.
/// With the meaning layer on (`meaning`), Chinese and English text were compared across
/// languages: a Latin-script document in another language (German, French) is still
/// told, as the layer aligns only Chinese with English.
pub(crate) fn note_other_languages(documents: &mut [DocumentEntry], (mode, meaning): (Mode, bool), quiet: &[usize]) {
    if quiet.is_empty() {
        return;
    }
    let languages: Vec<Option<Language>> = documents
        .iter()
        .map(|d| if d.error.is_none() && d.role != Role::Template { Language::of(&d.text) } else { None })
        .collect();
    let english: Vec<bool> = documents
        .iter()
        .zip(&languages)
        .map(|(d, l)| meaning && *l == Some(Language::Latin) && reads_as_english(&d.text))
        .collect();
    let crossed = |doc: usize, other: usize| match (languages[doc], languages[other]) {
        (Some(Language::Chinese), Some(Language::Latin)) => english[other],
        (Some(Language::Latin), Some(Language::Chinese)) => english[doc],
        _ => false,
    };
    for &doc in quiet {
        let Some(own) = languages.get(doc).copied().flatten() else {
            continue;
        };
        let mut others: BTreeMap<Language, usize> = BTreeMap::new();
        for (other, entry) in documents.iter().enumerate() {
            let compared = other != doc
                && match mode {
                    Mode::SuspectsVsReferences => entry.role == Role::Reference,
                    Mode::AllVsAll | Mode::Classmates => entry.role != Role::Template,
                };
            if let Some(language) =
                languages.get(other).copied().flatten().filter(|&l| compared && l != own && !crossed(doc, other))
            {
                *others.entry(language).or_default() += 1;
            }
        }
        if others.is_empty() {
            continue;
        }
        let mut references: Vec<(Language, usize)> = others.into_iter().collect();
        references.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        if let Some(entry) = documents.get_mut(doc) {
            entry.warnings.push(Notice::OtherLanguages { references });
        }
    }
}
