//! The words of the reports (and of the passage-kind legend the window shares), in
//! English and 简体中文, so a report handed on speaks the reviewer's language.

use super::PassageKind;
use super::marks::Mark;
use crate::model::{Passage, Reworded, Translation};

/// A language of a report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportLang {
    #[default]
    En,
    Zh,
}

impl ReportLang {
    /// `en` or `zh` (as the command line takes them).
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "en" => Some(Self::En),
            "zh" | "zh-cn" | "cn" => Some(Self::Zh),
            _ => None,
        }
    }

    /// The words of this language.
    pub fn words(self) -> &'static Words {
        match self {
            Self::En => &EN,
            Self::Zh => &ZH,
        }
    }
}

/// Every fixed text of a report.
pub struct Words {
    pub html_lang: &'static str,
    pub title: &'static str,
    pub scope_run: &'static str,
    pub scope_suspect: &'static str,
    pub scope_pair: &'static str,
    pub made_by: &'static str,
    pub date: &'static str,
    pub mode: &'static str,
    pub mode_refs: &'static str,
    pub mode_all: &'static str,
    pub mode_classmates: &'static str,
    pub inputs: &'static str,
    pub name: &'static str,
    pub role: &'static str,
    pub size: &'static str,
    pub chars: &'static str,
    pub role_suspect: &'static str,
    pub role_reference: &'static str,
    pub role_template: &'static str,
    pub unreadable: &'static str,
    pub settings: &'static str,
    pub legend: &'static str,
    pub overview: &'static str,
    pub overall: &'static str,
    pub overall_help: &'static str,
    pub sources: &'static str,
    pub share: &'static str,
    pub pairs: &'static str,
    pub no_pairs: &'static str,
    pub suspect: &'static str,
    pub reference: &'static str,
    pub doc_a: &'static str,
    pub doc_b: &'static str,
    pub of_a: &'static str,
    pub of_b: &'static str,
    pub simhash: &'static str,
    pub passages: &'static str,
    pub longest: &'static str,
    pub near_duplicate: &'static str,
    pub groups: &'static str,
    pub problems: &'static str,
    /// The box of documents that try to hide a copy.
    pub flags: &'static str,
    pub flags_help: &'static str,
    pub note: &'static str,
    pub kind: &'static str,
    pub position: &'static str,
    pub length: &'static str,
    pub mark: &'static str,
    pub review_note: &'static str,
    pub excerpts_only: &'static str,
    pub k: &'static str,
    pub w: &'static str,
    pub guarantee: &'static str,
    pub min_chars: &'static str,
    pub nfkc: &'static str,
    pub case_fold: &'static str,
    pub t2s: &'static str,
    pub drop_punct: &'static str,
    pub simhash_threshold: &'static str,
    pub coverage: &'static str,
    pub min_sentence: &'static str,
    pub max_file: &'static str,
    pub timeout: &'static str,
    pub on: &'static str,
    pub off: &'static str,
    pub kinds: [(&'static str, &'static str); 4],
    pub marks: [&'static str; 3],
    // The report laid out for its readers (one student, the class).
    pub student: &'static str,
    pub class_title: &'static str,
    pub students_count: &'static str,
    pub every_student: &'static str,
    pub sort_hint: &'static str,
    pub histogram: &'static str,
    pub histogram_help: &'static str,
    pub from: &'static str,
    pub classmate: &'static str,
    pub source: &'static str,
    pub closest: &'static str,
    pub no_shared: &'static str,
    pub not_reviewed: &'static str,
    pub verdict: &'static str,
    pub appendix: &'static str,
    pub program: &'static str,
    pub side_by_side: &'static str,
    pub other_pairs: &'static str,
    pub shown_with: &'static str,
    pub counts: &'static str,
    pub counted: &'static str,
    pub not_counted: &'static str,
    pub dismissed_not_counted: &'static str,
    pub filtered_out: &'static str,
    /// "{n}" stands for a number, "{note}" for the reviewer's note.
    pub dismissed_one: &'static str,
    pub dismissed_many: &'static str,
    pub confirmed_one: &'static str,
    pub confirmed_many: &'static str,
    pub before_review: &'static str,
    pub anonymized: &'static str,
    pub student_label: &'static str,
    pub in_student: &'static str,
    pub in_other: &'static str,
    pub positions_help: &'static str,
    // Each passage once; the optional appendix.
    pub passages_once: &'static str,
    pub passages_once_help: &'static str,
    pub also_in: &'static str,
    pub full_texts: &'static str,
    pub full_texts_help: &'static str,
    pub print_appendix: &'static str,
    pub hidden_text: &'static str,
    // A passage whose two sides are in different languages, and its evidence.
    /// The kind of a copied passage that was translated.
    pub translated: &'static str,
    /// "{a}" stands for the aligned units, "{n}" for the suspect's units.
    pub translated_en: &'static str,
    pub translated_zh: &'static str,
    /// What the underlined words of a translated passage are.
    pub word_pairs: &'static str,
    /// The kind of a copied passage carried over reworded sentences.
    pub reworded: &'static str,
    /// "{n}" stands for the reworded sentences the passage took in.
    pub reworded_line: &'static str,
}

impl Words {
    /// Name and explanation of a passage kind.
    pub fn kind(&self, kind: PassageKind) -> (&'static str, &'static str) {
        self.kinds[kind_index(kind)]
    }

