//! The commands' specs (`cli::COMMANDS`) against what runs: every command clap knows has one
//! spec and every spec a command; each spec's sample invocation parses; and what a sending
//! command sends, run against the emulator, is only routes its spec lists (the spec's routes
//! are docs/output.md's table, so that table cannot name fewer than the command sends), one
//! whose spec says it sends nothing sends nothing, and one whose spec says it takes no launcher
//! handles makes none; and `--jq` is offered exactly where `--json` is.

use std::collections::BTreeSet;

use safe_ad::test_support::cli::{spec_of, Reaches, Spec, COMMANDS};

#[cfg(feature = "emulator")]
use crate::harness::Sandbox;

/// Every command path in clap's tree (groups too), but clap's own `help`.
fn clap_paths() -> BTreeSet<String> {
    fn walk(command: &clap::Command, prefix: &str, paths: &mut BTreeSet<String>) {
        for sub in command.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            let path = format!("{prefix}{}", sub.get_name());
            paths.insert(path.clone());
            walk(sub, &format!("{path} "), paths);
        }
    }
    let mut paths = BTreeSet::new();
    let mut command = safe_ad::test_support::help::command();
    command.build();
    walk(&command, "", &mut paths);
    paths
}

#[test]
fn every_command_has_one_spec_and_every_spec_a_command() {
    let clap = clap_paths();
    let specs: Vec<&str> = COMMANDS.iter().map(|spec| spec.path).collect();
    let unique: BTreeSet<String> = specs.iter().map(|path| path.to_string()).collect();
    assert_eq!(unique.len(), specs.len(), "a path has two specs: {specs:?}");
    let without: Vec<&String> = clap.difference(&unique).collect();
    let stray: Vec<&String> = unique.difference(&clap).collect();
    assert!(
        without.is_empty() && stray.is_empty(),
        "commands without a spec (add one beside its arguments and list it in cli::COMMANDS): \
         {without:?}; specs of no command: {stray:?}"
    );
}

/// A command with subcommands of its own (`auth`, `filter`, ...) is built out in
/// `cli::whole_command` (its arguments are deferred), so that `help GROUP`, its man page and the
/// completions list its subcommands: clap takes them from the tree as it stands before a deferred
/// command is built, so a group left out there has none listed, and nothing else would say so.
#[test]
fn every_group_lists_its_subcommands_before_it_is_built() {
    let command = safe_ad::test_support::help::command();
    for spec in COMMANDS {
        let children: BTreeSet<&str> = COMMANDS
            .iter()
            .filter_map(|other| other.path.strip_prefix(&format!("{} ", spec.path)))
            .filter(|rest| !rest.contains(' '))
            .collect();
        if children.is_empty() {
            continue;
        }
        let mut group = &command;
        for word in spec.path.split(' ') {
            group = group
                .find_subcommand(word)
                .unwrap_or_else(|| panic!("clap lacks `{}`", spec.path));
        }
        let listed: BTreeSet<&str> = group
            .get_subcommands()
            .map(|sub| sub.get_name())
            .filter(|name| *name != "help")
            .collect();
        assert_eq!(
            listed, children,
            "`{}` lists other subcommands than its specs before it is built: expand it in \
             src/cli/mod.rs's `whole_command`",
            spec.path
        );
    }
}

#[test]
fn every_sample_invocation_parses() {
    for spec in COMMANDS {
        let mut args = vec!["safe-ad".to_string()];
        args.extend(spec.path.split(' ').map(str::to_owned));
        args.extend(spec.sample.iter().map(|word| word.to_string()));
        if let Err(error) = safe_ad::test_support::help::command().try_get_matches_from(&args) {
            panic!(
                "`{}`, the sample of its spec, does not parse: {error}",
                args.join(" ")
            );
        }
    }
}

/// `--jq` filters what `--json` prints, so a spec offers both or neither (`cli::options::JSON`
/// is the pair); a spec with `--json` names the table of docs/output.md its objects are in.
#[test]
fn every_command_with_json_takes_jq_and_no_other_does() {
    use safe_ad::test_support::cli::Opt;
    for spec in COMMANDS {
        assert_eq!(
            spec.options.contains(Opt::Jq),
            spec.options.contains(Opt::Json),
            "`{}`: --jq is offered exactly where --json is",
            spec.path
        );
        assert_eq!(
            spec.json.is_some(),
            spec.options.contains(Opt::Json),
            "`{}`: a spec names its JSON table exactly when it offers --json",
            spec.path
        );
    }
}

