//! Calendar dates as the archive stores them (`YYYY-MM-DD`, publication dates and the
//! bound of `expire`): only days that exist are accepted; and the moment a document is
//! added, in seconds.

use super::error::ArchiveError;
use crate::model::is_calendar_date;

/// `text` when it is a real day written `YYYY-MM-DD` (Gregorian calendar, leap years
/// counted), else [`ArchiveError::BadDate`].
pub fn parse_date(text: &str) -> Result<String, ArchiveError> {
    if is_calendar_date(text) { Ok(text.to_string()) } else { Err(ArchiveError::BadDate(text.to_string())) }
}

/// Seconds since the Unix epoch, now.
pub(super) fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::parse_date;

    #[test]
    fn only_days_that_exist_are_dates() {
        for good in ["2024-02-29", "2000-02-29", "2023-12-31", "2021-04-30", "1999-01-01"] {
            assert!(parse_date(good).is_ok(), "{good}");
        }
        for bad in ["2024-02-30", "2023-02-29", "1900-02-29", "2021-04-31", "2021-13-01", "2021-00-10", "2021-1-01", ""]
        {
            assert!(parse_date(bad).is_err(), "{bad}");
        }
    }
}
