//! The interface's words in English and 简体中文: one [`Tr`] table per language, chosen by
//! [`Lang`], defaulting to the system language.

use serde::{Deserialize, Serialize};

use crate::engine::SkipReason;
use crate::ingest::{Format, IngestError};
use crate::notice::{DocError, Notice};

/// A language of the interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// The system's language when it is Chinese, English otherwise.
    pub fn from_system() -> Self {
        match sys_locale::get_locale() {
            Some(l) if l.to_ascii_lowercase().starts_with("zh") => Lang::Zh,
            _ => Lang::En,
        }
    }

    /// The words of this language.
    pub fn tr(self) -> &'static Tr {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }

    /// The words of reports in this language.
    pub fn words(self) -> &'static crate::report::words::Words {
        self.report_lang().words()
    }

    /// The report language that follows this window language.
    pub fn report_lang(self) -> crate::report::words::ReportLang {
        match self {
            Lang::En => crate::report::words::ReportLang::En,
            Lang::Zh => crate::report::words::ReportLang::Zh,
        }
    }

    /// The language's own name.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "简体中文",
        }
    }
}

/// Every fixed text of the interface. Texts with numbers are formatted by the methods below.
pub struct Tr {
    /// The language these words are in.
    pub lang: Lang,
    pub reference: &'static str,
    pub suspects: &'static str,
    pub template: &'static str,
    pub add_files: &'static str,
    pub add_folder: &'static str,
    pub remove: &'static str,
    pub clear: &'static str,
    pub drop_here: &'static str,
    pub mode: &'static str,
    pub mode_refs: &'static str,
    pub mode_all: &'static str,
    pub settings: &'static str,
    pub k: &'static str,
    pub w: &'static str,
    pub min_chars: &'static str,
    pub nfkc: &'static str,
    pub case_fold: &'static str,
    pub t2s: &'static str,
    pub drop_punct: &'static str,
    pub simhash_threshold: &'static str,
    pub coverage: &'static str,
    pub defaults: &'static str,
    pub check: &'static str,
    pub cancel: &'static str,
    pub reading: &'static str,
    pub indexing: &'static str,
    pub matching: &'static str,
    pub done: &'static str,
    pub starting: &'static str,
    pub empty_hint: &'static str,
    pub need_suspects: &'static str,
    pub need_refs: &'static str,
    pub ready_hint: &'static str,
    pub col_suspect: &'static str,
    pub col_reference: &'static str,
    pub col_score: &'static str,
    pub col_score_b: &'static str,
    pub col_simhash: &'static str,
    pub col_passages: &'static str,
    pub col_longest: &'static str,
    pub filter: &'static str,
    pub min_score: &'static str,
    pub near_duplicate: &'static str,
    pub no_pairs: &'static str,
    pub open: &'static str,
    pub open_hint: &'static str,
    pub back: &'static str,
    pub prev: &'static str,
    pub next: &'static str,
    pub pair_keys: &'static str,
    pub tab_pairs: &'static str,
    pub tab_heatmap: &'static str,
    pub tab_groups: &'static str,
    pub heatmap_hint: &'static str,
    pub no_groups: &'static str,
    pub export: &'static str,
    pub export_json: &'static str,
    pub export_csv: &'static str,
    pub export_html: &'static str,
    pub problems: &'static str,
    pub no_problems: &'static str,
    pub cancelled: &'static str,
    pub language: &'static str,
    pub of_suspect: &'static str,
    pub of_reference: &'static str,
    pub shared_sentences: &'static str,
    pub files_word: &'static str,
    pub passage_word: &'static str,
    pub pairs_word: &'static str,
    pub unreadable: &'static str,
    pub saved: &'static str,
    pub save_failed: &'static str,
    pub doc_a: &'static str,
    pub select_text: &'static str,
    pub tip_select_text: &'static str,
    pub doc_b: &'static str,
    pub tip_score: &'static str,
    pub tip_score_b: &'static str,
    pub tip_longest: &'static str,
    pub swap: &'static str,
    pub tip_swap: &'static str,
    pub review: &'static str,
    pub mark_confirmed: &'static str,
    pub mark_dismissed: &'static str,
    pub mark_everywhere: &'static str,
    pub note_hint: &'static str,
    pub tip_note: &'static str,
    pub passage_list: &'static str,
    pub tip_passage_list: &'static str,
    pub tip_passage_row: &'static str,
    pub chars_word: &'static str,
    pub tab_overview: &'static str,
    pub tip_overview: &'static str,
    pub col_document: &'static str,
    pub col_overall: &'static str,
    pub tip_overall: &'static str,
    pub col_best: &'static str,
    pub col_sources: &'static str,
    pub col_review: &'static str,
    pub exclude_source: &'static str,
    pub tip_exclude: &'static str,
    pub min_passage: &'static str,
    pub tip_min_passage: &'static str,
    pub tip_min_score: &'static str,
    pub hide_quoted: &'static str,
    pub hide_common: &'static str,
    pub tip_hide_kind: &'static str,
    pub mark_filter: &'static str,
    pub filter_all: &'static str,
    pub filter_unmarked: &'static str,
    pub reset_filters: &'static str,
    pub excluded_word: &'static str,
    pub stale: &'static str,
    pub tip_stale: &'static str,
    pub time_left: &'static str,
    pub notes: &'static str,
    pub tip_problems: &'static str,
    pub error_word: &'static str,
    pub note_word: &'static str,
    pub export_html_doc: &'static str,
    pub export_html_pair: &'static str,
    pub tip_export_run: &'static str,
    pub tip_export_doc: &'static str,
    pub tip_export_pair: &'static str,
    pub preset: &'static str,
    pub preset_strict: &'static str,
    pub preset_balanced: &'static str,
    pub preset_lenient: &'static str,
    pub preset_custom: &'static str,
    pub tip_strict: &'static str,
    pub tip_balanced: &'static str,
    pub tip_lenient: &'static str,
    pub advanced: &'static str,
    pub tip_k: &'static str,
    pub tip_w: &'static str,
    pub tip_min_chars: &'static str,
    pub tip_nfkc: &'static str,
    pub tip_case: &'static str,
    pub tip_t2s: &'static str,
    pub tip_punct: &'static str,
    pub tip_simhash: &'static str,
    pub tip_coverage: &'static str,
    pub tip_mode: &'static str,
    pub tip_passages: &'static str,
    pub tip_simhash_col: &'static str,
    pub heat_legend: &'static str,
    pub group_word: &'static str,
}

