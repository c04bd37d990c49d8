# bash completion for safe-ad, written by `safe-ad completions bash` from its command-line definition.
# Source it, or put it where bash-completion looks (~/.local/share/bash-completion/completions/safe-ad).

# Parses the line up to the cursor as safe-ad does: which command, and whether the word under
# the cursor is an option, an option's value, a positional argument or what follows `--`.
_safe_ad() {
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
    _safe_ad_spec ""
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
            _safe_ad_spec "$path"
        else
            npos=$(( npos + 1 ))
        fi
    done

    if [[ -n $pending ]]; then
        kind=$(_safe_ad_value "$path" "$pending")
    elif (( ! dashdash )) && [[ $current == --*=* ]]; then
        kind=$(_safe_ad_value "$path" "${current%%=*}")
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

# What each command takes: subcommands, options without and with a value, positional
# arguments (how each completes), and what follows `--`.
_safe_ad_spec() {
    subs="" flags="" valued="" pos=() more="" last=""
    case $1 in
        "")
            subs="create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator help"
            flags="--allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help -V --version"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color"
            ;;
        "create")
            flags="--private --white-list --put --allow-insecure-http -q --quiet --json --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color"
            pos=("nothing")
            ;;
        "open")
            flags="--private --allow-insecure-http -q --quiet --json --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color"
            pos=("nothing")
            ;;
        "put")
            flags="--allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color"
            pos=("nothing")
            more=1
            ;;
        "post")
            flags="--allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color"
            pos=("nothing")
            more=1
            ;;
        "clear-data")
            flags="--allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color --save"
            pos=("nothing")
            more=1
            ;;
        "clear-deleted-data")
            flags="--allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color --save"
            pos=("nothing")
            more=1
            ;;
        "remove")
            flags="--require-match --allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color --save --signed-by --kind --data-id --name"
            pos=("nothing" "nothing")
            more=1
            ;;
        "restore")
            flags="--require-match --re-sign --allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color --save --signed-by --kind --data-id --name"
            pos=("nothing" "nothing")
            more=1
            ;;
        "purge")
            flags="--require-match --allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color --save --signed-by --kind --data-id --name"
            pos=("nothing" "nothing")
            more=1
            ;;
        "append")
            flags="--private --allow-insecure-http -q --quiet --json --dry-run --curl -v --verbose -h --help"
            valued="--immutable --profile --launcher-url --token-file --timeout --retries --jq --color --structured --type-tag --appendable --encrypt"
            pos=("nothing")
            ;;
        "metadata")
            flags="--allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color"
            pos=("nothing")
            more=1
            ;;
        "show")
            flags="--full --serialised --allow-insecure-http -q --quiet --json -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color --index --signed-by --kind --data-id --name"
            pos=("nothing")
            more=1
            ;;
        "cat")
            flags="--deleted --force --allow-insecure-http -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --color"
            pos=("nothing" "nothing")
            ;;
        "status")
            flags="--allow-insecure-http -q --quiet --json -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color"
            pos=("nothing")
            more=1
            ;;
        "wait")
            flags="--allow-insecure-http -q --quiet --json -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color --for --deadline --interval --signed-by --kind --data-id --name"
            pos=("nothing")
            ;;
        "watch")
            flags="--allow-insecure-http -q --quiet --json -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color --interval --count"
            pos=("nothing")
            ;;
        "reopen")
            flags="--drop --allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color"
            pos=("nothing")
            more=1
            ;;
        "drop")
            flags="--allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color"
            pos=("nothing")
            more=1
            ;;
        "filter")
            subs="show add remove type help"
            flags="-h --help"
            ;;
        "filter show")
            flags="--allow-insecure-http -q --quiet --json -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color"
            pos=("nothing")
            ;;
        "filter add")
            flags="--allow-insecure-http -q --quiet --json --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color --save --signer-of"
            pos=("nothing" "nothing")
            more=1
            ;;
        "filter remove")
            flags="--allow-insecure-http -q --quiet --json --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color --save --signer-of"
            pos=("nothing" "nothing")
            more=1
            ;;
        "filter type")
            flags="--allow-insecure-http -q --quiet --json --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color --save"
            pos=("nothing" "words white-list black-list")
            ;;
        "filter help")
            subs="show add remove type help"
            ;;
        "filter help show")
            ;;
        "filter help add")
            ;;
        "filter help remove")
            ;;
        "filter help type")
            ;;
        "filter help help")
            ;;
        "capture")
            flags="--allow-insecure-http -q --quiet --dry-run -v --verbose -h --help"
            valued="-o --output --profile --launcher-url --token-file --timeout --retries --color"
            pos=("nothing")
            more=1
            ;;
        "auth")
            subs="login status logout token whoami help"
            flags="-h --help"
            ;;
        "auth login")
            flags="--allow-insecure-http -q --quiet -h --help"
            valued="--profile --launcher-url --timeout --color --app-name --app-id --vendor"
            ;;
        "auth status")
            flags="--allow-insecure-http -q --quiet --json -h --help"
            valued="--profile --launcher-url --token-file --timeout --jq --color"
            ;;
        "auth logout")
            flags="--allow-insecure-http -q --quiet -h --help"
            valued="--profile --launcher-url --token-file --timeout --color"
            ;;
        "auth token")
            flags="-h --help"
            valued="--profile --token-file --color"
            ;;
        "auth whoami")
            flags="--key --allow-insecure-http -q --quiet --json -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq --color"
            ;;
        "auth help")
            subs="login status logout token whoami help"
            ;;
        "auth help login")
            ;;
        "auth help status")
            ;;
        "auth help logout")
            ;;
        "auth help token")
            ;;
        "auth help whoami")
            ;;
        "auth help help")
            ;;
        "config")
            subs="path show set unset help"
            flags="-h --help"
            ;;
        "config path")
            flags="--json -h --help"
            valued="--jq --color"
            ;;
        "config show")
            flags="--json -h --help"
            valued="--profile --launcher-url --token-file --timeout --jq --color"
            ;;
        "config set")
            flags="-q --quiet -h --help"
            valued="--profile --color"
            pos=("words launcher_url token timeout_secs read_only" "nothing")
            ;;
        "config unset")
            flags="-q --quiet -h --help"
            valued="--profile --color"
            pos=("words launcher_url token timeout_secs read_only")
            ;;
        "config help")
            subs="path show set unset help"
            ;;
        "config help path")
            ;;
        "config help show")
            ;;
        "config help set")
            ;;
        "config help unset")
            ;;
        "config help help")
            ;;
        "decode")
            flags="--json -h --help"
            valued="--jq --color"
            pos=("nothing")
            ;;
        "completions")
            flags="-h --help"
            valued="--color"
            pos=("words bash zsh fish elvish powershell")
            ;;
        "man")
            flags="--roff --list -h --help"
            valued="--color"
            pos=("nothing")
            more=1
            ;;
        "shell")
            flags="--keep-going --allow-insecure-http -q --quiet --json --fail-fast --dry-run --curl -v --verbose -h --help"
            valued="--profile --launcher-url --token-file --timeout --retries --jq -j --jobs --color -c --command"
            pos=("files")
            ;;
        "emulator")
            subs="requests export list env"
            flags="--empty -q --quiet --strict-paths --deny-auth --hang-unknown-clears --background --stop --all --if-running -h --help"
            valued="--listen --token-file --token --user --state --import --log --fault-rate --fault-seed --ready-timeout --pid --format"
            last="command-line"
            ;;
        "emulator requests")
            flags="--failed --count --clear --allow-insecure-http -q --quiet --json -h --help"
            valued="--method --path --status --error-code --since --expect --profile --launcher-url --token-file --timeout --jq --color"
            ;;
        "emulator export")
            flags="--allow-insecure-http -q --quiet -h --help"
            valued="--profile --launcher-url --token-file --timeout --color"
            pos=("files")
            ;;
        "emulator list")
            flags="--json -h --help"
            valued="--jq --color"
            ;;
        "emulator env")
            flags="-h --help"
            valued="--pid --user --color --format"
            ;;
        "help")
            subs="create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator help"
            ;;
        "help create")
            ;;
        "help open")
            ;;
        "help put")
            ;;
        "help post")
            ;;
        "help clear-data")
            ;;
        "help clear-deleted-data")
            ;;
        "help remove")
            ;;
        "help restore")
            ;;
        "help purge")
            ;;
        "help append")
            ;;
        "help metadata")
            ;;
        "help show")
            ;;
        "help cat")
            ;;
        "help status")
            ;;
        "help wait")
            ;;
        "help watch")
            ;;
        "help reopen")
            ;;
        "help drop")
            ;;
        "help filter")
            subs="show add remove type"
            ;;
        "help filter show")
            ;;
        "help filter add")
            ;;
        "help filter remove")
            ;;
        "help filter type")
            ;;
        "help capture")
            ;;
        "help auth")
            subs="login status logout token whoami"
            ;;
        "help auth login")
            ;;
        "help auth status")
            ;;
        "help auth logout")
            ;;
        "help auth token")
            ;;
        "help auth whoami")
            ;;
        "help config")
            subs="path show set unset"
            ;;
        "help config path")
            ;;
        "help config show")
            ;;
        "help config set")
            ;;
        "help config unset")
            ;;
        "help decode")
            ;;
        "help completions")
            ;;
        "help man")
            ;;
        "help shell")
            ;;
        "help emulator")
            subs="requests export list env"
            ;;
        "help emulator requests")
            ;;
        "help emulator export")
            ;;
        "help emulator list")
            ;;
        "help emulator env")
            ;;
        "help help")
            ;;
    esac
}

