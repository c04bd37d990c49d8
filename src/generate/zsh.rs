//! Corrections to clap_complete's zsh script (4.6):
//!
//! - a positional argument with nothing to complete (a handle, a name, a config value) gets an
//!   empty action, which makes `_arguments` show the argument's description as a message; with
//!   a message shown, zsh lists a single matching option instead of inserting it (`safe-ad
//!   clear-data --sa<TAB>` stayed as typed). Such an argument completes with `_nothing` instead:
//!   nothing, and no message in the way.
//! - a command with subcommands that also takes a command line after `--` (`emulator [--
//!   COMMAND...]`) gets that command line as its first positional argument, ahead of the
//!   subcommand: `safe-ad emulator export <TAB>` took `export` for COMMAND and completed
//!   command names, never export's FILE or options. Here the command line completes only after
//!   a `--` that comes before any subcommand, and the subcommand is the first positional.
//!   Every command with subcommands leaves `--` in the words it hands on (no `-S`), else
//!   `_arguments` drops it before the command below can see it.

use std::fmt::Write as _;

use clap::Command;

use super::{subcommand_paths, BIN};

/// `_arguments` as clap_complete calls it, and as a command with subcommands calls it here.
const ARGUMENTS: &str = "_arguments \"${_arguments_options[@]}\" : \\\n";
const ARGUMENTS_KEEPING_DASHDASH: &str = "_arguments \"${(@)_arguments_options:#-S}\" : \\\n";

/// A command with subcommands that takes a command line after `--`.
struct CommandLine {
    /// The line of its `_arguments` call that hands the first positional word to the
    /// subcommands: `":: :_safe-ad__subcmd__emulator_commands" \`.
    dispatch: String,
    /// The id of the command line's argument: clap_complete's line for it is `'::command -- ...`.
    id: String,
    /// Its subcommands' names, as a zsh pattern: `(requests|export|list)`.
    subcommands: String,
    /// The index in `$line` that clap_complete gives the subcommand: one past its positionals.
    position: usize,
}

/// The corrected script.
pub fn corrected(script: &str, root: &Command) -> String {
    let command_lines = command_lines(root);
    let mut fixed = String::with_capacity(script.len() + 1024);
    let mut block: Option<Vec<String>> = None;
    // After a block whose command line was taken out: the subcommand's index in `$line`.
    let mut renumber: Option<usize> = None;
    for line in script.split_inclusive('\n') {
        let line = positional_action(line);
        if line.trim_start() == ARGUMENTS {
            renumber = None;
            block = Some(vec![line]);
            continue;
        }
        if let Some(lines) = block.as_mut() {
            lines.push(line.clone());
            if line == "&& ret=0\n" {
                let lines = block.take().expect("in a block");
                renumber = write_block(&mut fixed, lines, &command_lines);
            }
            continue;
        }
        match renumber {
            Some(position) if line.contains(&format!("$line[{position}]")) => {
                fixed.push_str(&line.replace(
                    &format!("$line[{position}]"),
                    &format!("$line[{}]", position - 1),
                ));
                if line.trim_start().starts_with("case ") {
                    renumber = None;
                }
            }
            _ => fixed.push_str(&line),
        }
    }
    fixed
}

/// A positional argument's line with an empty action completes `_nothing`.
fn positional_action(line: &str) -> String {
    let positional = ["':", "'*:"].iter().any(|start| line.starts_with(start));
    match line.strip_suffix(":' \\\n") {
        Some(spec) if positional => format!("{spec}:_nothing' \\\n"),
        _ => line.to_owned(),
    }
}

