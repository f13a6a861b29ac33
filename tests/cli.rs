//! The command line on small Chinese and English fixtures.
