//! The words of the reports (and of the passage-kind legend the window shares), in
//! English and 简体中文, so a report handed on speaks the reviewer's language.

use super::PassageKind;
use super::marks::Mark;

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
}

impl Words {
    /// Name and explanation of a passage kind.
    pub fn kind(&self, kind: PassageKind) -> (&'static str, &'static str) {
        self.kinds[kind_index(kind)]
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
};
