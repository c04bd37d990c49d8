//! `--jq EXPR`: a jq filter, compiled once by jaq (jaq-core, jaq-std, jaq-json) and run over
//! each JSON object a command prints. `settings` compiles it as the arguments are read, so a bad
//! expression stops the run before anything is sent; `report` runs it and says what it gives.
//!
//! The filters are jaq's core and standard ones, less those that would reach outside the value
//! or the run: no `env` or `$ENV` (the environment holds the token), no `input`/`inputs` (the
//! values are the command's, one at a time), no `halt` (it would leave without giving back the
//! launcher handles a command holds), no `debug`/`stderr`. jaq-std's optional families (regular
//! expressions, `@base64` and the other formats, maths past `floor`/`round`/`ceil`, dates) are
//! not built in, to keep the binary small: their definitions are left out here, so using one
//! is an undefined filter, refused when the expression is compiled.

use jaq_core::load::{self, Arena, File, Loader};
use jaq_core::{compile, data, Ctx, Vars};
use jaq_json::Val;

type Data = data::JustLut<Val>;

/// A compiled `--jq` expression, and its text for messages.
pub struct Filter {
    expression: String,
    filter: jaq_core::Filter<Data>,
}

/// One output of a filter run over one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// A string, as its text (invalid UTF-8 replaced).
    Str(String),
    /// Any other value, as compact JSON.
    Json(String),
}

/// The definitions of jaq-std that call a native filter of a family not built in (see the
/// module's doc), or `halt`, each by name and number of arguments. jaq compiles every
/// definition it is given, so one left in whose native is missing would refuse every
/// expression: the unit tests compile `.` to catch a jaq-std that defines more of them.
const LEFT_OUT: &[(&str, usize)] = &[
    // Logging (jaq-std's `log`): `stderr_empty`, `debug_empty`.
    ("stderr", 0),
    ("debug", 0),
    ("debug", 1),
    // `halt` leaves the process; `halt_error` logs first.
    ("halt", 0),
    ("halt_error", 0),
    ("halt_error", 1),
    // Maths (`math`): `ilogb`, `scalbln`, `pow`, `remainder`, `copysign`, `nextafter`, `tgamma`.
    ("logb", 0),
    ("significand", 0),
    ("pow10", 0),
    ("drem", 2),
    ("nexttoward", 2),
    ("scalb", 2),
    ("gamma", 0),
    // Regular expressions (`regex`): `matches`, `split_`, `split_matches`.
    ("test", 1),
    ("test", 2),
    ("scan_", 2),
    ("scan", 1),
    ("scan", 2),
    ("match", 1),
    ("match", 2),
    ("capture", 1),
    ("capture", 2),
    ("split", 2),
    ("splits", 1),
    ("splits", 2),
    ("sub", 2),
    ("sub", 3),
    ("gsub", 2),
    ("gsub", 3),
    // Dates (`time`).
    ("todate", 0),
    ("fromdate", 0),
    // Formats (`format`): HTML, URI and base64 escapes.
    ("@html", 0),
    ("@htmld", 0),
    ("@uri", 0),
    ("@urid", 0),
    ("@base64", 0),
    ("@base64d", 0),
];

/// The native filters left out though their crate is built: `halt/1` (see the module's doc).
const NATIVE_LEFT_OUT: &[&str] = &["halt"];

