//! The names the learning platforms give the files of a "download all submissions" zip
//! (Moodle, Canvas, Blackboard): who handed in each entry, and which entries are receipts.
//!
//! - Moodle: `Full Name_12345_assignsubmission_file_essay.docx`, or a folder a student
//!   `Full Name_12345_assignsubmission_file/essay.docx`;
//! - Canvas: `lastfirst_12345_67890_essay.docx`, late ones `lastfirst_LATE_12345_67890_essay.docx`;
//! - Blackboard: `Assignment_username_attempt_2026-03-01-12-30-45_essay.docx`, and a receipt
//!   `Assignment_username_attempt_2026-03-01-12-30-45.txt` per attempt.

/// A learning platform whose export naming is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lms {
    Moodle,
    Canvas,
    Blackboard,
}

/// What the name of one entry of an export says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Handed {
    /// A student's file.
    File {
        /// The student's name as the platform writes it (Moodle's full name, Canvas's
        /// "lastfirst", Blackboard's username).
        student: String,
        /// What tells apart two students of the same name (the platform's id).
        id: String,
        /// The file's own name (with the folders below the student's, for Moodle).
        file: String,
    },
    /// A Blackboard receipt: not a submission.
    Receipt,
}

impl Lms {
    /// The platform whose naming most of `names` (the zip's files) follow, when more than
    /// half of them do; `None`: a plain zip of files.
    pub fn recognise<'n>(names: impl Iterator<Item = &'n str> + Clone) -> Option<Lms> {
        let total = names.clone().count();
        [Lms::Moodle, Lms::Canvas, Lms::Blackboard]
            .into_iter()
            .map(|lms| (lms, names.clone().filter(|n| lms.parse(n).is_some()).count()))
            .filter(|(_, hits)| *hits > 0 && hits * 2 > total)
            .max_by_key(|(_, hits)| *hits)
            .map(|(lms, _)| lms)
    }

    /// What this platform's naming says of the entry `name`; `None` when it does not follow it.
    pub fn parse(self, name: &str) -> Option<Handed> {
        match self {
            Lms::Moodle => moodle(name),
            Lms::Canvas => canvas(name),
            Lms::Blackboard => blackboard(name),
        }
    }
}

/// `Full Name_12345_assignsubmission_PLUGIN_file` or `…_assignsubmission_PLUGIN/path`.
fn moodle(name: &str) -> Option<Handed> {
    let (who, after) = name.split_once("_assignsubmission_")?;
    let (student, id) = who.rsplit_once('_')?;
    let cut = after.find(['_', '/'])?;
    let (plugin, file) = (&after[..cut], &after[cut + 1..]);
    let plain = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric());
    if student.trim().is_empty() || !is_number(id) || !plain(plugin) || file.is_empty() || file.ends_with('/') {
        return None;
    }
    Some(Handed::File { student: student.trim().to_string(), id: id.to_string(), file: file.to_string() })
}

/// `lastfirst_[LATE_]12345_67890_file`, never in a folder.
fn canvas(name: &str) -> Option<Handed> {
    if name.contains('/') {
        return None;
    }
    let mut parts = name.splitn(2, '_');
    let student = parts.next().filter(|s| !s.trim().is_empty())?;
    let rest = parts.next()?;
    let rest = rest.strip_prefix("LATE_").unwrap_or(rest);
    let (id, rest) = rest.split_once('_')?;
    let (submission, file) = rest.split_once('_')?;
    if !is_number(id) || !is_number(submission) || file.is_empty() {
        return None;
    }
    Some(Handed::File { student: student.to_string(), id: id.to_string(), file: file.to_string() })
}

/// `Assignment_username_attempt_YYYY-MM-DD-HH-MM-SS[_file]`; the bare one is the receipt.
fn blackboard(name: &str) -> Option<Handed> {
    if name.contains('/') {
        return None;
    }
    let (at, after) = name.match_indices("_attempt_").find_map(|(at, m)| {
        let after = &name[at + m.len()..];
        is_stamp(after.get(..19)?).then_some((at, &after[19..]))
    })?;
    let (_assignment, student) = name[..at].rsplit_once('_')?;
    if student.is_empty() {
        return None;
    }
    if after.eq_ignore_ascii_case(".txt") {
        return Some(Handed::Receipt);
    }
    let file = after.strip_prefix('_').filter(|f| !f.is_empty())?;
    Some(Handed::File { student: student.to_string(), id: student.to_string(), file: file.to_string() })
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `YYYY-MM-DD-HH-MM-SS`.
fn is_stamp(s: &str) -> bool {
    s.len() == 19
        && s.bytes()
            .enumerate()
            .all(|(i, b)| if [4, 7, 10, 13, 16].contains(&i) { b == b'-' } else { b.is_ascii_digit() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(student: &str, id: &str, file: &str) -> Option<Handed> {
        Some(Handed::File { student: student.into(), id: id.into(), file: file.into() })
    }

    #[test]
    fn each_platform_s_naming_gives_the_student_and_the_file() {
        let m = Lms::Moodle;
        assert_eq!(
            m.parse("Wang Fang_12345_assignsubmission_file_essay.docx"),
            file("Wang Fang", "12345", "essay.docx")
        );
        assert_eq!(m.parse("王芳_777_assignsubmission_file/notes/a_b.pdf"), file("王芳", "777", "notes/a_b.pdf"));
        assert_eq!(
            m.parse("Li Lei_9_assignsubmission_onlinetext_onlinetext.html"),
            file("Li Lei", "9", "onlinetext.html")
        );
        assert_eq!(m.parse("essay.docx"), None);
        let c = Lms::Canvas;
        assert_eq!(c.parse("smithjane_12345_67890_my_essay.docx"), file("smithjane", "12345", "my_essay.docx"));
        assert_eq!(c.parse("smithjane_LATE_12345_67890_essay-1.docx"), file("smithjane", "12345", "essay-1.docx"));
        assert_eq!(c.parse("smithjane_x_67890_essay.docx"), None);
        let b = Lms::Blackboard;
        let stamp = "Essay 1_wfang_attempt_2026-03-01-12-30-45";
        assert_eq!(b.parse(&format!("{stamp}_论文.docx")), file("wfang", "wfang", "论文.docx"));
        assert_eq!(b.parse(&format!("{stamp}.txt")), Some(Handed::Receipt));
        assert_eq!(b.parse("Essay 1_wfang_attempt_2026-03-01_essay.docx"), None);
    }

    #[test]
    fn a_zip_is_an_export_when_most_of_its_files_follow_one_naming() {
        let moodle = ["A B_1_assignsubmission_file_x.docx", "C D_2_assignsubmission_file/y.pdf", "readme.txt"];
        assert_eq!(Lms::recognise(moodle.iter().copied()), Some(Lms::Moodle));
        let plain = ["essays/a.docx", "essays/b.docx", "C D_2_assignsubmission_file/y.pdf"];
        assert_eq!(Lms::recognise(plain.iter().copied()), None);
        assert_eq!(Lms::recognise(std::iter::empty()), None);
    }
}
