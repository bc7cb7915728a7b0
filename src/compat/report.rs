//! Output formats for a [`super::Report`].