impl Filter {
    /// Compiles `expression`, or says what jaq found wrong with it (where it can, at which
    /// character, counted from 1).
    pub fn compile(expression: &str) -> Result<Filter, String> {
        let kept =
            |def: &load::parse::Def<&'static str>| !LEFT_OUT.contains(&(def.name, def.args.len()));
        let defs = (jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs()))
        .filter(kept);
        let funs = (jaq_core::funs()
            .chain(jaq_std::base_funs())
            .chain(jaq_json::funs()))
        .filter(|(name, ..)| !NATIVE_LEFT_OUT.contains(name));
        let loader = Loader::new(defs);
        let arena = Arena::default();
        let file = File {
            code: expression,
            path: (),
        };
        let modules = loader.load(&arena, file).map_err(|errors| {
            said(
                expression,
                errors.into_iter().flat_map(|(_, e)| load_error(e)),
            )
        })?;
        let filter = compile::Compiler::default()
            .with_funs(funs)
            .compile(modules)
            .map_err(|errors| {
                let undefined = errors.into_iter().flat_map(|(_, errors)| errors);
                said(
                    expression,
                    undefined.map(|(name, what)| undefined_error(name, what)),
                )
            })?;
        Ok(Filter {
            expression: expression.to_owned(),
            filter,
        })
    }

    /// The expression as it was given.
    pub fn expression(&self) -> &str {
        &self.expression
    }

    /// Runs the filter over `input`, handing each output to `each` until it returns `false`;
    /// an error ends the run there, with jaq's words.
    pub fn run(
        &self,
        input: &serde_json::Value,
        mut each: impl FnMut(Output) -> bool,
    ) -> Result<(), String> {
        // serde_json writes what jaq's reader reads: the text is the one way between the two.
        let input = jaq_json::read::parse_single(input.to_string().as_bytes())
            .map_err(|e| format!("cannot read the object: {e}"))?;
        let ctx = Ctx::<Data>::new(&self.filter.lut, Vars::new([]));
        for output in self.filter.id.run((ctx, input)) {
            let output = match output {
                Ok(Val::TStr(bytes)) => Output::Str(String::from_utf8_lossy(&bytes).into_owned()),
                Ok(value) => Output::Json(value.to_string()),
                // Only an error can come out: `halt` is left out, and jaq keeps its own control
                // flow (`break`, tail calls) inside.
                Err(exception) => {
                    return Err(match exception.get_err() {
                        Ok(error) => error.to_string(),
                        Err(_) => "the filter stopped without a value or an error".to_owned(),
                    })
                }
            };
            if !each(output) {
                break;
            }
        }
        Ok(())
    }
}

/// jaq's complaints about an expression, each with where it is, as one line.
fn said<'a>(expression: &str, complaints: impl Iterator<Item = Complaint<'a>>) -> String {
    let complaints: Vec<String> = complaints
        .map(|complaint| match at(expression, complaint.at) {
            Some(at) => format!("{} (at character {at})", complaint.what),
            None => complaint.what,
        })
        .collect();
    match complaints.is_empty() {
        true => "jaq could not compile it".to_owned(),
        false => complaints.join("; "),
    }
}

/// What jaq found wrong, and the slice of the expression it found it at.
struct Complaint<'a> {
    what: String,
    at: &'a str,
}

/// Where `slice` starts in `expression`, as a character count from 1; `None` for a slice of
/// another text (a definition of jaq's own).
fn at(expression: &str, slice: &str) -> Option<usize> {
    let start = expression.as_ptr() as usize;
    let offset = (slice.as_ptr() as usize).checked_sub(start)?;
    let before = expression.get(..offset)?;
    Some(before.chars().count() + 1)
}

/// `found` as a complaint shows it: the token, or the end of the expression.
fn found(slice: &str) -> String {
    let token: String = slice.chars().take(20).collect();
    match token.is_empty() {
        true => "the end of the expression".to_owned(),
        false => format!("`{}`", crate::sanitize::line(token.as_bytes(), 40)),
    }
}

/// `expected X, found Y`; where jaq expected any token (a character no token starts with) or
/// nothing more (`.a )`), what it found is what is wrong.
fn expected_found(expected: &str, slice: &str) -> String {
    match expected {
        "token" | "nothing" => format!("unexpected {}", found(slice)),
        expected => format!("expected {expected}, found {}", found(slice)),
    }
}

