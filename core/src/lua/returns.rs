//! Which `return` statement of a function gave a value the engine does not
//! take: read from the script's source, on the error path only, so that a
//! call that succeeds costs nothing and no function runs twice.
//!
//! The source lines of the function (Lua's `linedefined` and
//! `lastlinedefined`) are split into tokens; the function's own `return`
//! statements (not those of functions nested in it) are the candidates. A
//! `return` whose values cannot hold a value of the type returned (nothing,
//! or a single literal of another type) is left out; when exactly one
//! candidate remains, its line is the answer. Anything less certain (two
//! candidates, a function that may end without `return` while `nil` was
//! the wrong value, two functions over the same lines) answers `None`.

/// One token of Lua source, as far as finding statements needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok<'a> {
    /// A name or a keyword.
    Word(&'a str),
    Str,
    Num,
    /// Punctuation, one or more characters (`(`, `..`, `==`).
    Sym(&'a str),
}

/// The tokens of `source` with their lines (1-based); `None` for text Lua
/// would not compile (an unfinished string or comment).
fn tokens(source: &str) -> Option<Vec<(u32, Tok<'_>)>> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut line = 1u32;
    let mut i = 0;
    // The end of a long bracket `[==[ ... ]==]` opening at `i`, if it is one.
    let long_bracket = |i: usize, line: &mut u32| -> Option<Option<usize>> {
        let mut j = i + 1;
        while bytes.get(j) == Some(&b'=') {
            j += 1;
        }
        if bytes.get(j) != Some(&b'[') {
            return None;
        }
        let level = j - i - 1;
        let mut k = j + 1;
        while k < bytes.len() {
            match bytes[k] {
                b'\n' => *line += 1,
                b']' if bytes[k + 1..].starts_with(&b"=".repeat(level))
                    && bytes.get(k + 1 + level) == Some(&b']') =>
                {
                    return Some(Some(k + 2 + level));
                }
                _ => {}
            }
            k += 1;
        }
        Some(None)
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                if bytes.get(i + 2) == Some(&b'[')
                    && let Some(end) = long_bracket(i + 2, &mut line)
                {
                    i = end?;
                } else {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
            }
            b'[' if matches!(bytes.get(i + 1), Some(b'[' | b'=')) => {
                let start = line;
                match long_bracket(i, &mut line) {
                    Some(end) => {
                        out.push((start, Tok::Str));
                        i = end?;
                    }
                    None => {
                        out.push((line, Tok::Sym("[")));
                        i += 1;
                    }
                }
            }
            b'"' | b'\'' => {
                let start = line;
                i += 1;
                loop {
                    match bytes.get(i)? {
                        b'\\' => {
                            // `\z` and an escaped newline may span lines.
                            if bytes.get(i + 1) == Some(&b'\n') {
                                line += 1;
                            }
                            i += 2;
                        }
                        b'\n' => {
                            // `\z` skips newlines in the string.
                            line += 1;
                            i += 1;
                        }
                        &q if q == c => {
                            i += 1;
                            break;
                        }
                        _ => i += 1,
                    }
                }
                out.push((start, Tok::Str));
            }
            b'0'..=b'9' => {
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric()
                        || bytes[i] == b'.'
                        || ((bytes[i] == b'+' || bytes[i] == b'-')
                            && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P')))
                {
                    i += 1;
                }
                out.push((line, Tok::Num));
            }
            b'.' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                i += 1;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                    i += 1;
                }
                out.push((line, Tok::Num));
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                out.push((line, Tok::Word(&source[start..i])));
            }
            _ => {
                let len = ["...", "..", "==", "~=", "<=", ">=", "//", "::", "<<", ">>"]
                    .iter()
                    .find(|s| bytes[i..].starts_with(s.as_bytes()))
                    .map_or(1, |s| s.len());
                // A byte of a multi-byte character is no token Lua knows;
                // it cannot start a statement either.
                let end = (i + len).min(bytes.len());
                out.push((line, Tok::Sym(source.get(i..end).unwrap_or("?"))));
                i = end;
            }
        }
    }
    Some(out)
}

/// What a `return` statement's values may be, as far as its first tokens
/// tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Returns {
    /// `return` alone: no values.
    Nothing,
    /// One literal of this Lua type (`"nil"`, `"boolean"`, `"number"`,
    /// `"string"`, `"table"`).
    Literal(&'static str),
    /// Anything else: names, calls, operators, several values.
    Unknown,
}

/// A token that ends a `return` statement (a `return` is the last
/// statement of its block).
fn ends_statement(t: Option<&Tok<'_>>) -> bool {
    match t {
        None => true,
        Some(Tok::Word(w)) => matches!(*w, "end" | "else" | "elseif" | "until"),
        Some(Tok::Sym(s)) => *s == ";",
        Some(_) => false,
    }
}

