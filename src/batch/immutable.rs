//! `append HANDLE --immutable FILE|-`: the content written as immutable data and its data id
//! appended, the way the launcher's own apps sent a message to an inbox. Every handle the chain
//! takes (a writer, cipher options, for asymmetric encryption the data's encrypt key, the new
//! data id) is a lease, given back whatever came of the later steps.
//!
//! The writer is closed with cipher options: plain by default; symmetric (only the writer's
//! user reads it); asymmetric, to the encrypt key of the private appendable data it is appended
//! to (its owner reads it). Nothing here renders.

use super::{Sending, Steps};
use crate::handle::Handle;
use crate::launcher::{Encryption, Operation, Request, Slot};

/// The most bytes `append --immutable` writes: the launcher itself had no bound (self-encryption
/// split any size), but it held what it was writing in memory; this is also the emulator's.
pub const MAX_IMMUTABLE_BYTES: usize = 8 * 1024 * 1024;

/// Writes `content` as immutable data and appends its data id to `handle`.
pub async fn append(
    sending: Sending<'_>,
    handle: Handle,
    content: &[u8],
    encryption: Encryption,
) -> super::AppendRan {
    let mut steps = Steps::new(sending);
    let appended = chain(&mut steps, handle, content, encryption).await;
    super::AppendRan {
        steps: steps.finish().await,
        appended: (appended.ok()).map(|at| super::Appended { at, handle }),
    }
}

async fn chain(
    steps: &mut Steps<'_>,
    handle: Handle,
    content: &[u8],
    encryption: Encryption,
) -> Result<usize, crate::outcome::Failure> {
    let (writer, _) = steps
        .lease(Request::NewWriter, |w| {
            Request::OnId(Operation::DropWriter, w)
        })
        .await?;
    steps
        .write(Request::OnId(Operation::WriteImmutable, writer), content)
        .await?;
    let key = match encryption {
        Encryption::Asymmetric => Some(
            steps
                .lease(Request::OnHandle(Operation::EncryptKey, handle), |k| {
                    Request::OnId(Operation::DropEncryptKey, k)
                })
                .await?
                .0,
        ),
        _ => None,
    };
    let (cipher, _) = steps
        .lease(
            Request::CipherOpts {
                kind: encryption,
                key,
            },
            |c| Request::OnId(Operation::DropCipherOpts, c),
        )
        .await?;
    let (data_id, _) = steps
        .lease(Request::CloseWriter { writer, cipher }, Request::DropDataId)
        .await?;
    let at = steps.sent();
    steps.ask(Request::Append { handle, data_id }).await?;
    Ok(at)
}

/// The requests of `append --immutable` before any answer (`--dry-run`, `--curl`); the write
/// carries the content, which a dry run does not print.
pub fn plan(handle: Handle, encryption: Encryption) -> Vec<Request<Slot>> {
    let writer = Slot::FromAnswer("writerHandle");
    let cipher = Slot::FromAnswer("cipherOptsHandle");
    let data_id = Slot::FromAnswer("dataIdHandle");
    let mut requests = vec![
        Request::NewWriter,
        Request::OnId(Operation::WriteImmutable, writer),
    ];
    let key = (encryption == Encryption::Asymmetric).then(|| {
        requests.push(Request::OnHandle(Operation::EncryptKey, Slot::Is(handle)));
        Slot::FromAnswer("encryptKeyHandle")
    });
    requests.extend([
        Request::CipherOpts {
            kind: encryption,
            key,
        },
        Request::CloseWriter { writer, cipher },
        Request::Append {
            handle: Slot::Is(handle),
            data_id,
        },
        Request::DropDataId(data_id),
        Request::OnId(Operation::DropCipherOpts, cipher),
    ]);
    if let Some(key) = key {
        requests.push(Request::OnId(Operation::DropEncryptKey, key));
    }
    requests.push(Request::OnId(Operation::DropWriter, writer));
    requests
}
