//! Colour for the trace views, as an optional layer: every view is written
//! so that it reads the same without colour (letters and symbols carry the
//! meaning), and [`Paint`] only adds ANSI escapes around them when asked.

/// What a piece of text stands for; each gets one colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    /// The coordinator node.
    Coordinator,
    /// A replica the consistency level contacted (the seed's "replica hit").
    Contacted,
    /// A replica holding the partition but not contacted.
    Replica,
    /// A node holding a hot or oversized partition.
    Hot,
    /// A node asked by a scatter-gather.
    Scatter,
    /// A node marked down.
    Down,
    /// A node the statement does not involve, and elided rows.
    Idle,
    /// Rows the statement read or wrote.
    Marked,
    /// Section headings.
    Heading,
    /// Warnings.
    Warning,
}

impl Tone {
    /// The SGR parameters of the tone.
    fn code(self) -> &'static str {
        match self {
            Tone::Coordinator => "1;36",
            Tone::Contacted => "1;32",
            Tone::Replica => "32",
            Tone::Hot => "1;31",
            Tone::Scatter => "1;33",
            Tone::Down => "2;31",
            Tone::Idle => "2",
            Tone::Marked => "32",
            Tone::Heading => "1",
            Tone::Warning => "33",
        }
    }
}

/// Whether output is coloured; passed to every view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Paint {
    /// Colour on (TRACING in a colour terminal) or off (scripts, tests).
    pub(crate) color: bool,
}

impl Paint {
    /// `text` in `tone`, or unchanged without colour.
    pub(crate) fn paint(self, tone: Tone, text: &str) -> String {
        if self.color && !text.is_empty() {
            format!("\x1b[{}m{text}\x1b[0m", tone.code())
        } else {
            text.to_string()
        }
    }

    /// `text` in `tone` when there is one.
    pub(crate) fn maybe(self, tone: Option<Tone>, text: &str) -> String {
        match tone {
            Some(tone) => self.paint(tone, text),
            None => text.to_string(),
        }
    }
}

/// A count with thousands separators (`10,000`), for row counts a user
/// compares at a glance.
pub(crate) fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n thing` or `n things`.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_group_thousands() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(1_234_567), "1,234,567");
    }

    #[test]
    fn paint_is_plain_without_colour() {
        assert_eq!(Paint { color: false }.paint(Tone::Hot, "H"), "H");
        assert_eq!(
            Paint { color: true }.paint(Tone::Hot, "H"),
            "\x1b[1;31mH\x1b[0m"
        );
    }
}
