//! The man pages' own prose: the sections that explain, written for man and for a reader who
//! has only the installed pages.
//!
//! Each section is roff as a man-page author writes it, with one convenience: hyphens and
//! non-ASCII characters are written plainly, and [`super::roff::source`] turns every `-` into the
//! ASCII hyphen-minus a person types (`\-`) and every other character into a groff escape. Code,
//! JSON and command lines go in `.EX`/`.EE` blocks; commands and options are bold (`\fB`),
//! placeholders italic (`\fI`).
//!
//! What lives in a table is not written here: the options and their help come from clap (and
//! `cli::COMMAND_OPTIONS`), exit codes from `outcome::EXIT_CODES`, environment variables from
//! `settings::ENV_VARS`, config keys from `config_file::Key::ALL`, examples from
//! `help::EXAMPLES`, the emulator's routes from its route table; `man` puts those in.

/// One section of a page: its heading (in capitals, as man has them) and its body in roff.
pub struct Section {
    pub heading: &'static str,
    pub roff: &'static str,
}

/// More for the main page's DESCRIPTION, after the long help of `cli`.
pub const MAIN_DESCRIPTION: &str = r#"
.PP
Each command has a page of its own, named in COMMANDS below, with the options it takes.
No launcher at hand? \fBsafe-ad emulator\fR runs a local stand-in for it; see
\fBsafe-ad-emulator\fR(1).
"#;