# How the value of an option completes; an option not listed completes nothing.
_safe_ad_value() {
    case "$1|$2" in
        "|--token-file") echo "files" ;;
        "|--color") echo "words auto always never" ;;
        "create|--token-file") echo "files" ;;
        "create|--color") echo "words auto always never" ;;
        "open|--token-file") echo "files" ;;
        "open|--color") echo "words auto always never" ;;
        "put|--token-file") echo "files" ;;
        "put|--color") echo "words auto always never" ;;
        "post|--token-file") echo "files" ;;
        "post|--color") echo "words auto always never" ;;
        "clear-data|--token-file") echo "files" ;;
        "clear-data|--color") echo "words auto always never" ;;
        "clear-data|--save") echo "words post put" ;;
        "clear-deleted-data|--token-file") echo "files" ;;
        "clear-deleted-data|--color") echo "words auto always never" ;;
        "clear-deleted-data|--save") echo "words post put" ;;
        "remove|--token-file") echo "files" ;;
        "remove|--color") echo "words auto always never" ;;
        "remove|--save") echo "words post put" ;;
        "remove|--kind") echo "words structured-data immutable-data appendable-data private-appendable-data" ;;
        "restore|--token-file") echo "files" ;;
        "restore|--color") echo "words auto always never" ;;
        "restore|--save") echo "words post put" ;;
        "restore|--kind") echo "words structured-data immutable-data appendable-data private-appendable-data" ;;
        "purge|--token-file") echo "files" ;;
        "purge|--color") echo "words auto always never" ;;
        "purge|--save") echo "words post put" ;;
        "purge|--kind") echo "words structured-data immutable-data appendable-data private-appendable-data" ;;
        "append|--immutable") echo "files" ;;
        "append|--token-file") echo "files" ;;
        "append|--color") echo "words auto always never" ;;
        "append|--encrypt") echo "words symmetric asymmetric" ;;
        "metadata|--token-file") echo "files" ;;
        "metadata|--color") echo "words auto always never" ;;
        "show|--token-file") echo "files" ;;
        "show|--color") echo "words auto always never" ;;
        "show|--kind") echo "words structured-data immutable-data appendable-data private-appendable-data" ;;
        "cat|--token-file") echo "files" ;;
        "cat|--color") echo "words auto always never" ;;
        "status|--token-file") echo "files" ;;
        "status|--color") echo "words auto always never" ;;
        "wait|--token-file") echo "files" ;;
        "wait|--color") echo "words auto always never" ;;
        "wait|--for") echo "words new-items item version-above= stale in-sync" ;;
        "wait|--kind") echo "words structured-data immutable-data appendable-data private-appendable-data" ;;
        "watch|--token-file") echo "files" ;;
        "watch|--color") echo "words auto always never" ;;
        "reopen|--token-file") echo "files" ;;
        "reopen|--color") echo "words auto always never" ;;
        "drop|--token-file") echo "files" ;;
        "drop|--color") echo "words auto always never" ;;
        "filter show|--token-file") echo "files" ;;
        "filter show|--color") echo "words auto always never" ;;
        "filter add|--token-file") echo "files" ;;
        "filter add|--color") echo "words auto always never" ;;
        "filter add|--save") echo "words post put" ;;
        "filter remove|--token-file") echo "files" ;;
        "filter remove|--color") echo "words auto always never" ;;
        "filter remove|--save") echo "words post put" ;;
        "filter type|--token-file") echo "files" ;;
        "filter type|--color") echo "words auto always never" ;;
        "filter type|--save") echo "words post put" ;;
        "capture|-o"|"capture|--output") echo "files" ;;
        "capture|--token-file") echo "files" ;;
        "capture|--color") echo "words auto always never" ;;
        "auth login|--color") echo "words auto always never" ;;
        "auth status|--token-file") echo "files" ;;
        "auth status|--color") echo "words auto always never" ;;
        "auth logout|--token-file") echo "files" ;;
        "auth logout|--color") echo "words auto always never" ;;
        "auth token|--token-file") echo "files" ;;
        "auth token|--color") echo "words auto always never" ;;
        "auth whoami|--token-file") echo "files" ;;
        "auth whoami|--color") echo "words auto always never" ;;
        "config path|--color") echo "words auto always never" ;;
        "config show|--token-file") echo "files" ;;
        "config show|--color") echo "words auto always never" ;;
        "config set|--color") echo "words auto always never" ;;
        "config unset|--color") echo "words auto always never" ;;
        "decode|--color") echo "words auto always never" ;;
        "completions|--color") echo "words auto always never" ;;
        "man|--color") echo "words auto always never" ;;
        "shell|--token-file") echo "files" ;;
        "shell|--color") echo "words auto always never" ;;
        "emulator|--token-file") echo "files" ;;
        "emulator|--state") echo "files" ;;
        "emulator|--import") echo "files" ;;
        "emulator|--log") echo "files" ;;
        "emulator|--format") echo "words sh env" ;;
        "emulator requests|--token-file") echo "files" ;;
        "emulator requests|--color") echo "words auto always never" ;;
        "emulator export|--token-file") echo "files" ;;
        "emulator export|--color") echo "words auto always never" ;;
        "emulator list|--color") echo "words auto always never" ;;
        "emulator env|--color") echo "words auto always never" ;;
        "emulator env|--format") echo "words sh env" ;;
        *) echo nothing ;;
    esac
}

complete -F _safe_ad safe-ad