pub static EN: Tr = Tr {
    lang: Lang::En,
    reference: "Reference",
    suspects: "Suspects",
    template: "Template (optional)",
    add_files: "Add files…",
    add_folder: "Add folder…",
    remove: "Remove",
    clear: "Clear",
    drop_here: "Drop files or folders here",
    mode: "Compare",
    mode_refs: "Suspects against references",
    mode_all: "All against all (a class's submissions)",
    settings: "Settings",
    k: "k (tokens per k-gram)",
    w: "w (winnowing window)",
    min_chars: "Minimum passage length (characters)",
    nfkc: "Unicode NFKC (full-width = half-width)",
    case_fold: "Ignore case",
    t2s: "Traditional = simplified Chinese",
    drop_punct: "Ignore punctuation",
    simhash_threshold: "Near duplicate: SimHash distance at most",
    coverage: "Near duplicate: shared text at least (%)",
    defaults: "Engine defaults",
    check: "Check",
    cancel: "Cancel",
    reading: "Reading files",
    indexing: "Indexing references",
    matching: "Matching",
    done: "Done",
    starting: "Listing files…",
    empty_hint: "Add suspects and references in the sidebar, or drop files anywhere on this window.\nTwo files dropped on an empty window are compared at once.",
    need_suspects: "Add at least one suspect.",
    need_refs: "Add at least one reference, or compare all against all.",
    ready_hint: "Press Check (Ctrl+Enter) to start.",
    col_suspect: "Suspect",
    col_reference: "Reference",
    col_score: "% of suspect",
    col_score_b: "% of reference",
    col_simhash: "SimHash",
    col_passages: "Passages",
    col_longest: "Longest",
    filter: "Filter by name",
    min_score: "Minimum %",
    near_duplicate: "near duplicate",
    no_pairs: "No pairs share text.",
    open: "Open pair",
    open_hint: "Double-click a row or press Enter to open a pair side by side.",
    back: "← Results",
    prev: "↑ Previous passage",
    next: "↓ Next passage",
    pair_keys: "Keys: N / P next / previous passage, Esc back. Click a passage to show its twin.",
    tab_pairs: "Pairs",
    tab_heatmap: "Heat map",
    tab_groups: "Near-duplicate groups",
    heatmap_hint: "Each cell: the share of the row's document found in the column's. Click a cell to open the pair.",
    no_groups: "No near duplicates.",
    export: "Export",
    export_json: "Export JSON…",
    export_csv: "Export CSV…",
    export_html: "Export HTML report…",
    problems: "Problems",
    no_problems: "Every file was read.",
    cancelled: "The check was cancelled.",
    language: "Language",
    of_suspect: "of the suspect",
    of_reference: "of the reference",
    shared_sentences: "shared sentences",
    files_word: "files",
    passage_word: "Passage",
    pairs_word: "pairs",
    unreadable: "could not be read",
    saved: "Saved",
    save_failed: "Could not save",
    doc_a: "Document A",
    select_text: "Select text",
    tip_select_text: "Select and copy text (Ctrl+C). Off: a click on a passage shows its twin.",
    doc_b: "Document B",
    tip_score: "Share of the first document's text found in the second.",
    tip_score_b: "Share of the second document's text found in the first.",
    tip_longest: "Number of shared passages; the longest one in characters.",
    swap: "← → Swap sides",
    tip_swap: "Show the other document on the left.",
    review: "Review:",
    mark_confirmed: "Confirmed",
    mark_dismissed: "Dismissed",
    mark_everywhere: "Dismissed everywhere (joins the stop-passage list)",
    note_hint: "Note on this pair",
    tip_note: "Your note, kept with the marks and shown in the report.",
    passage_list: "Passages",
    tip_passage_list: "Every shared passage: number, kind, length on each side, position. Click to show it.",
    tip_passage_row: "Kind · length in the first / second document · position in the first",
    chars_word: "chars",
    tab_overview: "Overview",
    tip_overview: "One row per document: its overall similarity and its sources.",
    col_document: "Document",
    col_overall: "Overall",
    tip_overall: "Share of the document's text found in any other document, each character counted once (dismissed passages excluded).",
    col_best: "Best source",
    col_sources: "Sources",
    col_review: "Review",
    exclude_source: "Exclude this source",
    tip_exclude: "Hide this document's pairs everywhere until the filters are reset.",
    min_passage: "Min. passage",
    tip_min_passage: "Passages shorter than this (characters) leave the scores. No new check is run.",
    tip_min_score: "Pairs whose higher share is below this are hidden.",
    hide_quoted: "Hide quoted",
    hide_common: "Hide common",
    tip_hide_kind: "Leave these passages out of the view and the report.",
    mark_filter: "Review",
    filter_all: "All",
    filter_unmarked: "Not reviewed",
    reset_filters: "Reset filters",
    excluded_word: "excluded",
    stale: "Out of date: the inputs or settings changed since this check. Press Check to update.",
    tip_stale: "The results below are from the last check.",
    time_left: "about",
    notes: "Notes",
    tip_problems: "Problems: files that could not be read. Notes: files read with a remark (an encoding guessed, a duplicate).",
    error_word: "error",
    note_word: "note",
    export_html_doc: "HTML report of",
    export_html_pair: "HTML report of this pair…",
    tip_export_run: "Every document and pair, in the window's language.",
    tip_export_doc: "One document with its sources: for one student.",
    tip_export_pair: "The open or selected pair, both texts side by side.",
    preset: "Sensitivity",
    preset_strict: "Strict",
    preset_balanced: "Balanced",
    preset_lenient: "Lenient",
    preset_custom: "Custom",
    tip_strict: "Only long, clear copies (fewer, surer hits).",
    tip_balanced: "The recommended settings.",
    tip_lenient: "Also short shared phrases (more hits, more to check).",
    advanced: "Advanced",
    tip_k: "How many words (or Chinese characters) make one fingerprint. Smaller finds shorter matches.",
    tip_w: "Out of how many fingerprints one is kept. Larger is faster but may miss short matches.",
    tip_min_chars: "Shared passages shorter than this are not reported.",
    tip_nfkc: "Treat full-width and half-width letters and digits as the same.",
    tip_case: "Treat upper and lower case as the same.",
    tip_t2s: "Treat traditional and simplified Chinese as the same.",
    tip_punct: "Punctuation does not count in matching.",
    tip_simhash: "Two documents this close in their overall wording are near duplicates (0 = identical).",
    tip_coverage: "Two documents sharing at least this share of their text are near duplicates.",
    tip_mode: "Against references: each suspect with the references. All against all: every document with every other.",
    tip_passages: "Number of shared passages.",
    tip_simhash_col: "How different the two documents are overall (0 = same wording; above 10: different texts).",
    heat_legend: "Share of the row's document found in the column's:",
    group_word: "Group",
};