/// The main page's sections that explain, in the order they follow COMMANDS and OPTIONS.
pub const MAIN: &[Section] = &[
    Section {
        heading: "HANDLES",
        roff: r#"
.PP
Every operation takes a handle: a number the launcher gives out for one appendable data, for as
long as it runs. The launcher forgets its handles when it restarts, and it keeps at most 100 of
each kind, dropping the least recently used without a word. So a script gets its handles first,
and never keeps one across a restart of the launcher. safe-ad gets them itself:
.TP
\fBh=$(safe-ad create --put)\fR
makes a new appendable data with a fresh random name (or the \fINAME\fR given), saves it to the
network and prints its handle. Without \fB--put\fR the data exists only in the launcher until
\fBsafe-ad put "$h"\fR. The name is said on standard error: keep it to find the data again.
.TP
\fBh=$(safe-ad open \fINAME\fB)\fR
gets a handle for data that is on the network: a data id for the name, the data fetched through
it, and the data id dropped again, so nothing is left behind in the launcher.
.TP
\fBsafe-ad reopen \fIHANDLE\fR...
prints a fresh handle for the same data, for a handle that went stale (someone saved the data since
it was fetched, and \fBpost\fR fails with -25).
.TP
\fBsafe-ad drop \fIHANDLE\fR...
frees the launcher's slot for each handle.
.PP
A \fIHANDLE\fR is written in decimal digits, from 0 to 18446744073709551615; leading zeros are
dropped. Anything else (a sign, spaces, 0x.., 1e3, 1.5, a larger number) is refused with exit
status 2 before any request is sent: the launcher itself would have read -1 as the largest handle
and 010 as octal 8.
.PP
A \fIHANDLE\fR of \fB-\fR reads handles from standard input, separated by spaces or newlines, as a
stream: the first requests go out before the input ends, and memory does not grow with the number
of handles. A bad handle there is reported with its line number and fails with status 2; the others
still run.
.PP
A \fINAME\fR is the 32 bytes that name an appendable data, as standard base64 (44 characters, as the
launcher writes it) or as 64 hex digits. Anything else is refused with exit status 2 before any
request.
"#,
    },
    Section {
        heading: "BATCHES",
        roff: r#"
.PP
A command given several handles runs them in input order, up to \fB--jobs\fR at once over
kept-alive connections, and its output stays in input order. A failure does not stop the rest:
each one is reported on standard error (a hint that many failures share is printed once), and the
exit status is that of the first handle, in input order, that failed.
.PP
With \fB--fail-fast\fR no new request is sent after the first failure; the requests already in
flight finish and are reported, so \fB--jobs 1 --fail-fast\fR stops exactly at the failing handle.
.PP
A batch of more than one handle ends with a summary on standard error that counts every handle
given:
.PP
.RS 4
.EX
10000 handles: 9998 ok, 2 failed
10 handles: 1 ok, 1 failed, 8 not started
.EE
.RE
.PP
On a terminal a live count shows while the batch runs. Ctrl-C sends no new request and exits with
status 130; the summary then also says how many handles were sent but not awaited (they may have
taken effect) and how many were not started. When the reader of standard output goes away (as in
\fBsafe-ad metadata - | head -1\fR), safe-ad stops in the same way, quietly.
"#,
    },
    Section {
        heading: "SAVING AFTER A CLEAR",
        roff: r#"
.PP
\fBclear-data\fR and \fBclear-deleted-data\fR change only the launcher's copy of the data. The
change reaches the network when the data is saved afterwards: with \fBpost\fR, or with \fBput\fR if
it was never saved. \fB--save post\fR (or \fB--save put\fR) runs the clear and then the save, for
each handle; the save runs only if the clear succeeded, and the output names the step that failed.
These two lines do the same:
.PP
.RS 4
.EX
safe-ad clear-data 7 && safe-ad post 7
safe-ad clear-data --save post 7
.EE
.RE
"#,
    },
    Section {
        heading: "DEBUGGING A HANDLE",
        roff: concat!(
            r#"
.PP
\fBsafe-ad show\fR \fIHANDLE\fR... says what a handle holds, one block per handle: its metadata,
the keys of its filter, and each data item and deleted item by index, with what it points at, its
data id and who signed it. On the emulator's demo handle 1 (lines cut short here):
"#,
            show_sample!(),
            r#".PP
What an item points at comes from its data id's own bytes (launcher 0.11.0's layout; see
\fBsafe-ad-decode\fR(1)): its kind, name and, for structured data, type tag; then only that kind
of data is asked of the launcher (structured data: version and content; immutable data: size and
content, through a reader; appendable data: version and counts). Data that is not on the network
is said, and is not a failure. Bytes in another layout are said, not guessed at, and the launcher
is asked instead. A signer, and a filter key, is a fingerprint: the first 16 hex digits of the
SHA-256 of the launcher's serialised sign key, so the same key always has the same fingerprint;
\fByou\fR is the token's own key (\fBsafe-ad auth whoami\fR prints its fingerprint). A data id is the launcher's serialised bytes of the item's data identifier, in
base64: POST /data-id with those bytes gives a data-id handle for it again.
.PP
\fBshow\fR only reads, and leaves the launcher as it found it. The launcher answers its questions
only through handles of other kinds (a data id per item, a handle fetched through it, a sign key
per signer); \fBshow\fR drops each again as soon as the item is read, also when a later step fails,
and on Ctrl-C, SIGTERM or SIGHUP: the first sends nothing new, lets the requests in flight finish
and drops what they gave, then exits with status 130; a second leaves at once and names the
handles it left, with the request that frees each. The first waits at most a second, whatever
\fB--timeout\fR says (\fBSAFE_AD_INTERRUPT_WAIT\fR sets how long); a launcher that has not
answered by then is left as a second Ctrl-C leaves it, every handle held and every handle-making
request in flight named. It holds at most 8 handles of a kind at once, so
a person holding up to 92 of a kind (the launcher keeps 100) loses none to a \fBshow\fR of any size.
An item that cannot be read is shown with the launcher's error, and the rest still are.
.PP
One item at a time, the way the clears work on all of them: \fBsafe-ad remove\fR \fIHANDLE
INDEX\fR... moves data items to the deleted list, \fBsafe-ad restore\fR moves deleted items back,
and \fBsafe-ad purge\fR removes deleted items for good. The indexes are those \fBshow\fR gives;
several are applied one at a time, the highest first, so that each still names the item you saw,
and an index given twice is refused. Like the clears, they change only the launcher's copy until a
save, and take \fB--save post\fR, which saves once every index succeeded and not at all when one
failed. Restoring is undoing: a save carries the deleted list but no data items, so a restore
before the save puts a removed item back, while a restore of an item the network already holds as
deleted only takes it off that list.
.PP
\fBsafe-ad append\fR \fIHANDLE\fR \fB--structured\fR \fINAME\fR (or \fB--appendable\fR
\fINAME\fR) appends the data of that name. The append goes to the network at once and leaves the
handle's copy as it was: \fBsafe-ad reopen\fR gives a handle that shows it. The launcher refuses it
(-25) for a stale handle, a filter that keeps your key out, or an item that is in the deleted list.
"#,
            item_order!()
        ),
    },
    Section {
        heading: "OUTPUT",
        roff: concat!(
            r#"
.PP
Each handle that succeeds prints one line on standard output, such as \fBclear-data 7: ok\fR;
with \fB-q\fR nothing is printed on success. A save says the version it saved (\fBpost 7: ok,
saved version 3\fR), read from the handle's metadata right after the save (the launcher answers a
save with no more than OK; \fB--dry-run\fR and \fB--curl\fR show that read too). If the read
fails, the save still happened: the line says so, a warning says why, and the exit code stays 0.
\fB-q\fR changes what is printed, never what is done: a batch still stops when its reader goes away, and a batch cut short (Ctrl-C, unread input,
\fB--fail-fast\fR) still says what it left undone. \fBmetadata\fR prints its line even with
\fB-q\fR, since that line is what was asked for:
.PP
.RS 4
.EX
7: version 2, data 0, deleted 3, owner yes, filter BlackList (0 keys)
.EE
.RE
.PP
\fBcreate\fR, \fBopen\fR and \fBreopen\fR print each handle alone on a line of standard output,
for \fBh=$(...)\fR, and say what happened on standard error.
.PP
Errors always go to standard error: a line that names the handle and what went wrong, such as
.PP
.RS 4
.EX
safe-ad: error: put 7: could not connect to http://127.0.0.1:9: ...
.EE
.RE
.PP
and, where the fix is known, a line that begins with \fBhint:\fR and says what to do, naming the
handle or name it is about where it knows it, ready to paste (\fBsafe-ad reopen 2\fR).
A body from the launcher that is not its usual JSON error is shown with control characters escaped
and cut at 300 characters; at most 64 KiB of a body is read.
.SS "JSON Lines"
With \fB--json\fR, standard output has one JSON object per request and nothing else (errors still go
to standard error as well). Input that is not a handle gets an object too: a bad line of standard
input is skipped and the rest run; a bad argument stops the run before anything is sent, with an
object for each bad argument. A success:
.PP
.RS 4
.EX
{"handle":42,"operation":"clear-data","method":"DELETE",
 "url":"http://127.0.0.1:8100/appendable-data/clear-data/42",
 "status":200,"ok":true,"elapsed_ms":1.3}
.EE
.RE
.PP
(shown here on three lines; it is one line). A failure adds \fBerror\fR and \fBexit_code\fR:
.PP
.RS 4
.EX
{"handle":42,"operation":"post","method":"POST","url":"...",
 "status":400,"ok":false,"elapsed_ms":0.9,
 "error":{"class":"rejected","status":400,"error_code":-1515,
   "description":"FfiError::InvalidAppendableDataHandle",
   "hint":"the launcher holds no appendable data under ..."},
 "exit_code":4}
.EE
.RE
.PP
\fBcreate\fR, \fBopen\fR and \fBreopen\fR print one object for each request they send. The keys:
.TP
\fBhandle\fR (number or null)
the appendable-data handle the step is about: the one given, or the one \fBcreate\fR or the
fetch made; null when there is none, or the input was not a handle.
.TP
\fBinput\fR, \fBline\fR (string, number)
only for input that is not a handle; \fBline\fR also for every handle read from standard input.
.TP
\fBoperation\fR, \fBmethod\fR, \fBurl\fR (strings)
the step. \fBoperation\fR is the command's name, or \fBdata-id\fR, \fBfetch\fR or
\fBdrop-data-id\fR for the steps of \fBopen\fR and \fBreopen\fR; with \fB--save\fR a handle has two
objects, the clear and the save.
.TP
\fBname\fR (string)
\fBcreate\fR and the \fBdata-id\fR step: the name, in base64.
.TP
\fBdata_id_handle\fR (number)
the data-id handle a step asked for or used.
.TP
\fBstatus\fR (number or null)
the HTTP status; null when no answer came.
.TP
\fBok\fR (boolean)
whether the step succeeded.
.TP
\fBelapsed_ms\fR (number)
the time of the request, to 0.1 ms.
.TP
\fBindex\fR (number)
\fBremove\fR, \fBrestore\fR, \fBpurge\fR: the index the step changed.
.TP
\fBsaved_version\fR (number or null), \fBsaved_version_error\fR (string)
a save that succeeded: the version it saved, from the metadata read after it; null, with the
read's error, when that read failed (the save still happened).
.TP
\fBmetadata\fR (object)
\fBmetadata\fR: the launcher's fields (isOwner, version, filterType, filterLength, dataLength,
deletedDataLength); the fetch step: the same without filterLength, which the launcher does not
give there.
.TP
\fBerror.class\fR (string)
usage, auth, rejected, launcher, unreachable or unexpected: the names of the exit statuses.
.TP
\fBerror.status\fR, \fBerror.error_code\fR (numbers or null)
the HTTP status and the launcher's errorCode.
.TP
\fBerror.description\fR, \fBerror.hint\fR (strings or null)
the launcher's description (or what happened), and what to do.
.TP
\fBexit_code\fR (number)
the exit status this failure gives.
.PP
A failure that ends the run (no token, a bad config file, a launcher that cannot be reached,
Ctrl-C) is one object too, the last: \fBok\fR (false), \fBerror\fR and \fBexit_code\fR. A run
that may have left launcher handles behind (a drop that timed out or failed, a handle whose answer
was lost or could not be read, a request in flight when a second Ctrl-C, or the first one's wait
running out, ended the run) ends with
\fB{"ok":false,"left_behind":[...]}\fR: each with \fBkind\fR (appendable-data, structured-data,
data-id, sign-key, cipher-opts, immutable-data-writer, immutable-data-reader, encrypt-key),
\fBhandle\fR, \fBfree\fR (the request that frees it) and \fBcommand\fR (\fBsafe-ad drop\fR N
for appendable data, else null), or \fBhandle\fR null, \fBmade_by\fR and \fBwhy\fR when its
number never came back (\fBfree\fR and \fBcommand\fR then name it {handleId}). The same list is
said on standard error, and the exit status is not 0.
.PP
"#,
            show_json!(),
            r#".PP
