
use builtin;
use str;

set edit:completion:arg-completer[safe-ad] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'safe-ad'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'safe-ad'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Make new appendable data and print its handle (--put saves it)'
            cand open 'Get a handle for data on the network, by its name, and print it'
            cand put 'Save a handle''s new data to the network (PUT /appendable-data/<HANDLE>)'
            cand post 'Save a handle''s copy of data already on the network (POST /appendable-data/<HANDLE>)'
            cand clear-data 'Move every data item to the deleted list (by name: saved; by handle: in its copy)'
            cand clear-deleted-data 'Empty the deleted list, for good (by name: saved; by handle: in its copy)'
            cand remove 'Move data items to the deleted list, by index or by what they are (by name: saved)'
            cand restore 'Make deleted items data again (by name: saved; by handle: in its copy)'
            cand purge 'Delete deleted items for good (by name: saved; by handle: in its copy)'
            cand append 'Append an item: data by name, or a file as immutable data (see --help)'
            cand metadata 'Show the version, item counts, owner and filter of data, by name or handle'
            cand show 'Show what data holds: data items, deleted items, who signed each, the filter''s keys'
            cand cat 'Write one item''s content to stdout as raw bytes, exactly as stored'
            cand status 'Compare handles'' copies with the network: in sync, changes not saved, stale, items the copy lacks'
            cand wait 'Poll until a condition holds: new items, an item, a version, stale, in sync'
            cand watch 'Watch data change: a view redrawn in place, or one JSON line per change'
            cand reopen 'Get a fresh handle for the data behind stale handles, and print each'
            cand drop 'Drop handles, freeing the launcher''s slots (DELETE /appendable-data/handle/<HANDLE>)'
            cand filter 'Show or change who may append: the filter''s type and keys'
            cand capture 'Read appendable data by name from any launcher and write it as a fixture for --import'
            cand auth 'Get, check, print or revoke the launcher token'
            cand config 'Show or edit the config file'
            cand decode 'Say what serialised bytes hold: a data id, a sign key or an appendable data (offline)'
            cand completions 'Print shell completions to stdout'
            cand man 'Print the man page of safe-ad or of a command (roff)'
            cand shell 'A prompt for safe-ad''s commands on a terminal, or a script of them run in one process'
            cand emulator 'Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'safe-ad;create'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --private 'Make private data, whose items are encrypted'
            cand --white-list 'Filter appends with a whitelist (only listed keys may append) instead of a blacklist'
            cand --put 'Save the new data to the network right after (PUT), if it was made'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;open'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --private 'The data is private (its data id differs from public data of the same name)'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;put'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;post'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;clear-data'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --save 'After a successful clear, save the handle with this operation, so the change reaches the network'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;clear-deleted-data'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --save 'After a successful clear, save the handle with this operation, so the change reaches the network'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;remove'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --save 'After every index succeeded, save the handle with this operation, so the change reaches the network'
            cand --signed-by 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`'
            cand --kind 'Only items that point at this kind of data'
            cand --data-id 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them'
            cand --name 'Only items that point at data of this name (base64 or hex); given again: any of them'
            cand --require-match 'With selectors: exit 4 if none matches (else 0)'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;restore'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --save 'After every index succeeded, save the handle with this operation, so the change reaches the network'
            cand --signed-by 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`'
            cand --kind 'Only items that point at this kind of data'
            cand --data-id 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them'
            cand --name 'Only items that point at data of this name (base64 or hex); given again: any of them'
            cand --require-match 'With selectors: exit 4 if none matches (else 0)'
            cand --re-sign 'Restore an item another key signed too: it comes back signed by you (by name, or with --save post)'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;purge'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --save 'After every index succeeded, save the handle with this operation, so the change reaches the network'
            cand --signed-by 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`'
            cand --kind 'Only items that point at this kind of data'
            cand --data-id 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them'
            cand --name 'Only items that point at data of this name (base64 or hex); given again: any of them'
            cand --require-match 'With selectors: exit 4 if none matches (else 0)'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;append'= {
            cand --immutable 'Write FILE (`-`: stdin) as immutable data and append it'
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --structured 'Append structured data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits'
            cand --type-tag 'The structured data''s type tag: 500 (the default), 501 (versioned), or 15000 and above'
            cand --appendable 'Append appendable data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits'
            cand --encrypt 'Encrypt the immutable data: symmetric (you read it) or asymmetric (to a private data''s owner)'
            cand --private 'The appendable data is private (its data id differs from public data of the same name)'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;metadata'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;show'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --index 'Only the items at these indexes, in both lists: N, A..B (B not included), A..=B, A.., ..B'
            cand --signed-by 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`'
            cand --kind 'Only items that point at this kind of data'
            cand --data-id 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them'
            cand --name 'Only items that point at data of this name (base64 or hex); given again: any of them'
            cand --full 'Show the whole content of structured data, not a preview (`content`, in base64, with --json)'
            cand --serialised 'Print each handle''s serialised bytes (the whole data) as base64, one line each, for `safe-ad decode`'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;cat'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --deleted 'The item is in the deleted list (INDEX counts from 0 there)'
            cand --force 'Write content that is not text to a terminal too'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;status'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;wait'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --for 'What to wait for: new-items, stale, in-sync, item (with selectors), or version-above=N'
            cand --deadline 'Give up after this many seconds (exit 8); fractions allowed'
            cand --interval 'Seconds between the start of one poll and the next; fractions allowed'
            cand --signed-by 'Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`'
            cand --kind 'Only items that point at this kind of data'
            cand --data-id 'Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them'
            cand --name 'Only items that point at data of this name (base64 or hex); given again: any of them'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;watch'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --interval 'Seconds between the start of one poll and the next; fractions allowed'
            cand --count 'Stop after this many polls (exit 0); without it, it watches until stopped'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;reopen'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --drop 'Also drop each old handle once its new one is there'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;drop'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;filter'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand show 'Show who may append: the filter''s type and keys, each with its fingerprint'
            cand add 'Add sign keys to the filter (by name: saved; by handle: in its copy)'
            cand remove 'Take sign keys out of the filter (by name: saved; by handle: in its copy)'
            cand type 'Make the filter a whitelist or a blacklist (by name: saved; by handle: in its copy)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'safe-ad;filter;show'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;filter;add'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --save 'Given a handle: after every key went in, save the handle with this operation, so the change reaches the network'
            cand --signer-of 'The key of whoever signed the data item at this index (as `safe-ad show` numbers them); given again: each'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;filter;remove'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --save 'Given a handle: after every key went in, save the handle with this operation, so the change reaches the network'
            cand --signer-of 'The key of whoever signed the data item at this index (as `safe-ad show` numbers them); given again: each'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;filter;type'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --save 'Given a handle: after the type changed, save the handle with this operation, so the change reaches the network'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;filter;help'= {
            cand show 'Show who may append: the filter''s type and keys, each with its fingerprint'
            cand add 'Add sign keys to the filter (by name: saved; by handle: in its copy)'
            cand remove 'Take sign keys out of the filter (by name: saved; by handle: in its copy)'
            cand type 'Make the filter a whitelist or a blacklist (by name: saved; by handle: in its copy)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'safe-ad;filter;help;show'= {
        }
        &'safe-ad;filter;help;add'= {
        }
        &'safe-ad;filter;help;remove'= {
        }
        &'safe-ad;filter;help;type'= {
        }
        &'safe-ad;filter;help;help'= {
        }
        &'safe-ad;capture'= {
            cand -o 'Where to write the fixture (`-`, or no -o: standard output)'
            cand --output 'Where to write the fixture (`-`, or no -o: standard output)'
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;auth'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand login 'Ask the launcher for a token (a person approves it there) and store it in the config file'
            cand status 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it'
            cand logout 'Revoke the token at the launcher and remove it from the config file'
            cand token 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`'
            cand whoami 'Print the fingerprint of your own sign key, as `show` names signers and filter keys'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'safe-ad;auth;login'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --app-name 'App name the launcher shows to the person approving'
            cand --app-id 'App id sent to the launcher'
            cand --vendor 'Vendor name the launcher shows'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;auth;status'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;auth;logout'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;auth;token'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;auth;whoami'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --key 'Print your key''s 32 bytes in base64 instead, which another person gives `safe-ad filter add`'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;auth;help'= {
            cand login 'Ask the launcher for a token (a person approves it there) and store it in the config file'
            cand status 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it'
            cand logout 'Revoke the token at the launcher and remove it from the config file'
            cand token 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`'
            cand whoami 'Print the fingerprint of your own sign key, as `show` names signers and filter keys'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'safe-ad;auth;help;login'= {
        }
        &'safe-ad;auth;help;status'= {
        }
        &'safe-ad;auth;help;logout'= {
        }
        &'safe-ad;auth;help;token'= {
        }
        &'safe-ad;auth;help;whoami'= {
        }
        &'safe-ad;auth;help;help'= {
        }
        &'safe-ad;config'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand path 'Print the config file''s path'
            cand show 'Print every setting with its effective value and where it comes from (token masked)'
            cand set 'Set a key in the config file, or in a profile with --profile (for `token`, give `-` and pipe the token in)'
            cand unset 'Remove a key from the config file'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'safe-ad;config;path'= {
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;config;show'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;config;set'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;config;unset'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;config;help'= {
            cand path 'Print the config file''s path'
            cand show 'Print every setting with its effective value and where it comes from (token masked)'
            cand set 'Set a key in the config file, or in a profile with --profile (for `token`, give `-` and pipe the token in)'
            cand unset 'Remove a key from the config file'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'safe-ad;config;help;path'= {
        }
        &'safe-ad;config;help;show'= {
        }
        &'safe-ad;config;help;set'= {
        }
        &'safe-ad;config;help;unset'= {
        }
        &'safe-ad;config;help;help'= {
        }
        &'safe-ad;decode'= {
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;completions'= {
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;man'= {
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --roff 'Print the roff on a terminal too, rather than show the page with `man -l -`'
            cand --list 'List every page instead: its file name, then the words of its command, one page a line'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;shell'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --retries 'Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand -j 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --jobs 'Run up to N requests at once (N: 1..=256, default 8); output stays in input order'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand -c 'Run these lines (commands separated by newlines or `;`) instead of reading a script'
            cand --command 'Run these lines (commands separated by newlines or `;`) instead of reading a script'
            cand --keep-going 'Run every line of a script, even after one failed; the exit code is the first failure''s (refused at the prompt, where a failed line never ends the session)'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand --fail-fast 'Send no new request after the first failure (those already in flight, up to --jobs, finish)'
            cand --dry-run 'Print each request that would be sent (token masked) and send nothing'
            cand --curl 'Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing'
            cand -v 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand --verbose 'Show each request and answer on stderr: request line, headers (token masked), status, body, timing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;emulator'= {
            cand --listen 'Loopback address to listen on (127.0.0.1:0: a free port)'
            cand --token-file 'Accept the token FILE holds'
            cand --token 'Accept this token (shown in the process list)'
            cand --user 'Serve a user of this name, a launcher of its own (repeat for more)'
            cand --state 'Load the network from FILE; save it back on a clean stop'
            cand --import 'Load the network from FILE, a fixture, and never write it'
            cand --log 'Write one JSON record per request to FILE'
            cand --fault-rate 'Fault this share (0 to 1) of requests'
            cand --fault-seed 'Seed of the fault sequence (the same seed, the same faults)'
            cand --ready-timeout 'Stop it if it does not listen within SECS (30)'
            cand --pid 'With --stop: stop the background emulator of yours that runs as this process'
            cand --format 'Variables as sh (for eval) or env (NAME=VALUE)'
            cand --empty 'Start with no demo data'
            cand -q 'No request lines, demo description or totals on stderr (errors only)'
            cand --quiet 'No request lines, demo description or totals on stderr (errors only)'
            cand --strict-paths 'Match paths exactly, without the launcher''s leeway'
            cand --deny-auth 'Deny every POST /auth (a user who clicks "deny")'
            cand --hang-unknown-clears 'Never answer a clear of an unknown handle, as the real launcher did'
            cand --background 'Detach once it listens and print its variables'
            cand --stop 'Stop the emulator that --background started'
            cand --all 'With --stop: stop every background emulator of yours (`emulator list` lists them)'
            cand --if-running 'With --stop: exit 0 with a note when no emulator was started'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand requests 'Print, count or check the requests a running emulator answered (its journal)'
            cand export 'Write what a running emulator holds as a fixture, for --import (or --state)'
            cand list 'List your background emulators: pid, URL, start, fixture, directory, users'
            cand env 'Print a background emulator''s variables again, as --background did'
        }
        &'safe-ad;emulator;requests'= {
            cand --method 'Only requests with this method (any case)'
            cand --path 'Only requests whose path matches GLOB: a star within a segment, two stars across them'
            cand --status 'Only requests answered with this status (`404`), or this class of status (`4xx`)'
            cand --error-code 'Only requests whose answer carried this launcher error code (`-23`)'
            cand --since 'Only requests after RECORD: its seq number, or the record''s own line as printed'
            cand --expect 'Exit 0 when the number of matches is N (or `>=N`, `<=N`, `>N`, `<N`), else 1'
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --failed 'Only failed requests that are not answers: every change that failed, and every read that failed but those that found the data not on the network'
            cand --count 'Print how many requests matched, instead of the requests'
            cand --clear 'Empty the journal (after printing, counting or checking, when one is asked for)'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;emulator;export'= {
            cand --profile 'Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)'
            cand --launcher-url 'Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)'
            cand --token-file 'Read the token from this file (`-` reads standard input)'
            cand --timeout 'Give up on a request after this many seconds (default 30, at most 86400)'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --allow-insecure-http 'Allow plain http to a host other than this machine (sends the token in clear text)'
            cand -q 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand --quiet 'Print nothing on success; errors and what a stop left undone still go to stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;emulator;list'= {
            cand --jq 'Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --json 'Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;emulator;env'= {
            cand --pid 'The background emulator of yours that runs as this process (`emulator list` lists them)'
            cand --user 'This user''s variables (its URL and token), for an emulator started with --user'
            cand --color 'Colour errors, hints and warnings: auto (on a terminal), always, never'
            cand --format 'Variables as sh (for eval) or env (NAME=VALUE), as --background''s --format'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'safe-ad;help'= {
            cand create 'Make new appendable data and print its handle (--put saves it)'
            cand open 'Get a handle for data on the network, by its name, and print it'
            cand put 'Save a handle''s new data to the network (PUT /appendable-data/<HANDLE>)'
            cand post 'Save a handle''s copy of data already on the network (POST /appendable-data/<HANDLE>)'
            cand clear-data 'Move every data item to the deleted list (by name: saved; by handle: in its copy)'
            cand clear-deleted-data 'Empty the deleted list, for good (by name: saved; by handle: in its copy)'
            cand remove 'Move data items to the deleted list, by index or by what they are (by name: saved)'
            cand restore 'Make deleted items data again (by name: saved; by handle: in its copy)'
            cand purge 'Delete deleted items for good (by name: saved; by handle: in its copy)'
            cand append 'Append an item: data by name, or a file as immutable data (see --help)'
            cand metadata 'Show the version, item counts, owner and filter of data, by name or handle'
            cand show 'Show what data holds: data items, deleted items, who signed each, the filter''s keys'
            cand cat 'Write one item''s content to stdout as raw bytes, exactly as stored'
            cand status 'Compare handles'' copies with the network: in sync, changes not saved, stale, items the copy lacks'
            cand wait 'Poll until a condition holds: new items, an item, a version, stale, in sync'
            cand watch 'Watch data change: a view redrawn in place, or one JSON line per change'
            cand reopen 'Get a fresh handle for the data behind stale handles, and print each'
            cand drop 'Drop handles, freeing the launcher''s slots (DELETE /appendable-data/handle/<HANDLE>)'
            cand filter 'Show or change who may append: the filter''s type and keys'
            cand capture 'Read appendable data by name from any launcher and write it as a fixture for --import'
            cand auth 'Get, check, print or revoke the launcher token'
            cand config 'Show or edit the config file'
            cand decode 'Say what serialised bytes hold: a data id, a sign key or an appendable data (offline)'
            cand completions 'Print shell completions to stdout'
            cand man 'Print the man page of safe-ad or of a command (roff)'
            cand shell 'A prompt for safe-ad''s commands on a terminal, or a script of them run in one process'
            cand emulator 'Run a local stand-in for the SAFE Launcher (for trying safe-ad and testing scripts)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'safe-ad;help;create'= {
        }
        &'safe-ad;help;open'= {
        }
        &'safe-ad;help;put'= {
        }
        &'safe-ad;help;post'= {
        }
        &'safe-ad;help;clear-data'= {
        }
        &'safe-ad;help;clear-deleted-data'= {
        }
        &'safe-ad;help;remove'= {
        }
        &'safe-ad;help;restore'= {
        }
        &'safe-ad;help;purge'= {
        }
        &'safe-ad;help;append'= {
        }
        &'safe-ad;help;metadata'= {
        }
        &'safe-ad;help;show'= {
        }
        &'safe-ad;help;cat'= {
        }
        &'safe-ad;help;status'= {
        }
        &'safe-ad;help;wait'= {
        }
        &'safe-ad;help;watch'= {
        }
        &'safe-ad;help;reopen'= {
        }
        &'safe-ad;help;drop'= {
        }
        &'safe-ad;help;filter'= {
            cand show 'Show who may append: the filter''s type and keys, each with its fingerprint'
            cand add 'Add sign keys to the filter (by name: saved; by handle: in its copy)'
            cand remove 'Take sign keys out of the filter (by name: saved; by handle: in its copy)'
            cand type 'Make the filter a whitelist or a blacklist (by name: saved; by handle: in its copy)'
        }
        &'safe-ad;help;filter;show'= {
        }
        &'safe-ad;help;filter;add'= {
        }
        &'safe-ad;help;filter;remove'= {
        }
        &'safe-ad;help;filter;type'= {
        }
        &'safe-ad;help;capture'= {
        }
        &'safe-ad;help;auth'= {
            cand login 'Ask the launcher for a token (a person approves it there) and store it in the config file'
            cand status 'Show the launcher URL, where the token comes from (masked), and whether the launcher accepts it'
            cand logout 'Revoke the token at the launcher and remove it from the config file'
            cand token 'Print the token on stdout, for `export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)`'
            cand whoami 'Print the fingerprint of your own sign key, as `show` names signers and filter keys'
        }
        &'safe-ad;help;auth;login'= {
        }
        &'safe-ad;help;auth;status'= {
        }
        &'safe-ad;help;auth;logout'= {
        }
        &'safe-ad;help;auth;token'= {
        }
        &'safe-ad;help;auth;whoami'= {
        }
        &'safe-ad;help;config'= {
            cand path 'Print the config file''s path'
            cand show 'Print every setting with its effective value and where it comes from (token masked)'
            cand set 'Set a key in the config file, or in a profile with --profile (for `token`, give `-` and pipe the token in)'
            cand unset 'Remove a key from the config file'
        }
        &'safe-ad;help;config;path'= {
        }
        &'safe-ad;help;config;show'= {
        }
        &'safe-ad;help;config;set'= {
        }
        &'safe-ad;help;config;unset'= {
        }
        &'safe-ad;help;decode'= {
        }
        &'safe-ad;help;completions'= {
        }
        &'safe-ad;help;man'= {
        }
        &'safe-ad;help;shell'= {
        }
        &'safe-ad;help;emulator'= {
            cand requests 'Print, count or check the requests a running emulator answered (its journal)'
            cand export 'Write what a running emulator holds as a fixture, for --import (or --state)'
            cand list 'List your background emulators: pid, URL, start, fixture, directory, users'
            cand env 'Print a background emulator''s variables again, as --background did'
        }
        &'safe-ad;help;emulator;requests'= {
        }
        &'safe-ad;help;emulator;export'= {
        }
        &'safe-ad;help;emulator;list'= {
        }
        &'safe-ad;help;emulator;env'= {
        }
        &'safe-ad;help;help'= {
        }
    ]
    $completions[$command]
}