pub static ZH: Tr = Tr {
    lang: Lang::Zh,
    reference: "参考文档",
    suspects: "待查文档",
    template: "模板（可选）",
    add_files: "添加文件…",
    add_folder: "添加文件夹…",
    remove: "移除",
    clear: "清空",
    drop_here: "把文件或文件夹拖到这里",
    mode: "比较方式",
    mode_refs: "待查文档对比参考文档",
    mode_all: "两两互查（全班作业）",
    settings: "设置",
    k: "k（每个 k-gram 的词元数）",
    w: "w（筛选窗口）",
    min_chars: "最短片段（字符）",
    nfkc: "Unicode NFKC（全角 = 半角）",
    case_fold: "忽略大小写",
    t2s: "繁体 = 简体",
    drop_punct: "忽略标点",
    simhash_threshold: "近似重复：SimHash 距离不超过",
    coverage: "近似重复：共同文字至少（%）",
    defaults: "恢复默认值",
    check: "检查",
    cancel: "取消",
    reading: "读取文件",
    indexing: "建立参考索引",
    matching: "比对",
    done: "完成",
    starting: "列出文件…",
    empty_hint: "在左侧添加待查文档和参考文档，或把文件拖到窗口任意位置。\n向空窗口拖入两个文件会立即比较。",
    need_suspects: "请至少添加一个待查文档。",
    need_refs: "请至少添加一个参考文档，或选择两两互查。",
    ready_hint: "点击“检查”（Ctrl+Enter）开始。",
    col_suspect: "待查文档",
    col_reference: "参考文档",
    col_score: "待查重复率",
    col_score_b: "参考重复率",
    col_simhash: "SimHash 距离",
    col_passages: "片段数",
    col_longest: "最长片段",
    filter: "按名称筛选",
    min_score: "最低 %",
    near_duplicate: "近似重复",
    no_pairs: "没有共享文字的文档对。",
    open: "打开文档对",
    open_hint: "双击一行或按回车键，左右对照查看。",
    back: "← 结果",
    prev: "↑ 上一个片段",
    next: "↓ 下一个片段",
    pair_keys: "按键：N / P 下一个 / 上一个片段，Esc 返回。点击片段显示另一侧的对应片段。",
    tab_pairs: "文档对",
    tab_heatmap: "热力图",
    tab_groups: "近似重复组",
    heatmap_hint: "每格：行文档在列文档中出现的比例。点击格子打开该文档对。",
    no_groups: "没有近似重复。",
    export: "导出",
    export_json: "导出 JSON…",
    export_csv: "导出 CSV…",
    export_html: "导出 HTML 报告…",
    problems: "问题",
    no_problems: "所有文件都已读取。",
    cancelled: "检查已取消。",
    language: "语言",
    of_suspect: "待查文档",
    of_reference: "参考文档",
    shared_sentences: "相同句子",
    files_word: "个文件",
    passage_word: "片段",
    pairs_word: "个文档对",
    unreadable: "无法读取",
    saved: "已保存",
    save_failed: "无法保存",
    doc_a: "文档 A",
    select_text: "选择文字",
    tip_select_text: "选择并复制文字（Ctrl+C）。关闭时：点击片段显示另一侧的对应片段。",
    doc_b: "文档 B",
    tip_score: "第一个文档的文字在第二个文档中出现的比例。",
    tip_score_b: "第二个文档的文字在第一个文档中出现的比例。",
    tip_longest: "共同片段的数量；最长片段的字符数。",
    swap: "← → 左右交换",
    tip_swap: "把另一个文档放到左侧。",
    review: "审阅：",
    mark_confirmed: "已确认",
    mark_dismissed: "已排除",
    mark_everywhere: "全部排除（加入停用片段列表）",
    note_hint: "此文档对的备注",
    tip_note: "你的备注，与审阅标记一起保存并显示在报告中。",
    passage_list: "片段",
    tip_passage_list: "所有共同片段：编号、类型、两侧长度、位置。点击查看。",
    tip_passage_row: "类型 · 在第一 / 第二个文档中的长度 · 在第一个文档中的位置",
    chars_word: "字",
    tab_overview: "总览",
    tip_overview: "每个文档一行：总相似度及其来源。",
    col_document: "文档",
    col_overall: "总相似度",
    tip_overall: "该文档的文字在任一其他文档中出现的比例，每个字符只计一次（已排除的片段不计）。",
    col_best: "主要来源",
    col_sources: "来源数",
    col_review: "审阅",
    exclude_source: "排除此来源",
    tip_exclude: "在重置筛选之前，隐藏该文档的所有文档对。",
    min_passage: "最短片段",
    tip_min_passage: "短于此长度（字符）的片段不计分。无需重新检查。",
    tip_min_score: "较高比例低于此值的文档对被隐藏。",
    hide_quoted: "隐藏引用",
    hide_common: "隐藏常见",
    tip_hide_kind: "在视图和报告中略去这类片段。",
    mark_filter: "审阅",
    filter_all: "全部",
    filter_unmarked: "未审阅",
    reset_filters: "重置筛选",
    excluded_word: "已排除",
    stale: "已过期：检查后输入或设置有改动。点击“检查”更新。",
    tip_stale: "下面的结果来自上一次检查。",
    time_left: "约剩",
    notes: "提示",
    tip_problems: "问题：无法读取的文件。提示：读取时有说明的文件（猜测编码、重复文件等）。",
    error_word: "错误",
    note_word: "提示",
    export_html_doc: "HTML 报告：",
    export_html_pair: "此文档对的 HTML 报告…",
    tip_export_run: "所有文档和文档对，使用窗口语言。",
    tip_export_doc: "单个文档及其来源：给一位学生。",
    tip_export_pair: "打开或选中的文档对，左右对照。",
    preset: "灵敏度",
    preset_strict: "严格",
    preset_balanced: "平衡",
    preset_lenient: "宽松",
    preset_custom: "自定义",
    tip_strict: "只报告长而明显的抄袭（结果少而确定）。",
    tip_balanced: "推荐设置。",
    tip_lenient: "也报告短的共同语句（结果多，需逐一查看）。",
    advanced: "高级",
    tip_k: "几个词（或汉字）组成一个指纹。越小越能找到短的匹配。",
    tip_w: "每多少个指纹保留一个。越大越快，但可能漏掉短的匹配。",
    tip_min_chars: "短于此长度的共同片段不报告。",
    tip_nfkc: "全角与半角字母、数字视为相同。",
    tip_case: "大小写视为相同。",
    tip_t2s: "繁体与简体中文视为相同。",
    tip_punct: "比对时不计标点。",
    tip_simhash: "整体用词如此接近的两个文档视为近似重复（0 = 完全相同）。",
    tip_coverage: "共同文字至少达到此比例的两个文档视为近似重复。",
    tip_mode: "对比参考文档：每个待查文档与参考文档比较。两两互查：每个文档与其他所有文档比较。",
    tip_passages: "共同片段的数量。",
    tip_simhash_col: "两个文档整体的差异（0 = 用词相同；大于 10：不同的文本）。",
    heat_legend: "行文档在列文档中出现的比例：",
    group_word: "组",
};

