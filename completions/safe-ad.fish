# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_safe_ad_global_optspecs
    string join \n launcher-url= token-file= timeout= allow-insecure-http q/quiet h/help V/version
end

function __fish_safe_ad_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_safe_ad_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_safe_ad_using_subcommand
    set -l cmd (__fish_safe_ad_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c safe-ad -n "__fish_safe_ad_needs_command" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "put" -d 'Save a new appendable data to the network (PUT /appendable-data/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "post" -d 'Save an appendable data that is already on the network (POST /appendable-data/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "clear-data" -d 'Move all data items to deleted_data (local until saved with `post`)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "clear-deleted-data" -d 'Remove all items from deleted_data (local until saved with `post`)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "metadata" -d 'Show version, data and deleted-data counts of handles (GET /appendable-data/metadata/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "auth" -d 'Get, check, print or revoke the launcher token'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "config" -d 'Show or edit the config file'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "completions" -d 'Print shell completions to stdout'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "emulator" -d 'Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -f -a "login" -d 'Ask the launcher for a token (a person approves it there) and store it in the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -f -a "status" -d 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -f -a "logout" -d 'Revoke the token at the launcher and remove it from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -f -a "token" -d 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l app-name -d 'App name the launcher shows to the person approving' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l app-id -d 'App id sent to the launcher' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l vendor -d 'Vendor name the launcher shows' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "login" -d 'Ask the launcher for a token (a person approves it there) and store it in the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "logout" -d 'Revoke the token at the launcher and remove it from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "token" -d 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f -a "path" -d 'Print the config file\'s path'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f -a "show" -d 'Print every setting with its effective value and where it comes from (token masked)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f -a "set" -d 'Set a key in the config file (for `token`, give `-` and pipe the token in)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f -a "unset" -d 'Remove a key from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "path" -d 'Print the config file\'s path'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print every setting with its effective value and where it comes from (token masked)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "set" -d 'Set a key in the config file (for `token`, give `-` and pipe the token in)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "unset" -d 'Remove a key from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -l listen -d 'Address to listen on; loopback only (use 127.0.0.1:0 for a free port)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -l token -d 'Accept this token (otherwise a random one is made and printed)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -l timeout -d 'Give up on a request after this many seconds (default 30)' -r
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -l empty -d 'Start with no demo data'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -l deny-auth -d 'Deny every POST /auth, as a launcher whose user clicks "deny"'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -l hang-unknown-clears -d 'Never answer a clear of an unknown handle, as the real launcher did'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -s q -l quiet -d 'Print nothing on success; errors still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from put post clear-data clear-deleted-data metadata auth config completions emulator help" -f -a "put" -d 'Save a new appendable data to the network (PUT /appendable-data/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from put post clear-data clear-deleted-data metadata auth config completions emulator help" -f -a "post" -d 'Save an appendable data that is already on the network (POST /appendable-data/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from put post clear-data clear-deleted-data metadata auth config completions emulator help" -f -a "clear-data" -d 'Move all data items to deleted_data (local until saved with `post`)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from put post clear-data clear-deleted-data metadata auth config completions emulator help" -f -a "clear-deleted-data" -d 'Remove all items from deleted_data (local until saved with `post`)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from put post clear-data clear-deleted-data metadata auth config completions emulator help" -f -a "metadata" -d 'Show version, data and deleted-data counts of handles (GET /appendable-data/metadata/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from put post clear-data clear-deleted-data metadata auth config completions emulator help" -f -a "auth" -d 'Get, check, print or revoke the launcher token'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from put post clear-data clear-deleted-data metadata auth config completions emulator help" -f -a "config" -d 'Show or edit the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from put post clear-data clear-deleted-data metadata auth config completions emulator help" -f -a "completions" -d 'Print shell completions to stdout'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from put post clear-data clear-deleted-data metadata auth config completions emulator help" -f -a "emulator" -d 'Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from put post clear-data clear-deleted-data metadata auth config completions emulator help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "login" -d 'Ask the launcher for a token (a person approves it there) and store it in the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "logout" -d 'Revoke the token at the launcher and remove it from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "token" -d 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "path" -d 'Print the config file\'s path'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "show" -d 'Print every setting with its effective value and where it comes from (token masked)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "set" -d 'Set a key in the config file (for `token`, give `-` and pipe the token in)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "unset" -d 'Remove a key from the config file'
