//! When a submission was written, as its file says: the file's modified time (for a file
//! inside a zip of submissions, the time the zip records for it), and for a .docx the
//! created and last-saved times Word keeps in `docProps/core.xml`. Read on demand (the
//! window's pair view), bounded, never failing: a time that cannot be read is `None`.
//! All times are `YYYY-MM-DD HH:MM` so that they sort as text; file times are UTC, a
//! zip's are the zip's local time, as it records them.

use std::io::{Cursor, Read, Seek};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use super::IngestLimits;
use super::open_zips::OpenZips;
use super::zip_members::{list_zip, read_member};

/// The most of `docProps/core.xml` read: the part is a few hundred bytes.
const MAX_CORE_XML: u64 = 256 * 1024;

/// A document's times; each `None` when the file does not record it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileDates {
    /// The file's last change on disk, or in the zip it came in.
    pub modified: Option<String>,
    /// A .docx's creation time (`dcterms:created`).
    pub created: Option<String>,
    /// A .docx's last save (`dcterms:modified`).
    pub saved: Option<String>,
}

impl FileDates {
    /// The time that says best when the text was written: the .docx's creation, else
    /// its file's modified time.
    pub fn written(&self) -> Option<&str> {
        self.created.as_deref().or(self.modified.as_deref())
    }
}

/// Which of two documents was written first, by [`FileDates::written`]: `Some(true)`
/// when `a` came first, `Some(false)` when `b` did, `None` when a time is missing or
/// both are the same minute.
pub fn a_came_first(a: &FileDates, b: &FileDates) -> Option<bool> {
    let (a, b) = (a.written()?, b.written()?);
    (a != b).then_some(a < b)
}

/// The times of the document read from `source` (a file, or `x.zip/member` for a file
/// inside a zip of submissions).
pub fn file_dates(source: &Path) -> FileDates {
    match std::fs::metadata(source) {
        Ok(meta) if meta.is_file() => {
            let modified = meta.modified().ok().map(utc_minute);
            let docx = is_docx(source).then(|| std::fs::File::open(source).ok()).flatten();
            FileDates { modified, ..docx.map(docx_dates).unwrap_or_default() }
        }
        _ => zip_member_dates(source).unwrap_or_default(),
    }
}

fn is_docx(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("docx"))
}

/// The times of a file inside a zip: the zip (an ancestor of `source` that is a file)
/// gives the member's time and, for a .docx, its bytes.
fn zip_member_dates(source: &Path) -> Option<FileDates> {
    let zip = source.ancestors().skip(1).find(|p| p.is_file())?;
    // The inverse of `ZipMember::path_in`: the member's name as stored.
    let name = source.strip_prefix(zip).ok()?.to_string_lossy().into_owned();
    let limits = IngestLimits::default();
    let member = list_zip(zip, &limits).ok()?.into_iter().find(|m| m.name == name)?;
    let inner = if is_docx(source) {
        read_member(&OpenZips::default(), zip, &member, &limits).ok().map(|b| docx_dates(Cursor::new(b))).unwrap_or_default()
    } else {
        FileDates::default()
    };
    Some(FileDates { modified: member.modified.map(|t| t.chars().take(16).collect()), ..inner })
}

/// The created and last-saved times of the .docx read from `docx` (only its directory and
/// its core properties are read).
fn docx_dates(docx: impl Read + Seek) -> FileDates {
    let Some(core) = core_xml(docx) else {
        return FileDates::default();
    };
    FileDates { modified: None, created: core_time(&core, "created"), saved: core_time(&core, "modified") }
}

fn core_xml(docx: impl Read + Seek) -> Option<String> {
    let mut zip = zip::ZipArchive::new(docx).ok()?;
    let part = zip.by_name("docProps/core.xml").ok()?;
    let mut text = String::new();
    part.take(MAX_CORE_XML).read_to_string(&mut text).ok()?;
    Some(text)
}

