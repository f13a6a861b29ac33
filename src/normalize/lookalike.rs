//! The characters a copier swaps in to hide a copy, by class: invisible ones, blanks that
//! stand for spaces, odd spaces, look-alike letters of other scripts (a compact table after
//! Unicode TR39's confusables data, for the Cyrillic and Greek letters that imitate Latin
//! ones), compatibility letters that NFKC folds (full-width, mathematical, letterlike),
//! and Han look-alikes (Kangxi radicals, CJK radical-supplement forms, compatibility
//! ideographs). Han text never gets a TR39 skeleton: only a radical form is mapped, to the
//! ideograph it stands for.

/// What a character is to the look-alike fold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// Default-ignorable: zero width, dropped for matching.
    Invisible,
    /// Drawn as a blank (braille blank, Hangul fillers): a space for matching.
    Blank,
    /// A Latin letter (any Latin-script letter).
    Latin,
    /// A Cyrillic or Greek letter that imitates this Latin letter.
    LookAlike(char, Script),
    /// A letter that NFKC folds to a Latin letter (full-width, mathematical, letterlike).
    Compat,
    /// A letter of another script (Cyrillic, Greek, Han, …) that imitates nothing.
    Other,
    /// A digit or combining mark: inside a word, of no script.
    Neutral,
    /// Anything else: spaces, punctuation, symbols end a word.
    Boundary,
}

/// The script a look-alike letter was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Script {
    Cyrillic,
    Greek,
    /// Full-width, mathematical or letterlike forms of Latin letters.
    Compat,
}

/// The class of a non-ASCII character (ASCII is classified by the caller, faster).
pub(crate) fn classify(c: char) -> Class {
    if is_invisible(c) {
        return Class::Invisible;
    }
    if is_blank(c) {
        return Class::Blank;
    }
    if let Some((latin, script)) = latin_look_alike(c) {
        return Class::LookAlike(latin, script);
    }
    if is_compat_letter(c) {
        return Class::Compat;
    }
    if c.is_alphabetic() {
        return if is_latin_letter(c) { Class::Latin } else { Class::Other };
    }
    if c.is_numeric() || is_mark(c) { Class::Neutral } else { Class::Boundary }
}

/// Default-ignorable code points (zero width, drawn as nothing): soft hyphen, combining
/// grapheme joiner, Arabic letter mark, Mongolian selectors, zero-width space / non-joiner /
/// joiner, bidi marks and controls, word joiner and invisible operators, variation
/// selectors, the byte-order mark, shorthand format controls, tag characters.
#[inline]
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x17B4 | 0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F
        | 0xFE00..=0xFE0F | 0xFEFF | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF
    )
}

/// Characters drawn as an empty cell: the braille blank and the Hangul fillers. A copier
/// puts them where spaces were; matching reads them as spaces.
#[inline]
pub(crate) fn is_blank(c: char) -> bool {
    matches!(c as u32, 0x2800 | 0x3164 | 0xFFA0 | 0x115F | 0x1160)
}

/// Spaces other than the ordinary one that sit between words: no-break, the typographic
/// spaces of U+2000–U+200A, narrow no-break, medium mathematical, ogham, ideographic.
#[inline]
pub(crate) fn is_odd_space(c: char) -> bool {
    matches!(c as u32, 0x00A0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000)
}

/// Latin-script letters: ASCII, Latin-1, Latin Extended-A/B, IPA, Latin Extended
/// Additional and -C/-D/-E.
#[inline]
fn is_latin_letter(c: char) -> bool {
    c.is_ascii_alphabetic()
        || matches!(c as u32, 0x00C0..=0x024F | 0x0250..=0x02AF | 0x1E00..=0x1EFF | 0x2C60..=0x2C7F | 0xA720..=0xA7FF | 0xAB30..=0xAB6F)
            && c.is_alphabetic()
}

#[inline]
fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// Letters that NFKC folds to Latin letters: full-width, circled, mathematical
/// alphanumeric (Latin part) and letterlike symbols.
#[inline]
fn is_compat_letter(c: char) -> bool {
    matches!(c as u32, 0xFF21..=0xFF3A | 0xFF41..=0xFF5A | 0x24B6..=0x24E9 | 0x1D400..=0x1D6A3)
        || matches!(
            c,
            'ℂ' | 'ℊ'
                | 'ℋ'
                | 'ℌ'
                | 'ℍ'
                | 'ℎ'
                | 'ℐ'
                | 'ℑ'
                | 'ℒ'
                | 'ℓ'
                | 'ℕ'
                | 'ℙ'
                | 'ℚ'
                | 'ℛ'
                | 'ℜ'
                | 'ℝ'
                | 'ℤ'
                | 'ℨ'
                | 'K'
                | 'ℬ'
                | 'ℭ'
                | 'ℯ'
                | 'ℰ'
                | 'ℱ'
                | 'ℳ'
                | 'ℴ'
                | 'ℹ'
                | 'ⅅ'
                | 'ⅆ'
                | 'ⅇ'
                | 'ⅈ'
                | 'ⅉ'
        )
}

