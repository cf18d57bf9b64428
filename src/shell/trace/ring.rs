//! The ring view: the nodes around a circle at their tokens' places, each
//! tagged with its part in a statement — coordinator, replica, replica
//! contacted, node asked by a scatter-gather, holder of a hot partition,
//! down — and the partition's token on the circle, so the walk from the
//! token clockwise to its replicas can be seen.
//!
//! A circle only reads well for a small one-data-centre ring with one token
//! per node (the seed's four nodes); other rings are listed node by node
//! with the same tags.

use std::f64::consts::PI;

use unicode_width::UnicodeWidthStr;

use crate::cluster::murmur3::MIN_TOKEN;
use crate::cluster::{NodeIndex, Ring};

use super::paint::{Paint, Tone};

/// Most nodes drawn as a circle.
const MAX_DRAWN: usize = 12;

/// Half the circle's height, in lines.
const RADIUS_Y: f64 = 5.0;

/// Half the circle's width, in columns (a terminal cell is about twice as
/// tall as wide).
const RADIUS_X: f64 = 13.0;

/// A node's part in a statement.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Role {
    /// It coordinates.
    pub(crate) coordinator: bool,
    /// It holds a replica of an addressed partition.
    pub(crate) replica: bool,
    /// The consistency level contacts it for an addressed partition.
    pub(crate) contacted: bool,
    /// A scatter-gather asks it.
    pub(crate) asked: bool,
    /// It holds a hot or oversized partition the statement touched.
    pub(crate) hot: bool,
}

/// `[C R* H]`: the tags of a node, letters that need no colour.
fn tags(role: &Role, up: bool) -> String {
    let mut tags = Vec::new();
    if role.coordinator {
        tags.push("C");
    }
    if role.replica {
        tags.push(if role.contacted { "R*" } else { "R" });
    } else if role.contacted {
        tags.push("*");
    }
    if role.asked {
        tags.push("S");
    }
    if role.hot {
        tags.push("H");
    }
    if !up {
        tags.push("DOWN");
    }
    if tags.is_empty() {
        String::new()
    } else {
        format!("[{}]", tags.join(" "))
    }
}

/// The one colour a node's label gets: the most telling of its parts.
fn tone(role: &Role, up: bool) -> Tone {
    if !up {
        Tone::Down
    } else if role.hot {
        Tone::Hot
    } else if role.asked {
        Tone::Scatter
    } else if role.contacted {
        Tone::Contacted
    } else if role.replica {
        Tone::Replica
    } else if role.coordinator {
        Tone::Coordinator
    } else {
        Tone::Idle
    }
}

/// The mark of a node on the circle: `✕` down, `●` involved, `○` idle.
fn glyph(role: &Role, up: bool) -> &'static str {
    if !up {
        "✕"
    } else if role.contacted || role.asked || role.coordinator {
        "●"
    } else {
        "○"
    }
}

/// The legend of the tags and marks, for the consistency level in force;
/// the token mark only where the ring is drawn as a circle.
pub(crate) fn legend(ring: &Ring, consistency: &str) -> Vec<String> {
    let marks = if drawable(ring) {
        "  ● node at work · ○ idle · ✕ down · ◆ the partition's token (replicas follow it clockwise)"
    } else {
        "  ● node at work · ○ idle · ✕ down"
    };
    vec![
        format!(
            "  C coordinator · R replica of the partition · R* replica contacted at {consistency}"
        ),
        "  S asked by the scatter-gather · H holds a hot partition · DOWN node down".to_string(),
        marks.to_string(),
    ]
}

/// The ring with each node's role and the partition tokens marked: a
/// circle when it reads well, a list otherwise.
pub(crate) fn render(ring: &Ring, roles: &[Role], tokens: &[i64], paint: Paint) -> Vec<String> {
    if drawable(ring) {
        circle(ring, roles, tokens, paint)
    } else {
        listing(ring, roles, paint)
    }
}

/// Whether the ring can be drawn as a circle: one data centre, one token a
/// node, few nodes (data centres share token places, vnodes crowd them).
pub(crate) fn drawable(ring: &Ring) -> bool {
    ring.len() <= MAX_DRAWN && ring.datacenters().len() == 1 && ring.tokens_per_node() == 1
}

/// A character grid the circle is drawn on; each cell one column wide.
struct Canvas {
    cells: Vec<Vec<(String, Option<Tone>)>>,
}

impl Canvas {
    fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            cells: vec![vec![(" ".to_string(), None); width]; height],
        }
    }

    fn put(&mut self, x: usize, y: usize, text: &str, tone: Option<Tone>) {
        for (i, c) in text.chars().enumerate() {
            if let Some(cell) = self.cells.get_mut(y).and_then(|row| row.get_mut(x + i)) {
                *cell = (c.to_string(), tone);
            }
        }
    }

    fn is_blank(&self, x: usize, y: usize) -> bool {
        self.cells
            .get(y)
            .and_then(|row| row.get(x))
            .is_some_and(|(c, _)| c == " " || c == "·")
    }

    fn lines(&self, paint: Paint) -> Vec<String> {
        self.cells
            .iter()
            .map(|row| {
                let text: String = row.iter().map(|(c, tone)| paint.maybe(*tone, c)).collect();
                text.trim_end().to_string()
            })
            .collect()
    }
}

