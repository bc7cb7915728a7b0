//! The Rust types of time fields, from `chrono`: a `timestamp` or `format="date-time"` field
//! is a [`DateTime`] (an instant with the offset the sender wrote), a `format="date"` field a
//! [`Date`].
//!
//! Reading is strict: a value is typed only when the contract's format accepts it (RFC 3339
//! `date-time` with `T` and an offset, `full-date`), which chrono's own, more lenient
//! `FromStr` would not ensure alone; generated `Deserialize` impls check it
//! (`serial::Fields`). Writing gives RFC 3339 back: `2026-10-02T09:30:00+02:00` (an offset
//! of zero as `Z`, a fraction in groups of three digits, a leap second as `:60`), which
//! reads back as the same value.

use super::validate::Format;

/// A `timestamp` or `format="date-time"` value: an instant and the offset it was written
/// with (RFC 3339 `date-time`).
pub type DateTime = chrono::DateTime<chrono::FixedOffset>;

/// A `format="date"` value: a calendar day (RFC 3339 `full-date`).
pub type Date = chrono::NaiveDate;

/// Whether `s` is a value of `format` that a time type reads: `Some(true)` or
/// `Some(false)` for `date-time` and `date`, `None` for a format that stays a string.
pub(crate) fn accepts(format: Format, s: &str) -> Option<bool> {
    match format {
        Format::DateTime | Format::Date => Some(format.matches(s)),
        _ => None,
    }
}

/// The date-time `text` (a catalog's `default=`, which lint checked against the format), or
/// the Unix epoch should it not parse.
#[must_use]
pub fn date_time(text: &str) -> DateTime {
    text.parse().unwrap_or_default()
}

/// The date `text` (a catalog's `default=`, which lint checked against the format), or
/// 1970-01-01 should it not parse.
#[must_use]
pub fn date(text: &str) -> Date {
    text.parse().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every RFC 3339 form the contract's check accepts reads as a `DateTime`, and writes
    /// back as a string the check accepts that reads as the same value.
    #[test]
    fn every_accepted_date_time_reads_and_writes_back() {
        for s in [
            "2024-01-01T10:00:00Z",
            "2024-01-01t10:00:00z",
            "2024-01-01T10:00:00.5+01:00",
            "2024-01-01T10:00:00.123456789-23:59",
            "2024-01-01T10:00:00.1234567891234Z",
            "2024-01-01T10:00:00-00:00",
            "2016-12-31T23:59:60Z",
            "2024-02-29T00:00:00+14:00",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999Z",
        ] {
            assert!(Format::DateTime.matches(s), "{s}");
            let value: DateTime =
                serde_json::from_value(serde_json::json!(s)).unwrap_or_else(|e| panic!("{s}: {e}"));
            let written = serde_json::to_value(value).unwrap_or_default();
            let text = written.as_str().unwrap_or_default();
            assert!(Format::DateTime.matches(text), "{s} → {text}");
            let again: DateTime =
                serde_json::from_value(written.clone()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(again, value, "{s} → {text}");
            assert_eq!(again.offset(), value.offset(), "{s} → {text}");
        }
    }

    #[test]
    fn every_accepted_date_reads_and_writes_back() {
        for s in ["2024-02-29", "0000-01-01", "9999-12-31", "2026-11-01"] {
            assert!(Format::Date.matches(s), "{s}");
            let value: Date =
                serde_json::from_value(serde_json::json!(s)).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(serde_json::to_value(value).ok(), Some(serde_json::json!(s)));
        }
    }

    #[test]
    fn what_the_format_refuses_is_refused_before_chrono_reads_it() {
        for s in [
            "2024-01-01 10:00:00Z",
            "2024-01-01T10:00:00",
            "2024-1-1T10:00:00Z",
        ] {
            assert_eq!(accepts(Format::DateTime, s), Some(false), "{s}");
        }
        assert_eq!(accepts(Format::Date, "2024-1-01"), Some(false));
        assert_eq!(accepts(Format::Email, "a@b"), None);
        assert_eq!(date("2026-11-01").to_string(), "2026-11-01");
        assert_eq!(
            date_time("2026-10-02T09:30:00+02:00").to_rfc3339(),
            "2026-10-02T09:30:00+02:00"
        );
    }
}