fn load_error(error: load::Error<&str>) -> Vec<Complaint<'_>> {
    match error {
        load::Error::Io(errors) => errors
            .into_iter()
            .map(|(path, why)| Complaint {
                what: format!("cannot load `{path}`: {why}"),
                at: "",
            })
            .collect(),
        load::Error::Lex(errors) => errors
            .into_iter()
            .map(|(expected, slice)| {
                // The lexer stops at a character: that one is what it found.
                let first = slice.chars().next().map_or(0, char::len_utf8);
                Complaint {
                    what: expected_found(expected.as_str(), slice.get(..first).unwrap_or("")),
                    at: slice,
                }
            })
            .collect(),
        load::Error::Parse(errors) => errors
            .into_iter()
            .map(|(expected, slice)| Complaint {
                what: expected_found(expected.as_str(), slice),
                at: slice,
            })
            .collect(),
    }
}

fn undefined_error(name: &str, what: compile::Undefined) -> Complaint<'_> {
    let what = match what {
        compile::Undefined::Filter(arity) => format!("undefined filter `{name}/{arity}`"),
        other => format!("undefined {} `{name}`", other.as_str()),
    };
    Complaint { what, at: name }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outputs(expression: &str, input: serde_json::Value) -> Result<Vec<Output>, String> {
        let filter = Filter::compile(expression).expect("compiles");
        let mut outputs = Vec::new();
        filter
            .run(&input, |output| {
                outputs.push(output);
                true
            })
            .map(|()| outputs)
    }

    #[test]
    fn every_definition_kept_compiles() {
        // jaq compiles every definition it is given: one whose native is missing would refuse
        // every expression, `.` included.
        assert!(Filter::compile(".").is_ok());
    }

    #[test]
    fn strings_come_as_text_and_anything_else_as_compact_json() {
        let object =
            serde_json::json!({"version": 1, "name": "a\"b", "items": [{"i": 0}, {"i": 1}]});
        assert_eq!(
            outputs(".version, .name, .items, .nothing", object.clone()),
            Ok(vec![
                Output::Json("1".into()),
                Output::Str("a\"b".into()),
                Output::Json(r#"[{"i":0},{"i":1}]"#.into()),
                Output::Json("null".into()),
            ])
        );
        assert_eq!(
            outputs(
                ".items[] | select(.i > 0) | {i, n: (.i | tostring)}",
                object
            ),
            Ok(vec![Output::Json(r#"{"i":1,"n":"1"}"#.into())])
        );
    }

    #[test]
    fn an_error_at_run_time_ends_the_outputs_with_jaqs_words() {
        let got = outputs("1, .foo[0], 2", serde_json::json!(7));
        let error = got.expect_err("a number has no .foo");
        assert!(error.contains("cannot index"), "{error}");
    }

    #[test]
    fn a_bad_expression_is_said_with_where() {
        let said = |expression: &str| Filter::compile(expression).err().expect("refused");
        assert_eq!(said(".a)"), "unexpected `)` (at character 3)");
        assert_eq!(
            said(".a | if . then 1"),
            "expected else or end, found the end of the expression (at character 17)"
        );
        assert!(
            said(".[").starts_with("expected closing bracket"),
            "{}",
            said(".[")
        );
        assert_eq!(said("foo"), "undefined filter `foo/0` (at character 1)");
    }

    #[test]
    fn what_reaches_outside_the_value_or_was_not_built_in_is_undefined() {
        for (expression, name) in [
            ("env", "env/0"),
            ("$ENV", "$ENV"),
            ("input", "input/0"),
            ("halt", "halt/0"),
            ("halt(1)", "halt/1"),
            ("debug", "debug/0"),
            ("test(\"a\")", "test/1"),
            ("@base64d", "@base64d/0"),
            ("now", "now/0"),
        ] {
            let said = Filter::compile(expression).err().expect("refused");
            assert!(said.contains(name), "{expression}: {said}");
        }
        // What stays: the standard filters that need none of them.
        assert_eq!(
            outputs(
                "map(ascii_upcase) | join(\",\"), (.[0] | split(\"-\") | length), (3.7 | floor)",
                serde_json::json!(["a-b", "c"])
            ),
            Ok(vec![
                Output::Str("A-B,C".into()),
                Output::Json("2".into()),
                Output::Json("3".into()),
            ])
        );
    }
}
