//! Each command is offered exactly the options the table gives it: by the parser, by the binary
//! (every other option refused, by long and short name, before and after the command, with nothing
//! sent), and by its `-h` and `--help`, which fit a screen.

use super::*;

// ---- the table and the parser ------------------------------------------------------------------

/// Every command of the built clap tree, by path (`""` for the top level, `"auth status"`).
fn command_tree() -> Vec<(String, clap::Command)> {
    let mut root = safe_ad::test_support::help::command();
    root.build();
    let mut commands = Vec::new();
    let mut pending = vec![(String::new(), root)];
    while let Some((path, command)) = pending.pop() {
        for sub in command.get_subcommands() {
            let name = format!("{path} {}", sub.get_name()).trim().to_string();
            pending.push((name, sub.clone()));
        }
        commands.push((path, command));
    }
    commands.sort_by(|a, b| a.0.cmp(&b.0));
    commands
}

/// Whether `arg` is one of the client options: the top level has every client option, so an
/// argument of another command is one when it has the same id, long name and help as there. The
/// emulator's own `--quiet` and `--token-file` share a name with two of them and are not them.
fn is_client_option(arg: &clap::Arg, top: &clap::Command) -> bool {
    top.get_arguments().any(|definition| {
        Opt::ALL.iter().any(|opt| opt.id() == definition.get_id())
            && arg.get_id() == definition.get_id()
            && arg.get_long() == definition.get_long()
            && arg.get_help().map(ToString::to_string)
                == definition.get_help().map(ToString::to_string)
    })
}

/// The client options `command` offers, in help order.
fn client_options_of(command: &clap::Command, top: &clap::Command) -> Vec<Opt> {
    Opt::ALL
        .into_iter()
        .filter(|opt| {
            command
                .get_arguments()
                .any(|arg| arg.get_id() == opt.id() && is_client_option(arg, top))
        })
        .collect()
}

/// Whether `path` is one of clap's `help` commands (`help`, `auth help login`).
fn clap_help(path: &str) -> bool {
    path.split(' ').any(|word| word == "help")
}

fn listed(path: &str) -> Vec<Opt> {
    options_of(path).iter().collect()
}

