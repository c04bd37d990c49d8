//! The bash, zsh and fish completion scripts: thin wrappers, each of which hands the words
//! before the cursor to `safe-ad __complete` ([`super::complete`], where what completes is
//! decided) and does what the answer says in its shell's own way: offers the words, completes
//! file, directory or command names as the shell does, or completes the command line after
//! `--` as that command's own completion would.
//!
//! The binary asked is the one being completed (the first word of the line), so the scripts
//! never drift from what the binary takes, and a script needs no change when a command does.

/// bash 4 or later, with or without the bash-completion package. Words are split at white
/// space only (bash splits `--color=auto` and `host:port` too), and a word bash split at `=`
/// gets the candidates without the part before it.
const BASH: &str = r#"# bash completion for safe-ad, written by `safe-ad completions bash`: it asks
# `safe-ad __complete` what completes, so it never falls behind the binary.
# Source it, or put it where bash-completion looks
# (~/.local/share/bash-completion/completions/safe-ad).
_safe_ad() {
    local cur=$2 line=${COMP_LINE:0:COMP_POINT}
    local -a words answer
    read -ra words <<< "$line"
    if [[ ${#words[@]} -eq 0 || $line == *[[:space:]] ]]; then
        words+=("")
    fi
    local current=${words[${#words[@]}-1]}
    mapfile -t answer < <("$1" __complete -- "${words[@]:1}" 2>/dev/null)
    case ${answer[0]} in
        words)
            COMPREPLY=("${answer[@]:1}")
            COMPREPLY=("${COMPREPLY[@]%%$'\t'*}")
            # bash has split `--color=al` at `=` unless COMP_WORDBREAKS lacks it.
            COMPREPLY=("${COMPREPLY[@]#"${current%"$cur"}"}")
            ;;
        # Names are read a line each (mapfile), so spaces and glob characters in them stay.
        files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        dirs) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
        commands) mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
        command-line\ *)
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
    return 0
}

complete -F _safe_ad safe-ad
"#;

/// zsh: an autoloaded `_safe-ad` on `fpath`, or sourced after `compinit`.
const ZSH: &str = r#"#compdef safe-ad
# zsh completion for safe-ad, written by `safe-ad completions zsh`: it asks
# `safe-ad __complete` what completes, so it never falls behind the binary.
_safe-ad() {
    local -a answer candidates
    local line at
    answer=("${(@f)$(${words[1]} __complete -- "${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}" 2>/dev/null)}")
    case $answer[1] in
        words)
            for line in "${(@)answer[2,-1]}"; do
                # _describe reads `word:help`; a colon in the word is escaped.
                candidates+=("${${line%%$'\t'*}//:/\\:}${${(M)line#*$'\t'}:+:${line#*$'\t'}}")
            done
            _describe -t values 'safe-ad' candidates
            ;;
        files) _files ;;
        dirs) _files -/ ;;
        commands) _command_names -e ;;
        command-line\ *)
            # The command after `--` and its arguments, as that command completes them.
            at=${answer[1]#command-line }
            shift $(( at + 1 )) words
            (( CURRENT -= at + 1 ))
            _normal
            ;;
    esac
}

if [ "$funcstack[1]" = "_safe-ad" ]; then
    _safe-ad "$@"
else
    compdef _safe-ad safe-ad
fi
"#;

/// fish 3 or later.
const FISH: &str = r#"# fish completion for safe-ad, written by `safe-ad completions fish`: it asks
# `safe-ad __complete` what completes, so it never falls behind the binary.
function __fish_safe_ad_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    set -l answer (command $words[1] __complete -- $words[2..-1] "$current" 2>/dev/null)
    switch "$answer[1]"
        case words
            printf '%s\n' $answer[2..-1]
        case files
            __fish_complete_path "$current"
        case dirs
            __fish_complete_directories "$current"
        case commands
            complete --do-complete="$current"
        case 'command-line *'
            # The command after `--` and its arguments, as fish completes that command line.
            set -l at (math (string replace 'command-line ' '' -- $answer[1]) + 2)
            set -l line (string escape -- $words[$at..-1]) "$current"
            complete --do-complete=(string join -- ' ' $line)
    end
end

complete -c safe-ad -f -a '(__fish_safe_ad_complete)'
"#;

/// The script for a shell that has one here.
pub fn script(shell: crate::cli::Shell) -> Option<&'static str> {
    use crate::cli::Shell;
    match shell {
        Shell::Bash => Some(BASH),
        Shell::Zsh => Some(ZSH),
        Shell::Fish => Some(FISH),
        Shell::Elvish | Shell::Powershell => None,
    }
}
