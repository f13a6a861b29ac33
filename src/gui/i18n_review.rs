//! The words of a reviewer's day in English and 简体中文: an export printing in the
//! background, and the signs that a copy was hidden (the badge, the pair view's legend,
//! the filter). A table of its own, so that texts added to `i18n` merge without these.

use super::i18n::Lang;

impl Lang {
    /// The reviewer's words in this language.
    pub fn review_tr(self) -> &'static ReviewTr {
        match self {
            Lang::En => &REVIEW_EN,
            Lang::Zh => &REVIEW_ZH,
        }
    }
}

/// Every fixed text of the reviewer's day.
pub struct ReviewTr {
    /// "Printing the report… ({s} s)", `{s}` the seconds since it began.
    pub printing: &'static str,
    /// "Writing the report… ({s} s)", for JSON, CSV and HTML.
    pub writing: &'static str,
    pub finishing: &'static str,
    pub cancel: &'static str,
    pub tip_cancel: &'static str,
    pub cancelled: &'static str,
    pub export_failed: &'static str,
    /// The badge: "! {n} signs of hiding", and of one sign.
    pub badge: &'static str,
    pub badge_one: &'static str,
    pub tip_badge: &'static str,
    pub legend_flagged: &'static str,
    pub tip_legend_flagged: &'static str,
    pub flagged_only: &'static str,
    pub tip_flagged_only: &'static str,
    /// The pair view's legend of a translated passage's underlined words.
    pub legend_word_pairs: &'static str,
    pub tip_legend_word_pairs: &'static str,
}

impl ReviewTr {
    /// The status line of a running export, `secs` after it began.
    pub fn exporting(&self, pdf: bool, secs: u64) -> String {
        let text = if pdf { self.printing } else { self.writing };
        text.replace("{s}", &secs.to_string())
    }

    /// The badge of a document with `n` signs of hiding.
    pub fn badge(&self, n: usize) -> String {
        if n == 1 { self.badge_one.to_owned() } else { self.badge.replace("{n}", &n.to_string()) }
    }
}

pub static REVIEW_EN: ReviewTr = ReviewTr {
    printing: "Printing the report… ({s} s)",
    writing: "Writing the report… ({s} s)",
    finishing: "Writing the file: almost done.",
    cancel: "Cancel",
    tip_cancel: "Stop the export: no file is written.",
    cancelled: "Export cancelled: no file was written.",
    export_failed: "The report was not saved",
    badge: "! {n} signs of hiding",
    badge_one: "! 1 sign of hiding",
    tip_badge: "Tricks that hide a copy from a checker, found in this document (Twinspot matched through them):",
    legend_flagged: "Flagged characters",
    tip_legend_flagged: "Look-alike letters from another alphabet, invisible characters and odd spaces: tricks that hide a \
                         copy from a checker. Written in orange and underlined; Twinspot matched through them.",
    flagged_only: "Flagged only",
    tip_flagged_only: "Only documents with signs that a copy was hidden (look-alike letters, invisible characters, odd \
                       spaces, hidden text, text as pictures): those with the orange badge.",
    legend_word_pairs: "Dictionary word pairs",
    tip_legend_word_pairs: "In a passage translated from another language: the words the dictionary matched with \
                            words of the other text. Written in blue and underlined in both texts.",
};

pub static REVIEW_ZH: ReviewTr = ReviewTr {
    printing: "正在打印报告…（{s} 秒）",
    writing: "正在写入报告…（{s} 秒）",
    finishing: "正在写入文件，即将完成。",
    cancel: "取消",
    tip_cancel: "停止导出，不写入任何文件。",
    cancelled: "已取消导出，未写入文件。",
    export_failed: "报告未能保存",
    badge: "! {n} 处规避迹象",
    badge_one: "! 1 处规避迹象",
    tip_badge: "本文档中发现的躲避查重的手段（Twinspot 已识破并照常比对）：",
    legend_flagged: "可疑字符",
    tip_legend_flagged: "形似的其他文字字母、不可见字符和异常空格：用来躲避查重的手段。以橙色下划线标出；Twinspot 已识破并照常比对。",
    flagged_only: "仅看可疑文档",
    tip_flagged_only: "只显示有规避查重迹象的文档（形似字母、不可见字符、异常空格、隐藏文字、以图片代替文字），即带橙色标记的文档。",
    legend_word_pairs: "词典词对",
    tip_legend_word_pairs: "在译自另一种语言的片段中，词典与另一篇文本的词匹配上的词。在两篇文本中以蓝色下划线标出。",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_count_the_seconds_and_the_signs() {
        assert_eq!(Lang::En.review_tr().exporting(true, 6), "Printing the report… (6 s)");
        assert_eq!(Lang::Zh.review_tr().exporting(false, 15), "正在写入报告…（15 秒）");
        assert_eq!(Lang::En.review_tr().badge(4), "! 4 signs of hiding");
        assert_eq!(Lang::En.review_tr().badge(1), "! 1 sign of hiding");
        assert_eq!(Lang::Zh.review_tr().badge(4), "! 4 处规避迹象");
    }
}
