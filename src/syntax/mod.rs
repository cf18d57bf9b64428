//! The language front end: tokens, the AST, the parser and script splitting.

pub mod ast;
pub mod encoding;
pub mod keyword;
pub mod lexer;
mod parser;
pub mod script;
pub mod shape;
pub mod span;

pub(crate) use parser::token_constant;
pub use parser::{parse_statement, parse_statement_with_nesting, MAX_NESTING};
