//! Bad launcher URLs from every source (option, env var, config file), and bad tokens from every
//! source (file, env var, config file, standard input), never echoed.

use super::*;

pub(super) const URLS: &[Row] = &[
    url_row(
        "URL: no scheme",
        "{addr}",
        &[
            "safe-ad: error: invalid launcher URL '{addr}' ({source}): it has no scheme; start it with http:// or https://",
            "hint: use a URL like http://localhost:8100 or http://127.0.0.1:8100/0.6",
        ],
    ),
    url_row(
        "URL: no scheme, a host name",
        "localhost:{port}",
        &["invalid launcher URL 'localhost:{port}' ({source}): it has no scheme"],
    ),
    url_row(
        "URL: ftp://",
        "ftp://{addr}",
        &["invalid launcher URL 'ftp://{addr}' ({source}): the scheme is 'ftp'; only http:// and https:// are supported"],
    ),
    url_row(
        "URL: no host",
        "http://",
        &["invalid launcher URL 'http://' ({source}): it has no host"],
    ),
    url_row(
        "URL: no host, only a port",
        "http://:80",
        &["invalid launcher URL 'http://:80' ({source}): empty host"],
    ),
    url_row(
        "URL: no host, the address in the path (`http:///host:port`)",
        "http:///{addr}",
        &["invalid launcher URL 'http:///{addr}' ({source}): it has no host"],
    ),
    Row {
        absent: &["s3cretpw"],
        ..url_row(
            "URL: user name and password",
            "http://user:s3cretpw@{addr}",
            &["invalid launcher URL 'http://***@{addr}' ({source}): it contains a user name or password; the token is the only credential sent"],
        )
    },
    url_row(
        "URL: user name only",
        "http://user@{addr}",
        &["invalid launcher URL 'http://***@{addr}' ({source}): it contains a user name or password"],
    ),
    url_row(
        "URL: a space in the path",
        "http://{addr}/a b",
        &["invalid launcher URL 'http://{addr}/a b' ({source}): it contains spaces or control characters"],
    ),
    url_row(
        "URL: a space before the host",
        "http:// {addr}",
        &["invalid launcher URL 'http:// {addr}' ({source}): it contains spaces or control characters"],
    ),
    url_row(
        "URL: a query",
        "http://{addr}/?x=1",
        &["invalid launcher URL 'http://{addr}/?x=1' ({source}): it has a query (?...) or fragment (#...); give only scheme, host, port and path prefix"],
    ),
    url_row(
        "URL: a fragment",
        "http://{addr}/#top",
        &["invalid launcher URL 'http://{addr}/#top' ({source}): it has a query (?...) or fragment (#...)"],
    ),
    url_row(
        "URL: empty",
        "",
        &["invalid launcher URL '' ({source}): it is empty"],
    ),
];

