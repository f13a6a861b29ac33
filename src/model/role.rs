//! What a document is in a check ([`Role`]) and which documents are compared with which
//! ([`Mode`]).

use serde::{Deserialize, Serialize};

/// What a document is in a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Checked against the references (in all-vs-all mode: every document).
    Suspect,
    /// Something suspects may have copied from.
    Reference,
    /// Text given to everyone (an assignment sheet): never counted as copied.
    Template,
}

/// Which documents are compared with which.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Every suspect against every reference.
    #[default]
    SuspectsVsReferences,
    /// Every suspect against every other suspect (a class's submissions); references are
    /// compared with the suspects as well.
    AllVsAll,
    /// A class against its classmates and its sources in one run: every suspect against
    /// every other suspect and against every reference; references never against each
    /// other.
    Classmates,
}

impl Mode {
    /// Whether the second document of a pair (of role `b_role`) is one of the checked
    /// documents too, whose share of the pair counts in its own similarity: every
    /// document all against all, a classmate (a suspect) in classmates mode, never a
    /// reference checked against.
    pub fn second_is_checked(self, b_role: Role) -> bool {
        match self {
            Mode::SuspectsVsReferences => false,
            Mode::AllVsAll => true,
            Mode::Classmates => b_role == Role::Suspect,
        }
    }
}
