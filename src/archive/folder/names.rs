//! The names of the catalog's files inside an archive folder: a leaf, so that the errors
//! that name them and the catalog that opens them need not import each other.

/// File name of the catalog inside the archive folder.
pub const CATALOG: &str = "catalog.sqlite";

/// Name of a catalog being created: it becomes [`CATALOG`] whole, by a rename, so that
/// no one ever opens a catalog without its tables.
pub const CATALOG_NEW: &str = "catalog.sqlite.new";