\fBauth status --json\fR, \fBconfig show --json\fR and \fBconfig path --json\fR print one object:
.TP
\fBlauncher_url\fR, \fBtoken\fR, \fBtimeout_secs\fR (objects)
a setting: \fBvalue\fR (the token masked, or null when there is none), \fBsource\fR (flag,
token_file, stdin, env, config_file, default, or null) and \fBfrom\fR (the option, file or
environment variable, or null).
.TP
\fBstatus\fR (string)
\fBauth status\fR: accepted, not_accepted, unreachable or no_token; with \fBok\fR, \fBerror\fR and
\fBexit_code\fR as above.
.TP
\fBconfig_file\fR (object)
\fBconfig show\fR: its \fBpath\fR (null without a home directory) and whether it \fBexists\fR.
.TP
\fBpath\fR, \fBexists\fR (string, boolean)
\fBconfig path\fR.
"#
        ),
    },
    Section {
        heading: "SETTINGS",
        roff: r#"
.PP
Each setting is taken from the first of: its option, its environment variable, the config file,
the default.
.TP
launcher URL
\fB--launcher-url\fR, \fBSAFE_LAUNCHER_URL\fR, \fBlauncher_url\fR; default http://localhost:8100.
.TP
token
\fB--token-file\fR, \fBSAFE_LAUNCHER_TOKEN\fR, \fBtoken\fR; without one, exit status 3.
.TP
timeout of each request
\fB--timeout\fR, \fBtimeout_secs\fR; default 30 seconds.
.PP
An option is given before or after the command, once (\fBsafe-ad -q put 1\fR is \fBsafe-ad put -q
1\fR), and only to a command that acts on it: each command's page lists the options it takes.
.PP
The launcher URL may carry a path prefix, which is kept: http://127.0.0.1:8100/0.6 sends
/0.6/appendable-data/... A trailing slash makes no difference. Only http and https, with a host and
no user name, password, query or fragment.
.PP
The token is trimmed of white space around it (a final newline is fine). An empty token, or one
with white space, control or non-ASCII characters inside, is refused (exit status 2). No option
takes the token itself: it would show in process lists and shell history.
.PP
\fB--timeout\fR bounds each request (fractions allowed, up to a day); connecting has its own bound
of at most 10 seconds.
.SS "The token"
\fBsafe-ad auth login\fR asks the launcher for a token with the LOW_LEVEL_API permission. The
launcher holds the request until a person approves it in its window, so safe-ad waits without a
time limit unless \fB--timeout\fR or \fBtimeout_secs\fR is set; Ctrl-C cancels and stores nothing.
An approved token is stored in the config file; a denied one is exit status 3.
\fBsafe-ad auth status\fR says where the token comes from and whether the launcher accepts it
(with \fB-q\fR only its exit status says so), \fBsafe-ad auth logout\fR revokes it (without a
token there is nothing to do, which is no error), and \fBsafe-ad auth token\fR prints it, for
.PP
.RS 4
.EX
export SAFE_LAUNCHER_TOKEN=$(safe-ad auth token)
.EE
.RE
.PP
It is the only command that prints a token. A token is never an argument: it is set from standard
input, as in \fBsafe-ad config set token - < token.txt\fR.
"#,
    },
    Section {
        heading: "SECURITY",
        roff: r#"
.PP
The token goes only in the Authorization header, and only to the launcher URL. Redirects are
never followed: a 3xx answer is reported (exit status 1), so its Location never sees the token.
.PP
The token never appears in safe-ad's words (messages, echoed arguments, URLs, curl lines), except
from \fBauth token\fR: it is cut out of them and out of the words the launcher sends back (its
error descriptions, headers), so a launcher or proxy that echoes the request cannot make safe-ad
print it, raw or encoded on the way (characters JSON-escaped as \\u0074, percent-encoded as %74,
or both; the whole in base64). Data is never changed: item content, numbers and handle ids are shown exactly as the
launcher sent them, also where they hold the token (\fBshow --full\fR, \fBcat\fR). A user name or password typed into a launcher
URL is masked in error messages.
.PP
Plain http to a host other than this machine (localhost, 127.0.0.0/8, ::1) would send the token in
clear text, so it is refused before connecting or looking up the name (exit status 2), unless
\fB--allow-insecure-http\fR is given.
.PP
The proxy variables are honoured for a launcher on another host; a launcher on this machine is
always reached directly, so a proxy never sees the token meant for it.
"#,
    },
];

