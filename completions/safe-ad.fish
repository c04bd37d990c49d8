# fish completion for safe-ad, written by `safe-ad completions fish`: it asks
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
