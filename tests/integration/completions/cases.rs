//! What should complete after each line, from the clap definition: the subcommands, the value
//! enums, the config keys, every command's options and every value's kind. The shells are asked
//! in [`super`].

use clap::{ValueEnum, ValueHint};

use safe_ad::test_support::cli::{SaveWith, Shell};
use safe_ad::test_support::config_file::Key;

/// One line typed before TAB and what must complete there.
pub struct Case {
    pub line: String,
    pub expect: Expect,
}

/// What completes after a line. The shells run in a directory holding [`PLANTED`] files, so a
/// shell that offers file names where none belongs offers those.
#[derive(Debug)]
pub enum Expect {
    /// The candidates that are not options (no leading `-`) are exactly these.
    Words(Vec<String>),
    /// The candidates are exactly these.
    Exactly(Vec<String>),
    /// No candidate at all, above all no file name: the value is a number, handle, name, URL,
    /// address, key or word.
    Nothing,
    /// File names: the planted files among them.
    Files,
    /// Command names: these among them, and no file name.
    Commands(Vec<String>),
}

/// The files in the directory the shells complete in.
pub const PLANTED: [&str; 2] = ["planted.txt", "s-planted.txt"];

/// What the issue names, as typed, and then every option value and positional argument of the
/// clap definition, each completing what the definition says its value is: one of its
/// possible values, a file where it names one, a command after `emulator --`, else nothing.
/// `default_build`: the binary the scripts ask is the default build (the package's), which has
/// the `emulator` subcommand even when this build leaves it out.
pub fn cases(default_build: bool) -> Vec<Case> {
    let mut command = safe_ad::test_support::help::command();
    command.build();
    let names = |command: &clap::Command| -> Vec<String> {
        command
            .get_subcommands()
            .map(|sub| sub.get_name().to_owned())
            .collect()
    };
    let mut top = names(&command);
    let emulator = default_build || cfg!(feature = "emulator");
    if emulator && !top.iter().any(|name| name == "emulator") {
        top.push("emulator".to_owned());
    }
    let auth = command.find_subcommand("auth").expect("auth");
    let values = |variants: &[Option<clap::builder::PossibleValue>]| -> Vec<String> {
        variants
            .iter()
            .flatten()
            .map(|value| value.get_name().to_owned())
            .collect()
    };
    let words = |list: &[&str]| list.iter().map(|word| word.to_string()).collect::<Vec<_>>();
    let case = |line: &str, expect: Expect| Case {
        line: line.to_owned(),
        expect,
    };
    let mut cases = vec![
        case("safe-ad ", Expect::Words(top.clone())),
        case(
            "safe-ad clear-data --sa",
            Expect::Exactly(words(&["--save"])),
        ),
        case(
            "safe-ad clear-data --save ",
            Expect::Exactly(values(
                &SaveWith::value_variants()
                    .iter()
                    .map(ValueEnum::to_possible_value)
                    .collect::<Vec<_>>(),
            )),
        ),
        case(
            "safe-ad config set ",
            Expect::Words(Key::ALL.iter().map(|key| key.name().to_owned()).collect()),
        ),
        // The keys are not offered again for the value, nor file names.
        case("safe-ad config set timeout_secs ", Expect::Nothing),
        // The subcommands, and no option: the group takes none.
        case("safe-ad auth ", Expect::Exactly(names(auth))),
        case("safe-ad help ", Expect::Words(top.clone())),
        case(
            "safe-ad help auth ",
            Expect::Words(
                names(auth)
                    .into_iter()
                    .filter(|name| name != "help")
                    .collect(),
            ),
        ),
        case(
            "safe-ad completions ",
            Expect::Words(values(
                &Shell::value_variants()
                    .iter()
                    .map(ValueEnum::to_possible_value)
                    .collect::<Vec<_>>(),
            )),
        ),
        case("safe-ad put --jobs ", Expect::Nothing),
        case("safe-ad put --retries ", Expect::Nothing),
        case("safe-ad put --timeout ", Expect::Nothing),
        case("safe-ad put --launcher-url ", Expect::Nothing),
        case("safe-ad --launcher-url ", Expect::Nothing),
        case(
            "safe-ad put --color ",
            Expect::Exactly(words(&["auto", "always", "never"])),
        ),
        case("safe-ad put --token-file ", Expect::Files),
        case("safe-ad put ", Expect::Nothing),
    ];
    if emulator {
        cases.extend([
            case("safe-ad emulator --listen ", Expect::Nothing),
            case("safe-ad emulator --fault-rate ", Expect::Nothing),
            case("safe-ad emulator --state ", Expect::Files),
            case(
                "safe-ad emulator -- s",
                Expect::Commands(words(&["sh", "safe-ad"])),
            ),
        ]);
    }
    if let Some(emulator) = command.find_subcommand("emulator") {
        // The subcommands, not COMMAND: that one comes only after `--`.
        cases.push(case("safe-ad emulator ", Expect::Words(names(emulator))));
    }
    cases.extend(definition_cases(&command));
    cases
}

