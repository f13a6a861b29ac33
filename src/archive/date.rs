//! Calendar dates as the archive stores them (`YYYY-MM-DD`, publication dates and the
//! bound of `expire`): only days that exist are accepted.

use super::error::ArchiveError;

/// `text` when it is a real day written `YYYY-MM-DD` (Gregorian calendar, leap years
/// counted), else [`ArchiveError::BadDate`].
pub fn parse_date(text: &str) -> Result<String, ArchiveError> {
    let bad = || ArchiveError::BadDate(text.to_string());
    let parts: Vec<&str> = text.split('-').collect();
    let shaped = parts.len() == 3
        && [4, 2, 2].iter().zip(&parts).all(|(n, p)| p.len() == *n && p.bytes().all(|b| b.is_ascii_digit()));
    if !shaped {
        return Err(bad());
    }
    let number = |p: &str| p.parse::<u32>().map_err(|_| bad());
    let (year, month, day) = (number(parts[0])?, number(parts[1])?, number(parts[2])?);
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return Err(bad());
    }
    Ok(text.to_string())
}

fn days_in_month(year: u32, month: u32) -> u32 {
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
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