// ---------------------------------------------------------------------------------------
// The archive source (sidebar "Archive" group, its check, its errors): its own table, so
// that texts added elsewhere in this file merge without touching these.
// ---------------------------------------------------------------------------------------

impl Lang {
    /// The words of the archive source in this language.
    pub fn archive_tr(self) -> &'static ArchiveTr {
        match self {
            Lang::En => &ARCHIVE_EN,
            Lang::Zh => &ARCHIVE_ZH,
        }
    }
}

/// Every fixed text of the archive source.
pub struct ArchiveTr {
    pub title: &'static str,
    pub tip_title: &'static str,
    pub none: &'static str,
    pub open: &'static str,
    pub tip_open: &'static str,
    pub close: &'static str,
    pub tip_close: &'static str,
    pub tip_add: &'static str,
    pub tip_cancel_add: &'static str,
    pub opening: &'static str,
    pub adding: &'static str,
    pub stopping: &'static str,
    pub documents: &'static str,
    pub characters: &'static str,
    pub on_disk: &'static str,
    pub tip_stats: &'static str,
    pub added: &'static str,
    pub replaced: &'static str,
    pub unchanged: &'static str,
    pub failed: &'static str,
    pub skipped: &'static str,
    pub stopped: &'static str,
    pub in_use: &'static str,
    pub not_in_use: &'static str,
    pub marks_here: &'static str,
    pub tip_marks_here: &'static str,
    /// "{k}" and "{w}" are replaced by the archive's values.
    pub made_with: &'static str,
    pub source_archive: &'static str,
    pub tip_source_archive: &'static str,
    pub tip_source_needs_archive: &'static str,
    pub list_unused: &'static str,
    pub need_open_archive: &'static str,
    pub wait_for_add: &'static str,
    pub wait_for_check: &'static str,
    pub check_against: &'static str,
    pub check_failed: &'static str,
}

