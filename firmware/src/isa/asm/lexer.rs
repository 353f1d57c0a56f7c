//! Tokens of one assembly line, with their columns.

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Identifier: mnemonic, register, label, modifier name (letters, digits, `_`, `.`, `$`).
    Ident(String),
    /// Integer (decimal or `0x` hex), as written, without sign.
    Int(u64),
    /// Floating-point number (has a `.` or an exponent), without sign.
    Float(f64),
    /// One punctuation character: `, [ ] : | - ( ) &`.
    Punct(char),
}

/// A token, the 1-based column it starts at and its text as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// 1-based column.
    pub col: usize,
    /// The source text of the token (error messages quote it).
    pub text: String,
}

/// Splits the code part of a line (comments already removed) into tokens.
pub fn tokenize(line: &str, first_col: usize) -> Result<Vec<Token>, (usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = first_col + i;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' || c == '.' && !next_is_digit(&chars, i) {
            let end = scan(&chars, i, |c| {
                c.is_ascii_alphanumeric() || "_.$".contains(c)
            });
            let text: String = chars[i..end].iter().collect();
            out.push(Token {
                tok: Tok::Ident(text.clone()),
                col,
                text,
            });
            i = end;
        } else if c.is_ascii_digit() || c == '.' {
            let (tok, end) = number(&chars, i).map_err(|m| (col, m))?;
            let text = chars[i..end].iter().collect();
            out.push(Token { tok, col, text });
            i = end;
        } else if ",[]:|-()&".contains(c) {
            out.push(Token {
                tok: Tok::Punct(c),
                col,
                text: c.to_string(),
            });
            i += 1;
        } else {
            return Err((col, format!("unexpected character '{c}'")));
        }
    }
    Ok(out)
}

fn next_is_digit(chars: &[char], i: usize) -> bool {
    chars.get(i + 1).is_some_and(|c| c.is_ascii_digit())
}

fn scan(chars: &[char], from: usize, ok: impl Fn(char) -> bool) -> usize {
    let mut end = from;
    while end < chars.len() && ok(chars[end]) {
        end += 1;
    }
    end
}

/// A number token starting at `i`: hex integer, decimal integer or float.
fn number(chars: &[char], i: usize) -> Result<(Tok, usize), String> {
    let hex = chars[i] == '0' && matches!(chars.get(i + 1), Some('x' | 'X'));
    if hex {
        let end = scan(chars, i + 2, |c| c.is_ascii_alphanumeric());
        let text: String = chars[i + 2..end].iter().collect();
        let v = u64::from_str_radix(&text, 16).map_err(|_| format!("bad hex number '0x{text}'"))?;
        return Ok((Tok::Int(v), end));
    }
    let mut end = scan(chars, i, |c| c.is_ascii_alphanumeric() || c == '.');
    // An exponent sign: 1.5e-3.
    if matches!(chars.get(end.wrapping_sub(1)), Some('e' | 'E'))
        && matches!(chars.get(end), Some('-' | '+'))
    {
        end = scan(chars, end + 1, |c| c.is_ascii_digit());
    }
    let text: String = chars[i..end].iter().collect();
    if let Ok(v) = text.parse::<u64>() {
        return Ok((Tok::Int(v), end));
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok((Tok::Float(v), end)),
        Ok(_) => Err(format!(
            "number '{text}' is too large: a float constant must be finite"
        )),
        Err(_) => Err(format!("bad number '{text}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let t = tokenize("v_add_f32 v0, -|v1|, 0x10 mul:2 1.5e-3", 1).unwrap();
        let kinds: Vec<Tok> = t.into_iter().map(|t| t.tok).collect();
        assert_eq!(kinds[0], Tok::Ident("v_add_f32".into()));
        assert_eq!(kinds[4], Tok::Punct('|'));
        assert_eq!(kinds[8], Tok::Int(16));
        assert_eq!(kinds[12], Tok::Float(1.5e-3));
        assert!(tokenize("s_mov_b32 s0, @", 1).is_err());
        let e = tokenize("v_mov_b32 v0, 1e99999", 1).unwrap_err();
        assert!(e.1.contains("finite"), "{e:?}");
    }
}
