//! "Today" for the checks that compare dates (deprecation sunsets in `breaking` and
//! `lint`): `CATALOGC_TODAY`, else the system clock's UTC date.

use super::CliError;

/// The environment variable that sets "today" (`YYYY-MM-DD`) for sunsets, so runs and tests
/// are deterministic; the system clock's UTC date otherwise.
pub const TODAY_VAR: &str = "CATALOGC_TODAY";

/// Today's date: `CATALOGC_TODAY`, else the system clock's UTC date.
pub fn today() -> Result<chrono::NaiveDate, CliError> {
    if let Some(text) = std::env::var_os(TODAY_VAR) {
        let text = text.to_string_lossy();
        return crate::model::parse_date(&text).ok_or_else(|| {
            CliError(format!(
                "{TODAY_VAR}=`{text}` is not a date: write it as YYYY-MM-DD, e.g. 2027-03-01"
            ))
        });
    }
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let secs = i64::try_from(secs).unwrap_or(i64::MAX);
    chrono::DateTime::from_timestamp(secs, 0)
        .map(|t| t.date_naive())
        .ok_or_else(|| CliError("the system clock is out of range".to_string()))
}
