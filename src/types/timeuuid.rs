//! Time-based (version 1) UUIDs: building them from a time and reading their time back.
