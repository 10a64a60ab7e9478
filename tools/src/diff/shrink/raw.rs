//! The shape of a line read as bracketed text, at any depth: for lines the
//! model's reader refuses (nested too deep, say), the members and elements
//! the shrinker may delete, the strings and other scalars it may shorten,
//! and the deepest nesting, whose depth it searches.
//!
//! The scan is a loop over the bytes with a stack, never a recursion, so a
//! line of any depth or any malformation is read in one pass: brackets,
//! commas and colons outside strings (RFC 8259 section 2: the structural
//! characters; section 7: strings and their escapes). A line that is not
//! JSON still has a shape; whether a candidate built from it still shows
//! the difference is asked of the command and the reference.

use std::ops::Range;

/// An array or object of the line.
#[derive(Debug, Clone)]
struct Node {
    /// From its opening bracket to just after its closing one (the end of
    /// the line when it is never closed).
    span: Range<usize>,
    /// Its members or elements, without the whitespace around them.
    items: Vec<Range<usize>>,
    /// The arrays and objects directly inside it.
    children: Vec<usize>,
    /// Its levels, itself included: 1 for `[]`.
    height: usize,
}

/// A line's shape.
pub(super) struct Shape<'l> {
    line: &'l [u8],
    /// In the order they open: outermost first along each path.
    nodes: Vec<Node>,
    /// The top-level arrays and objects.
    roots: Vec<usize>,
    /// Strings (quotes included) and other scalars, in order.
    scalars: Vec<Range<usize>>,
}

fn trimmed(line: &[u8], r: Range<usize>) -> Option<Range<usize>> {
    let text = line.get(r.clone())?;
    let first = text.iter().position(|b| !b.is_ascii_whitespace())?;
    let last = text.iter().rposition(|b| !b.is_ascii_whitespace())?;
    Some(r.start + first..r.start + last + 1)
}