/// The `dcterms:<field>` time of a core properties part, as `YYYY-MM-DD HH:MM`.
fn core_time(core: &str, field: &str) -> Option<String> {
    let open = format!("<dcterms:{field}");
    let start = core.find(&open)? + open.len();
    let after = &core[start..];
    let value = &after[after.find('>')? + 1..];
    let value = value[..value.find('<')?].trim();
    // 2026-02-27T10:04:00Z: the date and the minute.
    let well_formed = value.len() >= 16
        && value.is_char_boundary(16)
        && value.as_bytes().get(10) == Some(&b'T')
        && crate::model::is_calendar_date(&value[..10]);
    well_formed.then(|| format!("{} {}", &value[..10], &value[11..16]))
}

/// A system time as its UTC minute.
fn utc_minute(time: SystemTime) -> String {
    crate::model::utc_minute(time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()))
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::time::Duration;

    use super::*;

    fn docx_with_core(core: &str) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        let mut zip = zip::ZipWriter::new(&mut out);
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("word/document.xml", options).unwrap();
        zip.write_all(b"<w:document/>").unwrap();
        zip.start_file("docProps/core.xml", options).unwrap();
        zip.write_all(core.as_bytes()).unwrap();
        zip.finish().unwrap();
        out.into_inner()
    }

    const CORE: &str = r#"<?xml version="1.0"?><cp:coreProperties xmlns:dcterms="http://purl.org/dc/terms/"><dcterms:created xsi:type="dcterms:W3CDTF">2026-02-27T10:04:00Z</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">2026-03-01T18:30:12Z</dcterms:modified></cp:coreProperties>"#;

    #[test]
    fn a_docx_says_when_it_was_created_and_saved() {
        let dates = docx_dates(Cursor::new(docx_with_core(CORE)));
        assert_eq!(dates.created.as_deref(), Some("2026-02-27 10:04"));
        assert_eq!(dates.saved.as_deref(), Some("2026-03-01 18:30"));
        assert_eq!(docx_dates(Cursor::new(b"not a zip")), FileDates::default());
        assert_eq!(core_time("<dcterms:created>yesterday</dcterms:created>", "created"), None);
    }

    #[test]
    fn a_file_on_disk_and_a_docx_in_a_zip_have_their_times() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("essay.txt");
        std::fs::write(&file, "text").unwrap();
        let when = UNIX_EPOCH + Duration::from_secs(1_772_000_000);
        std::fs::File::options().write(true).open(&file).unwrap().set_modified(when).unwrap();
        assert_eq!(file_dates(&file).modified.as_deref(), Some("2026-02-25 06:13"));
        let docx = dir.path().join("essay.docx");
        std::fs::write(&docx, docx_with_core(CORE)).unwrap();
        assert_eq!(file_dates(&docx).saved.as_deref(), Some("2026-03-01 18:30"));

        let zip_path = dir.path().join("submissions.zip");
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
        let time = zip::DateTime::from_date_and_time(2026, 3, 1, 12, 30, 46).unwrap();
        zip.start_file("Ann Lee_1_assignsubmission_file_essay.docx", zip::write::SimpleFileOptions::default().last_modified_time(time))
            .unwrap();
        zip.write_all(&docx_with_core(CORE)).unwrap();
        zip.finish().unwrap();
        let dates = file_dates(&zip_path.join("Ann Lee_1_assignsubmission_file_essay.docx"));
        assert_eq!(dates.modified.as_deref(), Some("2026-03-01 12:30"));
        assert_eq!(dates.created.as_deref(), Some("2026-02-27 10:04"));
        assert_eq!(file_dates(&dir.path().join("gone.txt")), FileDates::default());
    }

    #[test]
    fn the_one_written_first_came_first() {
        let at = |created: Option<&str>, modified: &str| FileDates {
            modified: Some(modified.into()),
            created: created.map(Into::into),
            saved: None,
        };
        let early = at(Some("2026-02-27 10:04"), "2026-03-02 09:00");
        let late = at(None, "2026-03-01 12:00");
        assert_eq!(a_came_first(&early, &late), Some(true), "a creation time counts before a file time");
        assert_eq!(a_came_first(&late, &early), Some(false));
        assert_eq!(a_came_first(&late, &late), None);
        assert_eq!(a_came_first(&late, &FileDates::default()), None);
    }
}