/// Writes one `_arguments` call (`lines`, from `_arguments` to `&& ret=0`). Returns the index
/// in `$line` to renumber in what follows, when the command line was taken out of it.
fn write_block(
    fixed: &mut String,
    lines: Vec<String>,
    command_lines: &[CommandLine],
) -> Option<usize> {
    let dispatches = lines
        .iter()
        .any(|line| line.starts_with("\":: :_") && line.ends_with("_commands\" \\\n"));
    if !dispatches {
        lines.iter().for_each(|line| fixed.push_str(line));
        return None;
    }
    let indent = &lines[0][..lines[0].len() - lines[0].trim_start().len()];
    let found = command_lines.iter().find_map(|command_line| {
        let dispatch = lines
            .iter()
            .position(|line| *line == command_line.dispatch)?;
        let spec = lines[..dispatch].iter().position(|line| {
            let spec = spec_of(line);
            line.starts_with('\'')
                && [" -- ", ":"]
                    .iter()
                    .any(|after| spec.starts_with(&format!("{}{after}", command_line.id)))
        })?;
        Some((command_line, spec))
    });
    let Some((command_line, spec)) = found else {
        fixed.push_str(indent);
        fixed.push_str(ARGUMENTS_KEEPING_DASHDASH);
        lines[1..].iter().for_each(|line| fixed.push_str(line));
        return None;
    };
    // `'::command -- Run...:_cmdambivalent' \` becomes `'*::command -- Run...:_cmdambivalent' \`:
    // every word after `--` is the command line, handed to the action on its own.
    let _ = write!(
        fixed,
        "{indent}# After a `--` that comes before any subcommand: the command line, and nothing else.\n\
             {indent}local dashdash=${{words[(i)--]}}\n\
             {indent}if (( dashdash < CURRENT && ! ${{${{(@)words[2,dashdash]}}[(I){subs}]}} )); then\n\
             {indent}    words=(\"${{(@)words[dashdash,-1]}}\")\n\
             {indent}    (( CURRENT -= dashdash - 1 ))\n\
         {indent}{ARGUMENTS}'*::{spec}&& ret=0\n\
         {indent}    return ret\n\
         {indent}fi\n",
        spec = spec_of(&lines[spec]),
        subs = command_line.subcommands,
    );
    fixed.push_str(indent);
    fixed.push_str(ARGUMENTS_KEEPING_DASHDASH);
    for (at, line) in lines.iter().enumerate().skip(1) {
        if at != spec {
            fixed.push_str(line);
        }
    }
    Some(command_line.position)
}

/// A positional argument's line without its cardinality: `command -- Run...:_cmdambivalent' \`
/// for `'::command -- Run...:_cmdambivalent' \`.
fn spec_of(line: &str) -> &str {
    line.trim_start_matches('\'').trim_start_matches(':')
}

/// Every command with subcommands that takes a command line after `--`, from the definition.
fn command_lines(root: &Command) -> Vec<CommandLine> {
    subcommand_paths(root)
        .into_iter()
        .filter_map(|path| {
            let command = *path.last().expect("a path is never empty");
            if !command.has_subcommands() {
                return None;
            }
            let last = command
                .get_positionals()
                .find(|arg| arg.is_last_set() && !arg.is_hide_set())?;
            let names: Vec<&str> = path.iter().map(|command| command.get_name()).collect();
            let subcommands: Vec<&str> = command
                .get_subcommands()
                .flat_map(|sub| std::iter::once(sub.get_name()).chain(sub.get_all_aliases()))
                .collect();
            Some(CommandLine {
                dispatch: format!(
                    "\":: :_{BIN}__subcmd__{}_commands\" \\\n",
                    names.join("__subcmd__")
                ),
                id: last.get_id().as_str().to_owned(),
                subcommands: format!("({})", subcommands.join("|")),
                position: command.get_positionals().count() + 1,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positionals_without_an_action_complete_nothing() {
        let script = "'--jobs=[N]:N:' \\\n'*::handles -- Handles:' \\\n':key -- Key:(a b)' \\\n";
        assert_eq!(
            corrected(script, &Command::new(BIN)),
            "'--jobs=[N]:N:' \\\n'*::handles -- Handles:_nothing' \\\n':key -- Key:(a b)' \\\n"
        );
    }

    #[test]
    fn a_command_line_after_dashdash_completes_only_after_it() {
        use clap::{Arg, ValueHint};
        let mut root = Command::new(BIN).subcommand(
            Command::new("run")
                .args_conflicts_with_subcommands(true)
                .disable_help_subcommand(true)
                .arg(
                    Arg::new("command")
                        .last(true)
                        .num_args(1..)
                        .value_hint(ValueHint::CommandWithArguments),
                )
                .subcommand(Command::new("list")),
        );
        root.build();
        let mut script = Vec::new();
        clap_complete::generate(
            clap_complete::Shell::Zsh,
            &mut root.clone(),
            BIN,
            &mut script,
        );
        let script = corrected(&String::from_utf8_lossy(&script), &root);
        let guard = "if (( dashdash < CURRENT && ! ${${(@)words[2,dashdash]}[(I)(list)]} )); then";
        assert!(script.contains(guard), "{script}");
        assert!(
            script.contains("'*::command:_cmdambivalent' \\\n"),
            "{script}"
        );
        assert!(!script.contains("'::command:"), "{script}");
        assert!(script.contains("case $line[1] in"), "{script}");
        assert!(!script.contains("$line[2]"), "{script}");
    }
}
