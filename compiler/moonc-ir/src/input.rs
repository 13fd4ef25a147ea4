//! Checks of input text made before MLIR's parser reads it, for inputs
//! that would make the parser crash rather than fail (found by the fuzzer,
//! docs/fuzzing.md).

/// The most results a use `%name#N` may name: MLIR's parser makes room for
/// N results when it reads one, so `%r#2147483648` ran it out of memory (an
/// abort).
pub const MAX_RESULT_NUMBER: u64 = 1 << 20;

/// The first problem in `source` that would crash MLIR's parser: its line
/// and column (from 1) and a message. Today: a result number past
/// [`MAX_RESULT_NUMBER`].
pub fn check_source(source: &str) -> Result<(), (usize, usize, String)> {
    let name_chars = |b: u8| b.is_ascii_alphanumeric() || b"_$.-".contains(&b);
    for (row, line) in source.lines().enumerate() {
        let bytes = line.as_bytes();
        for (col, _) in line.match_indices('#') {
            // `%name#N`: the `#` follows an SSA name's characters.
            let start = bytes[..col].iter().rposition(|&b| !name_chars(b));
            let after_percent = start.is_some_and(|i| bytes[i] == b'%' && i + 1 < col);
            let digits: String = line[col + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if after_percent
                && !digits.is_empty()
                && digits
                    .parse::<u64>()
                    .map_or(true, |n| n > MAX_RESULT_NUMBER)
            {
                return Err((
                    row + 1,
                    col + 1,
                    format!("result number #{digits} is too large (at most {MAX_RESULT_NUMBER})"),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_numbers() {
        assert!(check_source("return %r#1 : f64\n%x = \"a#99999999999\"").is_ok());
        assert_eq!(
            check_source("func\n  return %r#2147483648 : f64")
                .unwrap_err()
                .0,
            2
        );
        assert!(check_source("%r#99999999999999999999999").is_err());
        assert!(check_source("#map = affine_map<(d0) -> (d0)>").is_ok());
    }
}
