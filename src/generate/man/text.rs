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
//! the commands' specs (`cli::COMMANDS`)), exit codes from `outcome::EXIT_CODES`, environment variables from
//! `settings::ENV_VARS`, config keys from `config_file::Key::ALL`, examples from
//! `help::EXAMPLES`, the emulator's routes from its route table; `man` puts those in. A command's
//! own extras are on its spec (`cli::Spec::man`), beside its arguments; the words about items
//! both say come from `cli`'s macros.

use crate::cli::{item_order, show_json, show_sample, ManSection};

/// More for the main page's DESCRIPTION, after the long help of `cli`.
pub const MAIN_DESCRIPTION: &str = r#"
.PP
Each command has a page of its own, named in COMMANDS below, with the options it takes.
No launcher at hand? \fBsafe-ad emulator\fR runs a local stand-in for it; see
\fBsafe-ad-emulator\fR(1).
"#;

/// The main page's sections that explain, in the order they follow COMMANDS and OPTIONS.
pub const MAIN: &[ManSection] = &[
    ManSection::prose(
        "HANDLES",
        r#"
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
A \fIHANDLE\fR is written in decimal digits, from 0 to 18446744073709551615, at most 20 of them;
leading zeros are dropped. A word of 64 hex digits is a data's name even when every digit is
decimal, never a handle. Anything else (a sign, spaces, 0x.., 1e3, 1.5, a larger number) is
refused with exit status 2 before any request is sent: the launcher itself would have read -1 as
the largest handle and 010 as octal 8.
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
    ),
    ManSection::prose(
        "BATCHES",
        r#"
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
    ),
    ManSection::prose(
        "SAVING AFTER A CLEAR",
        r#"
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
    ),
    ManSection::prose(
        "DEBUGGING A HANDLE",
        concat!(
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
handles it left, with the request that frees each (the same signal again within half a second is
the same stop: a closed terminal sends two SIGHUPs). The first waits at most a second, whatever
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
    ),
    ManSection::prose(
        "OUTPUT",
        concat!(
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
With \fB--json\fR, standard output has one JSON result per argument (per handle or name, given
on the command line or read from standard input) and nothing else (errors still go to standard
error as well). A result says what the command did and what the network (for a handle's change
not saved: its copy) holds afterwards, with the same keys whether a handle or a name was given.
Input that is not a handle or a name gets a result too: a bad line of standard input is skipped
and the rest run; a bad argument stops the run before anything is sent, with a result for each
argument. \fB--jq\fR \fIEXPR\fR runs a jq filter over each result. A success:
.PP
.RS 4
.EX
{"command":"metadata","input":"1","handle":1,"name":null,
 "ok":true,"isOwner":true,"version":1,"filterType":"BlackList",
 "filterLength":2,"dataLength":3,"deletedDataLength":2}
.EE
.RE
.PP
(shown here on three lines; it is one line). A failure is one result with \fBerror\fR and
\fBexit_code\fR:
.PP
.RS 4
.EX
{"command":"post","input":"42","handle":42,"name":null,"ok":false,
 "error":{"class":"rejected","status":400,"error_code":-1515,
   "description":"FfiError::InvalidAppendableDataHandle",
   "hint":"the launcher holds no appendable data under ..."},
 "exit_code":4}
.EE
.RE
.PP
The keys:
.TP
\fBcommand\fR, \fBinput\fR, \fBline\fR (strings, number)
the command, the handle or name as given (null for \fBcreate\fR), and the line of standard input
it came from.
.TP
\fBhandle\fR, \fBname\fR (number or null, string or null)
the handle given, or the one \fBcreate\fR, \fBopen\fR and \fBreopen\fR made (null for a name,
whose copy is given back); the data's name in base64, where it is known.
.TP
\fBok\fR (boolean)
whether the command did all it was asked for this argument.
.TP
\fBisOwner\fR, \fBversion\fR, \fBfilterType\fR, \fBfilterLength\fR, \fBdataLength\fR, \fBdeletedDataLength\fR
the launcher's metadata afterwards, under the launcher's keys: \fBmetadata\fR's read; a save's
read of what it saved (a post's result has no lengths: the read after a post is of the copy,
which the post leaves without its data items); the fetch of \fBopen\fR and \fBreopen\fR.
.TP
\fBsaved_version\fR (number or null), \fBsaved_version_error\fR (string)
a save that succeeded: the version it saved, from the metadata read after it; null, with the
read's error, when that read failed (the save still happened).
.TP
\fBitems\fR (list)
\fBremove\fR, \fBrestore\fR, \fBpurge\fR: each index changed, with \fBindex\fR, \fBok\fR and,
for a name, \fBsaved\fR.
.TP
\fBerror.class\fR (string)
usage, auth, rejected, launcher, unreachable, unexpected or interrupted: the names of the exit
statuses.
.TP
\fBerror.status\fR, \fBerror.error_code\fR (numbers or null)
the HTTP status and the launcher's errorCode.
.TP
\fBerror.description\fR, \fBerror.hint\fR (strings or null)
the launcher's description (or what happened), and what to do.
.TP
\fBexit_code\fR (number)
the exit status this failure gives.
.TP
\fBrequests\fR (list)
only with \fB--verbose\fR: the requests behind the result, each with \fBoperation\fR,
\fBmethod\fR, \fBurl\fR, \fBstatus\fR, \fBok\fR and \fBelapsed_ms\fR.
.PP
Each command's page lists the keys it adds. A failure that ends the run before any result
(no token, a bad config file, a launcher that cannot be reached) is one object too, the last:
\fBok\fR (false), \fBerror\fR and \fBexit_code\fR. A run that may have left launcher handles
behind (a drop that timed out or failed, a handle whose answer was lost or could not be read, a
request in flight when a second Ctrl-C, or the first one's wait running out, ended the run) names
them in \fBleft_behind\fR, in the failed result of the argument that left them or in an object
of its own at the end: each with \fBkind\fR (appendable-data, structured-data, data-id,
sign-key, cipher-opts, immutable-data-writer, immutable-data-reader, encrypt-key),
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
token_file, stdin, env, config_file, profile, default, or null) and \fBfrom\fR (the option, file,
environment variable or profile's name, or null).
.TP
\fBread_only\fR, \fBprofile\fR (objects)
\fBconfig show\fR: whether changes are refused, and the profile in use (\fBvalue\fR its name or
null), as a setting.
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
    ),
    ManSection::prose(
        "SETTINGS",
        r#"
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
.TP
profile
\fB--profile\fR, \fBSAFE_AD_PROFILE\fR; default none.
.PP
A profile is a named set of the config file's keys under \fBprofiles\fR
(\fBsafe-ad config set --profile\fR NAME KEY VALUE writes one). A key the profile in use sets wins
over the same key at the file's top level; an option or environment variable still wins over both.
A profile the file lacks is refused (exit status 2), naming those it has. With \fBread_only\fR
true, every command that changes the network or a launcher's copy (create, put, post, the clears,
remove, restore, purge, append) is refused, exit status 2 and nothing sent, unless it is given
\fB--dry-run\fR or \fB--curl\fR.
.PP
An option is given before or after the command, once (\fBsafe-ad -q put 1\fR is \fBsafe-ad put -q
1\fR), and only to a command that acts on it: each command's page lists the options it takes.
.PP
The launcher URL may carry a path prefix, which is kept: http://127.0.0.1:8100/0.6 sends
/0.6/appendable-data/... A trailing slash makes no difference. Only http and https, with a host and
no user name, password, query or fragment.
.PP
A token from a file, standard input or the config file is trimmed of white space around it (a
final newline is fine); \fBSAFE_LAUNCHER_TOKEN\fR must hold the token alone, since a \fB--curl\fR
line hands it to curl as it is: white space around it is refused (exit status 2). An empty token,
or one with white space, control or non-ASCII characters inside, is refused (exit status 2). No
option takes the token itself: it would show in process lists and shell history.
.PP
\fB--token-file\fR reads a regular file, or a pipe the shell hands over (\fB<(...)\fR, or
/dev/stdin on a pipe, on Linux); a FIFO with a name, a socket or a device is refused by its type
before it is opened (exit status 2), as a directory is. \fB-\fR reads standard input.
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
    ),
    ManSection::prose(
        "SECURITY",
        r#"
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
    ),
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
the line and column, and the key (exit status 2). A path that is not a regular file (a directory,
a FIFO, a socket, a device, or a link to one) is refused by its type without being opened; a
command that does not use the settings (\fBconfig path\fR, \fBcompletions\fR, \fBdecode\fR,
\fBman\fR) goes on, and one that writes the file refuses to replace it. If the file holds a
token and other users can read it, safe-ad warns, as ssh does, and goes on: \fBchmod 600\fR it. safe-ad writes
the file atomically (a new file with mode 0600 in the same directory, then a rename; the directory
is made with mode 0700), so two logins at once leave one whole file, the last one's. A config
file that is a symbolic link is written where the link leads, and the link stays.
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
        for kind in crate::launcher::HandleKind::ALL {
            assert!(said.contains(kind.name()), "{} is not named", kind.name());
        }
    }
}
