//! How the report names documents: by the name the class knows (the file name, with as
//! many parent folders as it takes to tell two files apart, never a folder of the
//! teacher's disk above them), or, in an anonymised hand-out, other students as
//! "Student A", "Student B", …

use crate::model::Role;
use crate::report::Report;
use crate::report::words::Words;

/// The name of every document of a report, by id.
#[derive(Clone, Debug)]
pub struct Names {
    names: Vec<String>,
}

impl Names {
    /// The names of `report`'s documents; with `anonymize`, every student (a suspect)
    /// but `keep` is named by a letter: those of `first` in its order (the report's
    /// classmates, closest first), then the others in the order of the documents.
    pub fn new(report: &Report, keep: Option<usize>, anonymize: bool, first: &[usize], w: &Words) -> Self {
        let mut names = short_names(report.documents.iter().map(|d| d.path.as_str()));
        if anonymize {
            let mut done = vec![false; names.len()];
            let mut next = 0usize;
            for id in first.iter().copied().chain(0..report.documents.len()) {
                let student = report.documents.get(id).is_some_and(|d| d.role == Role::Suspect);
                if student && Some(id) != keep && !std::mem::replace(&mut done[id], true) {
                    names[id] = format!("{} {}", w.student_label, letters(next));
                    next += 1;
                }
            }
        }
        Self { names }
    }

    /// The name of document `id` ("?" for no document).
    pub fn get(&self, id: usize) -> &str {
        self.names.get(id).map_or("?", String::as_str)
    }

    /// `text` with every document's path replaced by its name here (a message that
    /// quotes a path must not bring it back).
    pub fn scrub(&self, report: &Report, text: &str) -> String {
        let mut out = text.to_owned();
        let sources: Vec<(usize, String)> =
            report.documents.iter().map(|d| (d.id, d.source.display().to_string())).collect();
        let mut docs: Vec<(usize, &str)> = report.documents.iter().map(|d| (d.id, d.path.as_str())).collect();
        docs.extend(sources.iter().map(|(id, s)| (*id, s.as_str())));
        // The longest paths first: one path may hold another.
        docs.sort_by_key(|(_, p)| std::cmp::Reverse(p.len()));
        for (id, path) in docs {
            if !path.is_empty() && out.contains(path) {
                out = out.replace(path, self.get(id));
            }
        }
        out
    }
}

/// "A" … "Z", "AA", "AB", … for 0, 1, 2, …
pub fn letters(mut n: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'A' + u8::try_from(n % 26).unwrap_or(0));
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    out.reverse();
    String::from_utf8_lossy(&out).into_owned()
}

/// The parts of a path below its root (no drive, no leading separator), either separator.
fn parts(path: &str) -> Vec<&str> {
    path.split(['/', '\\']).filter(|p| !p.is_empty() && !p.ends_with(':')).collect()
}

/// Each path's last part; where two paths end alike, as many parts as tell them apart.
fn short_names<'a>(paths: impl Iterator<Item = &'a str>) -> Vec<String> {
    let parts: Vec<Vec<&str>> = paths.map(parts).collect();
    let mut depth = vec![1usize; parts.len()];
    let name = |i: usize, depth: &[usize]| {
        let p = &parts[i];
        p[p.len().saturating_sub(depth[i])..].join("/")
    };
    // Each round lengthens every name that is still shared; names stop at their full
    // (rootless) path, so this ends.
    loop {
        let names: Vec<String> = (0..parts.len()).map(|i| name(i, &depth)).collect();
        let mut grew = false;
        for i in 0..parts.len() {
            let shared = names.iter().enumerate().any(|(j, n)| j != i && *n == names[i]);
            if shared && depth[i] < parts[i].len() {
                depth[i] += 1;
                grew = true;
            }
        }
        if !grew {
            return names.into_iter().map(|n| if n.is_empty() { "?".into() } else { n }).collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_file_names_with_the_folders_it_takes_to_tell_them_apart() {
        let paths = ["/home/t/class/ann/essay.docx", "/home/t/class/bob/essay.docx", "C:\\class\\cat.txt", "r.txt"];
        let names = short_names(paths.into_iter());
        assert_eq!(names, ["ann/essay.docx", "bob/essay.docx", "cat.txt", "r.txt"]);
        let same = short_names(["/a/x.txt", "/a/x.txt"].into_iter());
        assert_eq!(same, ["a/x.txt", "a/x.txt"], "never the root");
    }

    #[test]
    fn letters_run_past_z() {
        assert_eq!([letters(0), letters(25), letters(26), letters(27)], ["A", "Z", "AA", "AB"]);
    }
}