impl ArchiveTr {
    /// The note on an archive made with other fingerprint settings than the window's.
    pub fn made_with(&self, k: usize, w: usize) -> String {
        self.made_with.replace("{k}", &k.to_string()).replace("{w}", &w.to_string())
    }
}

pub static ARCHIVE_EN: ArchiveTr = ArchiveTr {
    title: "Archive",
    tip_title: "Documents read and fingerprinted once and kept in a folder: new suspects are checked against all of them without reading them again.",
    none: "No archive open.",
    open: "Open or create…",
    tip_open: "Pick an archive folder, or an empty folder to start a new archive. The command line (twinspot archive) can use the same archive at the same time.",
    close: "Close",
    tip_close: "Stop using this archive in the window. Nothing is deleted.",
    tip_add: "Read these documents once and keep them in the archive. A file already archived is skipped; a changed file replaces its older version.",
    tip_cancel_add: "Stop adding: the documents of the batches already written stay in the archive.",
    opening: "Opening the archive…",
    adding: "Adding to the archive",
    stopping: "Stopping after the current batch…",
    documents: "documents",
    characters: "characters",
    on_disk: "on disk",
    tip_stats: "Documents in the archive, their characters, and the archive's size on disk.",
    added: "added",
    replaced: "replaced",
    unchanged: "unchanged",
    failed: "could not be read",
    skipped: "passed over",
    stopped: "stopped",
    in_use: "In use: the suspects are checked against this archive.",
    not_in_use: "Not used by the check: choose “Suspects against the archive” below.",
    marks_here: "Review marks are kept in the archive folder.",
    tip_marks_here: "While the check uses this archive, confirmed and dismissed passages and notes are saved in its folder (twinspot-review.json).",
    made_with: "Made with k = {k}, w = {w}: checks against it use these, not the settings below.",
    source_archive: "Suspects against the archive",
    tip_source_archive: "Each suspect with every archived document. The reference and template lists are not used.",
    tip_source_needs_archive: "Open or create an archive in the Archive group first.",
    list_unused: "Not used: the suspects are checked against the archive.",
    need_open_archive: "Open the archive first, or compare against references.",
    wait_for_add: "Wait until the documents are added to the archive.",
    wait_for_check: "Wait until the check finishes.",
    check_against: "Check against the archive",
    check_failed: "The check did not finish",
};