impl<'l> Shape<'l> {
    /// Scans `line`.
    pub(super) fn of(line: &'l [u8]) -> Shape<'l> {
        let mut shape = Shape {
            line,
            nodes: Vec::new(),
            roots: Vec::new(),
            scalars: Vec::new(),
        };
        // Open nodes: the node and where its current item starts.
        let mut open: Vec<(usize, usize)> = Vec::new();
        let mut string: Option<usize> = None;
        let mut scalar: Option<usize> = None;
        let mut escaped = false;
        for (i, &b) in line.iter().enumerate() {
            if let Some(start) = string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => {
                        shape.scalars.push(start..i + 1);
                        string = None;
                    }
                    _ => {}
                }
                continue;
            }
            let structural = matches!(b, b'[' | b'{' | b']' | b'}' | b',' | b':' | b'"');
            if (structural || b.is_ascii_whitespace())
                && let Some(start) = scalar.take()
            {
                shape.scalars.push(start..i);
            }
            match b {
                b'"' => string = Some(i),
                b'[' | b'{' => {
                    let n = shape.nodes.len();
                    shape.nodes.push(Node {
                        span: i..line.len(),
                        items: Vec::new(),
                        children: Vec::new(),
                        height: 1,
                    });
                    match open.last().and_then(|(p, _)| shape.nodes.get_mut(*p)) {
                        Some(parent) => parent.children.push(n),
                        None => shape.roots.push(n),
                    }
                    open.push((n, i + 1));
                }
                b',' => {
                    if let Some((n, start)) = open.last_mut() {
                        let item = trimmed(line, *start..i);
                        if let (Some(item), Some(node)) = (item, shape.nodes.get_mut(*n)) {
                            node.items.push(item);
                        }
                        *start = i + 1;
                    }
                }
                b']' | b'}' => {
                    if let Some((n, start)) = open.pop() {
                        shape.close(n, start..i, i + 1);
                    }
                }
                b':' => {}
                _ if b.is_ascii_whitespace() => {}
                _ => {
                    scalar.get_or_insert(i);
                }
            }
        }
        if let Some(start) = scalar {
            shape.scalars.push(start..line.len());
        }
        while let Some((n, start)) = open.pop() {
            shape.close(n, start..line.len(), line.len());
        }
        shape
    }

    /// Ends node `n`: its last item, its end, its height.
    fn close(&mut self, n: usize, last: Range<usize>, end: usize) {
        let height = 1 + self
            .nodes
            .get(n)
            .map(|node| {
                node.children
                    .iter()
                    .filter_map(|c| self.nodes.get(*c))
                    .map(|c| c.height)
                    .max()
                    .unwrap_or(0)
            })
            .unwrap_or(0);
        let item = trimmed(self.line, last);
        if let Some(node) = self.nodes.get_mut(n) {
            node.items.extend(item);
            node.span.end = end;
            node.height = height;
        }
    }

    fn with(&self, cut: Range<usize>, put: &[u8]) -> Vec<u8> {
        let mut out = self.line.get(..cut.start).unwrap_or_default().to_vec();
        out.extend_from_slice(put);
        out.extend_from_slice(self.line.get(cut.end..).unwrap_or_default());
        out
    }

    /// The line without each member or element in turn (with the comma
    /// that joined it), outermost first.
    pub(super) fn deletions(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for node in &self.nodes {
            for (j, item) in node.items.iter().enumerate() {
                let before = j.checked_sub(1).and_then(|p| node.items.get(p));
                let cut = match (before, node.items.get(j + 1)) {
                    (Some(before), _) => before.end..item.end,
                    (None, Some(after)) => item.start..after.start,
                    (None, None) => item.clone(),
                };
                out.push(self.with(cut, b""));
            }
        }
        out
    }

    /// Each string as `""`, then cut to half and to one character less;
    /// each other scalar as `0`.
    pub(super) fn shorter_scalars(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for s in &self.scalars {
            let Some(text) = self.line.get(s.clone()) else {
                continue;
            };
            if text.first() != Some(&b'"') {
                out.push(self.with(s.clone(), b"0"));
                continue;
            }
            // Characters between the quotes, an escape counted as one.
            let inner = text
                .get(1..text.len().saturating_sub(1))
                .unwrap_or_default();
            let mut starts = Vec::new();
            let mut k = 0;
            while k < inner.len() {
                starts.push(k);
                k += match inner.get(k) {
                    Some(b'\\') if inner.get(k + 1) == Some(&b'u') => 6,
                    Some(b'\\') => 2,
                    Some(b) if *b >= 0xc0 => inner.get(k + 1..).map_or(1, |r| {
                        1 + r.iter().take_while(|c| (0x80..0xc0).contains(*c)).count()
                    }),
                    _ => 1,
                };
            }
            for keep in [0, starts.len() / 2, starts.len().saturating_sub(1)] {
                let cut = starts
                    .get(keep)
                    .copied()
                    .unwrap_or(inner.len())
                    .min(inner.len());
                let mut put = b"\"".to_vec();
                put.extend_from_slice(inner.get(..cut).unwrap_or_default());
                put.push(b'"');
                out.push(self.with(s.clone(), &put));
            }
        }
        out
    }

    /// The deepest nesting: from the deepest top-level array or object
    /// down, each node on the way to the deepest level, with its height.
    pub(super) fn deepest_path(&self) -> Vec<(usize, usize)> {
        let deepest = |among: &[usize]| {
            among
                .iter()
                .filter_map(|n| self.nodes.get(*n).map(|node| (*n, node.height)))
                .fold(None, |best: Option<(usize, usize)>, (n, h)| match best {
                    Some((_, bh)) if bh >= h => best,
                    _ => Some((n, h)),
                })
        };
        let mut out = Vec::new();
        let mut next = deepest(&self.roots);
        while let Some((n, h)) = next {
            out.push((n, h));
            next = self.nodes.get(n).and_then(|node| deepest(&node.children));
        }
        out
    }

    /// The line with node `n` replaced by `with`.
    pub(super) fn replaced(&self, n: usize, with: &[u8]) -> Option<Vec<u8>> {
        let node = self.nodes.get(n)?;
        Some(self.with(node.span.clone(), with))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(all: &[Vec<u8>]) -> Vec<String> {
        all.iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect()
    }

    #[test]
    fn deletions_take_each_member_and_element_with_its_comma() {
        let shape = Shape::of(br#"{"a": [1, 2], "b" : {}}"#);
        assert_eq!(
            text(&shape.deletions()),
            [
                r#"{"b" : {}}"#,
                r#"{"a": [1, 2]}"#,
                r#"{"a": [2], "b" : {}}"#,
                r#"{"a": [1], "b" : {}}"#
            ]
        );
    }

    #[test]
    fn the_deepest_path_is_read_at_any_depth_and_any_malformation() {
        let mut line = br#"{"x":1,"d":"#.to_vec();
        line.extend(std::iter::repeat_n(b'[', 5000));
        let shape = Shape::of(&line);
        let path = shape.deepest_path();
        assert_eq!(path.len(), 5001);
        assert_eq!(path.first().map(|p| p.1), Some(5001));
        assert_eq!(path.last().map(|p| p.1), Some(1));
        let second = path.get(1).map_or(0, |p| p.0);
        assert_eq!(
            shape.replaced(second, b"[]").as_deref(),
            Some(&br#"{"x":1,"d":[]"#[..])
        );
    }

    #[test]
    fn strings_shorten_by_characters_and_other_scalars_become_0() {
        let shape = Shape::of("[\"a\\u0041é\", true]".as_bytes());
        assert_eq!(
            text(&shape.shorter_scalars()),
            [
                "[\"\", true]",
                "[\"a\", true]",
                "[\"a\\u0041\", true]",
                "[\"a\\u0041é\", 0]"
            ]
        );
    }
}