/// Whether a journal line's `METHOD /path` is one of the spec's routes, each `<x>` in a route
/// standing for one path segment.
fn listed(spec: &Spec, sent: &str) -> bool {
    let (method, path) = sent.split_once(' ').expect("METHOD /path");
    (spec.route_list().iter()).any(|route| route.matches(method, path))
}

/// Each command's sample, run against the emulator, is held to its spec: a command that sends
/// sends only routes its spec lists; one that does not sends nothing at all (so a spec that
/// says "sends nothing" cannot drop a command from the tests that stop every sending one); and
/// one whose spec says it takes no launcher handles of its own makes none (the emulator's
/// handle counter stays where it was).
#[cfg(feature = "emulator")]
#[test]
fn what_each_command_sends_is_what_its_spec_says() {
    let mut wrong = Vec::new();
    for spec in COMMANDS
        .iter()
        .filter(|spec| !matches!(spec.reaches, Reaches::Group | Reaches::Emulator))
    {
        // A login waits for a person to approve it: the emulator answers at once, which is
        // all this needs.
        let emulator = crate::harness::emulator::Emulator::start(&[]);
        let sandbox = Sandbox::new();
        let mut args: Vec<&str> = spec.path.split(' ').collect();
        args.extend(spec.sample);
        let first_handle = emulator.next_handle();
        let before = emulator.requests().len();
        // `auth token` prints the token: that is its output.
        let output = sandbox
            .safe_ad()
            .launcher(&emulator.url)
            .token_may_show()
            .args(&args)
            .run();
        // A sample is a whole, valid invocation: the launcher may refuse it (4), but it is
        // neither refused as usage (2) nor met with something unexpected (1).
        let code = output.exit_code();
        // But `emulator env`, whose every invocation without a background emulator of the user's
        // exits 1 (none runs, or --pid names none): its sample (`--pid 1`, never one) must reach
        // that answer, past the parser.
        let no_emulator = spec.path == "emulator env"
            && code == Some(1)
            && output.stderr().contains("process 1 (")
            && output
                .stderr()
                .contains("is not a background emulator of yours");
        output.check(
            !matches!(code, Some(1 | 2)) || no_emulator,
            format!("the sample `safe-ad {}` exits {code:?}", args.join(" ")),
        );
        let sent = emulator.requests()[before..].to_vec();
        let made = emulator.next_handle() - first_handle;
        let line = args.join(" ");
        if !spec.sends() && !sent.is_empty() {
            wrong.push(format!(
                "`safe-ad {line}` sent {sent:?}; its spec says it sends nothing"
            ));
        }
        for request in &sent {
            let request = request
                .rsplit_once(' ')
                .map_or(request.as_str(), |(request, _)| request);
            // `shell` sends what its lines' commands send: its sample's one line is checked
            // against that command's routes.
            let routes_of = match spec.path {
                "shell" => (safe_ad::test_support::cli::COMMANDS.iter().copied())
                    .find(|command| spec.sample[1].split(' ').next() == Some(command.path))
                    .expect("the shell sample's command"),
                _ => spec,
            };
            if spec.sends() && !listed(routes_of, request) {
                wrong.push(format!(
                    "`safe-ad {line}` sent {request}, not among its routes"
                ));
            }
        }
        if !spec.leases && made > 0 {
            wrong.push(format!(
                "`safe-ad {line}` made {made} launcher handles; its spec says it takes none"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "commands that do not do what their spec says:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn route_matching_takes_a_placeholder_for_one_segment_only() {
    let spec = spec_of("metadata").expect("metadata");
    assert!(listed(spec, "GET /appendable-data/metadata/7"));
    assert!(!listed(spec, "GET /appendable-data/metadata/7/8"));
    assert!(!listed(spec, "POST /appendable-data/metadata/7"));
    assert!(spec.reaches == Reaches::Launcher);
}