pub static ARCHIVE_ZH: ArchiveTr = ArchiveTr {
    title: "文档库",
    tip_title: "文档只需读取并生成指纹一次，保存在一个文件夹中：新的待查文档与其中所有文档比对，无需再次读取。",
    none: "未打开文档库。",
    open: "打开或新建…",
    tip_open: "选择一个文档库文件夹，或选择一个空文件夹来新建文档库。命令行（twinspot archive）可以同时使用同一个文档库。",
    close: "关闭",
    tip_close: "在窗口中停止使用此文档库。不会删除任何内容。",
    tip_add: "读取这些文档一次并保存到文档库。已收录的文件会跳过；内容有改动的文件替换旧版本。",
    tip_cancel_add: "停止添加：已写入的批次中的文档仍保留在文档库中。",
    opening: "正在打开文档库…",
    adding: "正在添加到文档库",
    stopping: "当前批次完成后停止…",
    documents: "个文档",
    characters: "字",
    on_disk: "占用磁盘",
    tip_stats: "文档库中的文档数、总字数以及文档库占用的磁盘空间。",
    added: "已添加",
    replaced: "已替换",
    unchanged: "未改动",
    failed: "无法读取",
    skipped: "已略过",
    stopped: "已停止",
    in_use: "使用中：待查文档将与此文档库比对。",
    not_in_use: "检查未使用此文档库：请在下方选择“待查文档对比文档库”。",
    marks_here: "审阅标记保存在文档库文件夹中。",
    tip_marks_here: "检查使用此文档库时，已确认、已排除的片段和备注保存在其文件夹中（twinspot-review.json）。",
    made_with: "建库设置为 k = {k}、w = {w}：与它比对时使用这些设置，而非下方的设置。",
    source_archive: "待查文档对比文档库",
    tip_source_archive: "每个待查文档与文档库中的所有文档比对。不使用参考文档和模板列表。",
    tip_source_needs_archive: "请先在“文档库”中打开或新建文档库。",
    list_unused: "未使用：待查文档将与文档库比对。",
    need_open_archive: "请先打开文档库，或改为对比参考文档。",
    wait_for_add: "请等待文档添加到文档库完成。",
    wait_for_check: "请等待检查完成。",
    check_against: "对比文档库检查",
    check_failed: "检查未完成",
};

