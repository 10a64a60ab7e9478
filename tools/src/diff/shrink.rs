//! Greedy delta debugging of a case that differs, toward the smallest case
//! with the same difference (the same kind of difference).
//!
//! In order, each step kept when the difference stays: the configuration
//! to the textbook one; the sequence to one of its lines, then to fewer
//! lines; then each line, its candidates in groups tried in this order:
//! whole lines (toward the textbook request with the line's id, the line
//! `x`); members and elements deleted where that keeps the nesting as
//! deep; the depth of the deepest nesting searched ([`shallower`]: its
//! first node down that can be written in the shortest form, `[[[]]]`, is,
//! and its levels are halved, then bisected); the deletions that lower the
//! nesting; values replaced by the simplest of their kind (`{}`, `[]`,
//! `""`, `0`, `false`, `null`, nesting in the shortest form), ids toward
//! small integers and short strings, strings shortened, numbers toward
//! shorter literals (fewer digits, no fraction, a shorter exponent, a long
//! integer as `1e` and its digit count). After a step kept the line starts
//! again from the first group, so deletions are retried after every value
//! shrunk. A line the model's reader ([`model::parse`]) reads is shrunk as
//! a tree; any other (nested too deep for it, say) by its shape ([`raw`],
//! read at any depth), then, unless it was refused only as too deep, with
//! byte ranges cut out. A step is kept only when it makes the case shorter
//! (or as long and bytewise smaller), so shrinking ends. Within a group
//! the candidates are tried from where the group's last step was found,
//! around, so a line is done after one whole pass over its candidates
//! finds nothing; shrinking also ends when the budget of runs is spent.
//!
//! Owns no rule of `docs/behavior.md`: whether a candidate still differs
//! is asked of the command and the reference.

use std::collections::HashSet;

use mcp_reference::Config;
use mcp_reference_testkit::model::{self, Json};

use super::exec::textbook_request;

mod raw;

/// A case: configuration and lines.
pub(crate) type Case = (Config, Vec<Vec<u8>>);

/// Shrinks `case` while `differs` holds, within `budget` calls of it.
pub(crate) fn shrink(
    case: Case,
    budget: u32,
    differs: &mut dyn FnMut(&Config, &[Vec<u8>]) -> bool,
) -> Case {
    let (mut config, mut lines) = case;
    let mut left = budget;
    let mut tried: HashSet<(bool, Vec<Vec<u8>>)> = HashSet::new();
    let mut test = |config: &Config, lines: &[Vec<u8>], left: &mut u32| -> bool {
        if *left == 0 {
            return false;
        }
        let key = (*config == Config::default(), lines.to_vec());
        if !tried.insert(key) {
            return false;
        }
        *left -= 1;
        differs(config, lines)
    };
    let textbook = Config::default();
    if config != textbook && test(&textbook, &lines, &mut left) {
        config = textbook;
    }
    // The sequence: one line, else fewer lines.
    if lines.len() > 1 {
        let mut by_size: Vec<&Vec<u8>> = lines.iter().collect();
        by_size.sort_by_key(|l| l.len());
        if let Some(one) = by_size
            .into_iter()
            .find(|l| test(&config, std::slice::from_ref(*l), &mut left))
        {
            lines = vec![one.clone()];
        }
    }
    let mut i = 0;
    while lines.len() > 1 && i < lines.len() {
        let mut fewer = lines.clone();
        fewer.remove(i);
        if test(&config, &fewer, &mut left) {
            lines = fewer;
        } else {
            i += 1;
        }
    }
    // Each line: whole lines, then deletions that keep the nesting, the
    // depth, the other deletions, values; after any step kept, from the
    // start again, so deletions are retried until none is left.
    for n in 0..lines.len() {
        let mut starts = [0usize; 4];
        while let Some(current) = lines.get(n).cloned() {
            let mut shows = |c: &[u8], left: &mut u32| {
                let mut next = lines.clone();
                if let Some(slot) = next.get_mut(n) {
                    *slot = c.to_vec();
                }
                test(&config, &next, left)
            };
            let [jumps, deletions, values] = candidates(&config, &current);
            // Deletions that lower the nesting go after the depth search:
            // down the deepest path each would fail where the search wins.
            let depth = nesting(&current);
            let (keeping, lowering): (Vec<_>, Vec<_>) =
                deletions.into_iter().partition(|c| nesting(c) >= depth);
            // Deleting levels of nesting in its shortest form is what the
            // depth search decides.
            let lowering = lowering
                .into_iter()
                .filter(|c| !cuts_levels(&current, c))
                .collect();
            let phases = [jumps, keeping, lowering, values];
            let mut kept = None;
            for (phase, all) in phases.iter().enumerate() {
                let all: Vec<&Vec<u8>> = all.iter().filter(|c| smaller(c, &current)).collect();
                let start = starts.get(phase).copied().unwrap_or(0);
                let begin = if start < all.len() { start } else { 0 };
                let found = (begin..all.len())
                    .chain(0..begin)
                    .filter_map(|i| all.get(i).map(|c| (i, *c)))
                    .find(|(_, c)| shows(c, &mut left));
                if let Some((i, c)) = found {
                    if let Some(s) = starts.get_mut(phase) {
                        *s = i;
                    }
                    kept = Some(c.clone());
                    break;
                }
                // After the deletions: the depth.
                if phase == 1
                    && let Some(c) = shallower(&current, &mut |c| shows(c, &mut left))
                {
                    kept = Some(c);
                    break;
                }
            }
            match (kept, lines.get_mut(n)) {
                (Some(c), Some(slot)) => *slot = c,
                _ => break,
            }
        }
    }
    (config, lines)
}

