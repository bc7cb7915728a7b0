//! Fingerprints and baselines: adopting catalogc on a large existing catalog by recording
//! today's findings (`--write-baseline FILE`) and reporting only new ones (`--baseline FILE`).
//!
//! Fingerprints are the ones every output carries ([`Diagnostic::fingerprint`], made unique
//! per run by [`emit::fingerprints`]): a hash of the rule, catalog, tool and dotted path,
//! never line or column, so moving a tool, reformatting or editing another tool keeps them.

use crate::diag::emit;
use crate::diag::{Diagnostic, SourceMap};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Baseline file format version.
pub const VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
/// A baseline file: the findings to stop reporting (`--baseline`).
pub struct Baseline {
    /// The format version; only [`VERSION`] is read.
    pub version: u32,
    /// The recorded findings, sorted by catalog, tool, rule, path.
    pub findings: Vec<Entry>,
}

/// One recorded finding. Only `fingerprint` is compared; the rest makes the file reviewable.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Entry {
    /// The catalog's name (empty for findings outside a catalog).
    pub catalog: String,
    /// The tool's name, for tool-level and field-level findings.
    pub tool: Option<String>,
    /// The rule ID.
    pub rule: String,
    /// Dotted location inside the tool.
    pub path: Option<String>,
    /// The finding's fingerprint: the only part compared.
    pub fingerprint: String,
    /// The message when recorded, for a reviewer.
    pub message: String,
}

impl Baseline {
    /// Record the given findings, sorted by catalog, tool, rule, path (deterministic).
    pub fn from_diagnostics(diagnostics: &[Diagnostic], sources: &SourceMap) -> Baseline {
        let fingerprints = emit::fingerprints(diagnostics, sources);
        let mut findings: Vec<Entry> = diagnostics
            .iter()
            .zip(fingerprints)
            .map(|(d, fingerprint)| Entry {
                catalog: d.catalog.as_deref().unwrap_or_default().to_string(),
                tool: d.tool.as_deref().map(str::to_string),
                rule: d.rule.to_string(),
                path: d.path.clone(),
                fingerprint,
                message: d.message.clone(),
            })
            .collect();
        findings.sort();
        Baseline {
            version: VERSION,
            findings,
        }
    }

    /// Pretty JSON with a trailing newline.
    pub fn to_json(&self) -> String {
        crate::diag::emit::pretty_json(&serde_json::to_value(self).unwrap_or_default())
    }

    /// Reads a baseline file; an error (one line) when it is not JSON of this shape or has
    /// another format version.
    pub fn from_json(text: &str) -> Result<Baseline, String> {
        let b: Baseline =
            serde_json::from_str(text).map_err(|e| format!("not a catalogc baseline: {e}"))?;
        if b.version != VERSION {
            return Err(format!(
                "baseline version {} is not supported (expected {VERSION})",
                b.version
            ));
        }
        Ok(b)
    }

    /// The findings not recorded in the baseline (fingerprints are computed over the whole
    /// list, as when the baseline was written). A fingerprint recorded n times absorbs n
    /// findings.
    pub fn filter(&self, diagnostics: Vec<Diagnostic>, sources: &SourceMap) -> Vec<Diagnostic> {
        let mut budget: HashMap<&str, usize> = HashMap::new();
        for e in &self.findings {
            *budget.entry(e.fingerprint.as_str()).or_default() += 1;
        }
        let fingerprints = emit::fingerprints(&diagnostics, sources);
        diagnostics
            .into_iter()
            .zip(fingerprints)
            .filter(|(_, fp)| match budget.get_mut(fp.as_str()) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            })
            .map(|(d, _)| d)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{FileId, Level, SourceFile};
    use crate::syntax::Span;

    fn diag(sources: &SourceMap, needle: &str) -> Diagnostic {
        let text = &sources.files[0].text;
        let start = text.find(needle).unwrap_or(0);
        let mut d = Diagnostic::new(
            "naming/field-name",
            Level::Error,
            FileId(0),
            Span::new(start, start + needle.len()),
            "m",
        );
        d.catalog = Some("billing".into());
        d.tool = Some("invoice_list".into());
        d.path = Some("input.fooBar".into());
        d
    }

    #[test]
    fn baseline_round_trips_and_counts() {
        let mut s = SourceMap::default();
        s.add(SourceFile::new("a.kdl", "x \"fooBar\"".into()));
        let d = diag(&s, "\"fooBar\"");
        let base = Baseline::from_diagnostics(std::slice::from_ref(&d), &s);
        let back = Baseline::from_json(&base.to_json()).map_err(|e| e.to_string());
        assert_eq!(back, Ok(base.clone()));
        assert!(base.filter(vec![d.clone()], &s).is_empty());
        // A second identical finding gets its own fingerprint, so it is new.
        assert_eq!(base.filter(vec![d.clone(), d], &s).len(), 1);
        assert!(Baseline::from_json("{}").is_err());
        assert!(Baseline::from_json(r#"{"version":9,"findings":[]}"#).is_err());
    }
}