/// What the `return` at `toks[0]` returns.
fn returns(toks: &[(u32, Tok<'_>)]) -> Returns {
    let next = toks.get(1).map(|t| &t.1);
    if ends_statement(next) {
        return Returns::Nothing;
    }
    let literal = match next {
        Some(Tok::Word("nil")) => "nil",
        Some(Tok::Word("true" | "false")) => "boolean",
        Some(Tok::Num) => "number",
        Some(Tok::Str) => "string",
        Some(Tok::Sym("{")) => {
            // A table constructor alone: its closing brace ends the value.
            let mut depth = 0usize;
            for (k, (_, t)) in toks.iter().enumerate().skip(1) {
                match t {
                    Tok::Sym("{") => depth += 1,
                    Tok::Sym("}") => {
                        depth -= 1;
                        if depth == 0 {
                            return if ends_statement(toks.get(k + 1).map(|t| &t.1)) {
                                Returns::Literal("table")
                            } else {
                                Returns::Unknown
                            };
                        }
                    }
                    _ => {}
                }
            }
            return Returns::Unknown;
        }
        _ => return Returns::Unknown,
    };
    if ends_statement(toks.get(2).map(|t| &t.1)) {
        Returns::Literal(literal)
    } else {
        Returns::Unknown
    }
}

/// The `return` statements of the function whose `function` keyword is on
/// line `first` and whose closing `end` is on line `last`, each with its
/// line and what it returns, and whether the function may end without a
/// `return` (none in its outermost block). `None` unless exactly one
/// function spans those lines.
fn function_returns(
    toks: &[(u32, Tok<'_>)],
    first: u32,
    last: u32,
) -> Option<(Vec<(u32, Returns)>, bool)> {
    let mut found = None;
    for start in 0..toks.len() {
        if toks[start] != (first, Tok::Word("function")) {
            continue;
        }
        // Blocks open at `function`, `if`, `do` (a `while` or `for` opens
        // with its `do`) and `repeat`; `end` and `until` close them.
        let mut depth = 1usize;
        // The depth at which a nested function began, while in one.
        let mut nested: Vec<usize> = Vec::new();
        let mut returns_here = Vec::new();
        let mut closed = None;
        for k in start + 1..toks.len() {
            match toks[k].1 {
                Tok::Word("function") => {
                    nested.push(depth);
                    depth += 1;
                }
                Tok::Word("if" | "do" | "repeat") => depth += 1,
                Tok::Word("end" | "until") => {
                    depth -= 1;
                    if nested.last() == Some(&depth) {
                        nested.pop();
                    }
                    if depth == 0 {
                        closed = Some(toks[k].0);
                        break;
                    }
                }
                Tok::Word("return") if nested.is_empty() => {
                    returns_here.push((toks[k].0, returns(&toks[k..]), depth == 1));
                }
                _ => {}
            }
        }
        if closed == Some(last) {
            if found.is_some() {
                return None;
            }
            let falls_off = !returns_here.iter().any(|r| r.2);
            found = Some((
                returns_here.into_iter().map(|(l, r, _)| (l, r)).collect(),
                falls_off,
            ));
        }
    }
    found
}

/// The line of the `return` statement of the function spanning lines
/// `first..=last` of `source` that returned a value of Lua type `returned`
/// (`"number"` for integers too), when only one can have.
pub(super) fn return_line(source: &str, first: u32, last: u32, returned: &str) -> Option<u32> {
    let toks = tokens(source)?;
    let (list, falls_off) = function_returns(&toks, first, last)?;
    let mut candidates = list.iter().filter(|(_, r)| match r {
        // A missing value is nil too: any `return` (or none) may lack it.
        _ if returned == "nil" => true,
        Returns::Nothing => false,
        Returns::Literal(t) => *t == returned,
        Returns::Unknown => true,
    });
    let one = candidates.next()?;
    if candidates.next().is_some() || (returned == "nil" && falls_off) {
        return None;
    }
    Some(one.0)
}

#[cfg(test)]
mod tests {
    use super::return_line;

    const SOURCE: &str = r#"-- a comment with return "x" in it
titan.on("may_target", function(ctx)
  if ctx.a then return end
  local s = "return 1" --[[ return 2
  ]]
  if ctx.b then return "never" end
  return nil
end)
titan.hook("two", function(a)
  local f = function() return 5 end
  if a then return a end
  return 1, 2
end)
titan.hook("tail", function(a)
  return a
end)
titan.hook("falls", function(a)
  if a then return 1 end
end)
local x = [==[
function ]] return 3 end
]==]
titan.hook("table", function(a) if a then return {} end return { a = 1 } == a end)
"#;

    #[test]
    fn the_one_return_that_can_hold_the_value_is_found() {
        // Only `return "never"` returns a string.
        assert_eq!(return_line(SOURCE, 2, 8, "string"), Some(6));
        // No return returns a boolean: not certain.
        assert_eq!(return_line(SOURCE, 2, 8, "boolean"), None);
        // `return a` and `return 1, 2` may both give a number; the nested
        // function's `return 5` is not this function's.
        assert_eq!(return_line(SOURCE, 9, 13, "number"), None);
        // `return 1, 2` may hold a string after its number.
        assert_eq!(return_line(SOURCE, 9, 13, "string"), None);
        assert_eq!(return_line(SOURCE, 14, 16, "table"), Some(15));
        // nil: the function may end without a return.
        assert_eq!(return_line(SOURCE, 17, 19, "nil"), None);
        assert_eq!(return_line(SOURCE, 17, 19, "number"), Some(18));
        assert_eq!(return_line(SOURCE, 14, 16, "nil"), Some(15));
        // The comparison may be any value; `return {}` only a table.
        assert_eq!(return_line(SOURCE, 23, 23, "table"), None);
        assert_eq!(return_line(SOURCE, 23, 23, "boolean"), Some(23));
        // Lines that no function spans.
        assert_eq!(return_line(SOURCE, 3, 8, "string"), None);
        assert_eq!(return_line("function f( \"", 1, 1, "string"), None);
    }
}
