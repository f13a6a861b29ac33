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
    pub confirm: &'static str,
    pub tip_confirm: &'static str,
    pub dismiss: &'static str,
    pub tip_dismiss: &'static str,
    pub dismiss_everywhere: &'static str,
    pub tip_everywhere: &'static str,
    /// Dialog titles; "{list}" is the list's name.
    pub dialog_add_files: &'static str,
    pub dialog_add_folder: &'static str,
    pub dialog_open_archive: &'static str,
    pub dialog_add_to_archive: &'static str,
    pub dialog_save_check: &'static str,
    pub dialog_open_check: &'static str,
    pub check_menu: &'static str,
    pub save_check: &'static str,
    pub open_check: &'static str,
    pub tip_check_menu: &'static str,
    pub saved_check: &'static str,
    pub shortcuts: &'static str,
    /// (keys, what they do), in the sheet's order.
    pub shortcut_rows: [(&'static str, &'static str); 11],
    pub close: &'static str,
    /// A count of files and of folders, singular and plural ("{n}" the number), and
    /// "{files}" in "{folders}" joining them.
    pub one_file: &'static str,
    pub many_files: &'static str,
    pub one_folder: &'static str,
    pub many_folders: &'static str,
    pub files_in: &'static str,
    /// "1 pair", "{n} pairs".
    pub one_pair: &'static str,
    pub many_pairs: &'static str,
    /// The heat map of "{n}" documents is not drawn (more than "{max}").
    pub heatmap_too_large: &'static str,
    pub show_groups: &'static str,
    pub show_pairs: &'static str,
    pub find: &'static str,
    pub tip_find: &'static str,
    /// "{i}" of "{n}" matches.
    pub find_count: &'static str,
    pub no_match: &'static str,
    pub count_quoted: &'static str,
    pub tip_count_quoted: &'static str,
    pub meaning: &'static str,
    pub tip_meaning: &'static str,
    pub stop_passages: &'static str,
    pub tip_stop_passages: &'static str,
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
    /// The tip of a file's link in an archive group.
    pub tip_archive_member: &'static str,
    /// A file's times in the pair view: modified, and a .docx's created and saved.
    pub date_modified: &'static str,
    pub date_created: &'static str,
    pub date_saved: &'static str,
    /// "{name} came first" (by its .docx creation or file time).
    pub came_first: &'static str,
    pub tip_came_first: &'static str,
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

    /// "1 file", "30 files".
    pub fn files(&self, n: usize) -> String {
        counted(n, self.one_file, self.many_files)
    }

    /// "1 pair", "54 pairs".
    pub fn pairs(&self, n: usize) -> String {
        counted(n, self.one_pair, self.many_pairs)
    }

    /// "30 files", "30 files in 1 folder", "30 files in 2 folders".
    pub fn files_in_folders(&self, files: usize, folders: usize) -> String {
        let files = self.files(files);
        if folders == 0 {
            return files;
        }
        self.files_in
            .replace("{files}", &files)
            .replace("{folders}", &counted(folders, self.one_folder, self.many_folders))
    }

    /// The line counting the students with no shared text.
    pub fn students_without(&self, n: usize) -> String {
        self.students_without.replace("{n}", &n.to_string())
    }
}