pub(super) const TOKENS: &[Row] = &[
    token_file!(
        "token file: empty",
        b"",
        &["safe-ad: error: the token is empty (from --token-file)", TOKEN_HINT],
    ),
    token_file!(
        "token file: only a newline",
        b"\n",
        &["the token is empty (from --token-file)"],
    ),
    token_file!(
        "token file: only white space",
        b"  \n\t \n",
        &["the token is empty (from --token-file)"],
    ),
    with_files(
        row(
            "token file: a directory",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["cannot read token file {dir}/token: it is a directory, not a regular file", "hint: check the path given to --token-file"],
        ),
        &[("token", Make::Dir)],
    ),
    with_files(
        row(
            "token file: a FIFO (refused by its type, never opened: opening waits for a writer)",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &[
                "safe-ad: error: cannot read token file {dir}/token: it is a FIFO, not a regular file",
                "hint: check the path given to --token-file: it reads a regular file, standard input with -, or (on Linux) a pipe such as <(...)",
            ],
        ),
        &[("token", Make::Fifo)],
    ),
    with_files(
        row(
            "token file: a link to a FIFO",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["cannot read token file {dir}/token: it is a FIFO, not a regular file"],
        ),
        &[("fifo", Make::Fifo), ("token", Make::Link("fifo"))],
    ),
    with_files(
        row(
            "token file: a FIFO, with `auth token`",
            &["--token-file", "{dir}/token", "auth", "token"],
            2,
            &["cannot read token file {dir}/token: it is a FIFO, not a regular file"],
        ),
        &[("token", Make::Fifo)],
    ),
    with_files(
        row(
            "token file: a socket",
            &["--token-file", "{dir}/token", "put", "1"],
            2,
            &["cannot read token file {dir}/token: it is a socket, not a regular file"],
        ),
        &[("token", Make::Socket)],
    ),
    row(
        "token file: /dev/null",
        &["--token-file", "/dev/null", "put", "1"],
        2,
        &["cannot read token file /dev/null: it is a character device, not a regular file"],
    ),
    row(
        "token file: missing",
        &["--token-file", "{dir}/missing", "put", "1"],
        2,
        &["cannot read token file {dir}/missing: no such file"],
    ),
    Row {
        unreadable: true,
        ..with_files(
            row(
                "token file: unreadable (mode 000)",
                &["--token-file", "{dir}/token", "put", "1"],
                2,
                &["cannot read token file {dir}/token: permission denied"],
            ),
            &[("token", Make::File(b"{token}\n", 0o000))],
        )
    },
    token_file!(
        "token file: the token with a space inside",
        b"{front} {back}\n",
        &["the token has whitespace inside it (from --token-file)", TOKEN_HINT],
    ),
    token_file!(
        "token file: inner newline",
        b"first-half\nsecond-half\n",
        &["the token has whitespace inside it (from --token-file)"],
    ),
    token_file!(
        "token file: the token split over two lines",
        b"{front}\n{back}\n",
        &["the token has whitespace inside it (from --token-file)"],
    ),
    token_file!(
        "token file: the token with a tab inside",
        b"{front}\t{back}",
        &["the token has whitespace inside it (from --token-file)"],
    ),
    token_file!(
        "token file: non-ASCII",
        "tökén-abc".as_bytes(),
        &["the token has a non-ASCII character in it (from --token-file)"],
    ),
    token_file!(
        "token file: the token with a non-ASCII letter inside",
        "{front}é{back}".as_bytes(),
        &["the token has a non-ASCII character in it (from --token-file)"],
    ),
    token_file!(
        "token file: a control character",
        b"abc\x07def",
        &["the token has a control character in it (from --token-file)"],
    ),
    token_file!(
        "token file: the token with a control character inside",
        b"{front}\x01{back}",
        &["the token has a control character in it (from --token-file)"],
    ),
    token_file!(
        "token file: the token with DEL inside",
        b"{front}\x7f{back}",
        &["the token has a control character in it (from --token-file)"],
    ),
    token_file!(
        "token file: not UTF-8",
        b"abc\xff\xfe",
        &["the token from {dir}/token is not text", "hint: point --token-file at a file that holds only the token"],
    ),
    token_file!(
        "token file: the token with bytes that are not UTF-8 inside",
        b"{front}\xff\xfe{back}",
        &["the token from {dir}/token is not text", "hint: point --token-file at a file that holds only the token"],
    ),
    token_file!(
        "token file: larger than 64 KiB",
        &[b'a'; 65 * 1024],
        &["the token from {dir}/token is larger than 64 KiB; that is not a token"],
    ),
    token_file!(
        "token file: 70 KiB",
        &[b'a'; 70 * 1024],
        &["the token from {dir}/token is larger than 64 KiB; that is not a token", "hint: point --token-file at a file that holds only the token"],
    ),
    row(
        "token on stdin: empty",
        &["--token-file", "-", "put", "1"],
        2,
        &["the token is empty (from --token-file - (standard input))"],
    ),
    Row {
        stdin: b"{front} {back}\n",
        ..row(
            "token on stdin: the token with a space inside",
            &["--token-file", "-", "put", "1"],
            2,
            &["the token has whitespace inside it (from --token-file - (standard input))", TOKEN_HINT],
        )
    },
    row(
        "token on stdin and handles on stdin",
        &["--token-file", "-", "put", "-"],
        2,
        &["standard input cannot hold both the token (--token-file -) and the handles (-)"],
    ),
    with_env(
        row(
            "token env var: empty",
            &["put", "1"],
            2,
            &["the token is empty (from env var SAFE_LAUNCHER_TOKEN)", TOKEN_HINT],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "")],
    ),
    with_env(
        row(
            "token env var: only white space",
            &["put", "1"],
            2,
            &["the token is empty (from env var SAFE_LAUNCHER_TOKEN)"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", " \t")],
    ),
    with_env(
        row(
            "token env var: spaces around the token (a --curl line would send them)",
            &["put", "1"],
            2,
            &[
                "safe-ad: error: the token has whitespace around it (from env var SAFE_LAUNCHER_TOKEN)",
                "hint: set SAFE_LAUNCHER_TOKEN to the token alone: --curl lines and other tools send the variable as it is (a token file may end in a newline)",
            ],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", " {token} ")],
    ),
    with_env(
        row(
            "token env var: a final newline",
            &["put", "1"],
            2,
            &["the token has whitespace around it (from env var SAFE_LAUNCHER_TOKEN)"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "{token}\n")],
    ),
    with_env(
        row(
            "token env var: inner space",
            &["put", "1"],
            2,
            &["the token has whitespace inside it (from env var SAFE_LAUNCHER_TOKEN)"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "two words")],
    ),
    with_env(
        row(
            "token env var: the token split over two lines",
            &["put", "1"],
            2,
            &["the token has whitespace inside it (from env var SAFE_LAUNCHER_TOKEN)"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "{front}\n{back}")],
    ),
    with_env(
        row(
            "token env var: the token with an escape character inside",
            &["put", "1"],
            2,
            &["the token has a control character in it (from env var SAFE_LAUNCHER_TOKEN)"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "{front}\x1b{back}")],
    ),
    with_env(
        row(
            "token env var: not UTF-8",
            &["put", "1"],
            2,
            &["safe-ad: error: SAFE_LAUNCHER_TOKEN is not valid UTF-8", "hint: a token is plain ASCII text"],
        ),
        &[("SAFE_LAUNCHER_URL", "{url}"), ("SAFE_LAUNCHER_TOKEN", "tok{xff}en")],
    ),
    with_env(
        with_files(
            row(
                "token in the config file: empty",
                &["put", "1"],
                2,
                &["the token is empty (from config file {dir}/config/config.json)", TOKEN_HINT],
            ),
            &[(CONFIG, Make::File(br#"{"token": ""}"#, 0o600))],
        ),
        URL_ONLY,
    ),
    with_env(
        with_files(
            row(
                "config file: bad token inside",
                &["put", "1"],
                2,
                &["the token has whitespace inside it (from config file {dir}/config/config.json)"],
            ),
            &[(CONFIG, Make::File(br#"{"token": "two words"}"#, 0o600))],
        ),
        URL_ONLY,
    ),
    with_env(
        with_files(
            row(
                "token in the config file: the token with a space inside",
                &["put", "1"],
                2,
                &["the token has whitespace inside it (from config file {dir}/config/config.json)"],
            ),
            &[(CONFIG, Make::File(br#"{"token": "{front} {back}"}"#, 0o600))],
        ),
        URL_ONLY,
    ),
    with_env(
        with_files(
            row(
                "token in the config file: the token with a non-ASCII letter inside",
                &["put", "1"],
                2,
                &["the token has a non-ASCII character in it (from config file {dir}/config/config.json)"],
            ),
            &[(CONFIG, Make::File(br#"{"token": "{front}\u00e9{back}"}"#, 0o600))],
        ),
        URL_ONLY,
    ),
    with_env(
        row(
            "token: none anywhere",
            &["put", "1"],
            3,
            &[
                "safe-ad: error: no token found",
                "hint: run `safe-ad auth login`, or give one with --token-file PATH, the env var SAFE_LAUNCHER_TOKEN, or the \"token\" key in {dir}/config/config.json",
            ],
        ),
        URL_ONLY,
    ),
    with_env(
        with_files(
            row(
                "token: none anywhere, the config file holds other keys",
                &["put", "1"],
                3,
                &[
                    "safe-ad: error: no token found",
                    "hint: run `safe-ad auth login`, or give one with --token-file PATH, the env var SAFE_LAUNCHER_TOKEN, or the \"token\" key in {dir}/config/config.json",
                ],
            ),
            &[(CONFIG, Make::File(br#"{"timeout_secs": 5}"#, 0o600))],
        ),
        URL_ONLY,
    ),
];

#[test]
fn bad_launcher_urls_are_refused_from_every_source() {
    check_group(URLS);
}

#[test]
fn bad_tokens_are_refused_and_not_echoed() {
    check_group(TOKENS);
}