    /// The name of a passage's kind as lists show it: "translated" for copied text whose
    /// two sides are in different languages.
    pub fn passage_kind(&self, passage: &Passage) -> &'static str {
        match (&passage.translated, &passage.reworded, passage.kind) {
            (Some(_), _, PassageKind::Copied) => self.translated,
            (None, Some(_), PassageKind::Copied) => self.reworded,
            _ => self.kind(passage.kind).0,
        }
    }

    /// "Reworded: 3 sentences say the same in other words".
    pub fn reworded_line(&self, reworded: &Reworded) -> String {
        self.reworded_line.replace("{n}", &reworded.sentences.len().to_string())
    }

    /// "Translated from English: 7 of 9 sentences align".
    pub fn translated_line(&self, translation: &Translation) -> String {
        let text = if translation.from == "zh" { self.translated_zh } else { self.translated_en };
        text.replace("{a}", &translation.aligned.len().to_string()).replace("{n}", &translation.units.to_string())
    }

    /// "n passages dismissed by the reviewer: not counted" (`None` for none).
    pub fn dismissed(&self, n: usize) -> Option<String> {
        count_line(n, self.dismissed_one, self.dismissed_many)
    }

    /// "n passages confirmed by the reviewer: counted" (`None` for none).
    pub fn confirmed(&self, n: usize) -> Option<String> {
        count_line(n, self.confirmed_one, self.confirmed_many)
    }

    /// Name of a review mark.
    pub fn mark(&self, mark: Mark) -> &'static str {
        match mark {
            Mark::Confirmed => self.marks[0],
            Mark::Dismissed => self.marks[1],
            Mark::DismissedEverywhere => self.marks[2],
        }
    }
}

fn count_line(n: usize, one: &str, many: &str) -> Option<String> {
    match n {
        0 => None,
        1 => Some(one.to_owned()),
        _ => Some(many.replace("{n}", &n.to_string())),
    }
}

/// Every passage kind, in legend order.
pub const KINDS: [PassageKind; 4] =
    [PassageKind::Copied, PassageKind::Quoted, PassageKind::Common, PassageKind::Template];

fn kind_index(kind: PassageKind) -> usize {
    match kind {
        PassageKind::Copied => 0,
        PassageKind::Quoted => 1,
        PassageKind::Common => 2,
        PassageKind::Template => 3,
    }
}

