//! `request`'s unit tests: every request matches its route and every route has a request, each
//! handle kind is freed by a request that frees it, and the routes and bodies requests make.

use super::*;

/// Every request goes where its route says, and every route of the launcher's API is one a
/// request goes to: a request of each kind, rendered, matches the template of the route it
/// names, and together they name every route but the emulator's own and `/auth` (which
/// `auth` sends apart from `Request`).
#[test]
fn every_request_matches_its_route_and_every_route_has_a_request() {
    use std::collections::BTreeSet;
    let h = Handle(7);
    let name = Name::from_bytes([1; 32]);
    let mut requests = vec![
        Request::Create {
            name,
            private: false,
            white_list: false,
        },
        Request::DataIdOfName {
            name,
            private: false,
        },
        Request::Fetch(h),
        Request::DropDataId(h),
        Request::Append {
            handle: h,
            data_id: Handle(8),
        },
        Request::StructuredDataIdOfName {
            name,
            type_tag: 500,
        },
        Request::UserSignKey,
        Request::NewWriter,
        Request::CloseWriter {
            writer: h,
            cipher: Handle(8),
        },
        Request::CipherOpts {
            kind: Encryption::Plain,
            key: None,
        },
        Request::CipherOpts {
            kind: Encryption::Asymmetric,
            key: Some(h),
        },
        Request::SignKeyOf(crate::wire::SignKey([2; 32])),
    ];
    for operation in [
        Operation::Put,
        Operation::Post,
        Operation::ClearData,
        Operation::ClearDeletedData,
        Operation::Metadata,
        Operation::Serialise,
        Operation::Drop,
        Operation::DataId,
        Operation::EncryptKey,
        Operation::ToggleFilter,
    ] {
        requests.push(Request::OnHandle(operation, h));
    }
    for operation in [
        Operation::ItemDataId,
        Operation::DeletedItemDataId,
        Operation::ItemSigner,
        Operation::DeletedItemSigner,
        Operation::FilterKey,
        Operation::Remove,
        Operation::Restore,
        Operation::Purge,
    ] {
        requests.push(Request::AtIndex(operation, h, 3));
    }
    for operation in [
        Operation::SerialiseDataId,
        Operation::FetchStructured,
        Operation::DropStructured,
        Operation::ReadStructured,
        Operation::SerialiseSignKey,
        Operation::DropSignKey,
        Operation::ImmutableReader,
        Operation::DropReader,
        Operation::ReadImmutable,
        Operation::WriteImmutable,
        Operation::DropWriter,
        Operation::DropCipherOpts,
        Operation::DropEncryptKey,
    ] {
        requests.push(Request::OnId(operation, h));
    }
    for operation in [Operation::AddToFilter, Operation::RemoveFromFilter] {
        requests.push(Request::FilterEdit {
            operation,
            handle: h,
            key: Handle(8),
        });
    }
    let mut named = BTreeSet::new();
    for request in &requests {
        let route = request.route_kind();
        let (method, path) = (request.method(), request.route());
        assert!(
            route.matches(method.as_str(), &path),
            "{method} {path} is not {route}, the route {request:?} names"
        );
        named.insert(route);
    }
    let apart = [
        Route::AuthLogin,
        Route::AuthStatus,
        Route::AuthLogout,
        Route::EmulatorJournal,
        Route::EmulatorJournalClear,
        Route::EmulatorNetwork,
    ];
    let unnamed: Vec<Route> = (Route::ALL.into_iter())
        .filter(|route| !named.contains(route) && !apart.contains(route))
        .collect();
    assert!(unnamed.is_empty(), "routes no request goes to: {unnamed:?}");
}

#[test]
fn each_kind_is_freed_by_a_request_the_table_says_frees_it() {
    for kind in HandleKind::ALL {
        let free = kind.free(Handle(3));
        assert_eq!(free.operation().row().frees, Some(kind), "{kind:?}");
    }
}

#[test]
fn routes_and_bodies() {
    let name = Name::parse(&"ab".repeat(32)).unwrap();
    let create = Request::<Handle>::Create {
        name,
        private: false,
        white_list: true,
    };
    assert_eq!(create.route(), "/appendable-data");
    let body: serde_json::Value = serde_json::from_str(&create.json().unwrap()).unwrap();
    assert_eq!(body["filterType"], "WHITE_LIST");
    assert_eq!(body["isPrivate"], false);
    assert_eq!(body["name"], name.to_string());
    let plain = Request::<Handle>::Create {
        name,
        private: true,
        white_list: false,
    };
    let body: serde_json::Value = serde_json::from_str(&plain.json().unwrap()).unwrap();
    assert!(body.get("filterType").is_none());
    assert_eq!(
        Request::OnHandle(Operation::Drop, Handle(7)).route(),
        "/appendable-data/handle/7"
    );
    assert_eq!(
        Request::OnHandle(Operation::DataId, Handle(7)).route(),
        "/appendable-data/data-id/7"
    );
    assert_eq!(
        Request::Fetch(Slot::FromAnswer("handleId")).route(),
        "/appendable-data/handle/{handleId}"
    );
    assert_eq!(Request::DropDataId(Handle(3)).method(), Method::DELETE);
    assert_eq!(Request::DropDataId(Handle(3)).subject(), "drop-data-id 3");
    assert_eq!(Request::Fetch(Handle(3)).subject(), "fetch data-id 3");
}
