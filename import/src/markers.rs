//! Colossus's `MarkersName`: the legion markers of each player colour and
//! their names, a line `Bk01 = Axes` each (a colour's two letters, the
//! marker's number, its name), `#` lines between colours. It gives
//! `rules.legions`: the markers a player has and their names by seat.

use std::collections::BTreeMap;
use std::path::Path;

use titan_core::format::LegionRules;

use crate::Error;
use crate::manifest::Source;

/// The Colossus colours of titan's seats, in the order the game window
/// gives its seats theirs (Red, Blue, Green, Yellow, Purple, Cyan): each
/// seat takes the markers of the Colossus colour most like its own.
pub const SEAT_COLOURS: [(&str, &str); 6] = [
    ("Rd", "Red"),
    ("Bu", "Blue"),
    ("Gr", "Green"),
    ("Gd", "Gold"),
    ("Pu", "Purple"),
    ("Sk", "Sky"),
];

/// A marker's line: its number, its name and the line it is on.
struct Entry {
    number: u8,
    name: String,
    line: u32,
}

/// A `MarkersName` read: every colour's markers, by the colour's letters,
/// numbered 1, 2, ... without a gap.
pub struct Markers {
    colours: BTreeMap<String, Vec<Entry>>,
}

/// Reads the `MarkersName` the variant finds (its folder, those it depends
/// on, Default); `None` when there is none. A line that is no marker, a
/// marker named twice or without a name, and a colour whose numbers leave
/// a gap are errors at their line.
pub fn read(src: &Source) -> Result<Option<Markers>, Error> {
    let Some(path) = src.find("MarkersName") else {
        return Ok(None);
    };
    let bytes = std::fs::read(&path).map_err(|e| Error::at(&path, 0, e.to_string()))?;
    // Java reads a properties file as ISO 8859-1; UTF-8 is taken as is.
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    };
    parse(&path, &text).map(Some)
}

fn parse(path: &Path, text: &str) -> Result<Markers, Error> {
    let mut colours: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let at = |m: String| Error::at(path, line, m);
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') || l.starts_with('!') {
            continue;
        }
        let Some((key, name)) = l.split_once('=') else {
            return Err(at(format!(
                "{l:?} is no marker's name: expected a line like `Bk01 = Axes`"
            )));
        };
        let (key, name) = (key.trim(), name.trim());
        let (colour, number) = marker_key(key).ok_or_else(|| {
            at(format!(
                "{key:?} is no marker: a colour's two letters and a number from 01, like `Bk01`"
            ))
        })?;
        if name.is_empty() {
            return Err(at(format!("marker {key} has no name")));
        }
        let list = colours.entry(colour.to_string()).or_default();
        if let Some(first) = list.iter().find(|e| e.number == number) {
            return Err(at(format!(
                "marker {key} is named twice (first at line {})",
                first.line
            )));
        }
        list.push(Entry {
            number,
            name: name.to_string(),
            line,
        });
    }
    for (colour, list) in &mut colours {
        list.sort_by_key(|e| e.number);
        for (n, e) in (1u8..).zip(list.iter()) {
            if e.number != n {
                return Err(Error::at(
                    path,
                    e.line,
                    format!(
                        "marker {colour}{:02}: {colour}{n:02} is missing (a colour's markers are numbered from 01 without a gap)",
                        e.number
                    ),
                ));
            }
        }
    }
    Ok(Markers { colours })
}

/// `Bk01` as (`Bk`, 1): two letters and a number from 1 to 255.
fn marker_key(key: &str) -> Option<(&str, u8)> {
    let colour = key.get(..2)?;
    let digits = &key[2..];
    if !colour.chars().all(|c| c.is_ascii_alphabetic())
        || digits.is_empty()
        || !digits.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let number: u8 = digits.parse().ok()?;
    (number > 0).then_some((colour, number))
}

impl Markers {
    /// The markers a player has: the fewest of any colour (every seat can
    /// then have as many).
    pub fn per_player(&self) -> Option<u8> {
        self.colours
            .values()
            .map(Vec::len)
            .min()
            .and_then(|n| u8::try_from(n).ok())
    }

    /// The names by seat for `seats` seats (the colours of
    /// [`SEAT_COLOURS`]), each list at most `per_player` long; a seat whose
    /// colour the file lacks has an empty list. Empty when no seat has one.
    pub fn names(&self, seats: u8, per_player: u8) -> Vec<Vec<String>> {
        let mut names: Vec<Vec<String>> = SEAT_COLOURS
            .iter()
            .take(usize::from(seats))
            .map(|(letters, _)| {
                self.colours
                    .get(*letters)
                    .into_iter()
                    .flatten()
                    .take(usize::from(per_player))
                    .map(|e| e.name.clone())
                    .collect()
            })
            .collect();
        while names.last().is_some_and(Vec::is_empty) {
            names.pop();
        }
        names
    }

    /// Sets the markers a player has and their names in `legions`; what it
    /// imported, for the README (`None`: no seat's colour has names).
    pub fn apply(&self, legions: &mut LegionRules, seats: u8) -> Option<String> {
        if let Some(n) = self.per_player() {
            legions.markers_per_player = n;
        }
        legions.marker_names = self.names(seats, legions.markers_per_player);
        if legions.marker_names.is_empty() {
            return None;
        }
        let colours: Vec<String> = SEAT_COLOURS
            .iter()
            .take(legions.marker_names.len())
            .enumerate()
            .filter(|(seat, _)| !legions.marker_names[*seat].is_empty())
            .map(|(seat, (_, colour))| format!("{colour} as seat {}", seat + 1))
            .collect();
        Some(format!(
            "The legion markers' names (`MarkersName`, `rules.legions.marker_names`): {} (titan's seats are Red, Blue, Green, Yellow, Purple and Cyan); shown beside the markers' numbers.",
            colours.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Markers, Error> {
        parse(Path::new("MarkersName"), text)
    }

    #[test]
    fn colours_are_read_by_their_letters_in_any_order() {
        let m = parsed("# Red\nRd02 = Rose\n\nRd01=Axes\n# Blue\nBu01 = Bat\n! comment\n").unwrap();
        assert_eq!(m.per_player(), Some(1));
        assert_eq!(
            m.names(6, 1),
            vec![vec!["Axes".to_string()], vec!["Bat".to_string()]]
        );
        assert_eq!(m.names(6, 5)[0], vec!["Axes", "Rose"]);
        assert_eq!(m.names(1, 5).len(), 1);
    }

    #[test]
    fn bad_lines_are_named_at_their_line() {
        for (text, line, what) in [
            ("# Red\nRd01 Axes\n", 2, "no marker's name"),
            ("Rd01 = Axes\nRed1 = Eye\n", 2, "\"Red1\" is no marker"),
            ("Rd00 = Axes\n", 1, "is no marker"),
            ("Rd01 =   \n", 1, "marker Rd01 has no name"),
            (
                "Rd01 = Axes\n\nRd01 = Eye\n",
                3,
                "named twice (first at line 1)",
            ),
            ("Rd01 = Axes\nRd03 = Eye\n", 2, "Rd02 is missing"),
        ] {
            let e = parsed(text)
                .err()
                .unwrap_or_else(|| panic!("{text:?} read"));
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
    }
}