/// `one` for 1, else `many` with "{n}" replaced by `n`.
fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 { one.to_owned() } else { many.replace("{n}", &n.to_string()) }
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
    confirm: "Confirm",
    tip_confirm: "Confirm: this passage is copied text (it counts in the scores).",
    dismiss: "Dismiss",
    tip_dismiss: "Dismiss: not a copy (shared template, citation, common phrase); it leaves the scores of this pair.",
    dismiss_everywhere: "Dismiss everywhere",
    dialog_add_files: "Add files to {list}",
    dialog_add_folder: "Add a folder to {list}",
    dialog_open_archive: "Open or create an archive (a folder)",
    dialog_add_to_archive: "Add to the archive",
    dialog_save_check: "Save this check as",
    dialog_open_check: "Open a saved check",
    check_menu: "Saved checks",
    save_check: "Save check as…",
    open_check: "Open check…",
    tip_check_menu: "Keep this check's lists, mode and settings under a name (\"Class 3B, essay 2\") and open it again later.",
    saved_check: "Check",
    shortcuts: "Keyboard shortcuts",
    shortcut_rows: [
        ("Ctrl+Enter", "Check"),
        ("Esc", "Cancel the check; close the pair"),
        ("Ctrl+B", "Hide or show the lists"),
        ("↑ ↓", "Move in the overview or the pairs table"),
        ("Enter", "Open the selected pair (or the selected student's sources)"),
        ("N / F3", "Next passage"),
        ("P / Shift+F3", "Previous passage"),
        ("Ctrl+F", "Find in the texts of the pair"),
        ("Ctrl+S", "Save check as…"),
        ("Ctrl+O", "Open check…"),
        ("F1", "This sheet"),
    ],
    close: "Close",
    one_file: "1 file",
    many_files: "{n} files",
    one_folder: "1 folder",
    many_folders: "{n} folders",
    files_in: "{files} in {folders}",
    one_pair: "1 pair",
    many_pairs: "{n} pairs",
    heatmap_too_large: "This check has {n} documents: a heat map of more than {max} would be too small to read, so it is not drawn. The near-duplicate groups show the clusters of documents that share text; the pairs table lists every pair.",
    show_groups: "Show the groups",
    show_pairs: "Show the pairs",
    find: "Find",
    tip_find: "Finds this text in both documents of the pair (Ctrl+F; Enter: next).",
    find_count: "{i} of {n}",
    no_match: "not found",
    count_quoted: "Count quoted text in the scores",
    tip_count_quoted: "Off: text in quotation marks or marked as a citation is shown (blue) but not counted. On: it counts like any shared text.",
    meaning: "Find passages translated between Chinese and English",
    tip_meaning: "On: a Chinese document is also compared with English references by meaning (and the other way round), with a sentence encoder and a dictionary that ship with Twinspot; nothing leaves this computer. A check whose documents are all in one language is not slowed. Not used against an archive.",
    stop_passages: "Stop passages",
    tip_stop_passages: "Text never counted as shared (a standard heading, the school's honour statement): one passage a line. Passages dismissed everywhere join these at each check.",
    tip_everywhere: "Dismiss everywhere: this passage leaves every pair, in this check and the next ones (it joins the stop-passage list).",
    results_of: "Results of check {n} · {mode} · {docs} documents",
    tip_results_of: "The inputs, mode and settings of this check are those it ran with; the banner above says when they have changed since.",
    cancelled_kept: "Check {n} was cancelled: these are still the earlier results.",
    no_shared: "no shared text found",
    students_without: "{n} with no shared text found (listed in the overview)",
    tip_students_without: "Checked documents that share no text with any other: a result, not an omission.",
    hide_sidebar: "« Hide lists",
    show_sidebar: "» Show lists",
    tip_sidebar: "Hides or shows the lists and settings, to give the texts more room (Ctrl+B).",
    archive_groups: "Archive near-duplicate groups",
    tip_archive_groups: "Documents of the archive that are near duplicates of each other, grouped as they were added.",
    tip_archive_member: "Click: show the pairs this file is in.",
    date_modified: "modified",
    date_created: "created",
    date_saved: "saved",
    came_first: "{name} was written first",
    tip_came_first: "By the .docx's creation time where both have one, else by the file's modified time (or the time the zip records). A date can be changed by copying or re-saving a file: a hint, not proof.",
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
    confirm: "确认",
    tip_confirm: "确认：此段落是相同文字（计入分数）。",
    dismiss: "排除",
    tip_dismiss: "排除：不算作相同文字（共用模板、引文、常用语）；不再计入此文档对的分数。",
    dismiss_everywhere: "全部排除",
    dialog_add_files: "添加文件到{list}",
    dialog_add_folder: "添加文件夹到{list}",
    dialog_open_archive: "打开或新建档案库（一个文件夹）",
    dialog_add_to_archive: "添加到档案库",
    dialog_save_check: "将此检查另存为",
    dialog_open_check: "打开已保存的检查",
    check_menu: "已存检查",
    save_check: "另存检查…",
    open_check: "打开检查…",
    tip_check_menu: "以名称（如“三年级二班 作文二”）保存此检查的列表、方式和设置，以后再打开。",
    saved_check: "检查",
    shortcuts: "键盘快捷键",
    shortcut_rows: [
        ("Ctrl+Enter", "检查"),
        ("Esc", "取消检查；关闭文档对"),
        ("Ctrl+B", "隐藏或显示列表"),
        ("↑ ↓", "在概览或文档对表格中移动"),
        ("Enter", "打开所选文档对（或所选学生的来源）"),
        ("N / F3", "下一段落"),
        ("P / Shift+F3", "上一段落"),
        ("Ctrl+F", "在文档对的文本中查找"),
        ("Ctrl+S", "另存检查…"),
        ("Ctrl+O", "打开检查…"),
        ("F1", "本页"),
    ],
    close: "关闭",
    one_file: "1 个文件",
    many_files: "{n} 个文件",
    one_folder: "1 个文件夹",
    many_folders: "{n} 个文件夹",
    files_in: "{files}，来自 {folders}",
    one_pair: "1 个文档对",
    many_pairs: "{n} 个文档对",
    heatmap_too_large: "本次检查有 {n} 个文档：超过 {max} 个文档的热力图太小，无法阅读，因此不绘制。近似重复组列出共享文本的文档群组；文档对表格列出每一对。",
    show_groups: "查看近似重复组",
    show_pairs: "查看文档对",
    find: "查找",
    tip_find: "在文档对的两份文本中查找此文字（Ctrl+F；回车：下一个）。",
    find_count: "第 {i} 个，共 {n} 个",
    no_match: "未找到",
    count_quoted: "引用文字计入分数",
    tip_count_quoted: "关闭：引号内或标为引文的文字会显示（蓝色）但不计分。开启：与其他相同文字一样计分。",
    meaning: "查找中英文之间的翻译段落",
    tip_meaning: "开启：中文文档也会按意思与英文参考文档比对（反之亦然），使用随 Twinspot 附带的句子编码器和词典，不会把任何内容传出本机。所有文档都是同一种语言时不会变慢。对照存档检查时不使用。",
    stop_passages: "停用片段",
    tip_stop_passages: "从不计为相同文字的内容（固定标题、学校的诚信声明）：每行一段。每次检查时，“全部排除”的段落也会加入。",
    tip_everywhere: "全部排除：此段落不再计入任何文档对，本次及以后的检查都是如此（加入停用片段列表）。",
    results_of: "第 {n} 次检查的结果 · {mode} · {docs} 份文档",
    tip_results_of: "此结果对应该次检查时的输入、方式和设置；之后若有改动，上方会提示结果已过期。",
    cancelled_kept: "第 {n} 次检查已取消：此处仍是之前的结果。",
    no_shared: "未发现相同文字",
    students_without: "{n} 份未发现相同文字（见概览）",
    tip_students_without: "与其他文档没有相同文字的已查文档：这也是一个结果，并非遗漏。",
    hide_sidebar: "« 隐藏列表",
    show_sidebar: "» 显示列表",
    tip_sidebar: "隐藏或显示文件列表和设置，为文本留出更多空间（Ctrl+B）。",
    archive_groups: "档案库近似重复组",
    tip_archive_groups: "档案库中彼此近似重复的文档，按加入时的分组列出。",
    tip_archive_member: "单击：显示此文件所在的文档对。",
    date_modified: "修改",
    date_created: "创建",
    date_saved: "保存",
    came_first: "{name} 写得更早",
    tip_came_first: "按 .docx 的创建时间（双方都有时），否则按文件的修改时间（或压缩包记录的时间）。复制或重新保存文件会改变日期：仅供参考，不是证据。",
    no_archive_groups: "档案库中没有彼此近似重复的文档。",
    mode_refs_short: "待查文档对比参考文档",
    mode_all_short: "两两互查",
    mode_archive_short: "待查文档对比档案库",
};
