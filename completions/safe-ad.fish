# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_safe_ad_global_optspecs
    string join \n profile= launcher-url= token-file= timeout= allow-insecure-http retries= q/quiet json jq= j/jobs= fail-fast dry-run curl v/verbose color= h/help V/version
end

function __fish_safe_ad_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_safe_ad_global_optspecs) -- $cmd 2>/dev/null
    or return 0
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

complete -c safe-ad -n "__fish_safe_ad_needs_command" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_needs_command" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -s V -l version -d 'Print version'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "create" -d 'Make new appendable data and print its handle (--put saves it)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "open" -d 'Get a handle for data on the network, by its name, and print it'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "put" -d 'Save a handle\'s new data to the network (PUT /appendable-data/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "post" -d 'Save a handle\'s copy of data already on the network (POST /appendable-data/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "clear-data" -d 'Move every data item to the deleted list (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "clear-deleted-data" -d 'Empty the deleted list, for good (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "remove" -d 'Move data items to the deleted list, by index or by what they are (by name: saved)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "restore" -d 'Make deleted items data again (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "purge" -d 'Delete deleted items for good (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "append" -d 'Append an item: data by name, or a file as immutable data (see --help)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "metadata" -d 'Show the version, item counts, owner and filter of data, by name or handle'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "show" -d 'Show what data holds: data items, deleted items, who signed each, the filter\'s keys'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "cat" -d 'Write one item\'s content to stdout as raw bytes, exactly as stored'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "status" -d 'Compare handles\' copies with the network: in sync, changes not saved, stale, items the copy lacks'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "wait" -d 'Poll until a condition holds: new items, an item, a version, stale, in sync'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "watch" -d 'Watch data change: a view redrawn in place, or one JSON line per change'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "reopen" -d 'Get a fresh handle for the data behind stale handles, and print each'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "drop" -d 'Drop handles, freeing the launcher\'s slots (DELETE /appendable-data/handle/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "filter" -d 'Show or change who may append: the filter\'s type and keys'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "capture" -d 'Read appendable data by name from any launcher and write it as a fixture for --import'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "auth" -d 'Get, check, print or revoke the launcher token'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "config" -d 'Show or edit the config file'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "decode" -d 'Say what serialised bytes hold: a data id, a sign key or an appendable data (offline)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "completions" -d 'Print shell completions to stdout'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "man" -d 'Print the man page of safe-ad or of a command (roff)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "shell" -d 'A prompt for safe-ad\'s commands on a terminal, or a script of them run in one process'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "emulator" -d 'Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)'
complete -c safe-ad -n "__fish_safe_ad_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l private -d 'Make private data, whose items are encrypted'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l white-list -d 'Filter appends with a whitelist (only listed keys may append) instead of a blacklist'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l put -d 'Save the new data to the network right after (PUT), if it was made'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l private -d 'The data is private (its data id differs from public data of the same name)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l save -d 'After a successful clear, save the handle with this operation, so the change reaches the network' -r -f -a "post\t''
put\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l save -d 'After a successful clear, save the handle with this operation, so the change reaches the network' -r -f -a "post\t''
put\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l save -d 'After every index succeeded, save the handle with this operation, so the change reaches the network' -r -f -a "post\t''
put\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l signed-by -d 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l kind -d 'Only items that point at this kind of data' -r -f -a "structured-data\t''
immutable-data\t''
appendable-data\t''
private-appendable-data\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l data-id -d 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l name -d 'Only items that point at data of this name (base64 or hex); given again: any of them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l require-match -d 'With selectors: exit 4 if none matches (else 0)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l save -d 'After every index succeeded, save the handle with this operation, so the change reaches the network' -r -f -a "post\t''
put\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l signed-by -d 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l kind -d 'Only items that point at this kind of data' -r -f -a "structured-data\t''
immutable-data\t''
appendable-data\t''
private-appendable-data\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l data-id -d 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l name -d 'Only items that point at data of this name (base64 or hex); given again: any of them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l require-match -d 'With selectors: exit 4 if none matches (else 0)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l re-sign -d 'Restore an item another key signed too: it comes back signed by you (by name, or with --save post)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l save -d 'After every index succeeded, save the handle with this operation, so the change reaches the network' -r -f -a "post\t''
put\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l signed-by -d 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l kind -d 'Only items that point at this kind of data' -r -f -a "structured-data\t''
immutable-data\t''
appendable-data\t''
private-appendable-data\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l data-id -d 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l name -d 'Only items that point at data of this name (base64 or hex); given again: any of them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l require-match -d 'With selectors: exit 4 if none matches (else 0)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l immutable -d 'Write FILE (`-`: stdin) as immutable data and append it' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l structured -d 'Append structured data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l type-tag -d 'The structured data\'s type tag: 500 (the default), 501 (versioned), or 15000 and above' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l appendable -d 'Append appendable data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l encrypt -d 'Encrypt the immutable data: symmetric (you read it) or asymmetric (to a private data\'s owner)' -r -f -a "symmetric\t''
asymmetric\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l private -d 'The appendable data is private (its data id differs from public data of the same name)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l index -d 'Only the items at these indexes, in both lists: N, A..B (B not included), A..=B, A.., ..B' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l signed-by -d 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l kind -d 'Only items that point at this kind of data' -r -f -a "structured-data\t''
immutable-data\t''
appendable-data\t''
private-appendable-data\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l data-id -d 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l name -d 'Only items that point at data of this name (base64 or hex); given again: any of them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l full -d 'Show the whole content of structured data, not a preview (`content`, in base64, with --json)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l serialised -d 'Print each handle\'s serialised bytes (the whole data) as base64, one line each, for `safe-ad decode`'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -l deleted -d 'The item is in the deleted list (INDEX counts from 0 there)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -l force -d 'Write content that is not text to a terminal too'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l for -d 'What to wait for: new-items, stale, in-sync, item (with selectors), or version-above=N' -r -f -a "new-items\t'the network\'s data holds more data items than at the first poll'
item\t'a data item on the network matches the selectors given (--signed-by, --kind, --data-id, --name, as for `remove` and `show`); one there at the first poll counts'
version-above=\t'version-above=N: the network\'s version is above N'
stale\t'the network moved past the handle\'s copy (a save by someone else)'
in-sync\t'the handle\'s copy shows what the network holds (as `status` exits 0 and says in sync)'"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l deadline -d 'Give up after this many seconds (exit 8); fractions allowed' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l interval -d 'Seconds between the start of one poll and the next; fractions allowed' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l signed-by -d 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l kind -d 'Only items that point at this kind of data' -r -f -a "structured-data\t''
immutable-data\t''
appendable-data\t''
private-appendable-data\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l data-id -d 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l name -d 'Only items that point at data of this name (base64 or hex); given again: any of them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l interval -d 'Seconds between the start of one poll and the next; fractions allowed' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l count -d 'Stop after this many polls (exit 0); without it, it watches until stopped' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l drop -d 'Also drop each old handle once its new one is there'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and not __fish_seen_subcommand_from show add remove type help" -s h -l help -d 'Print help'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and not __fish_seen_subcommand_from show add remove type help" -f -a "show" -d 'Show who may append: the filter\'s type and keys, each with its fingerprint'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and not __fish_seen_subcommand_from show add remove type help" -f -a "add" -d 'Add sign keys to the filter (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and not __fish_seen_subcommand_from show add remove type help" -f -a "remove" -d 'Take sign keys out of the filter (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and not __fish_seen_subcommand_from show add remove type help" -f -a "type" -d 'Make the filter a whitelist or a blacklist (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and not __fish_seen_subcommand_from show add remove type help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l save -d 'Given a handle: after every key went in, save the handle with this operation, so the change reaches the network' -r -f -a "post\t''
put\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l signer-of -d 'The key of whoever signed the data item at this index (as `safe-ad show` numbers them); given again: each' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l save -d 'Given a handle: after every key went in, save the handle with this operation, so the change reaches the network' -r -f -a "post\t''
put\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l signer-of -d 'The key of whoever signed the data item at this index (as `safe-ad show` numbers them); given again: each' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l save -d 'Given a handle: after the type changed, save the handle with this operation, so the change reaches the network' -r -f -a "post\t''
put\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show who may append: the filter\'s type and keys, each with its fingerprint'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help" -f -a "add" -d 'Add sign keys to the filter (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Take sign keys out of the filter (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help" -f -a "type" -d 'Make the filter a whitelist or a blacklist (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -s o -l output -d 'Where to write the fixture (`-`, or no -o: standard output)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token whoami help" -s h -l help -d 'Print help'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token whoami help" -f -a "login" -d 'Ask the launcher for a token (a person approves it there) and store it in the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token whoami help" -f -a "status" -d 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token whoami help" -f -a "logout" -d 'Revoke the token at the launcher and remove it from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token whoami help" -f -a "token" -d 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token whoami help" -f -a "whoami" -d 'Print the fingerprint of your own sign key, as `show` names signers and filter keys'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token whoami help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l app-name -d 'App name the launcher shows to the person approving' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l app-id -d 'App id sent to the launcher' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l vendor -d 'Vendor name the launcher shows' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l key -d 'Print your key\'s 32 bytes in base64 instead, which another person gives `safe-ad filter add`'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "login" -d 'Ask the launcher for a token (a person approves it there) and store it in the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "logout" -d 'Revoke the token at the launcher and remove it from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "token" -d 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "whoami" -d 'Print the fingerprint of your own sign key, as `show` names signers and filter keys'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -s h -l help -d 'Print help'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f -a "path" -d 'Print the config file\'s path'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f -a "show" -d 'Print every setting with its effective value and where it comes from (token masked)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f -a "set" -d 'Set a key in the config file, or in a profile with --profile (for `token`, give `-` and pipe the token in)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f -a "unset" -d 'Remove a key from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "path" -d 'Print the config file\'s path'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print every setting with its effective value and where it comes from (token masked)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "set" -d 'Set a key in the config file, or in a profile with --profile (for `token`, give `-` and pipe the token in)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "unset" -d 'Remove a key from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand decode" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand decode" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand decode" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand decode" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand man" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand man" -l roff -d 'Print the roff on a terminal too, rather than show the page with `man -l -`'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand man" -l list -d 'List every page instead: its file name, then the words of its command, one page a line'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l retries -d 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -s j -l jobs -d 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -s c -l command -d 'Run these lines (commands separated by newlines or `;`) instead of reading a script' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l keep-going -d 'Run every line of a script, even after one failed; the exit code is the first failure\'s (refused at the prompt, where a failed line never ends the session)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l fail-fast -d 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l dry-run -d 'Print each request that would be sent (token masked) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -l curl -d 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -s v -l verbose -d 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand shell" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l listen -d 'Loopback address to listen on (127.0.0.1:0: a free port)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l token-file -d 'Accept the token FILE holds' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l token -d 'Accept this token (shown in the process list)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l user -d 'Serve a user of this name, a launcher of its own (repeat for more)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l state -d 'Load the network from FILE; save it back on a clean stop' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l import -d 'Load the network from FILE, a fixture, and never write it' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l log -d 'Write one JSON record per request to FILE' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l fault-rate -d 'Fault this share (0 to 1) of requests' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l fault-seed -d 'Seed of the fault sequence (the same seed, the same faults)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l ready-timeout -d 'Stop it if it does not listen within SECS (30)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l pid -d 'With --stop: stop the background emulator of yours that runs as this process' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l format -d 'Variables as sh (for eval) or env (NAME=VALUE)' -r -f -a "sh\t''
env\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l empty -d 'Start with no demo data'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -s q -l quiet -d 'No request lines, demo description or totals on stderr (errors only)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l strict-paths -d 'Match paths exactly, without the launcher\'s leeway'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l deny-auth -d 'Deny every POST /auth (a user who clicks "deny")'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l hang-unknown-clears -d 'Never answer a clear of an unknown handle, as the real launcher did'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l background -d 'Detach once it listens and print its variables'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l stop -d 'Stop the emulator that --background started'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l all -d 'With --stop: stop every background emulator of yours (`emulator list` lists them)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -l if-running -d 'With --stop: exit 0 with a note when no emulator was started'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -a "requests" -d 'Print, count or check the requests a running emulator answered (its journal)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -a "export" -d 'Write what a running emulator holds as a fixture, for --import (or --state)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -a "list" -d 'List your background emulators: pid, URL, start, fixture, directory, users'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_seen_subcommand_from requests export list env" -a "env" -d 'Print a background emulator\'s variables again, as --background did'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l method -d 'Only requests with this method (any case)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l path -d 'Only requests whose path matches GLOB: a star within a segment, two stars across them' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l status -d 'Only requests answered with this status (`404`), or this class of status (`4xx`)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l error-code -d 'Only requests whose answer carried this launcher error code (`-23`)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l since -d 'Only requests after RECORD: its seq number, or the record\'s own line as printed' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l expect -d 'Exit 0 when the number of matches is N (or `>=N`, `<=N`, `>N`, `<N`), else 1' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l failed -d 'Only failed requests that are not answers: every change that failed, and every read that failed but those that found the data not on the network'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l count -d 'Print how many requests matched, instead of the requests'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l clear -d 'Empty the journal (after printing, counting or checking, when one is asked for)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from export" -l profile -d 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from export" -l launcher-url -d 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from export" -l token-file -d 'Read the token from this file (`-` reads standard input)' -r -F
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from export" -l timeout -d 'Give up on a request after this many seconds (default 30, at most 86400)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from export" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from export" -l allow-insecure-http -d 'Allow plain http to a host other than this machine (sends the token in clear text)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from export" -s q -l quiet -d 'Print nothing on success; errors and what a stop left undone still go to stderr'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from list" -l jq -d 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from list" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from list" -l json -d 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from env" -l pid -d 'The background emulator of yours that runs as this process (`emulator list` lists them)' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from env" -l user -d 'This user\'s variables (its URL and token), for an emulator started with --user' -r -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from env" -l color -d 'Colour errors, hints and warnings: auto (on a terminal), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from env" -l format -d 'Variables as sh (for eval) or env (NAME=VALUE), as --background\'s --format' -r -f -a "sh\t''
env\t''"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from env" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "create" -d 'Make new appendable data and print its handle (--put saves it)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "open" -d 'Get a handle for data on the network, by its name, and print it'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "put" -d 'Save a handle\'s new data to the network (PUT /appendable-data/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "post" -d 'Save a handle\'s copy of data already on the network (POST /appendable-data/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "clear-data" -d 'Move every data item to the deleted list (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "clear-deleted-data" -d 'Empty the deleted list, for good (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "remove" -d 'Move data items to the deleted list, by index or by what they are (by name: saved)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "restore" -d 'Make deleted items data again (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "purge" -d 'Delete deleted items for good (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "append" -d 'Append an item: data by name, or a file as immutable data (see --help)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "metadata" -d 'Show the version, item counts, owner and filter of data, by name or handle'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "show" -d 'Show what data holds: data items, deleted items, who signed each, the filter\'s keys'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "cat" -d 'Write one item\'s content to stdout as raw bytes, exactly as stored'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "status" -d 'Compare handles\' copies with the network: in sync, changes not saved, stale, items the copy lacks'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "wait" -d 'Poll until a condition holds: new items, an item, a version, stale, in sync'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "watch" -d 'Watch data change: a view redrawn in place, or one JSON line per change'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "reopen" -d 'Get a fresh handle for the data behind stale handles, and print each'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "drop" -d 'Drop handles, freeing the launcher\'s slots (DELETE /appendable-data/handle/<HANDLE>)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "filter" -d 'Show or change who may append: the filter\'s type and keys'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "capture" -d 'Read appendable data by name from any launcher and write it as a fixture for --import'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "auth" -d 'Get, check, print or revoke the launcher token'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "config" -d 'Show or edit the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "decode" -d 'Say what serialised bytes hold: a data id, a sign key or an appendable data (offline)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "completions" -d 'Print shell completions to stdout'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "man" -d 'Print the man page of safe-ad or of a command (roff)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "shell" -d 'A prompt for safe-ad\'s commands on a terminal, or a script of them run in one process'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "emulator" -d 'Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and not __fish_seen_subcommand_from create open put post clear-data clear-deleted-data remove restore purge append metadata show cat status wait watch reopen drop filter capture auth config decode completions man shell emulator" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from filter" -f -a "show" -d 'Show who may append: the filter\'s type and keys, each with its fingerprint'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from filter" -f -a "add" -d 'Add sign keys to the filter (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from filter" -f -a "remove" -d 'Take sign keys out of the filter (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from filter" -f -a "type" -d 'Make the filter a whitelist or a blacklist (by name: saved; by handle: in its copy)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "login" -d 'Ask the launcher for a token (a person approves it there) and store it in the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "logout" -d 'Revoke the token at the launcher and remove it from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "token" -d 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "whoami" -d 'Print the fingerprint of your own sign key, as `show` names signers and filter keys'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "path" -d 'Print the config file\'s path'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "show" -d 'Print every setting with its effective value and where it comes from (token masked)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "set" -d 'Set a key in the config file, or in a profile with --profile (for `token`, give `-` and pipe the token in)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "unset" -d 'Remove a key from the config file'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from emulator" -f -a "requests" -d 'Print, count or check the requests a running emulator answered (its journal)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from emulator" -f -a "export" -d 'Write what a running emulator holds as a fixture, for --import (or --state)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from emulator" -f -a "list" -d 'List your background emulators: pid, URL, start, fixture, directory, users'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from emulator" -f -a "env" -d 'Print a background emulator\'s variables again, as --background did'

# What clap_complete's fish script leaves out: positional values, no file names where none is
# named, and the command line after `--`.
function __fish_safe_ad_seen_dashdash
    contains -- -- (commandline -opc)
end

function __fish_safe_ad_complete_after_dashdash
    set -l words (commandline -opc)
    set -l at (contains -i -- -- $words)
    set -l line (string escape -- $words[(math $at + 1)..-1]) (commandline -ct)
    complete -C (string join -- ' ' $line)
end

complete -c safe-ad -n "__fish_safe_ad_using_subcommand create" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand open" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand put" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand post" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-data" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand clear-deleted-data" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand remove" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand restore" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand purge" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand append" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand metadata" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand show" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand cat" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand status" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand wait" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand watch" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand reopen" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand drop" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and not __fish_seen_subcommand_from show add remove type help" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from show" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from add" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from remove" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type; and not __fish_seen_subcommand_from white-list black-list" -f -a "white-list"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type; and not __fish_seen_subcommand_from white-list black-list" -f -a "black-list"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from type" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from show" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from add" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from remove" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from type" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand filter; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from help" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand capture" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token whoami help" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from login" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from status" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from logout" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from token" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from whoami" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from login" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from status" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from logout" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from token" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from whoami" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand auth; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from help" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and not __fish_seen_subcommand_from path show set unset help" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from path" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from show" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set; and not __fish_seen_subcommand_from launcher_url token timeout_secs read_only" -f -a "launcher_url" -d 'the launcher\'s base URL'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set; and not __fish_seen_subcommand_from launcher_url token timeout_secs read_only" -f -a "token" -d 'the launcher token (set it with `-` and standard input)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set; and not __fish_seen_subcommand_from launcher_url token timeout_secs read_only" -f -a "timeout_secs" -d 'seconds to wait for each request'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set; and not __fish_seen_subcommand_from launcher_url token timeout_secs read_only" -f -a "read_only" -d 'true: refuse every command that changes the network or a launcher\'s copy'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from set" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset; and not __fish_seen_subcommand_from launcher_url token timeout_secs read_only" -f -a "launcher_url" -d 'the launcher\'s base URL'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset; and not __fish_seen_subcommand_from launcher_url token timeout_secs read_only" -f -a "token" -d 'the launcher token (set it with `-` and standard input)'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset; and not __fish_seen_subcommand_from launcher_url token timeout_secs read_only" -f -a "timeout_secs" -d 'seconds to wait for each request'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset; and not __fish_seen_subcommand_from launcher_url token timeout_secs read_only" -f -a "read_only" -d 'true: refuse every command that changes the network or a launcher\'s copy'
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from unset" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from path" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from show" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from set" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from unset" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand config; and __fish_seen_subcommand_from help; and __fish_seen_subcommand_from help" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand decode" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions; and not __fish_seen_subcommand_from bash zsh fish elvish powershell" -f -a "bash"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions; and not __fish_seen_subcommand_from bash zsh fish elvish powershell" -f -a "zsh"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions; and not __fish_seen_subcommand_from bash zsh fish elvish powershell" -f -a "fish"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions; and not __fish_seen_subcommand_from bash zsh fish elvish powershell" -f -a "elvish"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions; and not __fish_seen_subcommand_from bash zsh fish elvish powershell" -f -a "powershell"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand completions" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand man" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and not __fish_safe_ad_seen_dashdash; and not __fish_seen_subcommand_from requests export list env" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_safe_ad_seen_dashdash" -f -a "(__fish_safe_ad_complete_after_dashdash)"
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from requests" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from list" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand emulator; and __fish_seen_subcommand_from env" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from create" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from open" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from put" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from post" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from clear-data" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from clear-deleted-data" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from remove" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from restore" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from purge" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from append" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from metadata" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from show" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from cat" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from status" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from wait" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from watch" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from reopen" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from drop" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from filter" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from filter; and __fish_seen_subcommand_from show" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from filter; and __fish_seen_subcommand_from add" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from filter; and __fish_seen_subcommand_from remove" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from filter; and __fish_seen_subcommand_from type" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from capture" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth; and __fish_seen_subcommand_from login" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth; and __fish_seen_subcommand_from status" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth; and __fish_seen_subcommand_from logout" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth; and __fish_seen_subcommand_from token" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from auth; and __fish_seen_subcommand_from whoami" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config; and __fish_seen_subcommand_from path" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config; and __fish_seen_subcommand_from show" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config; and __fish_seen_subcommand_from set" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from config; and __fish_seen_subcommand_from unset" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from decode" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from completions" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from man" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from shell" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from emulator" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from emulator; and __fish_seen_subcommand_from requests" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from emulator; and __fish_seen_subcommand_from export" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from emulator; and __fish_seen_subcommand_from list" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from emulator; and __fish_seen_subcommand_from env" -f
complete -c safe-ad -n "__fish_safe_ad_using_subcommand help; and __fish_seen_subcommand_from help" -f