/// The line with its deepest nesting at the fewest levels that still show
/// the difference: down the deepest path, the first array or object that
/// can be written in the shortest form ([`nest`], as many levels) is, and
/// its levels are halved while the difference shows, then bisected between
/// the last that did not and the last that did. Each try is one run, so
/// a depth of `d` costs about 2 log2 `d` runs, not `d`.
fn shallower(line: &[u8], shows: &mut dyn FnMut(&[u8]) -> bool) -> Option<Vec<u8>> {
    let shape = raw::Shape::of(line);
    for (node, height) in shape.deepest_path() {
        let at = |k: usize| shape.replaced(node, &nest(k));
        let Some(shortest) = at(height) else {
            continue;
        };
        let already = shortest == line;
        // The node's own levels, in the shortest form, must show it first.
        if !(already || smaller(&shortest, line) && shows(&shortest)) {
            continue;
        }
        let mut best = (!already).then_some(shortest);
        // Levels known to show (`hi`) and not to (`lo`).
        let (mut lo, mut hi) = (0, height);
        while hi / 2 > lo {
            let k = hi / 2;
            match at(k).filter(|c| shows(c)) {
                Some(c) => (hi, best) = (k, Some(c)),
                None => lo = k,
            }
        }
        while hi - lo > 1 {
            let k = lo + (hi - lo) / 2;
            match at(k).filter(|c| shows(c)) {
                Some(c) => (hi, best) = (k, Some(c)),
                None => lo = k,
            }
        }
        // Every node below is in the shortest form already.
        return best;
    }
    None
}

/// Whether `cut` is `line` without some levels of a nesting in the
/// shortest form: what differs is `[` some times, then `]` as many.
fn cuts_levels(line: &[u8], cut: &[u8]) -> bool {
    let prefix = line.iter().zip(cut).take_while(|(a, b)| a == b).count();
    let rest = cut.len().saturating_sub(prefix);
    let suffix = line
        .iter()
        .rev()
        .zip(cut.iter().rev())
        .take(rest)
        .take_while(|(a, b)| a == b)
        .count();
    let Some(middle) = line.get(prefix..line.len().saturating_sub(suffix)) else {
        return false;
    };
    let open = middle.iter().take_while(|b| **b == b'[').count();
    !middle.is_empty() && middle.len() == 2 * open && nest(open) == middle
}

