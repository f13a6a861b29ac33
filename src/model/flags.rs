//! What a document does to hide a copy, as a report states it: a [`Flag`] of a kind
//! (look-alike letters, invisible characters, odd spaces, hidden text, text as images),
//! how many, and the first few places. Found by `normalize` (in the text) and `ingest` (in
//! the file); said in English (`Display`) and Chinese ([`Flag::zh`]).

use serde::{Deserialize, Serialize};

/// A flag keeps at most this many spans.
pub const MAX_SPANS: usize = 5;

/// What was done to the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlagKind {
    /// Letters of another script (or compatibility forms) in place of Latin letters, or
    /// radicals and compatibility forms in place of Chinese characters.
    LookAlikeLetters,
    /// Zero-width and other invisible characters inside the text.
    InvisibleCharacters,
    /// No-break, narrow or wide spaces between words.
    OddSpaces,
    /// Text in the file that the page does not show (left out of the extracted text).
    HiddenText,
    /// Pages with pictures but no text: words drawn as images cannot be read (a scan).
    TextAsImages,
}

impl FlagKind {
    /// The name reports write (as in the JSON).
    pub fn name(self) -> &'static str {
        match self {
            Self::LookAlikeLetters => "look_alike_letters",
            Self::InvisibleCharacters => "invisible_characters",
            Self::OddSpaces => "odd_spaces",
            Self::HiddenText => "hidden_text",
            Self::TextAsImages => "text_as_images",
        }
    }
}

/// Which letters a look-alike flag is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LookAlikeScript {
    /// Cyrillic letters inside English words.
    Cyrillic,
    /// Greek letters inside English words.
    Greek,
    /// Full-width, mathematical or letterlike letters inside English words.
    Compat,
    /// Kangxi radicals, radical-supplement forms or compatibility ideographs in Chinese.
    Han,
}

impl LookAlikeScript {
    /// The name reports write (as in the JSON).
    pub fn name(self) -> &'static str {
        match self {
            Self::Cyrillic => "cyrillic",
            Self::Greek => "greek",
            Self::Compat => "compat",
            Self::Han => "han",
        }
    }
}

/// One finding about a document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flag {
    pub kind: FlagKind,
    /// For look-alike letters: which ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<LookAlikeScript>,
    /// How many: characters (pages for text as images).
    pub count: u32,
    /// The first few places, `[start, end)` in characters of the extracted text; a hidden
    /// run is an empty span where it was taken out.
    pub spans: Vec<[u32; 2]>,
}

impl Flag {
    /// A flag of `kind` with nothing counted yet.
    pub fn new(kind: FlagKind, script: Option<LookAlikeScript>) -> Self {
        Self { kind, script, count: 0, spans: Vec::new() }
    }

    /// Counts `n` more at `[start, end)`, joining a span that touches the last one.
    pub fn add(&mut self, start: u32, end: u32, n: u32) {
        self.count = self.count.saturating_add(n);
        if let Some(last) = self.spans.last_mut()
            && start <= last[1].saturating_add(1)
            && end >= last[1]
        {
            last[1] = end;
            return;
        }
        if self.spans.len() < MAX_SPANS {
            self.spans.push([start, end]);
        }
    }
}

impl Flag {
    /// The finding in simplified Chinese (the English text is its `Display`).
    pub fn zh(&self) -> String {
        let n = self.count;
        match (self.kind, self.script) {
            (FlagKind::LookAlikeLetters, Some(LookAlikeScript::Han)) => {
                format!("形近字替换：中文中有 {n} 个部首或兼容汉字代替了正常汉字")
            }
            (FlagKind::LookAlikeLetters, Some(LookAlikeScript::Greek)) => {
                format!("形近字替换：英文单词中有 {n} 个希腊字母")
            }
            (FlagKind::LookAlikeLetters, Some(LookAlikeScript::Compat)) => {
                format!("形近字替换：英文单词中有 {n} 个全角或数学字母")
            }
            (FlagKind::LookAlikeLetters, _) => format!("形近字替换：英文单词中有 {n} 个西里尔字母"),
            (FlagKind::InvisibleCharacters, _) => format!("不可见字符：正文中有 {n} 个零宽或空白字符"),
            (FlagKind::OddSpaces, _) => format!("异常空格：词间有 {n} 个不换行、窄或宽空格"),
            (FlagKind::HiddenText, _) => format!("隐藏文字：{n} 个页面上看不到的字符（未参与比对）"),
            (FlagKind::TextAsImages, _) => format!("图片文字：{n} 页只有图片没有文字（扫描件？Twinspot 不做文字识别）"),
        }
    }
}

impl std::fmt::Display for Flag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.count;
        match (self.kind, self.script) {
            (FlagKind::LookAlikeLetters, Some(LookAlikeScript::Han)) => {
                write!(f, "Look-alike characters: {n} radicals or compatibility forms in place of Chinese characters")
            }
            (FlagKind::LookAlikeLetters, Some(LookAlikeScript::Greek)) => {
                write!(f, "Look-alike letters: {n} Greek letters inside English words")
            }
            (FlagKind::LookAlikeLetters, Some(LookAlikeScript::Compat)) => {
                write!(f, "Look-alike letters: {n} full-width or mathematical letters inside English words")
            }
            (FlagKind::LookAlikeLetters, _) => {
                write!(f, "Look-alike letters: {n} Cyrillic letters inside English words")
            }
            (FlagKind::InvisibleCharacters, _) => {
                write!(f, "Invisible characters: {n} zero-width or blank characters inside the text")
            }
            (FlagKind::OddSpaces, _) => write!(f, "Odd spaces: {n} no-break, narrow or wide spaces between words"),
            (FlagKind::HiddenText, _) => {
                write!(f, "Hidden text: {n} characters the page does not show (left out of the check)")
            }
            (FlagKind::TextAsImages, _) => {
                write!(f, "Text as images: {n} pages with pictures but no text (a scan? Twinspot does no OCR)")
            }
        }
    }
}