// ---------------------------------------------------------------------------------------
// Engine messages (issue 10): the notices and read errors of a report, in the window's
// language. The English text is the report's own (`Display`); the Chinese one says the
// same, with technical details (encoding names, library messages) kept as they are.
// ---------------------------------------------------------------------------------------

impl Lang {
    /// A finding about a document (look-alike letters, hidden text, …), in this language.
    pub fn flag(self, flag: &crate::normalize::flags::Flag) -> String {
        match self {
            Lang::En => flag.to_string(),
            Lang::Zh => flag.zh(),
        }
    }

    /// A document's notice, in this language.
    pub fn notice(self, notice: &Notice) -> String {
        match self {
            Lang::En => notice.to_string(),
            Lang::Zh => notice_zh(notice),
        }
    }

    /// Why a document could not be read, in this language, without the path (the panel
    /// shows the path once, beside it).
    pub fn doc_error(self, error: &DocError, path: &str) -> String {
        match (self, error) {
            (Lang::Zh, DocError::Read(e)) => ingest_error_zh(e),
            _ => without_path(&error.to_string(), path).to_string(),
        }
    }
}

impl Lang {
    /// Why a path was passed over, in this language.
    pub fn skip_reason(self, reason: &SkipReason) -> String {
        match self {
            Lang::En => reason.to_string(),
            Lang::Zh => skip_reason_zh(reason),
        }
    }
}

fn skip_reason_zh(reason: &SkipReason) -> String {
    match reason {
        SkipReason::BrokenLink => "链接已失效（目标不存在）".to_string(),
        SkipReason::BothRoles => "同时作为待查文档和参考文档：只读取一次，不与自身比较".to_string(),
        SkipReason::BothRolesMany { count } => format!(
            "{count} 个文件（此文件及另外 {} 个）同时作为待查文档和参考文档：各读取一次，与其他文档比较，不与自身比较",
            count - 1
        ),
        SkipReason::SameFileAs { taken } => format!("与 {taken} 是同一个文件：只读取一次"),
        SkipReason::GivenTwiceMany { count } => {
            format!("{count} 个文件（此文件及另外 {} 个）被重复给出：各读取一次", count - 1)
        }
        SkipReason::Unsupported { count, extensions } => {
            format!("所给文件夹中有 {count} 个文件不是支持的格式（{extensions}），未读取")
        }
        SkipReason::OwnReport => "Twinspot 生成的报告，不是文档：未读取".to_string(),
        SkipReason::TooDeep { max } => format!("文件夹嵌套超过 {max} 层：未读取"),
        SkipReason::CannotOpenFolder { detail } => format!("无法打开文件夹：{detail}"),
        SkipReason::LinkBack { folder } => format!("指回已读取文件夹（{folder}）的链接：已跳过"),
        SkipReason::CannotListFolder { detail } => format!("无法列出文件夹内容：{detail}"),
        SkipReason::UnreadableEntry { detail } => format!("文件夹中的某一项无法读取：{detail}"),
        SkipReason::CannotRead { detail } => format!("无法读取：{detail}"),
    }
}

/// A message without the path the engine appends to it ("what is wrong: path").
pub fn without_path<'a>(message: &'a str, path: &str) -> &'a str {
    message.strip_suffix(path).map_or(message, |m| m.trim_end().trim_end_matches(':'))
}

fn format_zh(format: Format) -> String {
    match format {
        Format::Text => "文本".to_string(),
        other => other.to_string(),
    }
}