fn smaller(a: &[u8], b: &[u8]) -> bool {
    a.len() < b.len() || (a.len() == b.len() && a < b)
}

/// The candidates for one line, in three groups tried in order: whole
/// lines it may become (the textbook request, `x`), deletions of members
/// and elements, then simpler values, most promising first in each.
fn candidates(config: &Config, line: &[u8]) -> [Vec<Vec<u8>>; 3] {
    if line.contains(&b'\r') {
        return [Vec::new(), Vec::new(), byte_candidates(line)];
    }
    let render = |groups: [Vec<Json>; 3], bad: Option<&[u8]>| {
        groups.map(|g| {
            g.into_iter()
                .map(|t| match bad {
                    Some(bad) => put_back(&t.render(), bad),
                    None => t.render(),
                })
                .collect()
        })
    };
    let read = model::parse(line);
    if let Ok(parsed) = &read {
        return render(tree_candidates(config, &parsed.tree), None);
    }
    // A line that is JSON but for bytes that are not UTF-8: shrunk as a
    // tree with a stand-in character for them, put back after.
    if let Some((text, bad)) = stand_in(line)
        && let Ok(parsed) = model::parse(text.as_bytes())
    {
        return render(tree_candidates(config, &parsed.tree), Some(&bad));
    }
    // Any other line (nested too deep for the model's reader, not JSON):
    // by its shape, then byte ranges cut out.
    // A line refused only as too deep is JSON as far as it was read: its
    // shape is all there is to shrink, and byte cuts (hundreds of runs on
    // a line of a few hundred bytes) would only break it.
    let shape = raw::Shape::of(line);
    let mut values = shape.shorter_scalars();
    if read != Err(model::parse::Refusal::TooDeep) {
        values.extend(byte_candidates(line));
    }
    [vec![b"x".to_vec(), Vec::new()], shape.deletions(), values]
}

/// The private-use character that stands in for bytes that are not UTF-8.
const STAND_IN: char = '\u{e000}';

/// The line with each run of bytes that are not UTF-8 replaced by
/// [`STAND_IN`], and the first such run; `None` when the line is UTF-8 or
/// already holds the character.
fn stand_in(line: &[u8]) -> Option<(String, Vec<u8>)> {
    let mut raw = [0u8; 4];
    let raw: &[u8] = STAND_IN.encode_utf8(&mut raw).as_bytes();
    if line.windows(raw.len()).any(|w| w == raw) {
        return None;
    }
    let mut text = String::new();
    let mut first: Option<Vec<u8>> = None;
    let mut rest = line;
    loop {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                text.push_str(valid);
                break;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                text.push_str(std::str::from_utf8(valid).ok()?);
                let bad = e.error_len().unwrap_or(after.len()).max(1);
                let (run, after) = after.split_at(bad.min(after.len()));
                first.get_or_insert_with(|| run.to_vec());
                text.push(STAND_IN);
                rest = after;
            }
        }
    }
    first.map(|first| (text, first))
}

/// A rendered line with [`STAND_IN`] (raw or escaped) replaced by `bad`.
fn put_back(rendered: &[u8], bad: &[u8]) -> Vec<u8> {
    let mut raw = [0u8; 4];
    let raw: &[u8] = STAND_IN.encode_utf8(&mut raw).as_bytes();
    let escaped: &[u8] = b"\\ue000";
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(rest) = rendered.get(i..).filter(|r| !r.is_empty()) {
        if rest.starts_with(raw) {
            out.extend_from_slice(bad);
            i += raw.len();
        } else if rest.starts_with(escaped) {
            out.extend_from_slice(bad);
            i += escaped.len();
        } else {
            out.extend_from_slice(rest.get(..1).unwrap_or_default());
            i += 1;
        }
    }
    out
}

