//! Calendar dates as the archive takes them (`YYYY-MM-DD`, a day the calendar has): a
//! leaf without imports, so the command line's grammar (which the build script mounts on
//! its own) can check a date exactly as the archive does.

/// Whether `text` is a date `YYYY-MM-DD` that the calendar has (2024-02-29 is, 2023-02-29
/// and 2024-02-30 are not).
pub fn is_calendar_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let shaped = parts.len() == 3
        && [4, 2, 2].iter().zip(&parts).all(|(n, p)| p.len() == *n && p.bytes().all(|b| b.is_ascii_digit()));
    if !shaped {
        return false;
    }
    let number = |p: &str| p.parse::<u32>().unwrap_or(0);
    let (year, month, day) = (number(parts[0]), number(parts[1]), number(parts[2]));
    (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
}

/// Days of `month` (1–12) in `year` of the Gregorian calendar.
fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}
