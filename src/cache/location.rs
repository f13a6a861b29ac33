//! Where reference caches live: `$TWINSPOT_CACHE_DIR`, else `$XDG_CACHE_HOME/twinspot`,
//! else the platform's cache folder (`~/.cache/twinspot` on Linux), and which file in it
//! holds a given reference set.

use std::path::{Path, PathBuf};

use crate::engine::display_path;

/// The environment variable naming the cache folder (tests point it at a temporary one).
pub const CACHE_DIR_VAR: &str = "TWINSPOT_CACHE_DIR";

/// The folder of reference caches, if the environment names one.
pub fn default_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var(CACHE_DIR_VAR) {
        return Some(dir);
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return Some(dir.join("twinspot"));
    }
    if cfg!(windows) {
        return var("LOCALAPPDATA").map(|d| d.join("twinspot").join("cache"));
    }
    let home = var("HOME")?;
    Some(if cfg!(target_os = "macos") { home.join("Library/Caches/twinspot") } else { home.join(".cache/twinspot") })
}

/// The cache file of the reference set given as `roots` (files and folders): the same
/// set, however spelled, gets the same file.
pub(super) fn cache_file(dir: &Path, roots: &[PathBuf]) -> PathBuf {
    use sha2::Digest;
    let mut real: Vec<String> =
        roots.iter().map(|r| display_path(&std::fs::canonicalize(r).unwrap_or_else(|_| r.clone()))).collect();
    real.sort();
    real.dedup();
    let digest = sha2::Sha256::digest(real.join("\n").as_bytes());
    let key: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    dir.join(format!("references-{key}.sqlite"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_set_one_file_whatever_the_spelling_or_order() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir(&a).unwrap();
        std::fs::create_dir(&b).unwrap();
        let here = Path::new("/cache");
        let one = cache_file(here, &[a.clone(), b.clone()]);
        assert_eq!(one, cache_file(here, &[b.join("../b"), a.clone()]));
        assert_ne!(one, cache_file(here, std::slice::from_ref(&a)));
    }
}
