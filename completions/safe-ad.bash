# bash completion for safe-ad, written by `safe-ad completions bash`: it asks
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