/// Where a token sits on the circle: the angle clockwise from the top,
/// the minimum token at the top.
fn angle(token: i64) -> f64 {
    let offset = (i128::from(token) - i128::from(MIN_TOKEN)) as f64;
    2.0 * PI * offset / 2f64.powi(64)
}

/// The grid cell of an angle, for a circle centred at `(cx, cy)`.
fn point(theta: f64, cx: f64, cy: f64) -> (usize, usize) {
    let x = cx + RADIUS_X * theta.sin();
    let y = cy - RADIUS_Y * theta.cos();
    (x.round().max(0.0) as usize, y.round().max(0.0) as usize)
}

fn label(ring: &Ring, index: NodeIndex, role: &Role) -> String {
    let node = ring.node(index);
    let tags = tags(role, node.up);
    if tags.is_empty() {
        node.id.clone()
    } else {
        format!("{} {tags}", node.id)
    }
}

fn circle(ring: &Ring, roles: &[Role], tokens: &[i64], paint: Paint) -> Vec<String> {
    let labels: Vec<String> = ring
        .indices()
        .map(|i| label(ring, i, &roles[i.get()]))
        .collect();
    let margin = labels.iter().map(|l| l.width()).max().unwrap_or(0) + 3;
    let width = 2 * margin + 2 * RADIUS_X as usize + 1;
    let height = 2 * RADIUS_Y as usize + 3;
    let (cx, cy) = ((margin as f64) + RADIUS_X, 1.0 + RADIUS_Y);
    let mut canvas = Canvas::new(width, height);
    for step in 0..96 {
        let (x, y) = point(2.0 * PI * f64::from(step) / 96.0, cx, cy);
        canvas.put(x, y, "·", Some(Tone::Idle));
    }
    for &token in tokens {
        let (x, y) = point(angle(token), cx, cy);
        canvas.put(x, y, "◆", Some(Tone::Heading));
    }
    for index in ring.indices() {
        let node = ring.node(index);
        let role = &roles[index.get()];
        let theta = angle(node.tokens.first().copied().unwrap_or(MIN_TOKEN));
        let (x, y) = point(theta, cx, cy);
        let tone = Some(tone(role, node.up));
        canvas.put(x, y, glyph(role, node.up), tone);
        place_label(&mut canvas, theta, (x, y), &labels[index.get()], tone);
    }
    canvas.lines(paint)
}

/// Writes a node's label beside its mark: right of it on the right half,
/// left of it on the left half, above or below it at the top and bottom.
fn place_label(
    canvas: &mut Canvas,
    theta: f64,
    (x, y): (usize, usize),
    text: &str,
    tone: Option<Tone>,
) {
    let width = text.width();
    let side = theta.sin();
    if side > 0.3 {
        canvas.put(x + 2, y, text, tone);
    } else if side < -0.3 {
        canvas.put(x.saturating_sub(width + 1), y, text, tone);
    } else {
        let row = if theta.cos() > 0.0 {
            y.saturating_sub(1)
        } else {
            y + 1
        };
        let start = x.saturating_sub(width / 2);
        let start = if canvas.is_blank(start, row) {
            start
        } else {
            x + 2
        };
        canvas.put(start, row, text, tone);
    }
}

/// The ring as a list, one node a line, with the same marks and tags.
fn listing(ring: &Ring, roles: &[Role], paint: Paint) -> Vec<String> {
    let width = |f: fn(&crate::cluster::Node) -> &str| {
        ring.nodes().iter().map(|n| f(n).width()).max().unwrap_or(0)
    };
    let (id, dc, rack) = (
        width(|n| &n.id),
        width(|n| &n.datacenter),
        width(|n| &n.rack),
    );
    ring.indices()
        .map(|index| {
            let node = ring.node(index);
            let role = &roles[index.get()];
            let text = format!(
                "  {} {:<id$}  {:<dc$}  {:<rack$}  {}",
                glyph(role, node.up),
                node.id,
                node.datacenter,
                node.rack,
                tags(role, node.up)
            );
            paint.paint(tone(role, node.up), text.trim_end())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_read_without_colour() {
        let role = Role {
            coordinator: true,
            replica: true,
            contacted: true,
            ..Role::default()
        };
        assert_eq!(tags(&role, true), "[C R*]");
        assert_eq!(tags(&Role::default(), false), "[DOWN]");
        assert_eq!(tags(&Role::default(), true), "");
    }

    #[test]
    fn the_minimum_token_is_at_the_top_and_zero_at_the_bottom() {
        assert!(angle(MIN_TOKEN).abs() < 1e-9);
        assert!((angle(0) - PI).abs() < 1e-9);
    }
}
