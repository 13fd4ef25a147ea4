//! JSON output with exact numbers: floats print as the shortest text that
//! reads back to the same value in their own precision (f32 as f32), and
//! non-finite floats as the strings "NaN", "Infinity" and "-Infinity"
//! (which `--args` accepts too).

use std::fmt::Write;

/// A JSON value to print.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    /// A number or literal, already rendered.
    Raw(String),
    Str(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An f64, exactly.
    pub fn f64(value: f64) -> Json {
        if value.is_finite() {
            Json::Raw(format!("{value:?}"))
        } else {
            Json::Str(non_finite(value.is_nan(), value > 0.0))
        }
    }

    /// An f32, exactly, in f32's shortest form.
    pub fn f32(value: f32) -> Json {
        if value.is_finite() {
            Json::Raw(format!("{value:?}"))
        } else {
            Json::Str(non_finite(value.is_nan(), value > 0.0))
        }
    }

    /// An integer.
    pub fn int(value: i64) -> Json {
        Json::Raw(value.to_string())
    }

    /// An object from (key, value) pairs.
    pub fn object<const N: usize>(pairs: [(&str, Json); N]) -> Json {
        Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    /// Compact one-line rendering.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Raw(text) => out.push_str(text),
            Json::Str(text) => {
                out.push('"');
                for c in text.chars() {
                    match c {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        c if (c as u32) < 0x20 => {
                            let _ = write!(out, "\\u{:04x}", c as u32);
                        }
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            Json::List(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Object(pairs) => {
                out.push('{');
                for (index, (key, value)) in pairs.iter().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    Json::Str(key.clone()).write(out);
                    out.push_str(": ");
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// The string a non-finite float is written as: "NaN", "Infinity" or
/// "-Infinity" (which `--args` reads back).
pub fn non_finite(nan: bool, positive: bool) -> String {
    match (nan, positive) {
        (true, _) => "NaN",
        (false, true) => "Infinity",
        (false, false) => "-Infinity",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn numbers_are_exact_and_valid_json() {
        assert_eq!(Json::f64(3.0).render(), "3.0");
        assert_eq!(Json::f64(0.1).render(), "0.1");
        assert_eq!(Json::f64(1e300).render(), "1e300");
        assert_eq!(Json::f32(0.1).render(), "0.1");
        assert_eq!(Json::f64(f64::NAN).render(), "\"NaN\"");
        assert_eq!(Json::f64(f64::NEG_INFINITY).render(), "\"-Infinity\"");
        assert_eq!(
            Json::object([("a", Json::List(vec![Json::int(-2), Json::Null]))]).render(),
            "{\"a\": [-2, null]}"
        );
    }
}