/// For every command, its options (`safe-ad emulator requests --`); for every option that takes
/// a value, on the first command that takes it (and before the command, where the client options
/// are accepted too), and every positional argument: what its value completes, from the
/// definition.
fn definition_cases(root: &clap::Command) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut stack: Vec<(String, &clap::Command)> = vec![("safe-ad".to_owned(), root)];
    while let Some((line, command)) = stack.pop() {
        let subs: Vec<&clap::Command> = command.get_subcommands().collect();
        for sub in subs.into_iter().rev() {
            if sub.get_name() != "help" {
                stack.push((format!("{line} {}", sub.get_name()), sub));
            }
        }
        // Its options, by their long names: for a subcommand, its own and no other's.
        cases.push(Case {
            line: format!("{line} --"),
            expect: Expect::Exactly(
                command
                    .get_arguments()
                    .filter(|arg| !arg.is_positional() && !arg.is_hide_set())
                    .flat_map(|arg| arg.get_long_and_visible_aliases().unwrap_or_default())
                    .map(|long| format!("--{long}"))
                    .collect(),
            ),
        });
        for arg in command.get_arguments() {
            let takes_value = arg.get_num_args().is_some_and(|range| range.takes_values());
            if arg.is_hide_set() || !takes_value {
                continue;
            }
            let at_root = std::ptr::eq(command, root);
            if !at_root && !seen.insert(arg.get_id().as_str().to_owned()) {
                continue;
            }
            let typed = if let Some(long) = arg.get_long() {
                format!("{line} --{long} ")
            } else if arg.is_last_set() {
                format!("{line} -- ")
            } else {
                // Positional: the ones before it given their first value, or a word.
                let mut typed = format!("{line} ");
                for before in command.get_positionals() {
                    if before.get_id() == arg.get_id() {
                        break;
                    }
                    let value = before.get_possible_values();
                    let value = value.first().map_or("x", |value| value.get_name());
                    typed.push_str(value);
                    typed.push(' ');
                }
                typed
            };
            cases.push(Case {
                line: typed,
                expect: expected(arg),
            });
        }
    }
    cases
}

/// What the value of `arg` completes, by its definition.
fn expected(arg: &clap::Arg) -> Expect {
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|value| !value.is_hide_set())
        .map(|value| value.get_name().to_owned())
        .collect();
    if !values.is_empty() {
        return Expect::Exactly(values);
    }
    match arg.get_value_hint() {
        ValueHint::AnyPath | ValueHint::FilePath | ValueHint::DirPath => Expect::Files,
        ValueHint::CommandName | ValueHint::CommandWithArguments => {
            Expect::Commands(vec!["sh".to_owned()])
        }
        _ => Expect::Nothing,
    }
}