/// `depth` arrays, each inside the one before: the shortest form of a
/// nesting that deep.
fn nest(depth: usize) -> Vec<u8> {
    let mut out = vec![b'['; depth];
    out.extend(std::iter::repeat_n(b']', depth));
    out
}

/// How deep the brackets of a line nest, outside its strings.
fn nesting(line: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0, false, false);
    for &b in line {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'[' | b'{') => {
                depth += 1;
                max = max.max(depth);
            }
            (false, _, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

fn byte_candidates(line: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![b"x".to_vec(), Vec::new()];
    let depth = nesting(line);
    if depth > 1 {
        out.extend([nest(depth), nest(depth - 1)]);
    }
    let mut chunk = line.len() / 2;
    while chunk >= 1 {
        let mut start = 0;
        let mut count = 0;
        while start < line.len() && count < 64 {
            let end = (start + chunk).min(line.len());
            let mut cut = line.get(..start).unwrap_or_default().to_vec();
            cut.extend_from_slice(line.get(end..).unwrap_or_default());
            out.push(cut);
            start = end;
            count += 1;
        }
        chunk /= 2;
    }
    out
}

/// Every node of the tree, by its path of child positions, outermost first.
fn paths(tree: &Json) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    let mut i = 0;
    while let Some(path) = out.get(i).cloned() {
        i += 1;
        let children = match at(tree, &path) {
            Some(Json::Arr(items)) => items.len(),
            Some(Json::Obj(members)) => members.len(),
            _ => 0,
        };
        for c in 0..children {
            let mut p = path.clone();
            p.push(c);
            out.push(p);
        }
    }
    out
}

fn at<'t>(tree: &'t Json, path: &[usize]) -> Option<&'t Json> {
    let Some((first, rest)) = path.split_first() else {
        return Some(tree);
    };
    match tree {
        Json::Arr(items) => at(items.get(*first)?, rest),
        Json::Obj(members) => at(&members.get(*first)?.2, rest),
        _ => None,
    }
}

fn at_mut<'t>(tree: &'t mut Json, path: &[usize]) -> Option<&'t mut Json> {
    let Some((first, rest)) = path.split_first() else {
        return Some(tree);
    };
    match tree {
        Json::Arr(items) => at_mut(items.get_mut(*first)?, rest),
        Json::Obj(members) => at_mut(&mut members.get_mut(*first)?.2, rest),
        _ => None,
    }
}

fn removed(tree: &Json, path: &[usize]) -> Option<Json> {
    let (last, parent) = path.split_last()?;
    let mut out = tree.clone();
    match at_mut(&mut out, parent)? {
        Json::Arr(items) if *last < items.len() => {
            items.remove(*last);
        }
        Json::Obj(members) if *last < members.len() => {
            members.remove(*last);
        }
        _ => return None,
    }
    Some(out)
}

fn replaced(tree: &Json, path: &[usize], with: Json) -> Option<Json> {
    let mut out = tree.clone();
    *at_mut(&mut out, path)? = with;
    Some(out)
}

/// Simpler values of the node's kind, then `null`.
fn simpler(node: &Json, is_id: bool) -> Vec<Json> {
    let mut out = Vec::new();
    if is_id {
        out.extend([Json::int(1), Json::str("a"), Json::int(0)]);
    }
    match node {
        Json::Obj(_) | Json::Arr(_) => {
            out.push(match node {
                Json::Obj(_) => Json::Obj(Vec::new()),
                _ => Json::Arr(Vec::new()),
            });
            let depth = node.depth();
            if depth > 2 {
                out.extend([nested(depth), nested(depth - 1)]);
            }
        }
        Json::Str(s, esc) => {
            out.push(Json::str(""));
            let chars: Vec<char> = s.chars().collect();
            for keep in [chars.len() / 2, chars.len().saturating_sub(1)] {
                out.push(Json::Str(chars.iter().take(keep).collect(), *esc));
            }
            out.push(Json::str(s.clone()));
        }
        Json::Num(n) => {
            out.extend([Json::int(0), Json::int(1)]);
            out.extend(shorter_numbers(n).into_iter().map(Json::Num));
        }
        Json::Bool(true) => out.push(Json::Bool(false)),
        _ => {}
    }
    out.push(Json::Null);
    out
}

