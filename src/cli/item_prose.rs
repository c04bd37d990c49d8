//! The man pages' words about items that more than one page says: what `show` prints and its
//! `--json` keys, and how positions are ordered and move. Written once here as macros, since
//! `concat!` takes only literals: `safe-ad-show(1)`'s and the item commands' sections (their
//! specs' `man`, in `items`) and the main page's (`generate::man`'s `text`) take them in.

/// What `show` prints (the emulator's demo handle 1), as the main page and `safe-ad-show(1)`
/// show it.
macro_rules! show_sample {
    () => {
        r#".PP
.RS 4
.EX
handle 1: version 1, owner yes, data 3, deleted 2, filter ...
  filter key 0: 03fd629afbf03ec9
  filter key 1: e30376180e311a1e (signed items shown here)
  data 0: structured-data ZGVtbyBpdGVtIGQu...=, type tag 500, ...
    data id AAAAAGRlbW8gaXRlbSBkLi4uLi4uLi4uLi4u...
  data 1: structured-data ZGVtbyBpdGVtIGUu...=, type tag 500, ...
    data id ...
  data 2: appendable-data c2FmZS1hZCBkZW1v...=, version 2, ...
    data id ...
  deleted 0: structured-data ZGVtbyBpdGVtIGcu...=, type tag 500, ...
    data id ...
.EE
.RE
"#
    };
}

/// The keys of `show --json`, for the main page's OUTPUT and `safe-ad-show(1)`.
macro_rules! show_json {
    () => {
        r#"\fBshow --json\fR prints one result per handle or name, with \fBcommand\fR, \fBinput\fR,
\fBhandle\fR, \fBok\fR, and \fBerror\fR and \fBexit_code\fR (those of its first failure) as above,
and:
.TP
\fBisOwner\fR, \fBversion\fR, \fBfilterType\fR, \fBfilterLength\fR (boolean, numbers, string)
the launcher's metadata of the data.
.TP
\fBfilter\fR (object)
\fBtype\fR (BlackList or WhiteList) and \fBkeys\fR, a list of fingerprints (null for a key that
could not be read).
.TP
\fBdataLength\fR, \fBdeletedDataLength\fR (numbers)
the length of each list, whatever \fB--index\fR shows.
.TP
\fBdata\fR, \fBdeleted_data\fR (lists)
one object per item shown, with the keys below.
.TP
\fBindex\fR, \fBdata_id\fR (number, string or null)
the item's index in its list, and its serialised data id in base64.
.TP
\fBkind\fR, \fBname\fR, \fBtype_tag\fR (strings, number; or null)
from the data id's bytes: structured-data, immutable-data, appendable-data or
private-appendable-data, the name in base64, structured data's type tag. For bytes in another
layout (then \fBdecode_error\fR says what did not fit) the kind is the launcher's
(structured-data, appendable-data or unknown), the name null, and the type tag 501 for
versioned structured data, else null.
.TP
\fBsigner\fR, \fBsigner_is_you\fR (string, boolean; or null)
the signer's fingerprint, and whether it is your key.
.TP
\fBon_network\fR (boolean or null)
false for data that is not on the network.
.TP
\fBversion\fR, \fBversions\fR, \fBsize\fR (numbers)
the version of structured or appendable data, how many versions versioned structured data
keeps, and immutable data's size in bytes.
.TP
\fBpreview\fR, \fBtext\fR (strings or null)
the content (structured or immutable data) in one safe line for display; and the whole content
when it is UTF-8 (without \fB--full\fR only up to 64 KiB), else null.
.TP
\fBcontent\fR, \fBcontent_base64\fR (strings)
with \fB--full\fR: the whole content, base64 (the same value; \fBcontent\fR is the older name).
.TP
\fBdataLength\fR, \fBdeletedDataLength\fR, \fBfilterType\fR (numbers, string)
for appendable data: its counts and filter, under the launcher's keys.
.TP
\fBerror\fR (object)
on an item that could not be read (wholly or in part), as above.
"#
    };
}

/// How positions are ordered and how they move, for the main page and the item commands' pages.
macro_rules! item_order {
    () => {
        r#".PP
Positions are the network's, not the order items came in: the launcher keeps each list sorted,
structured data first, then immutable data, then public appendable data, then private appendable
data, each by name (byte by byte). A removed item lands in the deleted list at its sorted place
and every later data item moves down one; a restored item goes back to its sorted place. Read the
indexes again with \fBsafe-ad show\fR after a change, or choose items by what they are
(\fB--kind\fR, \fB--signed-by\fR, \fB--data-id\fR, \fB--name\fR). On the emulator's demo
data, whose data items are "demo item d", "demo item e" and an appendable data, and whose deleted
items are "demo item g" and "h":
.PP
.RS 4
.EX
h=$(safe-ad reopen 1)
safe-ad remove "$h" 1
safe-ad show "$h"
.EE
.RE
.PP
shows the appendable data as data 1 (it was data 2), and "demo item e" as deleted 0, before g
and h, which moved to 1 and 2.
"#
    };
}

pub(crate) use {item_order, show_json, show_sample};
