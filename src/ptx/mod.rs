//! The PTX front end: text ▶ tokens ([`lex`]) ▶ syntax tree ([`ast`], [`parse`]) ▶ decoded kernels
//! ([`lower`]). Errors carry file, line, column and the offending line ([`error`]).
pub mod ast;
pub mod error;
pub mod lex;
pub mod lower;
pub mod parse;