/// More for a command's page, by its path (`"emulator"`): sections after its OPTIONS.
pub fn command_sections(path: &str) -> &'static [Section] {
    match path {
        "show" => SHOW,
        "remove" | "restore" | "purge" => ITEM_COMMANDS,
        #[cfg(feature = "emulator")]
        "emulator" => EMULATOR,
        _ => &[],
    }
}

/// `safe-ad-show(1)`: what it prints, its JSON, and the order of the items.
const SHOW: &[Section] = &[
    Section {
        heading: "OUTPUT",
        roff: concat!(
            r#".PP
One block per handle, an empty line between two (lines cut short here):
"#,
            show_sample!(),
            r#".PP
An \fB--index\fR range that holds no item of either list says so under the header.
.PP
"#,
            show_json!()
        ),
    },
    Section {
        heading: "ITEM ORDER",
        roff: item_order!(),
    },
];

/// The pages of `remove`, `restore` and `purge`: the order of the items.
const ITEM_COMMANDS: &[Section] = &[Section {
    heading: "ITEM ORDER",
    roff: item_order!(),
}];

/// More for a command's DESCRIPTION, after its long help, by its path.
pub fn command_description(path: &str) -> &'static str {
    match path {
        #[cfg(feature = "emulator")]
        "emulator" => EMULATOR_DESCRIPTION,
        _ => "",
    }
}

