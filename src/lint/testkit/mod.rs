//! Hand-built models and runners for the rules' unit tests, shared by every category (a
//! category never imports a sibling's helpers). The models come from [`crate::testing`].

pub mod sites;
pub mod texts;
