//! Value parsers for command-line options: each refuses a value outside the range the
//! engine accepts, before any work, and says what the range is (clap then exits 2).

use std::ops::RangeInclusive;

use clap::ValueEnum;

// The calendar check the archive makes, mounted here too: the build script reads this
// grammar without the library.
#[path = "../../model/date.rs"]
mod calendar;

/// The language of an HTML report (`--lang`, any case; `zh-cn` and `cn` mean `zh`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    /// English.
    En,
    /// Chinese (simplified).
    #[value(alias = "zh-cn", alias = "cn")]
    Zh,
}

/// The k-gram lengths the engine accepts (`-k`).
pub const K_RANGE: RangeInclusive<u64> = 1..=64;
/// The winnowing windows the engine accepts (`-w`).
pub const W_RANGE: RangeInclusive<u64> = 1..=256;

/// A whole number within `range`.
pub fn whole_in(range: RangeInclusive<u64>) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let value: u64 =
            s.trim().parse().map_err(|_| format!("'{s}' is not a whole number; accepted: {}", show(&range)))?;
        if range.contains(&value) {
            Ok(value)
        } else {
            Err(format!("{value} is out of range; accepted: {}", show(&range)))
        }
    }
}

/// A finite number within `range` (NaN, infinities and overflowing values refused).
pub fn number_in(range: RangeInclusive<f64>) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let accepted = || format!("accepted: {} to {}", range.start(), range.end());
        let value: f64 = s.trim().parse().map_err(|_| format!("'{s}' is not a number; {}", accepted()))?;
        if value.is_finite() && range.contains(&value) {
            Ok(value)
        } else {
            Err(format!("{s} is out of range; {}", accepted()))
        }
    }
}

/// A date written YYYY-MM-DD that the calendar has.
pub fn parse_date(s: &str) -> Result<String, String> {
    if calendar::is_calendar_date(s) { Ok(s.to_string()) } else { Err(format!("'{s}' is not a date YYYY-MM-DD")) }
}

/// A slice `I/N` of the work: 0 ≤ I < N.
#[cfg(feature = "distributed")]
pub fn parse_slice(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s.split_once('/').ok_or("expected I/N, e.g. 0/4")?;
    let (i, n): (usize, usize) =
        (i.parse().map_err(|_| "I is not a number")?, n.parse().map_err(|_| "N is not a number")?);
    if n == 0 || i >= n {
        return Err("need 0 ≤ I < N".into());
    }
    Ok((i, n))
}

fn show(range: &RangeInclusive<u64>) -> String {
    format!("{} to {}", range.start(), range.end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_and_non_numbers_are_refused_with_the_range() {
        let k = whole_in(1..=64);
        assert_eq!(k("5"), Ok(5));
        assert!(k("0").unwrap_err().contains("1 to 64"));
        assert!(k("18446744073709551616").is_err());
        let secs = number_in(0.001..=86_400.0);
        assert_eq!(secs("2.5"), Ok(2.5));
        for bad in ["0", "-1", "NaN", "inf", "1e400", "x"] {
            assert!(secs(bad).is_err(), "{bad} accepted");
        }
    }
}
