//! The engine's messages in the report's languages: a document's notices, why it could not
//! be read, why a path was passed over. The English text is each message's own (`Display`,
//! what the JSON and stderr say); the Chinese one says the same, with technical details
//! (encoding names, library messages) kept as they are. The HTML report and the window
//! both speak through here, so neither needs the other.

use super::words::ReportLang;
use crate::model::{DocError, Format, IngestError, Language, Notice, SkipReason};

impl ReportLang {
    /// A document's notice, in this language.
    pub fn notice(self, notice: &Notice) -> String {
        match self {
            Self::En => notice.to_string(),
            Self::Zh => notice_zh(notice),
        }
    }

    /// Why a document could not be read, in this language, without the path (shown
    /// beside it).
    pub fn doc_error(self, error: &DocError, path: &str) -> String {
        match (self, error) {
            (Self::Zh, DocError::Read(e)) => ingest_error_zh(e),
            _ => without_path(&error.to_string(), path).to_string(),
        }
    }

    /// Why a path was passed over, in this language.
    pub fn skip_reason(self, reason: &SkipReason) -> String {
        match self {
            Self::En => reason.to_string(),
            Self::Zh => skip_reason_zh(reason),
        }
    }
}

fn skip_reason_zh(reason: &SkipReason) -> String {
    match reason {
        SkipReason::BrokenLink => "链接已失效（目标不存在）".to_string(),
        SkipReason::LinkLoop => "循环链接（最终指回自身）：已跳过".to_string(),
        SkipReason::LinkAbove { folder } => format!("指向上级文件夹（{folder}）的链接：已跳过"),
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
        SkipReason::Receipts { count } => {
            format!("压缩包中有 {count} 份 Blackboard 提交回执（每次提交一份，不是作业）：未读取")
        }
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
        Notice::Flag(flag) => flag.zh(),
        Notice::NoTextInPdf => "未找到文字（扫描版 PDF？Twinspot 不做文字识别）".to_string(),
        Notice::ScannedPdf { pages } => format!("{pages} 页是带文字层（OCR）的扫描件：比对的是文字层"),
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
        Notice::StoredCut { documents, max } => {
            format!("档案库中有 {documents} 个文档超过 {max} 个字符，只比较了前 {max} 个：抄自其后部分的文字查不到")
        }
        Notice::PairsLeftOut { left_out, max, kept } => format!(
            "另有 {left_out} 个有共同文字的文档对未列出：报告最多保留 {max} 个文档对，每个文档保留最接近的 {kept} 个"
        ),
        Notice::OtherLanguages { references } => {
            let each: Vec<String> = references
                .iter()
                .map(|(language, count)| {
                    let what = match language {
                        Language::Chinese => "中文",
                        Language::Latin => "拉丁字母文字（英文等）",
                        Language::Other => "其他文字",
                    };
                    format!("{count} 个参考文档是{what}")
                })
                .collect();
            format!("只在同一语言内比较：{}；跨语言的抄袭（翻译）无法发现", each.join("，"))
        }
        Notice::MeaningOff { reason } => format!("未做跨语言比对：语义层不可用（{reason}）"),
        Notice::MeaningCut { max } => format!("只在其前 {max} 个字符中查找翻译段落"),
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
        IngestError::BadZip { reason, .. } => format!("无法读取的作业压缩包（{reason}）"),
        IngestError::Panicked { format, message, .. } => {
            format!("{} 提取器在此文件上崩溃（{message}）", format_zh(*format))
        }
        IngestError::TimedOut { secs, .. } => format!("提取超过 {secs} 秒，已放弃"),
        IngestError::OutOfMemory { format, limit_mb, .. } => {
            format!("读取 {} 时内存不足（上限 {limit_mb} MB，已停止）", format_zh(*format))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_messages_follow_the_language_and_english_is_the_report_text() {
        let empty = DocError::from(IngestError::Empty { path: "a/e.txt".into() });
        assert_eq!(ReportLang::En.doc_error(&empty, "a/e.txt"), "empty file (0 bytes)");
        assert_eq!(ReportLang::Zh.doc_error(&empty, "a/e.txt"), "空文件（0 字节）");
        assert_eq!(ReportLang::Zh.notice(&Notice::DecodedAs { encoding: "GBK".into() }), "按 GBK 编码解码");
        assert_eq!(ReportLang::En.notice(&Notice::NoText), "no text found");
        let other = Notice::OtherLanguages { references: vec![(Language::Latin, 4)] };
        assert_eq!(
            ReportLang::Zh.notice(&other),
            "只在同一语言内比较：4 个参考文档是拉丁字母文字（英文等）；跨语言的抄袭（翻译）无法发现"
        );
        assert_eq!(without_path("decoded as GBK", "x.txt"), "decoded as GBK");
    }
}