/// [`nest`] as a tree.
fn nested(depth: usize) -> Json {
    (1..depth).fold(Json::Arr(Vec::new()), |inner, _| Json::Arr(vec![inner]))
}

/// Shorter literals for the number literal `n`, of its sign: its integer
/// digits cut to half, to one less and to a 1 and zeros; its fraction
/// dropped or cut to one digit; its exponent dropped, its digits cut to half
/// and to one less; a long integer as `1e` and its digit count less one.
fn shorter_numbers(n: &str) -> Vec<String> {
    let (sign, rest) = match n.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", n),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (rest.get(..i).unwrap_or_default(), rest.get(i + 1..)),
        None => (rest, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return Vec::new();
    }
    let exp_sign = exp
        .and_then(|e| e.strip_prefix('-').map(|_| "-"))
        .unwrap_or("");
    let exp_digits = exp.map(|e| e.trim_start_matches(['+', '-']));
    let join = |int: &str, frac: Option<&str>, exp: Option<&str>| {
        let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
        let exp = exp.map(|e| format!("e{exp_sign}{e}")).unwrap_or_default();
        format!("{sign}{int}{frac}{exp}")
    };
    let cut = |digits: &str| -> Vec<String> {
        let mut out: Vec<String> = [digits.len() / 2, digits.len().saturating_sub(1)]
            .into_iter()
            .filter(|keep| *keep > 0)
            .map(|keep| digits.chars().take(keep).collect())
            .collect();
        out.push(format!("1{}", "0".repeat(digits.len().saturating_sub(1))));
        out
    };
    let mut out = Vec::new();
    for i in cut(int) {
        out.push(join(&i, frac, exp_digits));
    }
    if let Some(f) = frac {
        out.push(join(int, None, exp_digits));
        out.push(join(int, f.get(..1), exp_digits));
    }
    if let Some(e) = exp_digits {
        out.push(join(int, frac, None));
        for e in cut(e) {
            out.push(join(int, frac, Some(&e)));
        }
    }
    if frac.is_none() && exp.is_none() && int.len() > 3 {
        out.push(format!("{sign}1e{}", int.len() - 1));
    }
    out
}

/// [`candidates`] for a line the model reads: toward the textbook request,
/// the deletions, the simpler values.
fn tree_candidates(config: &Config, tree: &Json) -> [Vec<Json>; 3] {
    let mut out = Vec::new();
    let (mut deletions, mut values) = (Vec::new(), Vec::new());
    // Toward the textbook request, keeping the line's id (or none).
    if let Json::Obj(members) = tree {
        let id = members.iter().find(|m| m.0 == "id").map(|m| m.2.clone());
        let textbook = textbook_request(config, id.clone().unwrap_or(Json::int(1)));
        out.push(textbook.clone());
        if id.is_none()
            && let Some(t) = removed(&textbook, &[1])
        {
            out.push(t);
        }
        // The textbook request with the line's id and the line's `_meta`
        // members in place of (or next to) the textbook's.
        let meta = tree.get("params").and_then(|p| p.get("_meta"));
        if let (Some(Json::Obj(line_meta)), Some(_)) = (meta, with_meta(&textbook)) {
            let mut merged = textbook.clone();
            if let Some(Json::Obj(ms)) = meta_mut(&mut merged) {
                for m in line_meta {
                    match ms.iter_mut().find(|x| x.0 == m.0) {
                        Some(x) => *x = m.clone(),
                        None => ms.push(m.clone()),
                    }
                }
            }
            out.push(merged);
        }
        // Its method and id, with the textbook's params.
        let mut with_params = tree.clone();
        if let (Json::Obj(ms), Some(params)) = (&mut with_params, textbook.get("params")) {
            for m in ms.iter_mut().filter(|m| m.0 == "params") {
                m.2 = params.clone();
            }
            out.push(with_params);
        }
    }
    for path in paths(tree) {
        if !path.is_empty()
            && let Some(t) = removed(tree, &path)
        {
            deletions.push(t);
        }
        let is_id = path.len() == 1
            && matches!(tree, Json::Obj(ms) if path.first().and_then(|i| ms.get(*i)).is_some_and(|m| m.0 == "id"));
        if let Some(node) = at(tree, &path) {
            for with in simpler(node, is_id) {
                if &with != node
                    && let Some(t) = replaced(tree, &path, with)
                {
                    values.push(t);
                }
            }
        }
    }
    [out, deletions, values]
}

