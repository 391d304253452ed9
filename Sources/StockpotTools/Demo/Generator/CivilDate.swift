// Converts a day count since 1970-01-01 to a proleptic Gregorian year, month and day,
// so generated timestamps need no Foundation calendar.

/// A calendar date computed from days since the Unix epoch.
package struct CivilDate {
    package let year: Int
    package let month: Int
    package let day: Int

    package init(daysSinceEpoch days: Int) {
        // Count from 0000-03-01 in 400-year eras, so the leap day falls at the end of a year.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // 0 = March
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}