#[cfg(feature = "emulator")]
const EMULATOR_DESCRIPTION: &str = r#"
.PP
It stands in for SAFE Launcher 0.11.0 (API v0.6): it serves the launcher's whole appendable-data
API and the data-id, sign-key and structured-data routes that API works with, route for route,
with the launcher's statuses, bodies and defects (ROUTES lists them). The launcher's own API tests
of /auth, /appendable-data and /health pass against it, but for the two that need a person to click
"deny" in the launcher's window.
.PP
The token it accepts carries the LOW_LEVEL_API permission; it is random unless \fB--token-file\fR
or \fB--token\fR sets it. \fB--token\fR shows in the process list, which is harmless for a
throwaway server on loopback with made-up data, but \fB--token-file\fR keeps it out. Once it has
printed the two lines, it logs one line per request on standard error (method, path, status,
time; never the token) until Ctrl-C or SIGTERM stops it. \fB--listen 127.0.0.1:0\fR picks a free
port.
.PP
With a \fICOMMAND\fR, standard output is left to \fICOMMAND\fR and no request lines go to standard
error (\fB--log\fR still records).
.PP
With \fB--background\fR it runs on as a process of its own once it listens, for the steps of a CI
job, and \fB--stop\fR stops it (see BACKGROUND).
"#;

