//! The permission a role is granted on a shared archive (`archive grant`); a folder has
//! no roles, its files' permissions decide.

/// The permission a role is granted on an archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Check, list, stats, groups, verify.
    Read,
    /// Also add, remove, expire, compact.
    Write,
}
