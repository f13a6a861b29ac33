//! The documents of a zip of submissions: each file of a Moodle, Canvas or Blackboard
//! export named by its student ("Student", or "Student — file" for a student's several
//! files), receipts left out; the files of any other zip named by their path in it.

use std::collections::{BTreeMap, BTreeSet};

use crate::ingest::{Handed, Lms, ZipMember};

/// What a zip's files become.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct ZipPlan {
    /// Each document's name and its entry, sorted by name.
    pub documents: Vec<(String, ZipMember)>,
    /// Blackboard receipts left out.
    pub receipts: usize,
    /// Files of formats Twinspot does not read.
    pub unsupported: usize,
}

/// One file a student handed in.
struct Handin {
    student: String,
    id: String,
    file: String,
    member: ZipMember,
}

/// Names the files `members` of one zip; `supported` says which file names are read.
pub(super) fn plan(members: Vec<ZipMember>, supported: impl Fn(&str) -> bool) -> ZipPlan {
    let members: Vec<ZipMember> = members.into_iter().filter(|m| !is_hidden(&m.name)).collect();
    let lms = Lms::recognise(members.iter().map(|m| m.name.as_str()));
    let mut plan = ZipPlan::default();
    let mut handins = Vec::new();
    for member in members {
        let handed = lms.and_then(|lms| lms.parse(&member.name));
        let shown = match &handed {
            Some(Handed::File { file, .. }) => file.as_str(),
            _ => member.name.as_str(),
        };
        if handed != Some(Handed::Receipt) && !supported(file_name(shown)) {
            plan.unsupported += 1;
            continue;
        }
        match handed {
            Some(Handed::Receipt) => plan.receipts += 1,
            Some(Handed::File { student, id, file }) => handins.push(Handin { student, id, file, member }),
            None => plan.documents.push((member.name.clone(), member)),
        }
    }
    plan.documents.extend(named(handins));
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (name, _) in &mut plan.documents {
        let n = seen.entry(name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            name.push_str(&format!(" ({n})"));
        }
    }
    plan.documents.sort_by(|a, b| a.0.cmp(&b.0));
    plan
}

/// Each student's files by the student's name: the name alone for one file, "name —
/// file" for several; two students of the same name told apart by their ids.
fn named(handins: Vec<Handin>) -> Vec<(String, ZipMember)> {
    let mut ids: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut files: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for h in &handins {
        ids.entry(&h.student).or_default().insert(&h.id);
        *files.entry((&h.student, &h.id)).or_insert(0) += 1;
    }
    let names: Vec<String> = handins
        .iter()
        .map(|h| {
            let shared = ids.get(h.student.as_str()).is_some_and(|ids| ids.len() > 1);
            let who = if shared { format!("{} ({})", h.student, h.id) } else { h.student.clone() };
            let several = files.get(&(h.student.as_str(), h.id.as_str())).is_some_and(|&n| n > 1);
            if several { format!("{who} — {}", h.file) } else { who }
        })
        .collect();
    names.into_iter().zip(handins).map(|(name, h)| (name, h.member)).collect()
}

/// The last part of an entry's name.
fn file_name(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// A hidden entry, or the resource forks macOS adds to the zips it makes.
fn is_hidden(name: &str) -> bool {
    name.split('/').any(|part| part.starts_with('.') || part == "__MACOSX")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(names: &[&str]) -> Vec<ZipMember> {
        let member = |(index, name): (usize, &&str)| ZipMember {
            index,
            name: (*name).to_string(),
            modified: None,
            declared_bytes: 1,
        };
        names.iter().enumerate().map(member).collect()
    }

    fn names(plan: &ZipPlan) -> Vec<&str> {
        plan.documents.iter().map(|(name, _)| name.as_str()).collect()
    }

    fn any(name: &str) -> bool {
        !name.ends_with(".png")
    }

    #[test]
    fn a_student_s_files_are_named_by_the_student_and_namesakes_by_their_ids() {
        let plan = plan(
            members(&[
                "Wang Fang_11_assignsubmission_file_essay.docx",
                "Wang Fang_12_assignsubmission_file_essay.docx",
                "Li Lei_13_assignsubmission_file/essay.docx",
                "Li Lei_13_assignsubmission_file/sources.txt",
                "Li Lei_13_assignsubmission_file/photo.png",
                "__MACOSX/._x.docx",
            ]),
            any,
        );
        assert_eq!(names(&plan), ["Li Lei — essay.docx", "Li Lei — sources.txt", "Wang Fang (11)", "Wang Fang (12)"]);
        assert_eq!(plan.unsupported, 1);
    }

    #[test]
    fn receipts_are_counted_and_a_plain_zip_keeps_its_paths() {
        let stamp = "Essay_wfang_attempt_2026-03-01-12-30-45";
        let plan = plan(members(&[&format!("{stamp}.txt"), &format!("{stamp}_essay.docx")]), any);
        assert_eq!((names(&plan), plan.receipts), (vec!["wfang"], 1));
        let plain = super::plan(members(&["class/a.docx", "class/b.txt", "c.txt"]), any);
        assert_eq!(names(&plain), ["c.txt", "class/a.docx", "class/b.txt"]);
    }
}