#[cfg(feature = "emulator")]
const EMULATOR: &[Section] = &[
    Section {
        heading: "ROUTES",
        roff: r#"
.PP
Each route answers under /, /0.5 and /0.6, as the launcher mounted them, and also with one
trailing slash; GET /health answers at the root only, for any method and any path below it. A
request without the token a route needs gets the launcher's 401 (or 403 for a token without the
permission).
"#,
    },
    Section {
        heading: "BACKGROUND",
        roff: r#"
.PP
\fBsafe-ad emulator --background\fR, with any of the options above, starts the emulator as a
process of its own:
a session of its own (no terminal's Ctrl-C or hangup reaches it), standard input from /dev/null,
and none of the caller's output held, so a CI step or a command substitution that runs it ends.
It waits until the emulator listens, prints four variables on standard output and exits 0:
SAFE_LAUNCHER_URL, SAFE_LAUNCHER_TOKEN, SAFE_AD_EMULATOR_PID (its process id) and
SAFE_AD_EMULATOR_DIR (a directory of its own in $TMPDIR or /tmp, mode 0700).
.PP
\fB--format sh\fR (the default) prints export lines for the shell:
.PP
.RS 4
.EX
eval "$(safe-ad emulator --background)"
.EE
.RE
.PP
\fB--format env\fR prints NAME=VALUE lines, to append to an env file such as GitHub Actions'
$GITHUB_ENV.
.PP
If the emulator cannot start, nothing runs on, and the exit status and message are the emulator's
own; standard output gets only a line that fails (\fBfalse\fR; with \fB--format sh\fR, when it
is not a regular file), so that \fBeval "$(safe-ad emulator --background)"\fR fails too and a
\fBsh -e\fR script stops there. If it does not listen within \fB--ready-timeout\fR
seconds (default 30; a \fB--log\fR FIFO that nobody reads waits for ever), it is stopped and the
exit status is 1; a signal to the starter meanwhile stops it too (128+\fIN\fR). A standard output
that is /dev/null or closed is refused (exit status 2): the variables would be lost.
.PP
What it says while starting (the demo names) is shown by \fB--background\fR; once it listens it
makes SAFE_AD_EMULATOR_DIR and writes its standard error to the file stderr there, which
\fB--stop\fR shows (request lines unless \fB--quiet\fR, the totals, any failure). Until the
starter has printed the variables, the emulator watches it: a starter killed before that, even with
SIGKILL, stops the emulator, and no directory is left.
.PP
\fBsafe-ad emulator --stop\fR stops the emulator that SAFE_AD_EMULATOR_PID and
SAFE_AD_EMULATOR_DIR name (on Linux the process id alone is enough) as SIGTERM does, so
\fB--state\fR is saved and \fB--log\fR ends with its stop record; it waits until the emulator has
ended, shows its standard error, removes its directory, and exits with its exit status: 0, or 1
when it could not save or log. It touches only a directory that \fB--background\fR made (its
name, owner and mode, and nothing in it but the files it writes), and removes only those files and
then the directory; any other directory is refused, exit status 1. A process is signalled only if
it is the emulator that made that directory (it holds the directory and its lock open, as /proc
shows on Linux), so a process id used again by the system, or a directory made by hand, is never
signalled, and the message names what runs there. An emulator
that is not running is exit status 1. If it has not ended after 30 seconds, a second SIGTERM cuts
off the requests in progress; 10 seconds later it is killed.
.PP
Without the variables, \fB--stop\fR stops the only background emulator of yours; when several run
it lists them and exits 2: \fB--pid\fR \fIPID\fR stops one, \fB--all\fR every one.
\fBsafe-ad emulator list\fR lists them (see \fBsafe-ad-emulator-list\fR(1)).
.PP
\fB--stop --if-running\fR, for a step that always runs, exits 0 with a note when no emulator was
started (the variables not set: it names those of yours that run and leaves them running; or its
directory gone: the start failed, or an earlier stop stopped it); otherwise it is \fB--stop\fR.
"#,
    },
    Section {
        heading: "ITS OWN ROUTES",
        roff: r#"
.PP
Under /_emulator/, a prefix the launcher never served, the emulator answers routes of its own to a
request that carries its own token (not one from POST /auth); any other request there is answered
as an unknown route is (401 for a bad token, else 404). Paths match exactly, at the root only.
.TP
.B GET /_emulator/requests
The request journal: the log records (see REQUEST LOG) of the requests answered so far, one per
line, but those to these routes, each numbered by \fBseq\fR; \fB?method=\fR\fIM\fR and
\fB?path=\fR\fIP\fR filter it (a trailing * in \fIP\fR matches any rest). It keeps about the last
75,000 requests (16 MiB). \fBsafe-ad emulator requests\fR reads, filters, counts and checks it
(see \fBsafe-ad-emulator-requests\fR(1)).
.TP
.B DELETE /_emulator/requests
Empties the journal; \fB?through=\fR\fISEQ\fR only up to and including request \fISEQ\fR.
.TP
.B GET /_emulator/network
What is on the network, in the state file's format (see STATE FILE).
.TP
.B GET /_emulator/handles
Every live handle of each kind with what it holds, and the next handle id.
.TP
.B POST /_emulator/reset/empty\fR, \fB/_emulator/reset/demo\fR, \fB/_emulator/reset/state
Back to how the emulator starts from nothing, from the demo data, or from the state file sent as
the body: no handles, handle ids counted from the start, no token but its own, injected faults
counted from the first request again, and the journal emptied.
"#,
    },
    Section {
        heading: "PATH MATCHING",
        roff: r#"
.PP
Paths match as the launcher matched them (Express's defaults): one trailing slash, any case of
the literal segments, percent-decoded parameters, and handles read as C's strtoull reads them
(010 is 8, -1 wraps round, a parameter with no digits is a 400 naming the argument).
\fB--strict-paths\fR matches exactly instead, to catch clients that build odd paths.
"#,
    },
    Section {
        heading: "STATE",
        roff: r#"
.PP
As the launcher did, the emulator keeps a "network" of stored data apart from the handles' local
copies. Clears, removals, restores and filter changes change only the local copy until a save.
A PUT of stored data is -23, a POST of unstored data -22, a stale POST -25; after a POST the
handle's copy holds no data items, as the launcher's did (reopen it to see them). An append goes
straight to the network and is refused with -25 for a stale handle, a filter that keeps the user
out, an item in the deleted data or one there already. Items are in the network's order:
structured, immutable, public, then private appendable data, each by name. Handles come from one counter starting at 0, with at most 100 live
handles of each kind (the least recently used is evicted). A token from POST /auth carries the
permissions asked for, so a token without LOW_LEVEL_API gets 403; \fB--deny-auth\fR denies every
login.
.PP
What is simplified: NFS and DNS are not served (404); there is no cryptography (keys are
compared, private and encrypted data is stored as written, and serialised bytes, which have the
launcher's layout, hold the emulator's own key and signature bytes); validate-size estimates;
every app is the one user logged in.
.PP
\fB--hang-unknown-clears\fR reproduces a defect of the launcher, which never answered a clear of an
unknown handle, to test timeouts; by default the emulator answers -1515 instead.
"#,
    },
    Section {
        heading: "DEMO DATA",
        roff: r#"
.PP
Unless \fB--empty\fR or \fB--state\fR is given, it starts with demo handles, described on standard
error with the base64 names of their data (for \fBsafe-ad open\fR \fINAME\fR):
.TP
.B 0
not on the network yet, with 3 data items: \fBsafe-ad put 0\fR.
.TP
.B 1
on the network, with 3 data items and 2 deleted and a blacklist of 2 keys; items of both kinds,
some signed by another app: \fBsafe-ad show 1\fR, or \fBsafe-ad clear-data 1\fR, then
\fBsafe-ad post 1\fR.
.TP
.B 2
held at a stale version: \fBsafe-ad post 2\fR fails with -25.
.TP
.B "3, 4"
data ids of the data of handles 1 and 2.
.TP
.B 5
an inbox on the network whose 3 items are immutable data (messages, one binary).
.PP
The data items of handles 0 to 2 are structured data whose content is their label, but for one
binary one and handle 1's item of appendable data (the data of handle 2). New handles start at 6.
"#,
    },
    Section {
        heading: "STATE FILE",
        roff: r#"
.PP
\fB--state\fR \fIFILE\fR loads what is on the network from \fIFILE\fR (no demo data) and, on a clean
stop (Ctrl-C, SIGTERM, the end of \fICOMMAND\fR), writes it back atomically, so a fixture can be
made once and used again. A \fIFILE\fR that does not exist yet starts empty and is created. Handles
are not kept from one run to the next (the launcher lost them on a restart too). A file that does
not parse is refused at the start (exit status 2), and the message names the entry at fault
(appendableData[2].data[0]: missing field typeTag).
.PP
\fB--import\fR \fIFILE\fR loads a fixture the same way and never writes it, however the run
changes the network: for a fixture a CI job commits. The file must exist; no lock is taken.
\fBsafe-ad emulator export\fR writes what a running emulator holds as such a file (see
\fBsafe-ad-emulator-export\fR(1)). Unless \fB--quiet\fR, the start counts what was loaded of each
family (appendable, structured and immutable data) and lists each appendable data's name, version
and items.
.PP
The format, in which an unknown field is an error:
.PP
.RS 4
.EX
{
  "format": "safe-ad-emulator-state/1",
  "appendableData": [
    {
      "name": "<base64 of 32 bytes>",
      "isPrivate": false,
      "version": 1,
      "filterType": "BlackList",
      "filterKeys": [],
      "data": [
        { "structuredData": { "name": "<base64>", "typeTag": 500 } }
      ],
      "deletedData": [
        {
          "appendableData": {
            "name": "<base64>",
            "isPrivate": false
          },
          "signKey": "<base64 of 32 bytes>"
        }
      ]
    }
  ],
  "structuredData": [
    {
      "name": "<base64>",
      "typeTag": 500,
      "version": 0,
      "data": ["<base64 of the data>"]
    }
  ]
}
.EE
.RE
.PP
filterKeys, data, deletedData and isPrivate may be left out. An item's signKey (who appended it)
defaults to the emulator's user. A structured data's data lists the data of each version, oldest
first (one entry unless its typeTag is 501).
"#,
    },
    Section {
        heading: "REQUEST LOG",
        roff: r#"
.PP
\fB--log\fR \fIFILE\fR writes one JSON object per request and line, written whole as it goes:
.PP
.RS 4
.EX
{"event":"request","seq":1,"method":"PUT",
 "path":"/appendable-data/0","status":200,"elapsed_ms":0.041,
 "handles":{...}}
.EE
.RE
.PP
(shown here on three lines). Every record starts with \fBevent\fR: request for a request; start
for the first line (the version, URL, process id and starting network); reset for a reset through
the emulator's own routes; stop for the last line. The path has no query string, and a token in
it is replaced by <token> (also split across segments, percent-encoded or JSON-escaped).
\fBseq\fR numbers the requests as the journal keeps them. \fBstatus\fR is null when no answer
was sent; a 4xx or 5xx answer adds the launcher's error code as \fBerror_code\fR, and
\fBdescription\fR; an injected fault adds \fBfault\fR (unavailable, dropped or delayed, and
\fBdelay_ms\fR), a clear left hanging \fB"hung":true\fR. \fBhandles\fR counts the live handles
of each kind after the request (appendable_data, structured_data, data_id, sign_key, encrypt_key,
cipher_opts). Keys are in snake_case, as in every JSON safe-ad defines; the launcher's camelCase
is only in what the launcher sends and in the state file. The request lines on standard error
carry the error too: PUT /appendable-data/1 400 -23 DataExists 13.2us. The last line, on a
clean stop, is
.PP
.RS 4
.EX
{"event":"stop","requests":N,"answered_2xx":N,"answered_4xx":N,
 "injected_503":N,"dropped":N,"delayed":N,"handles":{...}}
.EE
.RE
.PP
(one line), so a test can check that a command left no handle behind. Without \fB--quiet\fR the
stop line on standard error says the same.
"#,
    },
    Section {
        heading: "FAULTS",
        roff: r#"
.PP
\fB--fault-rate\fR \fIP\fR injects faults, to test how a client copes with a launcher that
misbehaves: each request to the four operations or metadata gets, with probability \fIP\fR, one of
a 503 with a launcher-style JSON body (errorCode -37), a connection closed without an answer, or a
delay of 50 to 300 ms before its normal answer. Other routes are never touched.
.PP
\fB--fault-seed\fR \fIN\fR picks the sequence: those requests are numbered in the order they
arrive, and the fault of request \fIn\fR depends only on the seed and \fIn\fR. So the same seed gives
the same faults for the same order of requests, and the same counts for the same number of
requests in any order. Faults show in the request lines (503 (injected), dropped (injected), 200
delayed 120ms (injected)) and in the log. On a stop, a line on standard error counts the
requests, those answered with a 2xx and a 4xx, and the faults of each kind (a delayed request
counts by its answer too).
"#,
    },
    Section {
        heading: "EXIT STATUS",
        roff: r#"
.TP
.B 0
Stopped by Ctrl-C or SIGTERM.
.TP
.B 1
It could not listen, write its log or save its state.
.TP
.B 2
An unusable \fB--listen\fR, \fB--token\fR, \fB--token-file\fR, \fB--fault-rate\fR or \fB--state\fR
file, or a bad command line.
.PP
With \fB--\fR \fICOMMAND\fR, the exit status of \fICOMMAND\fR: 128+\fIN\fR if signal \fIN\fR ended
it, 127 if it could not be started.
.PP
With \fB--background\fR, 0 once it listens, else the emulator's own exit status (1 when it did not
listen in time, 128+\fIN\fR after signal \fIN\fR). With \fB--stop\fR, the emulator's own exit
status; 1 when no emulator of those variables was running or it had to be killed; 2 without
the variables when several of yours run.
"#,
    },
    Section {
        heading: "ENVIRONMENT",
        roff: r#"
.PP
The emulator gives \fICOMMAND\fR these two, and \fB--background\fR prints them:
.TP
.B SAFE_LAUNCHER_URL
The emulator's URL, such as http://127.0.0.1:40123.
.TP
.B SAFE_LAUNCHER_TOKEN
The token it accepts.
.PP
\fB--background\fR also prints these two, and \fB--stop\fR reads them:
.TP
.B SAFE_AD_EMULATOR_PID
The process id of the emulator in the background.
.TP
.B SAFE_AD_EMULATOR_DIR
Its directory: its standard error and its lock.
.PP
TMPDIR names where \fB--background\fR makes that directory (else /tmp).
"#,
    },
];