#[test]
fn the_parser_offers_each_command_exactly_the_options_the_table_gives_it() {
    let tree = command_tree();
    let top = &tree
        .iter()
        .find(|(path, _)| path.is_empty())
        .expect("top")
        .1;
    let union: BTreeSet<&str> = client_commands()
        .iter()
        .flat_map(|(_, opts)| opts.iter().map(Opt::id))
        .collect();
    let at_top: BTreeSet<&str> = top
        .get_arguments()
        .map(|arg| arg.get_id().as_str())
        .filter(|id| Opt::ALL.iter().any(|opt| opt.id() == *id))
        .collect();
    assert_eq!(
        at_top, union,
        "before the subcommand, every option some command takes (and no other) is accepted"
    );
    let mut wrong = Vec::new();
    for (path, command) in tree.iter().filter(|(path, _)| !path.is_empty()) {
        let offered = client_options_of(command, top);
        if offered != listed(path) {
            wrong.push(format!(
                "`safe-ad {path}` offers {offered:?}, the table says {:?}",
                listed(path)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // A typo in the table would give a command no options, silently.
    for (path, _) in client_commands() {
        assert!(
            tree.iter().any(|(command, _)| command == path),
            "the table names `{path}`, which is not a command"
        );
    }
    #[cfg(feature = "emulator")]
    {
        let emulator = &tree
            .iter()
            .find(|(path, _)| path == "emulator")
            .expect("the emulator command")
            .1;
        assert!(listed("emulator").is_empty());
        assert!(
            client_options_of(emulator, top).is_empty(),
            "the emulator is a program of its own: it takes no client option"
        );
    }
}

/// The short name of a client option (`-q`), as the top level defines it.
fn top_short(opt: Opt) -> Option<char> {
    let mut top = safe_ad::test_support::help::command();
    top.build();
    let arg = top.get_arguments().find(|arg| arg.get_id() == opt.id())?;
    arg.get_short()
}

/// The arguments that make `path` a whole invocation: its spec's sample.
fn sample_args(path: &str) -> &'static [&'static str] {
    safe_ad::test_support::cli::spec_of(path)
        .unwrap_or_else(|| panic!("`safe-ad {path}` has no spec (cli::COMMANDS)"))
        .sample
}

#[test]
fn every_command_refuses_each_option_it_does_not_take_before_or_after_it() {
    let launcher = counting_launcher();
    let sandbox = Sandbox::new();
    let token_file = sandbox.file("token", TOKEN);
    let value = |opt: Opt| -> Option<String> {
        match opt {
            Opt::LauncherUrl => Some(launcher.url.clone()),
            Opt::TokenFile => Some(token_file.display().to_string()),
            Opt::Timeout => Some("5".into()),
            Opt::Retries => Some("1".into()),
            Opt::Jobs => Some("2".into()),
            Opt::Color => Some("never".into()),
            Opt::Jq => Some(".version".into()),
            Opt::Profile => Some("emu".into()),
            _ => None,
        }
    };
    let tree = command_tree();
    let mut runs = 0;
    for (path, command) in &tree {
        // clap's own `help` commands print help, whatever else is typed.
        if path.is_empty() || clap_help(path) {
            continue;
        }
        let group = command.has_subcommands();
        let words: Vec<&str> = path.split(' ').collect();
        for opt in Opt::ALL {
            if options_of(path).contains(opt) {
                continue;
            }
            let long = opt.long();
            let short = top_short(opt).map(|short| format!("-{short}"));
            for name in std::iter::once(long.clone()).chain(short) {
                let mut option = vec![name.clone()];
                option.extend(value(opt));
                // The emulator's own --quiet (-q) and --token-file, after its name, are its own.
                let own = command.get_arguments().any(|arg| {
                    arg.get_long() == Some(&long[2..])
                        || arg.get_short().map(|c| format!("-{c}")) == Some(name.clone())
                });
                let sample = sample_args(path).iter().map(|a| a.to_string());
                let mut lines: Vec<(Vec<String>, String)> = Vec::new();
                if !own {
                    let mut after: Vec<String> = words.iter().map(|w| w.to_string()).collect();
                    after.extend(option.iter().cloned());
                    after.extend(sample.clone());
                    lines.push((after, format!("`safe-ad {path}` does not take {long}")));
                }
                if !group {
                    let mut before = option.clone();
                    before.extend(words.iter().map(|w| w.to_string()));
                    before.extend(sample);
                    let words = if own {
                        format!("`safe-ad {path}` has its own {long}, given after its name")
                    } else {
                        format!("`safe-ad {path}` does not take {long}")
                    };
                    lines.push((before, words));
                }
                for (line, words) in lines {
                    runs += 1;
                    assert_refused_untouched(&sandbox, &launcher, true, &line, &words);
                }
            }
        }
    }
    assert!(runs > 100, "only {runs} refusals were tried");
}

// ---- help --------------------------------------------------------------------------------------

/// The long names of the options a help text lists: clap writes an option's line with two spaces
/// and its short name, or six spaces and its long name; wrapped descriptions are indented
/// further.
fn options_in_help(help: &str) -> BTreeSet<String> {
    help.lines()
        .filter_map(|line| {
            let rest = if line.starts_with("  -") && !line.starts_with("   ") {
                &line[2..]
            } else if line.starts_with("      --") && !line.starts_with("       ") {
                &line[6..]
            } else {
                return None;
            };
            let long = rest
                .split([' ', ',', '='])
                .find(|word| word.starts_with("--"))?;
            Some(long.to_string())
        })
        .collect()
}

/// The height a command's `-h` must fit in, at 80 columns (the narrowest common terminal, where
/// help wraps most). The 80×24 default fits none of them; 48 rows is twice that, a terminal on
/// most of a laptop screen. Measured at 80 columns: the longest is `clear-data` with 44 lines
/// (`create` 43, `metadata` 42, `emulator` 41); before each command listed only its own options
/// they were 65 to 89. One client option put back where it does nothing adds at least two lines.
const SCREEN_ROWS: usize = 48;

#[test]
fn each_commands_help_fits_a_screen_and_lists_only_the_options_it_takes() {
    let tree = command_tree();
    let top = tree[0].1.clone();
    let client_longs: BTreeSet<String> = Opt::ALL.iter().map(|opt| opt.long()).collect();
    let mut wrong = Vec::new();
    let mut heights = Vec::new();
    for (path, command) in &tree {
        if clap_help(path) {
            continue;
        }
        let words: Vec<&str> = path.split_whitespace().collect();
        // What the command's own arguments are called, besides the client options.
        let own: BTreeSet<String> = command
            .get_arguments()
            .filter(|arg| !is_client_option(arg, &top))
            .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
            .collect();
        let takes: BTreeSet<String> = if path.is_empty() {
            BTreeSet::new()
        } else {
            listed(path).iter().map(|opt| opt.long()).collect()
        };
        for flag in ["-h", "--help"] {
            let output = SafeAd::new()
                .env("COLUMNS", "80")
                .args(&words)
                .arg(flag)
                .run();
            output.success();
            let help = output.stdout();
            let shown = options_in_help(help);
            // (The emulator's own --quiet and --token-file are its own, not client options.)
            let shown_client: BTreeSet<String> = shown
                .intersection(&client_longs)
                .filter(|long| !own.contains(*long))
                .cloned()
                .collect();
            // At the top level the client options are accepted but belong to the commands:
            // the short help leaves them out, the long help lists them under their own heading.
            // A command's short help names them in one closing line instead, all of them.
            let expected = if path.is_empty() && flag == "--help" {
                listed_union()
            } else if flag == "-h" {
                let line = help
                    .split(&format!("{}: ", safe_ad::test_support::cli::CLIENT_OPTIONS))
                    .nth(1)
                    .unwrap_or_default()
                    .replace('\n', " ");
                for long in &takes {
                    if !line.contains(&format!("{long},")) && !line.contains(&format!("{long} ")) {
                        wrong.push(format!("`safe-ad {path} -h` does not name {long}"));
                    }
                }
                BTreeSet::new()
            } else {
                takes.clone()
            };
            if shown_client != expected {
                wrong.push(format!(
                    "`safe-ad {path} {flag}` lists {shown_client:?}, expected {expected:?}"
                ));
            }
            for long in &shown {
                if !own.contains(long) && !shown_client.contains(long) {
                    wrong.push(format!(
                        "`safe-ad {path} {flag}` lists {long}, which it does not take"
                    ));
                }
            }
            if flag == "-h" {
                let lines = help.lines().count();
                let longest = help.lines().map(|l| l.chars().count()).max().unwrap_or(0);
                assert!(
                    longest <= 80,
                    "`safe-ad {path} -h` is wider than 80 columns"
                );
                heights.push(format!("{path:?}: {lines}"));
                if !path.is_empty() && lines > SCREEN_ROWS {
                    wrong.push(format!(
                        "`safe-ad {path} -h` is {lines} lines at 80 columns, more than {SCREEN_ROWS}"
                    ));
                }
            }
        }
    }
    println!("-h lines at 80 columns: {}", heights.join(", "));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn listed_union() -> BTreeSet<String> {
    client_commands()
        .iter()
        .flat_map(|(_, opts)| opts.iter().map(|opt| opt.long()))
        .collect()
}
