//! Bad indexes, ranges and item arguments (`show`, `remove`, `restore`, `purge`, `append`), and bad
//! command lines: unknown options, options a command does not take, missing arguments.

use super::*;

const INDEX_HINT: &str = "hint: an index is plain decimal digits, 0 to 18446744073709551615, counting from 0 as `safe-ad show 1` numbers the items; nothing was sent";
const RANGE_HINT: &str = "hint: give N, A..B (B not included), A..=B, A.. or ..B, where indexes count from 0 as `show` numbers the items; nothing was sent";
/// A valid name, for the rows whose mistake is elsewhere.
const GOOD_NAME: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

/// `show`, `remove`, `restore`, `purge` and `append`: what they take beyond handles.
pub(super) const ITEMS: &[Row] = &[
    row(
        "show: a bad handle",
        &["show", "1", "x"],
        2,
        &["safe-ad: error: invalid handle 'x' for show: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "show: no handle",
        &["show", "--full"],
        2,
        &["the following required arguments were not provided", "<HANDLE>"],
    ),
    row(
        "show: --index not a number",
        &["show", "--index", "x", "1"],
        2,
        &["safe-ad: error: invalid --index 'x': 'x' is not a plain decimal number", RANGE_HINT],
    ),
    row(
        "show: --index empty",
        &["show", "--index=", "1"],
        2,
        &["safe-ad: error: invalid --index '': '' is empty", RANGE_HINT],
    ),
    row(
        "show: --index negative",
        &["show", "--index", "-1", "1"],
        2,
        &["safe-ad: error: invalid --index '-1': '-1' is not a plain decimal number", RANGE_HINT],
    ),
    row(
        "show: --index past 2^64",
        &["show", "--index", "18446744073709551616..", "1"],
        2,
        &["invalid --index '18446744073709551616..': '18446744073709551616' is larger than 18446744073709551615", RANGE_HINT],
    ),
    row(
        "show: --index whose end comes before its start",
        &["show", "--index", "5..2", "1"],
        2,
        &["safe-ad: error: invalid --index '5..2': the end comes before the start", RANGE_HINT],
    ),
    row(
        "show: --index that holds no index",
        &["show", "--index", "5..5", "1"],
        2,
        &["invalid --index '5..5': it holds no index (the end is not included: A..B stops before B)"],
    ),
    row(
        "show: --index with `..=` and no end",
        &["show", "--index", "1..=", "1"],
        2,
        &["invalid --index '1..=': `..=` needs the last index after it"],
    ),
    row(
        "show: --index with three dots",
        &["show", "--index", "1...3", "1"],
        2,
        &["invalid --index '1...3': '.3' is not a plain decimal number"],
    ),
    row(
        "show: --index with a space",
        &["show", "--index", "1 .. 3", "1"],
        2,
        &["invalid --index '1 .. 3': '1 ' is not a plain decimal number"],
    ),
    row(
        "show: --dry-run (it cannot know its requests before the answers)",
        &["show", "--dry-run", "1"],
        2,
        &["safe-ad: error: `safe-ad show` does not take --dry-run: it is an option of"],
    ),
    row(
        "show: --curl",
        &["show", "--curl", "1"],
        2,
        &["safe-ad: error: `safe-ad show` does not take --curl", "hint: `safe-ad show --help` lists the options it takes"],
    ),
    row(
        "show: --fail-fast",
        &["--fail-fast", "show", "1"],
        2,
        &["safe-ad: error: `safe-ad show` does not take --fail-fast"],
    ),
    row(
        "remove: a bad handle",
        &["remove", "x", "0"],
        2,
        &["safe-ad: error: invalid handle 'x' for remove: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "remove: `-` for the handle",
        &["remove", "-", "0"],
        2,
        &["safe-ad: error: `remove` takes one handle, not `-` (standard input)"],
    ),
    row(
        "remove: no index",
        &["remove", "1"],
        2,
        &[
            "the following required arguments were not provided",
            "<INDEX|--signed-by <WHO>|--kind <KIND>|--data-id <DATA-ID>|--name <NAME>>",
        ],
    ),
    row(
        "remove: a negative index",
        &["remove", "1", "-1"],
        2,
        &["safe-ad: error: invalid index '-1' for remove: it is not a plain decimal number", INDEX_HINT],
    ),
    row(
        "remove: the index and the name swapped",
        &["remove", "0", "c2FmZS1hZCBkZW1vOiBzYXZlZC4uLi4uLi4uLi4uLi4="],
        2,
        &[
            "safe-ad: error: 'c2FmZS1hZCBkZW1vOiBzYXZlZC4uLi4uLi4uLi4uLi4=' is a data's name, where remove takes an index: the data comes first",
            "hint: safe-ad remove NAME INDEX: the data (its name or a handle) first",
        ],
    ),
    row(
        "cat: the index and the name swapped",
        &["cat", "1", "c2FmZS1hZCBkZW1vOiBzYXZlZC4uLi4uLi4uLi4uLi4="],
        2,
        &["is a data's name, where cat takes an index: the data comes first", "hint: safe-ad cat NAME INDEX:"],
    ),
    row(
        "remove: a bad index after good ones",
        &["remove", "1", "0", "2", "x"],
        2,
        &["safe-ad: error: invalid index 'x' for remove: it is not a plain decimal number", INDEX_HINT],
    ),
    row(
        "restore: an index with a decimal point",
        &["restore", "1", "1.5"],
        2,
        &["safe-ad: error: invalid index '1.5' for restore: it is not a plain decimal number", INDEX_HINT],
    ),
    row(
        "purge: an index past 2^64",
        &["purge", "1", "18446744073709551616"],
        2,
        &["invalid index '18446744073709551616' for purge: it is larger than 18446744073709551615", INDEX_HINT],
    ),
    row(
        "purge: an empty index",
        &["purge", "1", ""],
        2,
        &["invalid index '' for purge: it is empty", INDEX_HINT],
    ),
    row(
        "restore --save post: 9 indexes (it holds a data id for each across the save: 8 at most)",
        &["restore", "--save", "post", "1", "0", "1", "2", "3", "4", "5", "6", "7", "8"],
        2,
        &[
            "safe-ad: error: restore 1: `restore --save post` restores at most 8 items at a time, and 9 indexes were given; nothing was sent",
            "hint: run it again with at most 8 of them, the highest indexes first",
        ],
    ),
    row(
        "restore --save post --dry-run: 9 indexes (refused as the run is)",
        &["restore", "--save", "post", "--dry-run", "1", "0", "1", "2", "3", "4", "5", "6", "7", "8"],
        2,
        &["safe-ad: error: restore 1: `restore --save post` restores at most 8 items at a time, and 9 indexes were given; nothing was sent"],
    ),
    row(
        "remove: the same index twice",
        &["remove", "1", "2", "02"],
        2,
        &["safe-ad: error: index 2 is given twice for remove", "hint: give each index once"],
    ),
    row(
        "remove: --jobs (the indexes go one at a time)",
        &["remove", "--jobs", "2", "1", "0"],
        2,
        &["safe-ad: error: `safe-ad remove` does not take --jobs"],
    ),
    row(
        "purge: --save with an operation that is not a save",
        &["purge", "--save", "delete", "1", "0"],
        2,
        &["invalid value 'delete' for '--save <OPERATION>'"],
    ),
    row(
        "append: neither --structured nor --appendable",
        &["append", "1"],
        2,
        &["the following required arguments were not provided", "--structured <NAME>|--appendable <NAME>"],
    ),
    row(
        "append: both --structured and --appendable",
        &["append", "1", "--structured", GOOD_NAME, "--appendable", GOOD_NAME],
        2,
        &["the argument '--structured <NAME>' cannot be used with '--appendable <NAME>'"],
    ),
    row(
        "append: --type-tag with --appendable",
        &["append", "1", "--appendable", GOOD_NAME, "--type-tag", "500"],
        2,
        &["the argument '--appendable <NAME>' cannot be used with '--type-tag <N>'"],
    ),
    row(
        "append: --private with --structured",
        &["append", "1", "--structured", GOOD_NAME, "--private"],
        2,
        &["the argument '--structured <NAME>' cannot be used with '--private'"],
    ),
    row(
        "append: a bad name",
        &["append", "1", "--structured", "my data"],
        2,
        &["safe-ad: error: invalid name 'my data' for append: it holds a space, which is neither base64 nor hex", NAME_HINT],
    ),
    row(
        "append: a type tag no structured data has",
        &["append", "1", "--structured", GOOD_NAME, "--type-tag", "499"],
        2,
        &[
            "safe-ad: error: invalid type tag '499' for append: no structured data has it (the launcher makes only 500 (the default), 501 (versioned), or 15000 and above)",
            "hint: structured data has type tag 500 (the default), 501 (versioned), or 15000 and above; nothing was sent",
        ],
    ),
    row(
        "append: a type tag that is not a number",
        &["append", "1", "--structured", GOOD_NAME, "--type-tag", "x"],
        2,
        &["invalid type tag 'x' for append: it is not a plain decimal number"],
    ),
    row(
        "append: a negative handle",
        &["append", "-1", "--structured", GOOD_NAME],
        2,
        &["safe-ad: error: invalid handle '-1' for append: it is not a plain decimal number", HANDLE_HINT],
    ),
    row(
        "append: `-` for the handle",
        &["append", "-", "--structured", GOOD_NAME],
        2,
        &["safe-ad: error: `append` takes one handle, not `-` (standard input)"],
    ),
    row(
        "append: `-` for the handle, a hint without a placeholder",
        &["append", "-", "--structured", GOOD_NAME],
        2,
        &["hint: give the handle itself: safe-ad append the handle ...; nothing was sent"],
    ),
    row(
        "append: --jobs",
        &["append", "--jobs", "2", "1", "--structured", GOOD_NAME],
        2,
        &["safe-ad: error: `safe-ad append` does not take --jobs"],
    ),
    row(
        "append: --fail-fast",
        &["append", "--fail-fast", "1", "--structured", GOOD_NAME],
        2,
        &["safe-ad: error: `safe-ad append` does not take --fail-fast", "hint: `safe-ad append --help` lists the options it takes"],
    ),
];

pub(super) const COMMAND_LINES: &[Row] = &[
    row(
        "unknown flag",
        &["put", "1", "--bogus"],
        2,
        &["safe-ad: error: `safe-ad put` has no option --bogus"],
    ),
    row(
        "unknown flag before the subcommand",
        &["--bogus", "put", "1"],
        2,
        &["safe-ad: error: unexpected argument '--bogus' found"],
    ),
    row(
        "unknown subcommand",
        &["frobnicate", "1"],
        2,
        &["safe-ad: error: unrecognized subcommand 'frobnicate'"],
    ),
    row(
        "a subcommand in capitals",
        &["PUT", "1"],
        2,
        &["safe-ad: error: unrecognized subcommand 'PUT'"],
    ),
    row(
        "a flag without its value",
        &["put", "1", "--timeout"],
        2,
        &["safe-ad: error: a value is required for '--timeout <SECS>' but none was supplied"],
    ),
    Row {
        absent: &["abc"],
        ..row(
            "--token VALUE (there is no such flag)",
            &["--token", "abc", "put", "1"],
            2,
            &[
                "safe-ad: error: unexpected argument '--token' found",
                "a similar argument exists: '--token-file'",
            ],
        )
    },
    Row {
        absent: &["abc"],
        ..row(
            "--token=VALUE (there is no such flag)",
            &["--token=abc", "put", "1"],
            2,
            &[
                "safe-ad: error: unexpected argument '--token' found",
                "a similar argument exists: '--token-file'",
            ],
        )
    },
    row(
        "--save after a command that is not a clear",
        &["put", "--save", "post", "1"],
        2,
        &[
            "safe-ad: error: `safe-ad put` does not take --save: it is an option of `safe-ad clear-data`, `safe-ad clear-deleted-data`, `safe-ad filter add` and 5 other commands",
            "hint: `safe-ad put --help` lists the options it takes",
        ],
    ),
    row(
        "--dry-run on a command that would act on it (auth logout)",
        &["auth", "logout", "--dry-run"],
        2,
        &["safe-ad: error: `safe-ad auth logout` does not take --dry-run: it is an option of `safe-ad create`"],
    ),
    row(
        "--dry-run before a command that would act on it (auth login)",
        &["--dry-run", "auth", "login"],
        2,
        &["safe-ad: error: `safe-ad auth login` does not take --dry-run"],
    ),
    row(
        "--curl on a command that writes the config file",
        &["config", "set", "timeout_secs", "5", "--curl"],
        2,
        &["safe-ad: error: `safe-ad config set` does not take --curl"],
    ),
    row(
        "an emulator option mistyped (no tip to pass it after --, which would run it)",
        &["emulator", "--backgroud"],
        2,
        &[
            "safe-ad: error: `safe-ad emulator` has no option --backgroud",
            "hint: did you mean --background? `safe-ad emulator --help` lists its options",
        ],
    ),
    row(
        "an emulator option unknown, before its -- COMMAND",
        &["emulator", "--xyz", "--", "true"],
        2,
        &["safe-ad: error: `safe-ad emulator` has no option --xyz", "hint: `safe-ad emulator --help` lists its options"],
    ),
    row(
        "an option the command has no use for",
        &["config", "show", "--jobs", "4"],
        2,
        &["safe-ad: error: `safe-ad config show` does not take --jobs: it is an option of `safe-ad put`, `safe-ad post`, `safe-ad clear-data` and 7 other commands"],
    ),
    row(
        "--json on a command whose output is the token itself",
        &["auth", "token", "--json"],
        2,
        &["safe-ad: error: `safe-ad auth token` does not take --json"],
    ),
    row(
        "--version after a command",
        &["put", "-V"],
        2,
        &[
            "safe-ad: error: `safe-ad put` does not take -V",
            "hint: `safe-ad --version` prints the version",
        ],
    ),
    row(
        "a client option after `completions` (the same for `emulator`)",
        &["completions", "bash", "--launcher-url", "http://127.0.0.1:1"],
        2,
        &["safe-ad: error: `safe-ad completions` does not take --launcher-url: it is an option of `safe-ad create`, `safe-ad open`, `safe-ad put` and"],
    ),
    row(
        "a client option before `completions` (the same for `emulator`)",
        &["--quiet", "completions", "bash"],
        2,
        &["safe-ad: error: `safe-ad completions` does not take --quiet: it is an option of"],
    ),
    row(
        "--dry-run and --json at two levels",
        &["--json", "put", "--dry-run", "1"],
        2,
        &["safe-ad: error: the argument '--dry-run' cannot be used with '--json'"],
    ),
    row(
        "--timeout before and after the command",
        &["--timeout", "5", "put", "--timeout", "6", "1"],
        2,
        &["safe-ad: error: the argument '--timeout <SECS>' cannot be used multiple times"],
    ),
    row(
        "--save with an operation that is not a save",
        &["clear-data", "--save", "delete", "1"],
        2,
        &["invalid value 'delete' for '--save <OPERATION>'"],
    ),
    row(
        "completions for a shell that does not exist",
        &["completions", "nosh"],
        2,
        &["safe-ad: error: invalid value 'nosh' for '<SHELL>'"],
    ),
    row(
        "no arguments at all",
        &[],
        2,
        &["Usage: safe-ad [OPTIONS] <COMMAND>"],
    ),
    row(
        "two bad handles among good ones: each named, none sent",
        &["clear-data", "1", "abc", "2", "x"],
        2,
        &[
            "safe-ad: error: invalid handle 'abc' for clear-data: it is not a plain decimal number",
            "safe-ad: error: invalid handle 'x' for clear-data: it is not a plain decimal number",
            HANDLE_HINT,
        ],
    ),
    row(
        "--version after a command of a group",
        &["auth", "status", "--version"],
        2,
        &[
            "safe-ad: error: `safe-ad auth status` does not take --version",
            "hint: `safe-ad --version` prints the version",
        ],
    ),
    row(
        "a command name with a typo",
        &["clear-date", "1"],
        2,
        &[
            "safe-ad: error: unrecognized command 'clear-date'",
            "hint: did you mean `safe-ad clear-data`? (or: ",
            "`safe-ad --help` lists the commands",
        ],
    ),
    row(
        "a client option by its short name, after a command that does not take it",
        &["config", "path", "-q"],
        2,
        &["safe-ad: error: `safe-ad config path` does not take --quiet: it is an option of `safe-ad create`"],
    ),
];

#[test]
fn bad_command_lines_are_refused() {
    check_group(COMMAND_LINES);
}

#[test]
fn bad_indexes_ranges_and_item_arguments_are_refused() {
    check_group(ITEMS);
}