/// FILES: the config file, after its path and before its keys.
pub const CONFIG_FILE: &str = r#"
The config file: config.json in the directory that SAFE_AD_CONFIG_DIR names if it is set, else
in $XDG_CONFIG_HOME/safe-ad (by default ~/.config/safe-ad). It holds a JSON object whose keys are
all optional, and a missing file is fine. \fBsafe-ad config set\fR and \fBsafe-ad config unset\fR
edit it. The keys:
"#;

/// FILES: the config file, after its keys.
pub const CONFIG_FILE_CHECKS: &str = r#"
.IP
Malformed JSON, a wrong type, an unknown key or a repeated key is an error that names the file,
the line and column, and the key (exit status 2). If the file holds a token and other users can
read it, safe-ad warns, as ssh does, and goes on: \fBchmod 600\fR it. safe-ad writes the file
atomically (a new file with mode 0600 in the same directory, then a rename; the directory is made
with mode 0700), so two logins at once leave one whole file, the last one's.
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_section_names_every_kind_of_handle_a_run_can_leave() {
        let text: String = MAIN.iter().map(|section| section.roff).collect();
        let said = text
            .split("left_behind")
            .nth(1)
            .expect("the page says what left_behind holds");
        for kind in safe_ad::test_support::launcher::HandleKind::ALL {
            assert!(said.contains(kind.name()), "{} is not named", kind.name());
        }
    }
}