/// Whether `c` is a mathematical alphanumeric letter (single letters of a formula).
#[inline]
pub(crate) fn is_math_letter(c: char) -> bool {
    matches!(c as u32, 0x1D400..=0x1D6A3) || ('\u{2100}'..='\u{214F}').contains(&c)
}

/// The Latin letter a Cyrillic or Greek letter imitates (TR39 confusables, restricted to
/// the letters that look the same in ordinary fonts), with its script.
pub(crate) fn latin_look_alike(c: char) -> Option<(char, Script)> {
    let cyrillic = |l| Some((l, Script::Cyrillic));
    let greek = |l| Some((l, Script::Greek));
    match c {
        'а' => cyrillic('a'),
        'е' => cyrillic('e'),
        'о' => cyrillic('o'),
        'р' => cyrillic('p'),
        'с' => cyrillic('c'),
        'х' => cyrillic('x'),
        'у' => cyrillic('y'),
        'і' => cyrillic('i'),
        'ј' => cyrillic('j'),
        'ѕ' => cyrillic('s'),
        'һ' => cyrillic('h'),
        'ԁ' => cyrillic('d'),
        'ԛ' => cyrillic('q'),
        'ԝ' => cyrillic('w'),
        'ӏ' => cyrillic('l'),
        'А' => cyrillic('A'),
        'В' => cyrillic('B'),
        'Е' => cyrillic('E'),
        'К' => cyrillic('K'),
        'М' => cyrillic('M'),
        'Н' => cyrillic('H'),
        'О' => cyrillic('O'),
        'Р' => cyrillic('P'),
        'С' => cyrillic('C'),
        'Т' => cyrillic('T'),
        'Х' => cyrillic('X'),
        'У' => cyrillic('Y'),
        'І' => cyrillic('I'),
        'Ј' => cyrillic('J'),
        'Ѕ' => cyrillic('S'),
        'Һ' => cyrillic('H'),
        'Ԁ' => cyrillic('D'),
        'Ԛ' => cyrillic('Q'),
        'Ԝ' => cyrillic('W'),
        'Ӏ' => cyrillic('I'),
        'Α' => greek('A'),
        'Β' => greek('B'),
        'Ε' => greek('E'),
        'Ζ' => greek('Z'),
        'Η' => greek('H'),
        'Ι' => greek('I'),
        'Κ' => greek('K'),
        'Μ' => greek('M'),
        'Ν' => greek('N'),
        'Ο' => greek('O'),
        'Ρ' => greek('P'),
        'Τ' => greek('T'),
        'Υ' => greek('Y'),
        'Χ' => greek('X'),
        'ο' => greek('o'),
        'α' => greek('a'),
        'ν' => greek('v'),
        'ι' => greek('i'),
        'ρ' => greek('p'),
        'υ' => greek('u'),
        'κ' => greek('k'),
        'ϳ' => greek('j'),
        _ => None,
    }
}

/// Han characters written as something else: Kangxi radicals, radical-supplement forms,
/// compatibility ideographs (but the two that Big5 decoding itself yields, the twelve of
/// that block that are unified ideographs in their own right, such as 﨑 of Japanese
/// names, and its two unassigned code points).
#[inline]
pub(crate) fn is_han_look_alike(c: char) -> bool {
    matches!(c as u32, 0x2E80..=0x2EF3 | 0x2F00..=0x2FD5 | 0xF900..=0xFAD9) && !is_ordinary_compatibility_character(c)
}

/// The characters of the compatibility ideographs block that are no look-alike.
fn is_ordinary_compatibility_character(c: char) -> bool {
    matches!(
        c,
        '\u{FA0C}'
            | '\u{FA0D}'
            | '\u{FA0E}'
            | '\u{FA0F}'
            | '\u{FA11}'
            | '\u{FA13}'
            | '\u{FA14}'
            | '\u{FA1F}'
            | '\u{FA21}'
            | '\u{FA23}'
            | '\u{FA24}'
            | '\u{FA27}'
            | '\u{FA28}'
            | '\u{FA29}'
            | '\u{FA6E}'
            | '\u{FA6F}'
    )
}

