
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'safe-ad' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'safe-ad'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'safe-ad' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Make new appendable data and print its handle (--put saves it)')
            [CompletionResult]::new('open', 'open', [CompletionResultType]::ParameterValue, 'Get a handle for data on the network, by its name, and print it')
            [CompletionResult]::new('put', 'put', [CompletionResultType]::ParameterValue, 'Save a handle''s new data to the network (PUT /appendable-data/<HANDLE>)')
            [CompletionResult]::new('post', 'post', [CompletionResultType]::ParameterValue, 'Save a handle''s copy of data already on the network (POST /appendable-data/<HANDLE>)')
            [CompletionResult]::new('clear-data', 'clear-data', [CompletionResultType]::ParameterValue, 'Move every data item to the deleted list (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('clear-deleted-data', 'clear-deleted-data', [CompletionResultType]::ParameterValue, 'Empty the deleted list, for good (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Move data items to the deleted list, by index or by what they are (by name: saved)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Make deleted items data again (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('purge', 'purge', [CompletionResultType]::ParameterValue, 'Delete deleted items for good (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('append', 'append', [CompletionResultType]::ParameterValue, 'Append an item: data by name, or a file as immutable data (see --help)')
            [CompletionResult]::new('metadata', 'metadata', [CompletionResultType]::ParameterValue, 'Show the version, item counts, owner and filter of data, by name or handle')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show what data holds: data items, deleted items, who signed each, the filter''s keys')
            [CompletionResult]::new('cat', 'cat', [CompletionResultType]::ParameterValue, 'Write one item''s content to stdout as raw bytes, exactly as stored')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Compare handles'' copies with the network: in sync, changes not saved, stale, items the copy lacks')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Poll until a condition holds: new items, an item, a version, stale, in sync')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch data change: a view redrawn in place, or one JSON line per change')
            [CompletionResult]::new('reopen', 'reopen', [CompletionResultType]::ParameterValue, 'Get a fresh handle for the data behind stale handles, and print each')
            [CompletionResult]::new('drop', 'drop', [CompletionResultType]::ParameterValue, 'Drop handles, freeing the launcher''s slots (DELETE /appendable-data/handle/<HANDLE>)')
            [CompletionResult]::new('filter', 'filter', [CompletionResultType]::ParameterValue, 'Show or change who may append: the filter''s type and keys')
            [CompletionResult]::new('capture', 'capture', [CompletionResultType]::ParameterValue, 'Read appendable data by name from any launcher and write it as a fixture for --import')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Get, check, print or revoke the launcher token')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show or edit the config file')
            [CompletionResult]::new('decode', 'decode', [CompletionResultType]::ParameterValue, 'Say what serialised bytes hold: a data id, a sign key or an appendable data (offline)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions to stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page of safe-ad or of a command (roff)')
            [CompletionResult]::new('shell', 'shell', [CompletionResultType]::ParameterValue, 'A prompt for safe-ad''s commands on a terminal, or a script of them run in one process')
            [CompletionResult]::new('emulator', 'emulator', [CompletionResultType]::ParameterValue, 'Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'safe-ad;create' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--private', '--private', [CompletionResultType]::ParameterName, 'Make private data, whose items are encrypted')
            [CompletionResult]::new('--white-list', '--white-list', [CompletionResultType]::ParameterName, 'Filter appends with a whitelist (only listed keys may append) instead of a blacklist')
            [CompletionResult]::new('--put', '--put', [CompletionResultType]::ParameterName, 'Save the new data to the network right after (PUT), if it was made')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;open' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--private', '--private', [CompletionResultType]::ParameterName, 'The data is private (its data id differs from public data of the same name)')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;put' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;post' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;clear-data' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'After a successful clear, save the handle with this operation, so the change reaches the network')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;clear-deleted-data' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'After a successful clear, save the handle with this operation, so the change reaches the network')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;remove' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'After every index succeeded, save the handle with this operation, so the change reaches the network')
            [CompletionResult]::new('--signed-by', '--signed-by', [CompletionResultType]::ParameterName, 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only items that point at this kind of data')
            [CompletionResult]::new('--data-id', '--data-id', [CompletionResultType]::ParameterName, 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only items that point at data of this name (base64 or hex); given again: any of them')
            [CompletionResult]::new('--require-match', '--require-match', [CompletionResultType]::ParameterName, 'With selectors: exit 4 if none matches (else 0)')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;restore' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'After every index succeeded, save the handle with this operation, so the change reaches the network')
            [CompletionResult]::new('--signed-by', '--signed-by', [CompletionResultType]::ParameterName, 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only items that point at this kind of data')
            [CompletionResult]::new('--data-id', '--data-id', [CompletionResultType]::ParameterName, 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only items that point at data of this name (base64 or hex); given again: any of them')
            [CompletionResult]::new('--require-match', '--require-match', [CompletionResultType]::ParameterName, 'With selectors: exit 4 if none matches (else 0)')
            [CompletionResult]::new('--re-sign', '--re-sign', [CompletionResultType]::ParameterName, 'Restore an item another key signed too: it comes back signed by you (by name, or with --save post)')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;purge' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'After every index succeeded, save the handle with this operation, so the change reaches the network')
            [CompletionResult]::new('--signed-by', '--signed-by', [CompletionResultType]::ParameterName, 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only items that point at this kind of data')
            [CompletionResult]::new('--data-id', '--data-id', [CompletionResultType]::ParameterName, 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only items that point at data of this name (base64 or hex); given again: any of them')
            [CompletionResult]::new('--require-match', '--require-match', [CompletionResultType]::ParameterName, 'With selectors: exit 4 if none matches (else 0)')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;append' {
            [CompletionResult]::new('--immutable', '--immutable', [CompletionResultType]::ParameterName, 'Write FILE (`-`: stdin) as immutable data and append it')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--structured', '--structured', [CompletionResultType]::ParameterName, 'Append structured data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits')
            [CompletionResult]::new('--type-tag', '--type-tag', [CompletionResultType]::ParameterName, 'The structured data''s type tag: 500 (the default), 501 (versioned), or 15000 and above')
            [CompletionResult]::new('--appendable', '--appendable', [CompletionResultType]::ParameterName, 'Append appendable data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits')
            [CompletionResult]::new('--encrypt', '--encrypt', [CompletionResultType]::ParameterName, 'Encrypt the immutable data: symmetric (you read it) or asymmetric (to a private data''s owner)')
            [CompletionResult]::new('--private', '--private', [CompletionResultType]::ParameterName, 'The appendable data is private (its data id differs from public data of the same name)')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;metadata' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;show' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Only the items at these indexes, in both lists: N, A..B (B not included), A..=B, A.., ..B')
            [CompletionResult]::new('--signed-by', '--signed-by', [CompletionResultType]::ParameterName, 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only items that point at this kind of data')
            [CompletionResult]::new('--data-id', '--data-id', [CompletionResultType]::ParameterName, 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only items that point at data of this name (base64 or hex); given again: any of them')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'Show the whole content of structured data, not a preview (`content`, in base64, with --json)')
            [CompletionResult]::new('--serialised', '--serialised', [CompletionResultType]::ParameterName, 'Print each handle''s serialised bytes (the whole data) as base64, one line each, for `safe-ad decode`')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;cat' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--deleted', '--deleted', [CompletionResultType]::ParameterName, 'The item is in the deleted list (INDEX counts from 0 there)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write content that is not text to a terminal too')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;status' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;wait' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'What to wait for: new-items, stale, in-sync, item (with selectors), or version-above=N')
            [CompletionResult]::new('--deadline', '--deadline', [CompletionResultType]::ParameterName, 'Give up after this many seconds (exit 8); fractions allowed')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Seconds between the start of one poll and the next; fractions allowed')
            [CompletionResult]::new('--signed-by', '--signed-by', [CompletionResultType]::ParameterName, 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only items that point at this kind of data')
            [CompletionResult]::new('--data-id', '--data-id', [CompletionResultType]::ParameterName, 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only items that point at data of this name (base64 or hex); given again: any of them')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;watch' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Seconds between the start of one poll and the next; fractions allowed')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Stop after this many polls (exit 0); without it, it watches until stopped')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;reopen' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--drop', '--drop', [CompletionResultType]::ParameterName, 'Also drop each old handle once its new one is there')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;drop' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;filter' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show who may append: the filter''s type and keys, each with its fingerprint')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add sign keys to the filter (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Take sign keys out of the filter (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('type', 'type', [CompletionResultType]::ParameterValue, 'Make the filter a whitelist or a blacklist (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'safe-ad;filter;show' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;filter;add' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'Given a handle: after every key went in, save the handle with this operation, so the change reaches the network')
            [CompletionResult]::new('--signer-of', '--signer-of', [CompletionResultType]::ParameterName, 'The key of whoever signed the data item at this index (as `safe-ad show` numbers them); given again: each')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;filter;remove' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'Given a handle: after every key went in, save the handle with this operation, so the change reaches the network')
            [CompletionResult]::new('--signer-of', '--signer-of', [CompletionResultType]::ParameterName, 'The key of whoever signed the data item at this index (as `safe-ad show` numbers them); given again: each')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;filter;type' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'Given a handle: after the type changed, save the handle with this operation, so the change reaches the network')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;filter;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show who may append: the filter''s type and keys, each with its fingerprint')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add sign keys to the filter (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Take sign keys out of the filter (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('type', 'type', [CompletionResultType]::ParameterValue, 'Make the filter a whitelist or a blacklist (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'safe-ad;filter;help;show' {
            break
        }
        'safe-ad;filter;help;add' {
            break
        }
        'safe-ad;filter;help;remove' {
            break
        }
        'safe-ad;filter;help;type' {
            break
        }
        'safe-ad;filter;help;help' {
            break
        }
        'safe-ad;capture' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where to write the fixture (`-`, or no -o: standard output)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write the fixture (`-`, or no -o: standard output)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;auth' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Ask the launcher for a token (a person approves it there) and store it in the config file')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Revoke the token at the launcher and remove it from the config file')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Print the fingerprint of your own sign key, as `show` names signers and filter keys')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'safe-ad;auth;login' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--app-name', '--app-name', [CompletionResultType]::ParameterName, 'App name the launcher shows to the person approving')
            [CompletionResult]::new('--app-id', '--app-id', [CompletionResultType]::ParameterName, 'App id sent to the launcher')
            [CompletionResult]::new('--vendor', '--vendor', [CompletionResultType]::ParameterName, 'Vendor name the launcher shows')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;auth;status' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;auth;logout' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;auth;token' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;auth;whoami' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'Print your key''s 32 bytes in base64 instead, which another person gives `safe-ad filter add`')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;auth;help' {
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Ask the launcher for a token (a person approves it there) and store it in the config file')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Revoke the token at the launcher and remove it from the config file')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Print the fingerprint of your own sign key, as `show` names signers and filter keys')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'safe-ad;auth;help;login' {
            break
        }
        'safe-ad;auth;help;status' {
            break
        }
        'safe-ad;auth;help;logout' {
            break
        }
        'safe-ad;auth;help;token' {
            break
        }
        'safe-ad;auth;help;whoami' {
            break
        }
        'safe-ad;auth;help;help' {
            break
        }
        'safe-ad;config' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the config file''s path')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting with its effective value and where it comes from (token masked)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a key in the config file, or in a profile with --profile (for `token`, give `-` and pipe the token in)')
            [CompletionResult]::new('unset', 'unset', [CompletionResultType]::ParameterValue, 'Remove a key from the config file')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'safe-ad;config;path' {
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;config;show' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;config;set' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;config;unset' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;config;help' {
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the config file''s path')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting with its effective value and where it comes from (token masked)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a key in the config file, or in a profile with --profile (for `token`, give `-` and pipe the token in)')
            [CompletionResult]::new('unset', 'unset', [CompletionResultType]::ParameterValue, 'Remove a key from the config file')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'safe-ad;config;help;path' {
            break
        }
        'safe-ad;config;help;show' {
            break
        }
        'safe-ad;config;help;set' {
            break
        }
        'safe-ad;config;help;unset' {
            break
        }
        'safe-ad;config;help;help' {
            break
        }
        'safe-ad;decode' {
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;man' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--roff', '--roff', [CompletionResultType]::ParameterName, 'Print the roff on a terminal too, rather than show the page with `man -l -`')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List every page instead: its file name, then the words of its command, one page a line')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;shell' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Run these lines (commands separated by newlines or `;`) instead of reading a script')
            [CompletionResult]::new('--command', '--command', [CompletionResultType]::ParameterName, 'Run these lines (commands separated by newlines or `;`) instead of reading a script')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'Run every line of a script, even after one failed; the exit code is the first failure''s (refused at the prompt, where a failed line never ends the session)')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('--fail-fast', '--fail-fast', [CompletionResultType]::ParameterName, 'Send no new request after the first failure (those already in flight, up to --jobs, finish)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each request that would be sent (token masked) and send nothing')
            [CompletionResult]::new('--curl', '--curl', [CompletionResultType]::ParameterName, 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;emulator' {
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Loopback address to listen on (127.0.0.1:0: a free port)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Accept the token FILE holds')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Accept this token (shown in the process list)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Serve a user of this name, a launcher of its own (repeat for more)')
            [CompletionResult]::new('--state', '--state', [CompletionResultType]::ParameterName, 'Load the network from FILE; save it back on a clean stop')
            [CompletionResult]::new('--import', '--import', [CompletionResultType]::ParameterName, 'Load the network from FILE, a fixture, and never write it')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Write one JSON record per request to FILE')
            [CompletionResult]::new('--fault-rate', '--fault-rate', [CompletionResultType]::ParameterName, 'Fault this share (0 to 1) of requests')
            [CompletionResult]::new('--fault-seed', '--fault-seed', [CompletionResultType]::ParameterName, 'Seed of the fault sequence (the same seed, the same faults)')
            [CompletionResult]::new('--ready-timeout', '--ready-timeout', [CompletionResultType]::ParameterName, 'Stop it if it does not listen within SECS (30)')
            [CompletionResult]::new('--pid', '--pid', [CompletionResultType]::ParameterName, 'With --stop: stop the background emulator of yours that runs as this process')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Variables as sh (for eval) or env (NAME=VALUE)')
            [CompletionResult]::new('--empty', '--empty', [CompletionResultType]::ParameterName, 'Start with no demo data')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No request lines, demo description or totals on stderr (errors only)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No request lines, demo description or totals on stderr (errors only)')
            [CompletionResult]::new('--strict-paths', '--strict-paths', [CompletionResultType]::ParameterName, 'Match paths exactly, without the launcher''s leeway')
            [CompletionResult]::new('--deny-auth', '--deny-auth', [CompletionResultType]::ParameterName, 'Deny every POST /auth (a user who clicks "deny")')
            [CompletionResult]::new('--hang-unknown-clears', '--hang-unknown-clears', [CompletionResultType]::ParameterName, 'Never answer a clear of an unknown handle, as the real launcher did')
            [CompletionResult]::new('--background', '--background', [CompletionResultType]::ParameterName, 'Detach once it listens and print its variables')
            [CompletionResult]::new('--stop', '--stop', [CompletionResultType]::ParameterName, 'Stop the emulator that --background started')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'With --stop: stop every background emulator of yours (`emulator list` lists them)')
            [CompletionResult]::new('--if-running', '--if-running', [CompletionResultType]::ParameterName, 'With --stop: exit 0 with a note when no emulator was started')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('requests', 'requests', [CompletionResultType]::ParameterValue, 'Print, count or check the requests a running emulator answered (its journal)')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write what a running emulator holds as a fixture, for --import (or --state)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your background emulators: pid, URL, start, fixture, directory, users')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Print a background emulator''s variables again, as --background did')
            break
        }
        'safe-ad;emulator;requests' {
            [CompletionResult]::new('--method', '--method', [CompletionResultType]::ParameterName, 'Only requests with this method (any case)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only requests whose path matches GLOB: a star within a segment, two stars across them')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only requests answered with this status (`404`), or this class of status (`4xx`)')
            [CompletionResult]::new('--error-code', '--error-code', [CompletionResultType]::ParameterName, 'Only requests whose answer carried this launcher error code (`-23`)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only requests after RECORD: its seq number, or the record''s own line as printed')
            [CompletionResult]::new('--expect', '--expect', [CompletionResultType]::ParameterName, 'Exit 0 when the number of matches is N (or `>=N`, `<=N`, `>N`, `<N`), else 1')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--failed', '--failed', [CompletionResultType]::ParameterName, 'Only failed requests that are not answers: every change that failed, and every read that failed but those that found the data not on the network')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Print how many requests matched, instead of the requests')
            [CompletionResult]::new('--clear', '--clear', [CompletionResultType]::ParameterName, 'Empty the journal (after printing, counting or checking, when one is asked for)')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;emulator;export' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)')
            [CompletionResult]::new('--launcher-url', '--launcher-url', [CompletionResultType]::ParameterName, 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the token from this file (`-` reads standard input)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this many seconds (default 30, at most 86400)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--allow-insecure-http', '--allow-insecure-http', [CompletionResultType]::ParameterName, 'Allow plain http to a host other than this machine (sends the token in clear text)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success; errors and what a stop left undone still go to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;emulator;list' {
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;emulator;env' {
            [CompletionResult]::new('--pid', '--pid', [CompletionResultType]::ParameterName, 'The background emulator of yours that runs as this process (`emulator list` lists them)')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'This user''s variables (its URL and token), for an emulator started with --user')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour errors, hints and warnings: auto (on a terminal), always, never')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Variables as sh (for eval) or env (NAME=VALUE), as --background''s --format')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'safe-ad;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Make new appendable data and print its handle (--put saves it)')
            [CompletionResult]::new('open', 'open', [CompletionResultType]::ParameterValue, 'Get a handle for data on the network, by its name, and print it')
            [CompletionResult]::new('put', 'put', [CompletionResultType]::ParameterValue, 'Save a handle''s new data to the network (PUT /appendable-data/<HANDLE>)')
            [CompletionResult]::new('post', 'post', [CompletionResultType]::ParameterValue, 'Save a handle''s copy of data already on the network (POST /appendable-data/<HANDLE>)')
            [CompletionResult]::new('clear-data', 'clear-data', [CompletionResultType]::ParameterValue, 'Move every data item to the deleted list (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('clear-deleted-data', 'clear-deleted-data', [CompletionResultType]::ParameterValue, 'Empty the deleted list, for good (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Move data items to the deleted list, by index or by what they are (by name: saved)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Make deleted items data again (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('purge', 'purge', [CompletionResultType]::ParameterValue, 'Delete deleted items for good (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('append', 'append', [CompletionResultType]::ParameterValue, 'Append an item: data by name, or a file as immutable data (see --help)')
            [CompletionResult]::new('metadata', 'metadata', [CompletionResultType]::ParameterValue, 'Show the version, item counts, owner and filter of data, by name or handle')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show what data holds: data items, deleted items, who signed each, the filter''s keys')
            [CompletionResult]::new('cat', 'cat', [CompletionResultType]::ParameterValue, 'Write one item''s content to stdout as raw bytes, exactly as stored')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Compare handles'' copies with the network: in sync, changes not saved, stale, items the copy lacks')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Poll until a condition holds: new items, an item, a version, stale, in sync')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch data change: a view redrawn in place, or one JSON line per change')
            [CompletionResult]::new('reopen', 'reopen', [CompletionResultType]::ParameterValue, 'Get a fresh handle for the data behind stale handles, and print each')
            [CompletionResult]::new('drop', 'drop', [CompletionResultType]::ParameterValue, 'Drop handles, freeing the launcher''s slots (DELETE /appendable-data/handle/<HANDLE>)')
            [CompletionResult]::new('filter', 'filter', [CompletionResultType]::ParameterValue, 'Show or change who may append: the filter''s type and keys')
            [CompletionResult]::new('capture', 'capture', [CompletionResultType]::ParameterValue, 'Read appendable data by name from any launcher and write it as a fixture for --import')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Get, check, print or revoke the launcher token')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show or edit the config file')
            [CompletionResult]::new('decode', 'decode', [CompletionResultType]::ParameterValue, 'Say what serialised bytes hold: a data id, a sign key or an appendable data (offline)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions to stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page of safe-ad or of a command (roff)')
            [CompletionResult]::new('shell', 'shell', [CompletionResultType]::ParameterValue, 'A prompt for safe-ad''s commands on a terminal, or a script of them run in one process')
            [CompletionResult]::new('emulator', 'emulator', [CompletionResultType]::ParameterValue, 'Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'safe-ad;help;create' {
            break
        }
        'safe-ad;help;open' {
            break
        }
        'safe-ad;help;put' {
            break
        }
        'safe-ad;help;post' {
            break
        }
        'safe-ad;help;clear-data' {
            break
        }
        'safe-ad;help;clear-deleted-data' {
            break
        }
        'safe-ad;help;remove' {
            break
        }
        'safe-ad;help;restore' {
            break
        }
        'safe-ad;help;purge' {
            break
        }
        'safe-ad;help;append' {
            break
        }
        'safe-ad;help;metadata' {
            break
        }
        'safe-ad;help;show' {
            break
        }
        'safe-ad;help;cat' {
            break
        }
        'safe-ad;help;status' {
            break
        }
        'safe-ad;help;wait' {
            break
        }
        'safe-ad;help;watch' {
            break
        }
        'safe-ad;help;reopen' {
            break
        }
        'safe-ad;help;drop' {
            break
        }
        'safe-ad;help;filter' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show who may append: the filter''s type and keys, each with its fingerprint')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add sign keys to the filter (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Take sign keys out of the filter (by name: saved; by handle: in its copy)')
            [CompletionResult]::new('type', 'type', [CompletionResultType]::ParameterValue, 'Make the filter a whitelist or a blacklist (by name: saved; by handle: in its copy)')
            break
        }
        'safe-ad;help;filter;show' {
            break
        }
        'safe-ad;help;filter;add' {
            break
        }
        'safe-ad;help;filter;remove' {
            break
        }
        'safe-ad;help;filter;type' {
            break
        }
        'safe-ad;help;capture' {
            break
        }
        'safe-ad;help;auth' {
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Ask the launcher for a token (a person approves it there) and store it in the config file')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Revoke the token at the launcher and remove it from the config file')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Print the fingerprint of your own sign key, as `show` names signers and filter keys')
            break
        }
        'safe-ad;help;auth;login' {
            break
        }
        'safe-ad;help;auth;status' {
            break
        }
        'safe-ad;help;auth;logout' {
            break
        }
        'safe-ad;help;auth;token' {
            break
        }
        'safe-ad;help;auth;whoami' {
            break
        }
        'safe-ad;help;config' {
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the config file''s path')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting with its effective value and where it comes from (token masked)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a key in the config file, or in a profile with --profile (for `token`, give `-` and pipe the token in)')
            [CompletionResult]::new('unset', 'unset', [CompletionResultType]::ParameterValue, 'Remove a key from the config file')
            break
        }
        'safe-ad;help;config;path' {
            break
        }
        'safe-ad;help;config;show' {
            break
        }
        'safe-ad;help;config;set' {
            break
        }
        'safe-ad;help;config;unset' {
            break
        }
        'safe-ad;help;decode' {
            break
        }
        'safe-ad;help;completions' {
            break
        }
        'safe-ad;help;man' {
            break
        }
        'safe-ad;help;shell' {
            break
        }
        'safe-ad;help;emulator' {
            [CompletionResult]::new('requests', 'requests', [CompletionResultType]::ParameterValue, 'Print, count or check the requests a running emulator answered (its journal)')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write what a running emulator holds as a fixture, for --import (or --state)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your background emulators: pid, URL, start, fixture, directory, users')
            [CompletionResult]::new('env', 'env', [CompletionResultType]::ParameterValue, 'Print a background emulator''s variables again, as --background did')
            break
        }
        'safe-ad;help;emulator;requests' {
            break
        }
        'safe-ad;help;emulator;export' {
            break
        }
        'safe-ad;help;emulator;list' {
            break
        }
        'safe-ad;help;emulator;env' {
            break
        }
        'safe-ad;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
