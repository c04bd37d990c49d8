//! The bash completion script, written from the clap definition.
//!
//! clap_complete's bash script (4.6) is not used: it completes file names for every value it
//! knows nothing about (through `complete -o default`), offers a positional argument's values at
//! every position (`config set timeout_secs <TAB>` offered the keys again), knows nothing of
//! `--`, lists options before subcommands, and for a binary name with a hyphen completes nothing
//! past the first word (clap-rs/clap#6421). This script parses the line as safe-ad does and
//! completes what the argument under the cursor is: a subcommand, an option, one of an option's
//! or a positional's values, a file where one is named, a command after `emulator --`, and
//! nothing where the value is a number, handle, URL, address, key or word.
//!
//! The script is a fixed parser ([`PARSER`]) and one table per command ([`spec`]); it needs
//! bash 4 and works with or without the bash-completion package.

use std::fmt::Write as _;

use clap::{Arg, Command};

use super::{help_paths, names, takes_value, Values, BIN};

/// The parser and completer, the same for every command; `NAME` is the function prefix.
const PARSER: &str = r#"
# Parses the line up to the cursor as safe-ad does: which command, and whether the word under
# the cursor is an option, an option's value, a positional argument or what follows `--`.
_NAME() {
    local cur=$2 line=${COMP_LINE:0:COMP_POINT}
    local -a words
    # Whole words, split at white space only (bash splits `--color=auto` and `host:port` too).
    read -ra words <<< "$line"
    if [[ ${#words[@]} -eq 0 || $line == *[[:space:]] ]]; then
        words+=("")
    fi
    local n=${#words[@]}
    local current=${words[n-1]}
    local path="" subs flags valued more last
    local -a pos
    local pending="" npos=0 dashdash=0 nlast=0 word i kind prefix=""
    _NAME_spec ""
    for (( i = 1; i < n - 1; i++ )); do
        word=${words[i]}
        if [[ -n $pending ]]; then
            pending=""
        elif (( dashdash )) && [[ -n $last ]]; then
            nlast=$(( nlast + 1 ))
        elif (( dashdash )); then
            npos=$(( npos + 1 ))
        elif [[ $word == -- ]]; then
            dashdash=1
        elif [[ $word == --*=* ]]; then
            :
        elif [[ $word == --* ]]; then
            [[ " $valued " == *" $word "* ]] && pending=$word
        elif [[ $word == -?* ]]; then
            # Bundled short options (`-qj 4`): only the last may take a value.
            [[ " $valued " == *" -${word: -1} "* ]] && pending=-${word: -1}
        elif (( npos == 0 )) && [[ " $subs " == *" $word "* ]]; then
            path=${path:+$path }$word
            _NAME_spec "$path"
        else
            npos=$(( npos + 1 ))
        fi
    done

    if [[ -n $pending ]]; then
        kind=$(_NAME_value "$path" "$pending")
    elif (( ! dashdash )) && [[ $current == --*=* ]]; then
        kind=$(_NAME_value "$path" "${current%%=*}")
        # bash has split the word at `=`, unless COMP_WORDBREAKS lacks it.
        if [[ $cur == "$current" ]]; then
            prefix=${current%%=*}=
            cur=${current#*=}
        fi
    elif (( dashdash )) && [[ -n $last ]]; then
        if (( nlast == 0 )); then
            kind=$last
        else
            kind=arguments
        fi
    elif (( ! dashdash )) && [[ $current == -* ]]; then
        kind=options
    elif (( npos == 0 )) && [[ -n $subs ]]; then
        kind="words $subs"
    elif (( npos < ${#pos[@]} )); then
        kind=${pos[npos]}
    elif [[ -n $more ]]; then
        kind=${pos[${#pos[@]}-1]}
    elif (( dashdash )); then
        kind=nothing
    else
        # Nothing is left to type but options.
        kind=options
    fi

    case $kind in
        options) COMPREPLY=($(compgen -W "$flags $valued" -- "$cur")) ;;
        words\ *) COMPREPLY=($(compgen -W "${kind#words }" -- "$cur")) ;;
        # Names are read a line each (mapfile), so spaces and glob characters in them stay.
        files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        dirs) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
        commands|command-line) mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
        arguments)
            # The arguments of the command after `--`: its own completion, through
            # bash-completion when it is loaded, else file names.
            local at
            for (( at = 1; at < COMP_CWORD; at++ )); do
                [[ ${COMP_WORDS[at]} == -- ]] && break
            done
            if declare -F _command_offset > /dev/null; then
                _command_offset $(( at + 1 ))
            else
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            fi
            ;;
        *) COMPREPLY=() ;;
    esac
    if [[ -n $prefix ]]; then
        COMPREPLY=("${COMPREPLY[@]/#/$prefix}")
    fi
    return 0
}
"#;

/// The whole script.
pub fn script(root: &Command) -> String {
    let name = BIN.replace('-', "_");
    let mut script = format!(
        "# bash completion for {BIN}, written by `{BIN} completions bash` from its command-line \
         definition.\n# Source it, or put it where bash-completion looks \
         (~/.local/share/bash-completion/completions/{BIN}).\n"
    );
    script.push_str(&PARSER.replace("NAME", &name));
    script.push_str(&spec(root, &name));
    script.push_str(&value_kinds(root, &name));
    let _ = writeln!(script, "\ncomplete -F _{name} {BIN}");
    script
}

/// `_NAME_spec PATH` sets what the command at PATH (`"config set"`) takes: `subs` its
/// subcommands, `flags` and `valued` its options without and with a value, `pos` how each
/// positional argument completes (`more` when the last one repeats), `last` how the first word
/// after `--` completes when the command takes a command line there.
fn spec(root: &Command, name: &str) -> String {
    let mut out = format!(
        "\n# What each command takes: subcommands, options without and with a value, positional\n\
         # arguments (how each completes), and what follows `--`.\n\
         _{name}_spec() {{\n    subs=\"\" flags=\"\" valued=\"\" pos=() more=\"\" last=\"\"\n    case $1 in\n"
    );
    for (path, command) in commands(root) {
        let _ = writeln!(out, "        \"{path}\")");
        let mut set = |var: &str, value: String| {
            if !value.is_empty() {
                let _ = writeln!(out, "            {var}=\"{value}\"");
            }
        };
        set("subs", subcommand_names(command).join(" "));
        set("flags", option_words(command, false).join(" "));
        set("valued", option_words(command, true).join(" "));
        let positionals: Vec<&Arg> = command
            .get_positionals()
            .filter(|arg| !arg.is_hide_set() && !arg.is_last_set())
            .collect();
        if let Some(last) = positionals.last() {
            let kinds: Vec<String> = positionals
                .iter()
                .map(|arg| format!("\"{}\"", kind(&Values::of(arg))))
                .collect();
            let _ = writeln!(out, "            pos=({})", kinds.join(" "));
            if last
                .get_num_args()
                .is_some_and(|range| range.max_values() > 1)
            {
                let _ = writeln!(out, "            more=1");
            }
        }
        if let Some(arg) = command
            .get_positionals()
            .find(|arg| !arg.is_hide_set() && arg.is_last_set())
        {
            let _ = writeln!(out, "            last=\"{}\"", kind(&Values::of(arg)));
        }
        out.push_str("            ;;\n");
    }
    out.push_str("    esac\n}\n");
    out
}

/// `_NAME_value PATH OPTION` prints how the value of OPTION of the command at PATH completes.
/// Only the options whose values can be completed are listed; the others complete nothing.
fn value_kinds(root: &Command, name: &str) -> String {
    let mut out = format!(
        "\n# How the value of an option completes; an option not listed completes nothing.\n\
         _{name}_value() {{\n    case \"$1|$2\" in\n"
    );
    for (path, command) in commands(root) {
        for arg in command.get_opts() {
            if arg.is_hide_set() {
                continue;
            }
            let values = Values::of(arg);
            if values == Values::Nothing {
                continue;
            }
            let words: Vec<String> = spellings(arg)
                .into_iter()
                .map(|word| format!("\"{path}|{word}\""))
                .collect();
            let _ = writeln!(
                out,
                "        {}) echo \"{}\" ;;",
                words.join("|"),
                kind(&values)
            );
        }
    }
    out.push_str("        *) echo nothing ;;\n    esac\n}\n");
    out
}

/// Every command with its path as the parser writes it: `""` for the main command,
/// `"config set"`, `"help auth"`.
fn commands(root: &Command) -> Vec<(String, &Command)> {
    let mut commands = vec![(String::new(), root)];
    for path in help_paths(root) {
        let command = *path.last().expect("a path is never empty");
        commands.push((names(&path).join(" "), command));
    }
    commands
}

/// How the parser names a kind of value.
fn kind(values: &Values) -> String {
    match values {
        Values::Words(words) => format!("words {}", words.join(" ")),
        Values::Files => "files".to_owned(),
        Values::Dirs => "dirs".to_owned(),
        Values::Commands => "commands".to_owned(),
        Values::CommandLine => "command-line".to_owned(),
        Values::Nothing => "nothing".to_owned(),
    }
}

/// The subcommands of a command, `help` included where clap adds it.
fn subcommand_names(command: &Command) -> Vec<String> {
    command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .flat_map(|sub| {
            std::iter::once(sub.get_name().to_owned())
                .chain(sub.get_visible_aliases().map(str::to_owned))
        })
        .collect()
}

/// The options of a command that take a value (`valued`) or do not, as typed: `-j --jobs`.
fn option_words(command: &Command, valued: bool) -> Vec<String> {
    command
        .get_arguments()
        .filter(|arg| !arg.is_positional() && !arg.is_hide_set() && takes_value(arg) == valued)
        .flat_map(spellings)
        .collect()
}

/// Every way to type an option: `-j`, `--jobs`, and visible aliases.
fn spellings(arg: &Arg) -> Vec<String> {
    let mut words = Vec::new();
    for short in arg.get_short_and_visible_aliases().unwrap_or_default() {
        words.push(format!("-{short}"));
    }
    for long in arg.get_long_and_visible_aliases().unwrap_or_default() {
        words.push(format!("--{long}"));
    }
    words
}