/// The unified ideograph a Han look-alike ([`is_han_look_alike`]) stands for: a Kangxi
/// radical or compatibility ideograph by NFKC, a radical-supplement form by Unicode's
/// EquivalentUnifiedIdeograph data. `None` for any other character.
pub(crate) fn unified_ideograph(c: char) -> Option<char> {
    use unicode_normalization::UnicodeNormalization;
    if !is_han_look_alike(c) {
        return None;
    }
    if let Some(ideograph) = radical_supplement(c) {
        return Some(ideograph);
    }
    let mut folded = std::iter::once(c).nfkc();
    match (folded.next(), folded.next()) {
        (Some(one), None) if one != c && (is_han(one) || matches!(one as u32, 0x20000..=0x3134F)) => Some(one),
        _ => None,
    }
}

/// A unified Han ideograph (the basic block and Extension A).
#[inline]
pub(crate) fn is_han(c: char) -> bool {
    matches!(c as u32, 0x4E00..=0x9FFF | 0x3400..=0x4DBF)
}

/// The ideograph a CJK radical-supplement form (U+2E80–U+2EF3) stands for, which NFKC
/// leaves alone (Unicode's EquivalentUnifiedIdeograph data).
pub(crate) fn radical_supplement(c: char) -> Option<char> {
    let cp = c as u32;
    if !(0x2E80..=0x2EF3).contains(&cp) {
        return None;
    }
    let found = RADICALS.binary_search_by_key(&u16::try_from(cp).ok()?, |&(r, _)| r).ok()?;
    RADICALS.get(found).and_then(|&(_, i)| char::from_u32(i))
}