pub static EN: Words = Words {
    html_lang: "en",
    title: "Twinspot similarity report",
    scope_run: "Whole check",
    scope_suspect: "One document",
    scope_pair: "One pair",
    made_by: "Made by",
    date: "Date",
    mode: "Compared",
    mode_refs: "suspects against references",
    mode_all: "every document against every other",
    mode_classmates: "each student against the classmates and the references",
    inputs: "Documents",
    name: "Name",
    role: "Role",
    size: "Size (bytes)",
    chars: "Characters",
    role_suspect: "suspect",
    role_reference: "reference",
    role_template: "template",
    unreadable: "could not be read",
    settings: "Settings",
    legend: "Legend",
    overview: "Overview",
    overall: "Overall similarity",
    overall_help: "Share of the document's text found in any other document, each character counted once.",
    sources: "Sources",
    share: "Share",
    pairs: "Pairs",
    no_pairs: "No pairs share text.",
    suspect: "Suspect",
    reference: "Reference",
    doc_a: "Document A",
    doc_b: "Document B",
    of_a: "% of the first",
    of_b: "% of the second",
    simhash: "SimHash distance",
    passages: "Passages",
    longest: "Longest passage (characters)",
    near_duplicate: "near duplicate",
    groups: "Near-duplicate groups",
    problems: "Documents with problems or notes",
    flags: "Signs that a copy was hidden",
    flags_help: "These documents use tricks that hide text from a checker. Twinspot matched through them; the places are marked.",
    note: "note",
    kind: "Kind",
    position: "Position (characters)",
    length: "Length",
    mark: "Review",
    review_note: "Reviewer's note",
    excerpts_only: "Beyond the size limit this pair lists its passages only.",
    k: "k (tokens per k-gram)",
    w: "w (winnowing window)",
    guarantee: "guarantee t = w + k − 1 (tokens)",
    min_chars: "minimum passage length (characters)",
    nfkc: "Unicode NFKC",
    case_fold: "case folding",
    t2s: "traditional → simplified Chinese",
    drop_punct: "drop punctuation",
    simhash_threshold: "near duplicates: SimHash distance at most",
    coverage: "near duplicates: shared text at least",
    min_sentence: "minimum sentence length (tokens)",
    max_file: "largest file read (bytes)",
    timeout: "time limit per file (seconds)",
    on: "on",
    off: "off",
    kinds: [
        ("copied", "Shared text that counts in the scores."),
        ("quoted", "Inside quotation marks or a bibliography: shown, not counted."),
        ("common", "Stock phrases many documents share: shown, not counted."),
        ("template", "Text of the template everyone was given: shown, not counted."),
    ],
    marks: ["confirmed", "dismissed", "dismissed everywhere"],
    student: "Student",
    class_title: "Similarity report of the class",
    students_count: "students",
    every_student: "Every student",
    sort_hint: "Click a column heading to sort.",
    histogram: "How many students, by overall similarity",
    histogram_help: "Each bar counts the students whose overall similarity lies in its band.",
    from: "From",
    classmate: "classmate",
    source: "source",
    closest: "Closest match",
    no_shared: "No shared text found.",
    not_reviewed: "not reviewed",
    verdict: "Reviewer's verdict",
    appendix: "Appendix: how this report was made",
    program: "Program",
    side_by_side: "The passages, side by side",
    other_pairs: "Other pairs",
    shown_with: "shown with",
    counts: "Counts?",
    counted: "counts",
    not_counted: "not counted",
    dismissed_not_counted: "dismissed: not counted",
    filtered_out: "left out by the window's filter",
    dismissed_one: "1 passage dismissed by the reviewer: not counted",
    dismissed_many: "{n} passages dismissed by the reviewer: not counted",
    confirmed_one: "1 passage confirmed by the reviewer: counted",
    confirmed_many: "{n} passages confirmed by the reviewer: counted",
    before_review: "before the reviewer's dismissals",
    anonymized: "Other students' names are replaced by letters.",
    student_label: "Student",
    in_student: "In this text (characters)",
    in_other: "In the other text (characters)",
    positions_help: "Positions count characters from the start of each text.",
    passages_once: "The shared passages, each once",
    passages_once_help: "Each passage of the text is shown once, with a few lines around it, followed by every source it was found in (the source's words only where they differ). Positions: in this text ⇔ in the source.",
    also_in: "also in",
    full_texts: "Appendix: the full texts",
    full_texts_help: "Both texts of each pair, the passages lit. Printed only when asked for.",
    print_appendix: "Print the appendix too (the full texts and every document's SHA-256)",
    hidden_text: "A hand-out shows of a classmate's text only the passages shared with this student.",
    translated: "translated",
    translated_en: "Translated from English: {a} of {n} sentences align",
    translated_zh: "Translated from Chinese: {a} of {n} sentences align",
    word_pairs: "Underlined: word pairs the dictionary matched in both texts.",
    reworded: "reworded",
    reworded_line: "Reworded: {n} sentences say the same in other words",
};

