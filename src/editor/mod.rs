//! The scenario editor's model, headless: the document with undo and redo ([`doc`]), the
//! pieces it edits ([`piece`]), writing it as RON with the file's comments kept ([`write`]),
//! the validator's problems placed on pieces ([`problems`]), saving ([`save`]) and the battle
//! it would start ([`preview`]), and the pieces in a player's words, by name, never by id
//! ([`names`]). The window's editor screen (`ui::editor`) drives these.

pub mod doc;
pub mod names;
pub mod piece;
pub mod preview;
pub mod problems;
pub mod save;
pub mod write;

pub use doc::Doc;
pub use piece::{Piece, Vertex};
