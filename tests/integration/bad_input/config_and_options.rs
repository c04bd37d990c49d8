//! Bad config files, each named with the position (line and column, from 1) of what is wrong, and
//! bad numeric options.

use super::*;

pub(super) const CONFIG_FILES: &[Row] = &[
    config_file!(
        "config file: empty",
        b"",
        &["config file {dir}/config/config.json: it is empty; write {} for an empty config, or delete the file"],
    ),
    config_file!(
        "config file: only blank lines",
        b" \n\n",
        &[
            "config file {dir}/config/config.json: it is empty; write {} for an empty config, or delete the file",
            "hint: fix or remove the file; it may hold only the keys launcher_url, token, timeout_secs",
        ],
    ),
    config_file!(
        "config file: malformed JSON",
        b"{\"token\": ",
        &["config file {dir}/config/config.json: line 1, column 10: EOF while parsing a value"],
    ),
    config_file!(
        "config file: malformed JSON on line 3",
        b"{\n  \"token\": \"abc\"\n  \"timeout_secs\": 5\n}",
        &["config file {dir}/config/config.json: line 3, column 3: expected `,` or `}`"],
    ),
    config_file!(
        "config file: not an object",
        b"[1, 2]",
        &["config file {dir}/config/config.json: line 1, column", "a JSON object"],
    ),
    config_file!(
        "config file: not an object (`[1]`)",
        b"[1]",
        &["config file {dir}/config/config.json: line 1, column 1: invalid type: sequence, expected a JSON object with the keys launcher_url, token, timeout_secs"],
    ),
    config_file!(
        "config file: not an object (`[]`)",
        b"[]",
        &["config file {dir}/config/config.json: line 1, column 1: invalid type: sequence, expected a JSON object"],
    ),
    config_file!(
        "config file: not an object, on line 2",
        b"\n[\"token\"]",
        &["config file {dir}/config/config.json: line 2, column 1: invalid type: sequence, expected a JSON object"],
    ),
    config_file!(
        "config file: not an object (a string)",
        br#""token""#,
        &["config file {dir}/config/config.json: line 1, column 7: invalid type: string \"token\", expected a JSON object"],
    ),
    config_file!(
        "config file: not an object (null)",
        b"null",
        &["config file {dir}/config/config.json: line 1, column 4: invalid type: null, expected a JSON object"],
    ),
    config_file!(
        "config file: not an object (true)",
        b"true",
        &["config file {dir}/config/config.json: line 1, column 4: invalid type: boolean `true`, expected a JSON object"],
    ),
    config_file!(
        "config file: not an object (a number)",
        b"42",
        &["config file {dir}/config/config.json: line 1, column 2: invalid type: integer `42`, expected a JSON object"],
    ),
    config_file!(
        "config file: wrong type (timeout as a string)",
        br#"{"timeout_secs": "5"}"#,
        &["config file {dir}/config/config.json: line 1, column 2: key `timeout_secs` must be a number of seconds, not a string"],
    ),
    config_file!(
        "config file: wrong type (timeout as a string, on line 2)",
        b"{\n  \"timeout_secs\": \"5\"\n}",
        &["config file {dir}/config/config.json: line 2, column 3: key `timeout_secs` must be a number of seconds, not a string"],
    ),
    config_file!(
        "config file: wrong type (token as a number)",
        br#"{"token": 5}"#,
        &["config file {dir}/config/config.json: line 1, column 2: key `token` must be a string, not a number"],
    ),
    config_file!(
        "config file: wrong type (URL as null)",
        br#"{"launcher_url": null}"#,
        &["config file {dir}/config/config.json: line 1, column 2: key `launcher_url` must be a string, not null"],
    ),
    config_file!(
        "config file: unknown key",
        b"{\n  \"tokn\": \"x\"\n}\n",
        &["config file {dir}/config/config.json: line 2, column 3: unknown key `tokn` (did you mean `token`?)"],
    ),
    config_file!(
        "config file: unknown key at the start of line 2",
        b"{\n\"tokn\": \"x\"}",
        &["config file {dir}/config/config.json: line 2, column 1: unknown key `tokn` (did you mean `token`?); the keys are launcher_url, token, timeout_secs"],
    ),
    config_file!(
        "config file: unknown key (`launcher-url`)",
        br#"{"launcher-url": "http://127.0.0.1:1"}"#,
        &["config file {dir}/config/config.json: line 1, column 2: unknown key `launcher-url` (did you mean `launcher_url`?)"],
    ),
    config_file!(
        "config file: repeated key",
        br#"{"timeout_secs": 5, "timeout_secs": 6}"#,
        &["key `timeout_secs` appears twice; keep one"],
    ),
    config_file!(
        "config file: repeated key on line 2",
        b"{\"token\": \"a\",\n \"token\": \"b\"}",
        &["config file {dir}/config/config.json: line 2, column 2: key `token` appears twice; keep one"],
    ),
    config_file!(
        "config file: unknown key in a profile",
        b"{\"profiles\": {\n  \"emu\": {\"tokn\": \"x\"}}}",
        &["config file {dir}/config/config.json: line 2, column 11: profile `emu`: unknown key `tokn` (did you mean `token`?); the keys of a profile are launcher_url, token, timeout_secs, read_only (profiles do not nest)"],
    ),
    config_file!(
        "config file: repeated key in a profile",
        b"{\"profiles\": {\"emu\": {\"token\": \"a\",\n \"token\": \"b\"}}}",
        &["config file {dir}/config/config.json: line 2, column 2: profile `emu`: key `token` appears twice; keep one"],
    ),
    config_file!(
        "config file: read_only not a boolean",
        br#"{"profiles": {"real": {"read_only": "yes"}}}"#,
        &["config file {dir}/config/config.json: line 1, column 24: profile `real`: key `read_only` must be true or false, not a string"],
    ),
    config_file!(
        "config file: a profile's name with a space",
        br#"{"profiles": {"my emu": {}}}"#,
        &["config file {dir}/config/config.json: line 1, column 15: in `profiles`: `my emu` is no profile name"],
    ),
    config_file!(
        "config file: profiles not an object",
        br#"{"profiles": 5}"#,
        &["config file {dir}/config/config.json: line 1, column 14: invalid type: integer `5`, expected an object of profiles by name"],
    ),
    with_files(
        row(
            "profile: one the config file lacks",
            &["--profile", "nope", "put", "1"],
            2,
            &[
                "no profile `nope` (from --profile) in the config file {dir}/config/config.json",
                "hint: the profiles there are emu, real; or make this one with `safe-ad config set --profile nope launcher_url URL`",
            ],
        ),
        &[(CONFIG, Make::File(br#"{"profiles": {"emu": {}, "real": {}}}"#, 0o600))],
    ),
    row(
        "profile: any, without a config file",
        &["--profile", "emu", "put", "1"],
        2,
        &["no profile `emu` (from --profile): there is no config file at {dir}/config/config.json"],
    ),
    with_env(
        row(
            "profile env var: not a name",
            &["put", "1"],
            2,
            &["`a/b` is no profile name: one to 64 ASCII letters, digits, `-`, `_` or `.` (from env var SAFE_AD_PROFILE)"],
        ),
        &[
            ("SAFE_LAUNCHER_URL", "{url}"),
            ("SAFE_LAUNCHER_TOKEN", "{token}"),
            ("SAFE_AD_PROFILE", "a/b"),
        ],
    ),
    with_files(
        row(
            "profile: read-only, given a change",
            &["--profile", "real", "put", "1"],
            2,
            &["profile `real` is read-only: `put` changes the network or a launcher's copy, so it is refused; nothing was sent"],
        ),
        &[(CONFIG, Make::File(br#"{"profiles": {"real": {"read_only": true}}}"#, 0o600))],
    ),
    config_file!(
        "config file: not UTF-8",
        b"{\"launcher_url\": \"\xff\"}",
        &["config file {dir}/config/config.json: it is not UTF-8 text"],
    ),
    config_file!(
        "config file: not UTF-8 in the token",
        b"{\"token\": \"\xff\"}",
        &["config file {dir}/config/config.json: it is not UTF-8 text"],
    ),
    with_files(
        row(
            "config file: a directory",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: it is a directory, not a regular file"],
        ),
        &[(CONFIG, Make::Dir)],
    ),
    with_files(
        row(
            "config file: a FIFO (refused by its type, never opened: opening waits for a writer)",
            &["put", "1"],
            2,
            &[
                "safe-ad: error: config file {dir}/config/config.json: it is a FIFO, not a regular file",
                "hint: fix or remove the file",
            ],
        ),
        &[(CONFIG, Make::Fifo)],
    ),
    with_files(
        row(
            "config file: a link to a FIFO",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: it is a FIFO, not a regular file"],
        ),
        &[("config/fifo", Make::Fifo), (CONFIG, Make::Link("fifo"))],
    ),
    with_files(
        row(
            "config file: a socket",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: it is a socket, not a regular file"],
        ),
        &[(CONFIG, Make::Socket)],
    ),
    with_files(
        row(
            "config file: a link to /dev/null",
            &["put", "1"],
            2,
            &["config file {dir}/config/config.json: it is a character device, not a regular file"],
        ),
        &[(CONFIG, Make::Link("/dev/null"))],
    ),
    with_files(
        row(
            "config file: a FIFO, with --dry-run",
            &["--dry-run", "put", "1"],
            2,
            &["config file {dir}/config/config.json: it is a FIFO, not a regular file"],
        ),
        &[(CONFIG, Make::Fifo)],
    ),
    with_files(
        row(
            "config file: a FIFO, with `auth token`",
            &["auth", "token"],
            2,
            &["config file {dir}/config/config.json: it is a FIFO, not a regular file"],
        ),
        &[(CONFIG, Make::Fifo)],
    ),
    Row {
        unreadable: true,
        ..with_files(
            row(
                "config file: unreadable (mode 000)",
                &["put", "1"],
                2,
                &["config file {dir}/config/config.json: cannot open it: permission denied"],
            ),
            &[(CONFIG, Make::File(b"{}", 0o000))],
        )
    },
    with_env(
        row(
            "config dir env var: empty",
            &["put", "1"],
            2,
            &["SAFE_AD_CONFIG_DIR is set but empty"],
        ),
        &[
            ("SAFE_LAUNCHER_URL", "{url}"),
            ("SAFE_LAUNCHER_TOKEN", "{token}"),
            ("SAFE_AD_CONFIG_DIR", ""),
        ],
    ),
    Row {
        connections: 1,
        ..with_env(
            with_files(
                row(
                    "config file: token in a world-readable file (a warning; the drop runs)",
                    &["drop", "1"],
                    0,
                    &["safe-ad: warning: config file {dir}/config/config.json holds a token and can be read by other users (mode 644); run: chmod 600 {dir}/config/config.json"],
                ),
                &[(CONFIG, Make::File(br#"{"token": "{token}"}"#, 0o644))],
            ),
            URL_ONLY,
        )
    },
];

pub(super) const OPTIONS: &[Row] = &[
    row(
        "--timeout 0",
        &["--timeout", "0", "put", "1"],
        2,
        &["invalid value '0' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout=0",
        &["--timeout=0", "put", "1"],
        2,
        &["invalid value '0' for '--timeout <SECS>': must be more than 0 and at most 86400 seconds (one day)"],
    ),
    row(
        "--timeout 86401",
        &["--timeout", "86401", "put", "1"],
        2,
        &["invalid value '86401' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout=86401",
        &["--timeout=86401", "put", "1"],
        2,
        &["invalid value '86401' for '--timeout <SECS>': must be more than 0 and at most 86400 seconds (one day)"],
    ),
    row(
        "--timeout -1",
        &["--timeout=-1", "put", "1"],
        2,
        &["invalid value '-1' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout -1, as two arguments (read as a value, not an option)",
        &["--timeout", "-1", "put", "1"],
        2,
        &["invalid value '-1' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout nan",
        &["--timeout", "nan", "put", "1"],
        2,
        &["invalid value 'nan' for '--timeout <SECS>'", TIMEOUT_RANGE],
    ),
    row(
        "--timeout=NaN",
        &["--timeout=NaN", "put", "1"],
        2,
        &["invalid value 'NaN' for '--timeout <SECS>': must be more than 0 and at most 86400 seconds (one day)"],
    ),
    row(
        "--timeout=inf",
        &["--timeout=inf", "put", "1"],
        2,
        &["invalid value 'inf' for '--timeout <SECS>': must be more than 0 and at most 86400 seconds (one day)"],
    ),
    row(
        "--timeout=1e999",
        &["--timeout=1e999", "put", "1"],
        2,
        &["invalid value '1e999' for '--timeout <SECS>': must be more than 0 and at most 86400 seconds (one day)"],
    ),
    row(
        "--timeout 0.0001",
        &["--timeout", "0.0001", "put", "1"],
        2,
        &["invalid value '0.0001' for '--timeout <SECS>': must be at least 0.001 seconds"],
    ),
    row(
        "--timeout=0.0001",
        &["--timeout=0.0001", "put", "1"],
        2,
        &["invalid value '0.0001' for '--timeout <SECS>': must be at least 0.001 seconds"],
    ),
    row(
        "--timeout abc",
        &["--timeout", "abc", "put", "1"],
        2,
        &["invalid value 'abc' for '--timeout <SECS>': 'abc' is not a number of seconds"],
    ),
    row(
        "--timeout=abc",
        &["--timeout=abc", "put", "1"],
        2,
        &["invalid value 'abc' for '--timeout <SECS>': 'abc' is not a number of seconds"],
    ),
    row(
        "--timeout=5s",
        &["--timeout=5s", "put", "1"],
        2,
        &["invalid value '5s' for '--timeout <SECS>': '5s' is not a number of seconds"],
    ),
    row(
        "--timeout= (empty)",
        &["--timeout=", "put", "1"],
        2,
        &["invalid value '' for '--timeout <SECS>': '' is not a number of seconds"],
    ),
    row(
        "--jobs 0",
        &["--jobs", "0", "put", "1"],
        2,
        &["invalid value '0' for '--jobs <N>': 0 is not in 1..=256"],
    ),
    row(
        "--jobs 257",
        &["--jobs", "257", "put", "1"],
        2,
        &["invalid value '257' for '--jobs <N>': 257 is not in 1..=256"],
    ),
    row(
        "--retries 11",
        &["--retries", "11", "put", "1"],
        2,
        &["invalid value '11' for '--retries <N>': 11 is not in 0..=10"],
    ),
    row(
        "--retries -1",
        &["--retries", "-1", "put", "1"],
        2,
        &["invalid value '-1' for '--retries <N>': -1 is not in 0..=10 (a whole number, 0 or more)"],
    ),
    row(
        "--jobs -1",
        &["--jobs", "-1", "put", "1"],
        2,
        &["invalid value '-1' for '--jobs <N>': -1 is not in 1..=256 (a whole number, at least 1)"],
    ),
    config_file!(
        "config timeout_secs: 0",
        br#"{"timeout_secs": 0}"#,
        &["config file {dir}/config/config.json: timeout_secs must be more than 0 and at most 86400 seconds (one day)"],
    ),
    config_file!(
        "config timeout_secs: -1",
        br#"{"timeout_secs": -1}"#,
        &["config file {dir}/config/config.json: timeout_secs must be more than 0 and at most 86400 seconds (one day)"],
    ),
    config_file!(
        "config timeout_secs: 86401",
        br#"{"timeout_secs": 86401}"#,
        &["config file {dir}/config/config.json: timeout_secs must be more than 0 and at most 86400 seconds (one day)"],
    ),
    config_file!(
        "config timeout_secs: 1e9",
        br#"{"timeout_secs": 1e9}"#,
        &["timeout_secs must be more than 0 and at most 86400 seconds"],
    ),
    config_file!(
        "config timeout_secs: 0.0001",
        br#"{"timeout_secs": 0.0001}"#,
        &["config file {dir}/config/config.json: timeout_secs must be at least 0.001 seconds"],
    ),
];

#[test]
fn bad_config_files_are_refused_naming_the_file_and_position() {
    check_group(CONFIG_FILES);
}

#[test]
fn bad_numeric_options_are_refused() {
    check_group(OPTIONS);
}
