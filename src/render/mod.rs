//! Result renderers: cqlsh's table and expanded layouts, JSON Lines and CSV.
//! Library code, so tests and embedders print results exactly as the
//! command line does.