fn with_meta(tree: &Json) -> Option<&Json> {
    tree.get("params")?.get("_meta")
}

fn meta_mut(tree: &mut Json) -> Option<&mut Json> {
    let Json::Obj(ms) = tree else { return None };
    let params = &mut ms.iter_mut().find(|m| m.0 == "params")?.2;
    let Json::Obj(ps) = params else { return None };
    Some(&mut ps.iter_mut().find(|m| m.0 == "_meta")?.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_with_bytes_that_are_not_utf8_shrinks_as_a_tree() {
        let line = b"{\"id\":1,\"method\":\"a\x93b\",\"deep\":[[[]]]}";
        let all: Vec<Vec<u8>> = candidates(&Config::default(), line).concat();
        let stand_in = "\u{e000}".as_bytes();
        assert!(all.iter().all(|c| !c.windows(3).any(|w| w == stand_in)));
        assert!(
            all.iter()
                .any(|c| c.as_slice() == b"{\"id\":1,\"method\":\"a\x93b\"}"),
            "{:?}",
            all.iter()
                .map(|c| String::from_utf8_lossy(c))
                .collect::<Vec<_>>()
        );
        assert_eq!(put_back("\"\\ue000\"".as_bytes(), b"\xff"), b"\"\xff\"");
    }

    /// 128 levels of `{"a":` (too deep for the model's reader, about 1 kB)
    /// shrink to `[` 128 times and `]` 128 times: 256 bytes.
    #[test]
    fn deep_nesting_shrinks_to_its_shortest_form() {
        let mut line = "{\"a\":".repeat(128).into_bytes();
        line.extend(std::iter::repeat_n(b'}', 128));
        assert!(model::parse(&line).is_err());
        // A port that answers balanced nesting of 128 levels or more
        // otherwise than the reference.
        let too_deep = |_: &Config, lines: &[Vec<u8>]| {
            lines.first().is_some_and(|l| {
                let count = |of: &[u8]| l.iter().filter(|b| of.contains(b)).count();
                nesting(l) >= 128 && count(b"[{") == count(b"]}")
            })
        };
        let (_, lines) = shrink((Config::default(), vec![line]), 100, &mut { too_deep });
        assert_eq!(lines, vec![nest(128)]);
        // Within the reader's limit, nesting is rewritten as a tree.
        let tree = model::parse(br#"{"id":1,"x":{"a":{"b":{"c":[1]}}}}"#).map(|p| p.tree);
        let all = tree.map(|t| tree_candidates(&Config::default(), &t));
        assert!(all.is_ok_and(|all| {
            all.iter()
                .flatten()
                .any(|t| t.render() == br#"{"id":1,"x":[[[[]]]]}"#)
        }));
    }

    #[test]
    fn numbers_shrink_to_shorter_literals() {
        let all = shorter_numbers("-18446744073709551616");
        for want in ["-1844674407", "-1e19", "-10000000000000000000"] {
            assert!(all.iter().any(|n| n == want), "{want}: {all:?}");
        }
        let all = shorter_numbers("1.25E+308");
        for want in ["1e308", "1.2e308", "1.25", "1.25e30", "1.25e100"] {
            assert!(all.iter().any(|n| n == want), "{want}: {all:?}");
        }
        assert!(shorter_numbers("x").is_empty());
    }
}