fn notice_zh(notice: &Notice) -> String {
    match notice {
        Notice::DecodedAs { encoding } => format!("按 {encoding} 编码解码"),
        Notice::BytesReplaced { count, encoding } => format!("按 {encoding} 解码时替换了 {count} 处错误字节"),
        Notice::NoText => "未找到文字".to_string(),
        Notice::NoTextInPdf => "未找到文字（扫描版 PDF？Twinspot 不做文字识别）".to_string(),
        Notice::NoWords => "没有可比较的词（只有标点、符号或空白）".to_string(),
        Notice::NamedOtherwise { ext, format } => {
            let format = format_zh(*format);
            format!("扩展名为 .{ext}，内容却是 {format}；按 {format} 读取")
        }
        Notice::PdfPageFallback { page, why } => {
            format!("第 {page} 页：pdf-extract 失败（{why}），改用较简单的 lopdf 提取器")
        }
        Notice::PartSkipped { part, reason } => format!("跳过了 {part}（XML 格式错误：{reason}）"),
        Notice::IdenticalTo { path, through: true } => format!("与 {path} 完全相同（字节一致）：只通过它比较一次"),
        Notice::IdenticalTo { path, through: false } => format!("与 {path} 完全相同（字节一致）"),
        Notice::PrefixCompared { compared, chars, max } => {
            format!("只比较了全部 {chars} 个字符中的前 {compared} 个：一个文档最多比较 {max} 个规范化字符")
        }
        Notice::PairsLeftOut { left_out, max, kept } => format!(
            "另有 {left_out} 个有共同文字的文档对未列出：报告最多保留 {max} 个文档对，每个文档保留最接近的 {kept} 个"
        ),
        Notice::Flag(flag) => flag.zh(),
        Notice::Other(text) => text.clone(),
    }
}

fn ingest_error_zh(error: &IngestError) -> String {
    match error {
        IngestError::Io { source, .. } => format!("无法读取文件（{source}）"),
        IngestError::NotFound { .. } => "文件不存在".to_string(),
        IngestError::BrokenLink { .. } => "链接已失效（目标不存在）".to_string(),
        IngestError::NotAFile { kind, .. } => format!("不是普通文件（{kind}）"),
        IngestError::Empty { .. } => "空文件（0 字节）".to_string(),
        IngestError::TooLarge { bytes, limit, .. } => format!("文件过大（{bytes} 字节，上限 {limit}）"),
        IngestError::Undecodable { reason, .. } => format!("无法作为文本读取（{reason}）"),
        IngestError::Binary { what, .. } => format!("二进制文件，不是文档（{what}）"),
        IngestError::Unsupported { what, .. } => format!("不支持的格式（{what}）"),
        IngestError::Corrupt { format, reason, .. } => format!("{} 文件已损坏（{reason}）", format_zh(*format)),
        IngestError::Encrypted { format, .. } => format!("{} 文件已加密（有密码保护，无法读取）", format_zh(*format)),
        IngestError::ArchiveTooLarge { format, reason, .. } => {
            format!("{} 压缩包超出限制（{reason}；可能是压缩炸弹）", format_zh(*format))
        }
        IngestError::Panicked { format, message, .. } => {
            format!("{} 提取器在此文件上崩溃（{message}）", format_zh(*format))
        }
        IngestError::TimedOut { secs, .. } => format!("提取超过 {secs} 秒，已放弃"),
        IngestError::OutOfMemory { format, limit_mb, .. } => {
            format!("读取 {} 时内存不足（上限 {limit_mb} MB，已停止）", format_zh(*format))
        }
    }
}

// --------------------------------- end of engine messages ------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_have_every_text() {
        assert_eq!(Lang::En.tr().check, "Check");
        assert_eq!(Lang::Zh.tr().check, "检查");
        assert_eq!(Lang::En.archive_tr().title, "Archive");
        assert_eq!(
            Lang::Zh.archive_tr().made_with(8, 4),
            "建库设置为 k = 8、w = 4：与它比对时使用这些设置，而非下方的设置。"
        );
    }

    #[test]
    fn engine_messages_follow_the_language_and_english_is_the_report_text() {
        let empty = DocError::from(IngestError::Empty { path: "a/e.txt".into() });
        assert_eq!(Lang::En.doc_error(&empty, "a/e.txt"), "empty file (0 bytes)");
        assert_eq!(Lang::Zh.doc_error(&empty, "a/e.txt"), "空文件（0 字节）");
        assert_eq!(Lang::Zh.notice(&Notice::DecodedAs { encoding: "GBK".into() }), "按 GBK 编码解码");
        assert_eq!(Lang::En.notice(&Notice::NoText), "no text found");
        assert_eq!(without_path("decoded as GBK", "x.txt"), "decoded as GBK");
    }
}
