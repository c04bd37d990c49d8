//! The man page extras of `emulator` (its spec's `man`): `safe-ad-emulator(1)`, the one page
//! long enough to be a family of its own, with its description, routes, files, background runs
//! and environment. Roff with plain hyphens, as [`Man`] says; the route table and the exit codes
//! themselves come from their own tables ([`ManTable`]).

use super::spec::{Man, ManSection, ManTable};

/// `safe-ad-emulator(1)`'s extras.
pub(super) const EMULATOR_MAN: Man = Man {
    description: EMULATOR_DESCRIPTION,
    sections: EMULATOR,
};

/// More for `safe-ad-emulator(1)`'s DESCRIPTION, after its long help.
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

/// `safe-ad-emulator(1)`'s own sections, after its OPTIONS.
const EMULATOR: &[ManSection] = &[
    ManSection::prose(
        "ROUTES",
        r#"
.PP
Each route answers under /, /0.5 and /0.6, as the launcher mounted them, and also with one
trailing slash; GET /health answers at the root only, for any method and any path below it. A
request without the token a route needs gets the launcher's 401 (or 403 for a token without the
permission).
"#,
    )
    .then(ManTable::EmulatorRoutes),
    ManSection::prose(
        "BACKGROUND",
        r#"
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
seconds (default 30; a \fB--log\fR FIFO that nobody reads waits for ever, and so does a
\fB--token-file\fR pipe whose writer never writes), it is stopped and the
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
\fBsafe-ad emulator list\fR lists them (see \fBsafe-ad-emulator-list\fR(1)), and
\fBsafe-ad emulator env\fR prints one's variables again, for a shell that lost them (see
\fBsafe-ad-emulator-env\fR(1)).
.PP
\fB--stop --if-running\fR, for a step that always runs, exits 0 with a note when no emulator was
started (the variables not set: it names those of yours that run and leaves them running; or its
directory gone: the start failed, or an earlier stop stopped it); otherwise it is \fB--stop\fR.
"#,
    ),
    ManSection::prose(
        "ITS OWN ROUTES",
        r#"
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
    ),
    ManSection::prose(
        "PATH MATCHING",
        r#"
.PP
Paths match as the launcher matched them (Express's defaults): one trailing slash, any case of
the literal segments, percent-decoded parameters, and handles read as C's strtoull reads them
(010 is 8, -1 wraps round, a parameter with no digits is a 400 naming the argument).
\fB--strict-paths\fR matches exactly instead, to catch clients that build odd paths.
"#,
    ),
    ManSection::prose(
        "STATE",
        r#"
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
launcher's layout, hold the emulator's own key and signature bytes); structured data holds its
content inline, so at most about 100 KiB of it; every app of a user shares its keys, and
structured and immutable data are every user's.
.PP
\fB--hang-unknown-clears\fR reproduces a defect of the launcher, which never answered a clear of an
unknown handle, to test timeouts; by default the emulator answers -1515 instead.
"#,
    ),
    ManSection::prose(
        "USERS",
        r#"
.PP
\fB--user\fR \fINAME\fR (repeat it) serves each user as a launcher of its own on one network: its
own port, token, sign key and handles. The first listens on \fB--listen\fR with \fB--token\fR and
is the one SAFE_LAUNCHER_URL and SAFE_LAUNCHER_TOKEN name; the others listen on free ports. What
the network refused between users is refused with safe_core's codes: isOwner is true for the
owner's key only; a POST of another's appendable data is -25 (so a clear, removal or filter edit
of it fails at its save); an append is checked against the filter with the appender's key, and
its item is signed by that key; another's private items answer -11 (CoreError::RoutingError).
\fBsafe-ad emulator env --user\fR \fINAME\fR prints a background emulator's variables for that
user; \fBsafe-ad emulator list\fR names each one's users. A fixture keeps its users and their
keys (see STATE FILE). Without \fB--user\fR, there is one unnamed user.
"#,
    ),
    ManSection::prose(
        "DEMO DATA",
        r#"
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
    ),
    ManSection::prose(
        "STATE FILE",
        r#"
.PP
\fB--state\fR \fIFILE\fR loads what is on the network from \fIFILE\fR (no demo data) and, on a clean
stop (Ctrl-C, SIGTERM, the end of \fICOMMAND\fR), writes it back atomically, so a fixture can be
made once and used again. A \fIFILE\fR that does not exist yet starts empty and is created (a
start that ends before it serves removes it again, as it does a new \fB--log\fR file). Handles
are not kept from one run to the next (the launcher lost them on a restart too). A file that does
not parse, or holds a version no save could follow (2^64 - 1), is refused at the start (exit
status 2; a save past 2^64 - 2, the last version a save reaches, is refused in words that name
the limit, so that every file the emulator saves loads again), and the message names the whole path to the value at fault, innermost last
(appendableData[1].data[0].structuredData.name, or appendableData[2].data[0].structuredData for
an object that lacks its typeTag).
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
  "users": [
    { "name": "bob", "signKey": "<base64 of 32 bytes>" }
  ],
  "appendableData": [
    {
      "name": "<base64 of 32 bytes>",
      "isPrivate": false,
      "version": 1,
      "filterType": "BlackList",
      "filterKeys": [],
      "owner": "bob",
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
users, filterKeys, data, deletedData and isPrivate may be left out. users lists the named users
(\fB--user\fR) and their sign keys: the users of a run are those \fB--user\fR names, then those
the file names, and each keeps the file's key by name. An appendable data's owner is owner (a
user's name) or ownerKey (base64), an item's signer (who appended it) signedBy (a user's name) or
signKey (base64); each defaults to the emulator's first user's key. A structured data's data lists the data of each version, oldest
first (one entry unless its typeTag is 501).
"#,
    ),
    ManSection::prose(
        "REQUEST LOG",
        r#"
.PP
\fB--log\fR \fIFILE\fR writes one JSON object per request and line, written whole as it goes:
.PP
.RS 4
.EX
{"event":"request","seq":1,"method":"PUT",
 "path":"/appendable-data/0","effect":"change","status":200,
 "elapsed_ms":0.041,"handles":{...}}
.EE
.RE
.PP
(shown here on three lines). Every record starts with \fBevent\fR: request for a request; start
for the first line (the version, URL, process id and starting network); reset for a reset through
the emulator's own routes; stop for the last line. The path has no query string, and a token in
it is replaced by <token> (also split across segments, percent-encoded or JSON-escaped).
\fBseq\fR numbers the requests as the journal keeps them. \fBeffect\fR is what the route does to
data: change (the network, a handle's copy, a writer, the tokens) or read (it may make or give
back a handle); a path no route matches has none. \fBstatus\fR is null when no answer was sent;
a 4xx or 5xx answer adds the launcher's error code as \fBerror_code\fR, and \fBdescription\fR;
a read of data by its data id answered NoSuchData (-18) adds \fB"not_on_network":true\fR, the
network's answer that the data is not there, which \fBsafe-ad emulator requests --failed\fR
leaves out; an injected fault adds \fBfault\fR (unavailable, dropped or delayed, and
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
    ),
    ManSection::prose(
        "FAULTS",
        r#"
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
    ),
    ManSection::table("EXIT STATUS", ManTable::EmulatorExitCodes),
    ManSection::prose(
        "ENVIRONMENT",
        r#"
.PP
The emulator gives \fICOMMAND\fR these two, and \fB--background\fR prints them (the first
user's):
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
With \fB--user\fR, each named user's URL and token are also printed (not by \fB--background\fR:
\fBemulator env --user\fR \fINAME\fR prints them) and given to \fICOMMAND\fR as:
.TP
\fBSAFE_AD_EMULATOR_USER_\fINAME\fB_URL\fR
User \fINAME\fR's URL (the name in capitals: alice gives SAFE_AD_EMULATOR_USER_ALICE_URL).
.TP
\fBSAFE_AD_EMULATOR_USER_\fINAME\fB_TOKEN\fR
The token user \fINAME\fR's launcher accepts.
.PP
TMPDIR names where \fB--background\fR makes that directory (else /tmp).
"#,
    ),
];
