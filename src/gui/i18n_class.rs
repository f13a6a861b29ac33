//! The words of a class's check in English and 简体中文: classmates mode, which source is a
//! classmate and which a reference, whose results are shown (which check, which
//! settings), students with no shared text, the collapsible sidebar and the archive's
//! own groups. A table of its own, so that texts added to `i18n` merge without touching
//! these.

use super::i18n::Lang;

impl Lang {
    /// The words of a class's check in this language.
    pub fn class_tr(self) -> &'static ClassTr {
        match self {
            Lang::En => &CLASS_EN,
            Lang::Zh => &CLASS_ZH,
        }
    }
}

/// Every fixed text of a class's check.
pub struct ClassTr {
    pub mode_classmates: &'static str,
    pub tip_mode_classmates: &'static str,
    /// A source that is another suspect of the check.
    pub classmate: &'static str,
    /// A source from the reference list.
    pub reference: &'static str,
    pub col_student: &'static str,
    pub col_source: &'static str,
    pub of_student: &'static str,
    pub of_source: &'static str,
    pub col_share_source: &'static str,
    pub title_classmate: &'static str,
    pub title_reference: &'static str,
    /// "{p}" is how far into the suspect's text a passage starts, in percent.
    pub at_percent: &'static str,
    pub tip_at_percent: &'static str,
    /// "{n}" is the check's number, "{mode}" its mode, "{docs}" its documents.
    pub results_of: &'static str,
    pub tip_results_of: &'static str,
    /// After a cancelled check: "{n}" is the cancelled check's number.
    pub cancelled_kept: &'static str,
    pub no_shared: &'static str,
    /// "{n}" is how many students share no text.
    pub students_without: &'static str,
    pub tip_students_without: &'static str,
    pub hide_sidebar: &'static str,
    pub show_sidebar: &'static str,
    pub tip_sidebar: &'static str,
    pub archive_groups: &'static str,
    pub tip_archive_groups: &'static str,
    pub no_archive_groups: &'static str,
    pub mode_refs_short: &'static str,
    pub mode_all_short: &'static str,
    pub mode_archive_short: &'static str,
}

impl ClassTr {
    /// The line saying which check the shown results come from.
    pub fn results_of(&self, n: u64, mode: &str, docs: usize) -> String {
        self.results_of.replace("{n}", &n.to_string()).replace("{mode}", mode).replace("{docs}", &docs.to_string())
    }

    /// The note that a cancelled check left the earlier results on screen.
    pub fn cancelled_kept(&self, n: u64) -> String {
        self.cancelled_kept.replace("{n}", &n.to_string())
    }

    /// The line counting the students with no shared text.
    pub fn students_without(&self, n: usize) -> String {
        self.students_without.replace("{n}", &n.to_string())
    }
}

pub static CLASS_EN: ClassTr = ClassTr {
    mode_classmates: "Classmates and references",
    tip_mode_classmates: "Each suspect against every other suspect (its classmates) and against every reference, in one check; references are never compared with each other. The default when both lists are filled.",
    classmate: "classmate",
    reference: "reference",
    col_student: "Student",
    col_source: "Source",
    of_student: "of the student",
    of_source: "of the source",
    col_share_source: "% of source",
    title_classmate: "Classmate",
    title_reference: "Reference",
    at_percent: "at {p} %",
    tip_at_percent: "Where the passage starts in the suspect's text: 0 % at its beginning, 100 % at its end.",
    results_of: "Results of check {n} · {mode} · {docs} documents",
    tip_results_of: "The inputs, mode and settings of this check are those it ran with; the banner above says when they have changed since.",
    cancelled_kept: "Check {n} was cancelled: these are still the earlier results.",
    no_shared: "no shared text found",
    students_without: "{n} with no shared text found (listed in the overview)",
    tip_students_without: "Checked documents that share no text with any other: a result, not an omission.",
    hide_sidebar: "◀ Hide lists",
    show_sidebar: "▶ Show lists",
    tip_sidebar: "Hides or shows the lists and settings, to give the texts more room (Ctrl+B).",
    archive_groups: "Archive near-duplicate groups",
    tip_archive_groups: "Documents of the archive that are near duplicates of each other, grouped as they were added.",
    no_archive_groups: "No two documents of the archive are near duplicates.",
    mode_refs_short: "suspects against references",
    mode_all_short: "all against all",
    mode_archive_short: "suspects against the archive",
};

pub static CLASS_ZH: ClassTr = ClassTr {
    mode_classmates: "同学互查并对比参考文档",
    tip_mode_classmates: "一次检查中，每份待查文档既与其他待查文档（同学作业）对比，也与每份参考文档对比；参考文档之间不互相对比。两个列表都有文件时默认使用此方式。",
    classmate: "同学",
    reference: "参考文档",
    col_student: "学生文档",
    col_source: "来源",
    of_student: "占学生文档",
    of_source: "占来源",
    col_share_source: "占来源 %",
    title_classmate: "同学作业",
    title_reference: "参考文档",
    at_percent: "位于 {p} %",
    tip_at_percent: "该段落在待查文档中的起始位置：0 % 为开头，100 % 为结尾。",
    results_of: "第 {n} 次检查的结果 · {mode} · {docs} 份文档",
    tip_results_of: "此结果对应该次检查时的输入、方式和设置；之后若有改动，上方会提示结果已过期。",
    cancelled_kept: "第 {n} 次检查已取消：此处仍是之前的结果。",
    no_shared: "未发现相同文字",
    students_without: "{n} 份未发现相同文字（见概览）",
    tip_students_without: "与其他文档没有相同文字的已查文档：这也是一个结果，并非遗漏。",
    hide_sidebar: "◀ 隐藏列表",
    show_sidebar: "▶ 显示列表",
    tip_sidebar: "隐藏或显示文件列表和设置，为文本留出更多空间（Ctrl+B）。",
    archive_groups: "档案库近似重复组",
    tip_archive_groups: "档案库中彼此近似重复的文档，按加入时的分组列出。",
    no_archive_groups: "档案库中没有彼此近似重复的文档。",
    mode_refs_short: "待查文档对比参考文档",
    mode_all_short: "两两互查",
    mode_archive_short: "待查文档对比档案库",
};
