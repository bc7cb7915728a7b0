//! Fingerprints and baselines: adopting catalogc on a large existing catalog by recording
//! today's findings (`--write-baseline FILE`) and reporting only new ones (`--baseline FILE`).
//!
//! A fingerprint identifies a finding by what it is about, not where it is written: the rule,
//! the catalog, the tool, the dotted path, and the source text the finding points at (the
//! offending name or value). Line and column take no part, so moving a tool, reformatting or
//! editing another tool keeps every fingerprint; renaming the offending thing changes it.

use crate::diag::{Diagnostic, SourceMap};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// Baseline file format version.
pub const VERSION: u32 = 1;

/// The stable fingerprint of a diagnostic: 32 lowercase hex digits (the first 128 bits of a
/// SHA-256 over rule, catalog, tool, path and the text under the span).
pub fn fingerprint(d: &Diagnostic, sources: &SourceMap) -> String {
    let subject = sources
        .files
        .get(d.file.0)
        .and_then(|f| f.text.get(d.span.start..d.span.end))
        .unwrap_or("");
    let mut h = Sha256::new();
    for part in [
        d.rule.as_str(),
        d.catalog.as_deref().unwrap_or(""),
        d.tool.as_deref().unwrap_or(""),
        d.path.as_deref().unwrap_or(""),
        subject,
    ] {
        // Length-prefixed, so no two part lists hash the same bytes.
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    pub version: u32,
    pub findings: Vec<Entry>,
}

/// One recorded finding. Only `fingerprint` is compared; the rest makes the file reviewable.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Entry {
    pub catalog: String,
    pub tool: Option<String>,
    pub rule: String,
    pub path: Option<String>,
    pub fingerprint: String,
    pub message: String,
}

impl Baseline {
    /// Record the given findings, sorted by catalog, tool, rule, path (deterministic).
    pub fn from_diagnostics(diagnostics: &[Diagnostic], sources: &SourceMap) -> Baseline {
        let mut findings: Vec<Entry> = diagnostics
            .iter()
            .map(|d| Entry {
                catalog: d.catalog.clone().unwrap_or_default(),
                tool: d.tool.clone(),
                rule: d.rule.clone(),
                path: d.path.clone(),
                fingerprint: fingerprint(d, sources),
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
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

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

    /// The findings not recorded in the baseline. A fingerprint recorded n times absorbs n
    /// findings, so a second identical problem in the same place is still new.
    pub fn filter(&self, diagnostics: Vec<Diagnostic>, sources: &SourceMap) -> Vec<Diagnostic> {
        let mut budget: HashMap<&str, usize> = HashMap::new();
        for e in &self.findings {
            *budget.entry(e.fingerprint.as_str()).or_default() += 1;
        }
        diagnostics
            .into_iter()
            .filter(|d| {
                let fp = fingerprint(d, sources);
                match budget.get_mut(fp.as_str()) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        false
                    }
                    _ => true,
                }
            })
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
    fn fingerprint_ignores_position() {
        let mut a = SourceMap::default();
        a.add(SourceFile::new("a.kdl", "x \"fooBar\"".into()));
        let mut b = SourceMap::default();
        b.add(SourceFile::new("a.kdl", "\n\n\n   y x \"fooBar\"".into()));
        let fa = fingerprint(&diag(&a, "\"fooBar\""), &a);
        assert_eq!(fa, fingerprint(&diag(&b, "\"fooBar\""), &b));
        assert_eq!(fa.len(), 32);
        let mut other = diag(&a, "\"fooBar\"");
        other.rule = "naming/opaque-field".into();
        assert_ne!(fa, fingerprint(&other, &a));
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
        assert_eq!(base.filter(vec![d.clone(), d], &s).len(), 1);
        assert!(Baseline::from_json("{}").is_err());
        assert!(Baseline::from_json(r#"{"version":9,"findings":[]}"#).is_err());
    }
}