/// Radical-supplement form → ideograph, sorted by form.
const RADICALS: [(u16, u32); 109] = [
    (0x2E80, 0x51AB),
    (0x2E81, 0x5382),
    (0x2E82, 0x4E5B),
    (0x2E83, 0x4E5A),
    (0x2E84, 0x4E59),
    (0x2E85, 0x4EBB),
    (0x2E86, 0x5182),
    (0x2E89, 0x5202),
    (0x2E8A, 0x535C),
    (0x2E8B, 0x353E),
    (0x2E8C, 0x5C0F),
    (0x2E8D, 0x5C0F),
    (0x2E8E, 0x5140),
    (0x2E8F, 0x5C23),
    (0x2E90, 0x5C22),
    (0x2E92, 0x5DF3),
    (0x2E93, 0x5E7A),
    (0x2E94, 0x5F51),
    (0x2E95, 0x5F50),
    (0x2E96, 0x5FC4),
    (0x2E97, 0x38FA),
    (0x2E98, 0x624C),
    (0x2E99, 0x6535),
    (0x2E9B, 0x65E1),
    (0x2E9C, 0x65E5),
    (0x2E9D, 0x6708),
    (0x2E9E, 0x6B7A),
    (0x2E9F, 0x6BCD),
    (0x2EA0, 0x6C11),
    (0x2EA1, 0x6C35),
    (0x2EA2, 0x6C3A),
    (0x2EA3, 0x706C),
    (0x2EA4, 0x722B),
    (0x2EA5, 0x722B),
    (0x2EA6, 0x4E2C),
    (0x2EA8, 0x72AD),
    (0x2EA9, 0x738B),
    (0x2EAA, 0x758B),
    (0x2EAB, 0x7F52),
    (0x2EAC, 0x793A),
    (0x2EAD, 0x793B),
    (0x2EAE, 0x7AF9),
    (0x2EAF, 0x7CF9),
    (0x2EB0, 0x7E9F),
    (0x2EB1, 0x7F53),
    (0x2EB2, 0x7F52),
    (0x2EB3, 0x34C1),
    (0x2EB4, 0x34C1),
    (0x2EB6, 0x7F8A),
    (0x2EB7, 0x7F8A),
    (0x2EB8, 0x7F8B),
    (0x2EB9, 0x8002),
    (0x2EBA, 0x8080),
    (0x2EBB, 0x807F),
    (0x2EBC, 0x6708),
    (0x2EBD, 0x81FC),
    (0x2EBE, 0x8279),
    (0x2EBF, 0x8279),
    (0x2EC0, 0x8279),
    (0x2EC1, 0x864E),
    (0x2EC2, 0x8864),
    (0x2EC3, 0x8980),
    (0x2EC4, 0x897F),
    (0x2EC5, 0x89C1),
    (0x2EC6, 0x89D2),
    (0x2EC8, 0x8BA0),
    (0x2EC9, 0x8D1D),
    (0x2ECA, 0x8DB3),
    (0x2ECB, 0x8F66),
    (0x2ECC, 0x8FB6),
    (0x2ECD, 0x8FB6),
    (0x2ECE, 0x8FB6),
    (0x2ECF, 0x961D),
    (0x2ED0, 0x9485),
    (0x2ED1, 0x9577),
    (0x2ED2, 0x9578),
    (0x2ED3, 0x957F),
    (0x2ED4, 0x95E8),
    (0x2ED5, 0x961C),
    (0x2ED6, 0x961D),
    (0x2ED7, 0x96E8),
    (0x2ED8, 0x9752),
    (0x2ED9, 0x97E6),
    (0x2EDA, 0x9875),
    (0x2EDB, 0x98CE),
    (0x2EDC, 0x98DE),
    (0x2EDD, 0x98DF),
    (0x2EDE, 0x98E0),
    (0x2EDF, 0x98E0),
    (0x2EE0, 0x9963),
    (0x2EE1, 0x9996),
    (0x2EE2, 0x9A6C),
    (0x2EE3, 0x9AA8),
    (0x2EE4, 0x9B3C),
    (0x2EE5, 0x9C7C),
    (0x2EE6, 0x9E1F),
    (0x2EE7, 0x5364),
    (0x2EE8, 0x9EA6),
    (0x2EE9, 0x9EC4),
    (0x2EEA, 0x9EFE),
    (0x2EEB, 0x6589),
    (0x2EEC, 0x9F50),
    (0x2EED, 0x6B6F),
    (0x2EEE, 0x9F7F),
    (0x2EEF, 0x7ADC),
    (0x2EF0, 0x9F99),
    (0x2EF1, 0x9F9C),
    (0x2EF2, 0x4E80),
    (0x2EF3, 0x9F9F),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_han_look_alike_stands_for_one_unified_ideograph() {
        let folded: String = "⽂⽤⼀⾥⾼⻓⻛\u{F900}".chars().filter_map(unified_ideograph).collect();
        assert_eq!(folded, "文用一里高长风\u{8C48}");
        assert_eq!(unified_ideograph('文'), None);
        assert_eq!(unified_ideograph('a'), None);
        // Every Kangxi radical and compatibility ideograph has its ideograph; only some
        // forms of the radicals supplement (strokes, variant shapes) stand for none.
        let unmapped: Vec<char> = (0x2E80..=0x2FDF_u32)
            .chain(0xF900..=0xFAFF)
            .filter_map(char::from_u32)
            .filter(|&c| is_han_look_alike(c) && unified_ideograph(c).is_none())
            .collect();
        assert!(unmapped.iter().all(|&c| ('\u{2E80}'..='\u{2EFF}').contains(&c)), "{unmapped:?}");
        assert!(unmapped.len() < 40, "{unmapped:?}");
    }

    #[test]
    fn the_radical_table_is_sorted_and_maps_the_forms_the_issue_names() {
        assert!(RADICALS.windows(2).all(|w| w[0].0 < w[1].0));
        let mapped: String = "⻓⻔⻅⻢".chars().filter_map(radical_supplement).collect();
        assert_eq!(mapped, "长门见马");
        assert_eq!(radical_supplement('长'), None);
    }

    #[test]
    fn classes_of_the_tricks() {
        assert_eq!(classify('\u{200B}'), Class::Invisible);
        assert_eq!(classify('\u{FEFF}'), Class::Invisible);
        assert_eq!(classify('\u{2800}'), Class::Blank);
        assert_eq!(classify('а'), Class::LookAlike('a', Script::Cyrillic));
        assert_eq!(classify('Ο'), Class::LookAlike('O', Script::Greek));
        assert_eq!(classify('ｅ'), Class::Compat);
        assert_eq!(classify('𝐚'), Class::Compat);
        assert_eq!(classify('д'), Class::Other);
        assert_eq!(classify('é'), Class::Latin);
        assert_eq!(classify('中'), Class::Other);
        assert_eq!(classify('\u{00A0}'), Class::Boundary);
        assert!(is_odd_space('\u{00A0}') && is_odd_space('\u{3000}') && !is_odd_space(' '));
    }
}