pub static ZH: Words = Words {
    html_lang: "zh-CN",
    title: "Twinspot 相似度报告",
    scope_run: "整次检查",
    scope_suspect: "单个文档",
    scope_pair: "单个文档对",
    made_by: "生成工具",
    date: "日期",
    mode: "比较方式",
    mode_refs: "待查文档对比参考文档",
    mode_all: "两两互查",
    mode_classmates: "每份作业对比同学作业和参考文档",
    inputs: "文档",
    name: "名称",
    role: "角色",
    size: "大小（字节）",
    chars: "字符数",
    role_suspect: "待查",
    role_reference: "参考",
    role_template: "模板",
    unreadable: "无法读取",
    settings: "设置",
    legend: "图例",
    overview: "总览",
    overall: "总相似度",
    overall_help: "该文档的文字在任一其他文档中出现的比例，每个字符只计一次。",
    sources: "来源",
    share: "比例",
    pairs: "文档对",
    no_pairs: "没有共享文字的文档对。",
    suspect: "待查文档",
    reference: "参考文档",
    doc_a: "文档 A",
    doc_b: "文档 B",
    of_a: "占前者 %",
    of_b: "占后者 %",
    simhash: "SimHash 距离",
    passages: "片段数",
    longest: "最长片段（字符）",
    near_duplicate: "近似重复",
    groups: "近似重复组",
    problems: "有问题或提示的文档",
    flags: "疑似规避查重的手段",
    flags_help: "以下文档使用了躲避查重的手段。Twinspot 已识破并照常比对；位置已标出。",
    note: "提示",
    kind: "类型",
    position: "位置（字符）",
    length: "长度",
    mark: "审阅",
    review_note: "审阅备注",
    excerpts_only: "超出篇幅上限：此文档对只列出片段。",
    k: "k（每个 k-gram 的词元数）",
    w: "w（筛选窗口）",
    guarantee: "保证 t = w + k − 1（词元）",
    min_chars: "最短片段（字符）",
    nfkc: "Unicode NFKC",
    case_fold: "忽略大小写",
    t2s: "繁体 → 简体",
    drop_punct: "忽略标点",
    simhash_threshold: "近似重复：SimHash 距离不超过",
    coverage: "近似重复：共同文字至少",
    min_sentence: "最短句子（词元）",
    max_file: "最大文件（字节）",
    timeout: "每个文件的时限（秒）",
    on: "开",
    off: "关",
    kinds: [
        ("相同", "计入分数的相同文字。"),
        ("引用", "引号内或参考文献中的文字：显示，不计分。"),
        ("常见", "许多文档共有的套话：显示，不计分。"),
        ("模板", "所有人都拿到的模板文字：显示，不计分。"),
    ],
    marks: ["已确认", "已排除", "全部排除"],
    student: "学生",
    class_title: "全班相似度报告",
    students_count: "名学生",
    every_student: "全班学生",
    sort_hint: "点击列标题可排序。",
    histogram: "按总相似度统计的学生人数",
    histogram_help: "每个柱子表示总相似度落在该区间的学生人数。",
    from: "来自",
    classmate: "同学",
    source: "参考资料",
    closest: "最接近的来源",
    no_shared: "未发现共同文字。",
    not_reviewed: "未审阅",
    verdict: "审阅结论",
    appendix: "附录：本报告的生成方式",
    program: "程序",
    side_by_side: "片段并排对照",
    other_pairs: "其他文档对",
    shown_with: "见",
    counts: "计分？",
    counted: "计入",
    not_counted: "不计入",
    dismissed_not_counted: "已排除：不计入",
    filtered_out: "被窗口的筛选条件隐去",
    dismissed_one: "审阅者排除了 1 个片段：不计入",
    dismissed_many: "审阅者排除了 {n} 个片段：不计入",
    confirmed_one: "审阅者确认了 1 个片段：计入",
    confirmed_many: "审阅者确认了 {n} 个片段：计入",
    before_review: "审阅排除前",
    anonymized: "其他学生的姓名已用字母代替。",
    student_label: "学生",
    in_student: "本文位置（字符）",
    in_other: "对方位置（字符）",
    positions_help: "位置按字符从各文本开头数起。",
    passages_once: "共同片段（每段只列一次）",
    passages_once_help: "文本中的每个共同片段只列一次，附前后几行文字，下列发现它的所有来源（来源文字与本文不同时才列出）。位置：本文 ⇔ 来源。",
    also_in: "另见于",
    full_texts: "附录：全文",
    full_texts_help: "每个文档对的两份全文，片段已标出。仅在需要时打印。",
    print_appendix: "打印时包含附录（全文及每个文档的 SHA-256）",
    hidden_text: "发给学生的报告只显示同学文本中与本学生共同的片段。",
    translated: "翻译",
    translated_en: "译自英文：{n} 句中有 {a} 句对齐",
    translated_zh: "译自中文：{n} 句中有 {a} 句对齐",
    word_pairs: "下划线：词典在两篇文本中匹配的词对。",
    reworded: "改写",
    reworded_line: "改写：{n} 句换了说法，意思相同",
};
