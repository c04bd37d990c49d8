use super::immutable::{MAX_IMMUTABLE_BYTES, MEDIUM_MAX, SMALL_MAX};
use super::*;

fn key(n: u8) -> AdKey {
    AdKey {
        name: [n; 32],
        private: false,
    }
}

fn item(n: u8) -> Item {
    Item {
        pointer: DataId::Structured(SdKey {
            name: [n; 32],
            type_tag: 500,
        }),
        signer: USER_KEY,
        seal: 0,
    }
}

fn saved(state: &mut State, n: u8, data: &[u8], deleted: &[u8]) -> u64 {
    let ad = Ad {
        key: key(n),
        version: 1,
        data: data.iter().map(|&i| item(i)).collect(),
        deleted: deleted.iter().map(|&i| item(i)).collect(),
        filter: Filter::default(),
        owner: USER_KEY,
    };
    state.store(ad.clone());
    state.add_local(ad)
}

/// routing 0.28.5 stored no appendable data past 102,400 bytes (its bincode): an append that
/// would take it past is refused with -29 and leaves it as it was; so are a PUT and a POST of a
/// copy past it. Public data of structured-data items holds 654 of them.
#[test]
fn appendable_data_past_the_networks_size_is_refused_with_data_too_large() {
    let mut s = State::new();
    let h = s.create(key(1), FilterType::BlackList);
    s.put(h).unwrap();
    let mut appended = 0u32;
    let refused = loop {
        let name = appended.to_le_bytes();
        let mut pointer = [0; 32];
        pointer[..4].copy_from_slice(&name);
        let d = s.new_data_id(DataId::Structured(SdKey {
            name: pointer,
            type_tag: 500,
        }));
        match s.append(h, d) {
            Ok(()) => appended += 1,
            Err(code) => break code,
        }
        assert!(appended <= 3200, "never refused");
    };
    assert_eq!(refused, Code::DATA_TOO_LARGE);
    assert_eq!(appended, 654);
    let stored = s.ads_stored.get(&key(1)).unwrap().clone();
    assert_eq!(stored.data.len(), 654);
    assert!(stored.network_size() <= MAX_DATA_SIZE);
    // A copy holding one item more: its PUT (as new data) and its POST (as deleted items the
    // network would keep) are refused too, and nothing is stored.
    let mut big = stored.clone();
    big.key = key(2);
    big.data.insert(item(1));
    assert!(big.network_size() > MAX_DATA_SIZE);
    let b = s.add_local(big.clone());
    assert_eq!(s.put(b), Err(Code::DATA_TOO_LARGE));
    assert!(!s.ads_stored.contains_key(&key(2)));
    let fresh = s.add_local(stored.clone());
    s.ad(fresh).unwrap().deleted.insert(item(1));
    assert_eq!(s.post(fresh), Err(Code::DATA_TOO_LARGE));
    assert_eq!(s.ads_stored.get(&key(1)), Some(&stored));
    assert_eq!(s.ad_size_valid(b), Ok(false));
    let whole = s.add_local(stored);
    assert_eq!(s.ad_size_valid(whole), Ok(true));
}

/// The same for structured data (its content held inline): a PUT or POST past 102,400 bytes
/// is -29 and stores nothing; a versioned one counts every version.
#[test]
fn structured_data_past_the_networks_size_is_refused_with_data_too_large() {
    let mut s = State::new();
    let key = |n: u8, type_tag: u64| SdKey {
        name: [n; 32],
        type_tag,
    };
    // 224 bytes besides the content of owned, unversioned data.
    let h = s.sd_create(key(1, 500), 0, vec![1; MAX_DATA_SIZE - 224], false);
    assert_eq!(s.sd_size_valid(h), Ok(true));
    assert_eq!(s.sd_put(h), Ok(()));
    let h = s.sd_create(key(2, 500), 0, vec![1; MAX_DATA_SIZE - 223], false);
    assert_eq!(s.sd_size_valid(h), Ok(false));
    assert_eq!(s.sd_put(h), Err(Code::DATA_TOO_LARGE));
    assert!(!s.sds_stored.contains_key(&key(2, 500)));
    // Versions add up.
    let v = s.sd_create(key(3, VERSIONED), 0, vec![1; 60_000], false);
    assert_eq!(s.sd_put(v), Ok(()));
    s.sd_update(v, vec![2; 60_000], false).unwrap();
    assert_eq!(s.sd_post(v), Err(Code::DATA_TOO_LARGE));
    assert_eq!(s.sds_stored[&key(3, VERSIONED)].versions.len(), 1);
}

#[test]
fn put_then_put_again_is_data_exists() {
    let mut s = State::new();
    let h = s.create(key(1), FilterType::BlackList);
    assert_eq!(h, 0);
    assert_eq!(s.post(h), Err(Code::NO_SUCH_DATA));
    assert_eq!(s.put(h), Ok(()));
    assert_eq!(s.put(h), Err(Code::DATA_EXISTS));
    assert_eq!(s.post(h), Ok(()));
    assert_eq!(s.stored(&key(1)).map(|st| st.version), Some(1));
    assert_eq!(s.put(77), Err(Code::INVALID_AD_HANDLE));
    assert_eq!(s.post(77), Err(Code::INVALID_AD_HANDLE));
}

#[test]
fn clears_are_local_until_post_merges() {
    let mut s = State::new();
    let h = saved(&mut s, 1, &[1, 2, 3], &[4]);
    s.clear_data(h).unwrap();
    let m = s.metadata(h, true).unwrap();
    assert_eq!((m.data_length, m.deleted_data_length), (0, 4));
    let st = s.stored(&key(1)).unwrap();
    assert_eq!((st.data.len(), st.deleted.len(), st.version), (3, 1, 1));
    s.post(h).unwrap();
    let st = s.stored(&key(1)).unwrap();
    assert_eq!((st.data.len(), st.deleted.len(), st.version), (0, 4, 2));
    s.clear_deleted_data(h).unwrap();
    assert_eq!(s.stored(&key(1)).unwrap().deleted.len(), 4);
    s.post(h).unwrap();
    let st = s.stored(&key(1)).unwrap();
    assert_eq!((st.data.len(), st.deleted.len(), st.version), (0, 0, 3));
}

#[test]
fn post_keeps_network_items_appended_meanwhile() {
    let mut s = State::new();
    let h = saved(&mut s, 1, &[1, 2], &[]);
    let d = s.new_data_id(item(9).pointer);
    s.append(h, d).unwrap();
    assert_eq!(s.metadata(h, true).unwrap().data_length, 2);
    s.remove_at(h, 0).unwrap();
    s.post(h).unwrap();
    let st = s.stored(&key(1)).unwrap();
    assert_eq!(st.data, [item(2), item(9)].into_iter().collect());
    assert_eq!(st.deleted, [item(1)].into_iter().collect());
}

#[test]
fn append_refusals() {
    let mut s = State::new();
    let h = saved(&mut s, 1, &[], &[5]);
    let d = s.new_data_id(item(5).pointer);
    assert_eq!(s.append(h, d), Err(Code::INVALID_SUCCESSOR), "deleted item");
    let d = s.new_data_id(item(6).pointer);
    assert_eq!(s.append(99, d), Err(Code::INVALID_AD_HANDLE));
    assert_eq!(s.append(h, 99), Err(Code::INVALID_DATA_ID_HANDLE));
    let me = s.user_sign_key();
    s.edit_filter(h, me, true).unwrap();
    // The local filter is not the network's yet.
    assert_eq!(s.append(h, d), Ok(()));
    s.post(h).unwrap();
    let d = s.new_data_id(item(7).pointer);
    assert_eq!(s.append(h, d), Err(Code::INVALID_SUCCESSOR), "black-listed");
    s.toggle_filter(h).unwrap();
    s.post(h).unwrap();
    assert_eq!(
        s.append(h, d),
        Err(Code::INVALID_SUCCESSOR),
        "not white-listed"
    );
    s.edit_filter(h, me, true).unwrap();
    s.post(h).unwrap();
    assert_eq!(s.append(h, d), Ok(()));
    // A stale handle.
    let other = s.new_data_id(DataId::Appendable(key(1)));
    let (fresh, _) = s.fetch(other, true).unwrap();
    s.post(fresh).unwrap();
    assert_eq!(s.append(h, d), Err(Code::INVALID_SUCCESSOR), "stale");
    let unsaved = s.create(key(2), FilterType::BlackList);
    assert_eq!(s.append(unsaved, d), Err(Code::NO_SUCH_DATA));
}

#[test]
fn stale_post_is_invalid_successor() {
    let mut s = State::new();
    let a = saved(&mut s, 1, &[1], &[]);
    let d = s.new_data_id(DataId::Appendable(key(1)));
    let (b, meta) = s.fetch(d, true).unwrap();
    assert_eq!(meta.version, 1);
    s.post(a).unwrap();
    assert_eq!(s.post(b), Err(Code::INVALID_SUCCESSOR));
    assert_eq!(s.post(a), Ok(()));
}

#[test]
fn fetch_errors() {
    let mut s = State::new();
    assert_eq!(s.fetch(5, true), Err(Code::INVALID_DATA_ID_HANDLE));
    let d = s.new_data_id(DataId::Appendable(key(3)));
    assert_eq!(s.fetch(d, true), Err(Code::GET_NO_SUCH_DATA));
    let sd = s.new_data_id(item(3).pointer);
    assert_eq!(s.fetch(sd, true), Err(Code::GET_NO_SUCH_DATA));
    assert_eq!(s.sd_fetch(d, true), Err(Code::GET_NO_SUCH_DATA));
}

#[test]
fn one_counter_and_lru_per_type() {
    let mut s = State::new();
    let first = s.create(key(0), FilterType::BlackList);
    let id = s.new_data_id(item(0).pointer);
    assert_eq!((first, id), (0, 1));
    for _ in 1..HANDLE_CAPACITY {
        s.create(key(0), FilterType::BlackList);
    }
    assert_eq!((s.live().appendable_data, s.live().data_id), (100, 1));
    // Use the first, so the second (handle 2) is now the least recently used.
    assert!(s.metadata(first, true).is_ok());
    let newest = s.create(key(0), FilterType::BlackList);
    assert_eq!(newest, 101);
    assert_eq!((s.live().appendable_data, s.live().data_id), (100, 1));
    assert!(s.has_ad(first));
    assert!(!s.has_ad(2));
    assert!(s.has_ad(3));
    // The data-id cache is separate: the data id is still live (not -1514).
    assert_eq!(s.fetch(id, true), Err(Code::GET_NO_SUCH_DATA));
}

#[test]
fn handle_bytes_are_bounded_per_type_least_recently_used_evicted() {
    let mut s = State::new();
    // Appendable data of about a quarter of the bound each: four fit, a fifth evicts one.
    let items = HANDLE_BYTES / 4 / 140 - 2;
    let big = |n: u8| {
        let mut ad = Ad::new(key(n), FilterType::BlackList, USER_KEY);
        for i in 0..items {
            let mut name = [n; 32];
            name[..8].copy_from_slice(&(i as u64).to_le_bytes());
            ad.data.insert(Item {
                pointer: DataId::Structured(SdKey {
                    name,
                    type_tag: 500,
                }),
                signer: USER_KEY,
                seal: 0,
            });
        }
        ad
    };
    let handles: Vec<u64> = (0..4).map(|n| s.add_local(big(n))).collect();
    assert_eq!(s.live().appendable_data, 4);
    assert!(s.metadata(handles[0], true).is_ok(), "a use of the first");
    let fifth = s.add_local(big(4));
    assert_eq!(s.live().appendable_data, 4);
    assert!(s.has_ad(handles[0]) && s.has_ad(fifth));
    assert!(!s.has_ad(handles[1]), "the least recently used goes");
    // A post leaves the copy without data: its bytes are counted down, and another big copy
    // fits beside the four without evicting one. (The network's data is empty: a copy this
    // large is past what it stores, but a post sends no data items.)
    s.store(Ad::new(key(9), FilterType::BlackList, USER_KEY));
    let posted = s.add_local(big(9));
    assert_eq!(s.live().appendable_data, 4);
    let before = s.me.ads.bytes;
    assert_eq!(s.post(posted), Ok(()));
    assert!(s.me.ads.bytes + HANDLE_BYTES / 5 < before);
    s.add_local(big(10));
    assert_eq!(s.live().appendable_data, 5);
    assert!(s.me.ads.bytes <= HANDLE_BYTES);
    // Other types hold a fixed few bytes each and are bounded by count alone.
    assert_eq!(s.me.data_ids.bytes, 0);
}

#[test]
fn the_network_is_bounded_with_network_full() {
    let mut s = State::new();
    let sd = |n: u32, size: usize| {
        let mut name = [0; 32];
        name[..4].copy_from_slice(&n.to_le_bytes());
        Sd {
            key: SdKey {
                name,
                type_tag: 500,
            },
            version: 0,
            versions: vec![vec![0; size]],
            encrypted: Vec::new(),
            status: SdStatus::Owned,
        }
    };
    // Structured data of 100,000 bytes (within the network's size) until the network's bound
    // (counted as base64) is reached: 251 fit, the next does not.
    let mut stored = 0;
    let refused = loop {
        let h = s.add_sd(sd(stored, 100_000));
        let put = s.sd_put(h);
        s.drop_sd(h).unwrap();
        match put {
            Ok(()) => stored += 1,
            Err(code) => break code,
        }
    };
    assert_eq!((refused, stored), (Code::NETWORK_FULL, 251));
    // Filled up to 100 bytes short of the bound: one more appendable data does not fit.
    let room = NETWORK_BYTES - s.network_bytes - 100;
    let h = s.add_sd(sd(stored + 1, (room - 272) / 4 * 3));
    assert_eq!(s.sd_put(h), Ok(()));
    let a = s.create(key(1), FilterType::BlackList);
    assert_eq!(s.put(a), Err(Code::NETWORK_FULL));
    assert!(s.network_bytes <= NETWORK_BYTES);
    // A change that does not grow the network always passes.
    let d = s.new_data_id(DataId::Structured(SdKey {
        name: [0; 32],
        type_tag: 500,
    }));
    let (smaller, _) = s.sd_fetch(d, true).unwrap();
    s.sd_update(smaller, vec![1; 10], false).unwrap();
    assert_eq!(s.sd_post(smaller), Ok(()), "shrinking is always allowed");
    let a = s.create(key(2), FilterType::BlackList);
    assert_eq!(s.put(a), Ok(()));
}

#[test]
fn sessions_are_bounded() {
    let mut s = State::new();
    for n in 0..MAX_SESSIONS {
        assert!(s.add_session(n.to_string(), Permissions::default()));
    }
    assert!(!s.add_session("one more".into(), Permissions::default()));
    assert!(
        s.add_session("0".into(), Permissions::default()),
        "a live one again"
    );
    assert!(s.revoke("1"));
    assert!(s.add_session("one more".into(), Permissions::default()));
}

#[test]
fn indexes_restore_and_drop() {
    let mut s = State::new();
    let h = saved(&mut s, 1, &[1, 2], &[]);
    assert_eq!(s.remove_at(h, 2), Err(Code::INVALID_INDEX));
    assert_eq!(s.remove_at(h, u64::MAX), Err(Code::INVALID_INDEX));
    s.remove_at(h, 1).unwrap();
    assert_eq!(s.restore(h, 1), Err(Code::INVALID_INDEX));
    s.restore(h, 0).unwrap();
    assert_eq!(s.metadata(h, false).unwrap().data_length, 2);
    s.remove_at(h, 0).unwrap();
    s.remove_deleted_at(h, 0).unwrap();
    let m = s.metadata(h, false).unwrap();
    assert_eq!(
        (m.data_length, m.deleted_data_length, m.is_owner),
        (1, 0, false)
    );
    assert_eq!(s.drop_ad(h), Ok(()));
    assert_eq!(s.drop_ad(h), Err(Code::INVALID_AD_HANDLE));
}

#[test]
fn private_items_need_the_user() {
    let mut s = State::new();
    let private = AdKey {
        name: [1; 32],
        private: true,
    };
    let mut ad = Ad::new(private, FilterType::BlackList, USER_KEY);
    ad.data.insert(item(1));
    let h = s.add_local(ad);
    assert_eq!(
        s.data_id_at(h, 0, false, false),
        Err(Code::FORBIDDEN_FOR_APP)
    );
    assert!(s.data_id_at(h, 0, false, true).is_ok());
    let e = s.encrypt_key(h).unwrap();
    assert_eq!(s.drop_encrypt_key(e), Ok(()));
    assert_eq!(s.drop_encrypt_key(e), Err(Code::INVALID_ENCRYPT_KEY_HANDLE));
    let public = s.create(key(2), FilterType::BlackList);
    assert_eq!(s.encrypt_key(public), Err(Code::UNSUPPORTED));
}

#[test]
fn structured_data_versions() {
    let mut s = State::new();
    let k = SdKey {
        name: [1; 32],
        type_tag: VERSIONED,
    };
    let h = s.sd_create(k, 0, b"one".to_vec(), false);
    assert_eq!(s.sd_post(h), Err(Code::NO_SUCH_DATA));
    s.sd_put(h).unwrap();
    assert_eq!(s.sd_put(h), Err(Code::DATA_EXISTS));
    // An update keeps the copy's version; the POST sends version + 1 and the copy becomes that.
    s.sd_update(h, b"two".to_vec(), false).unwrap();
    assert_eq!(s.sd_metadata(h, true).unwrap().version, 0);
    s.sd_post(h).unwrap();
    assert_eq!(s.sd_metadata(h, true).unwrap().version, 1);
    assert_eq!(s.sd_read(h, None, true).unwrap(), b"two");
    assert_eq!(s.sd_read(h, Some(0), true).unwrap(), b"one");
    assert_eq!(s.sd_read(h, Some(2), true), Err(Code::INVALID_VERSION));
    let m = s.sd_metadata(h, true).unwrap();
    assert_eq!((m.version, m.versions), (1, Some(2)));
    let d = s.sd_data_id(h).unwrap();
    let (fresh, meta) = s.sd_fetch(d, false).unwrap();
    assert_eq!((meta.version, meta.is_owner), (1, false));
    assert_eq!(s.sd_read(fresh, None, true).unwrap(), b"two");
    // The same handle posts again; a copy taken before the last POST is stale.
    s.sd_post(h).unwrap();
    assert_eq!(s.sd_post(fresh), Err(Code::INVALID_SUCCESSOR));
    let plain = s.plain_cipher();
    assert_eq!(s.plain_cipher(), plain);
    assert_eq!(s.check_cipher(plain), Ok(Cipher::Plain));
    assert_eq!(
        s.check_cipher(plain + 1),
        Err(Code::INVALID_CIPHER_OPT_HANDLE)
    );
}

#[test]
fn structured_data_delete_claim_and_unclaim() {
    let mut s = State::new();
    let k = SdKey {
        name: [2; 32],
        type_tag: 500,
    };
    let h = s.sd_create(k, 0, b"x".to_vec(), false);
    assert_eq!(s.sd_delete(h), Err(Code::NO_SUCH_DATA));
    s.sd_put(h).unwrap();
    s.sd_delete(h).unwrap();
    // The copy: version + 1, no data to read; the network: deleted at that version.
    assert_eq!(s.sd_metadata(h, true).unwrap().version, 1);
    assert_eq!(s.sd_read(h, None, true), Err(Code::CORE_ENCODE_DECODE));
    assert_eq!(s.sd_delete(h), Err(Code::INVALID_OPERATION));
    assert_eq!(s.sd_post(h), Err(Code::INVALID_OPERATION));
    let d = s.new_data_id(DataId::Structured(k));
    let (deleted, meta) = s.sd_fetch(d, true).unwrap();
    assert_eq!((meta.version, meta.is_owner), (1, false));
    assert_eq!(
        s.sd_read(deleted, None, true),
        Err(Code::CORE_ENCODE_DECODE)
    );
    // Claimed again by a PUT at the next version only.
    let wrong = s.sd_create(k, 1, b"y".to_vec(), false);
    assert_eq!(s.sd_put(wrong), Err(Code::INVALID_SUCCESSOR));
    let claim = s.sd_create(k, 2, b"y".to_vec(), false);
    s.sd_put(claim).unwrap();
    let (fresh, meta) = s.sd_fetch(d, true).unwrap();
    assert_eq!((meta.version, meta.is_owner), (2, true));
    assert_eq!(s.sd_read(fresh, None, true).unwrap(), b"y");
    // Unclaimable: on the network for good, nobody can change or claim it.
    s.sd_unclaim(fresh).unwrap();
    let (gone, meta) = s.sd_fetch(d, true).unwrap();
    assert_eq!((meta.version, meta.is_owner), (3, false));
    assert_eq!(s.sd_post(gone), Err(Code::INVALID_SUCCESSOR));
    assert_eq!(s.sd_delete(gone), Err(Code::INVALID_SUCCESSOR));
    let again = s.sd_create(k, 4, b"z".to_vec(), false);
    assert_eq!(s.sd_put(again), Err(Code::DATA_EXISTS));
    assert_eq!(s.sd_delete(99), Err(Code::INVALID_SD_HANDLE));
    assert_eq!(s.sd_unclaim(99), Err(Code::INVALID_SD_HANDLE));
}

#[test]
fn post_leaves_the_copy_without_data_as_safe_core_did() {
    let mut s = State::new();
    let h = saved(&mut s, 1, &[1, 2, 3], &[]);
    s.remove_at(h, 0).unwrap();
    s.post(h).unwrap();
    let m = s.metadata(h, true).unwrap();
    assert_eq!((m.version, m.data_length, m.deleted_data_length), (2, 0, 1));
    assert_eq!(s.remove_at(h, 0), Err(Code::INVALID_INDEX));
    // The network kept its items but the deleted one.
    let st = s.stored(&key(1)).unwrap();
    assert_eq!(st.data, [item(2), item(3)].into_iter().collect());
    // A PUT and an append leave the copy as it was.
    let a = s.create(key(2), FilterType::BlackList);
    s.put(a).unwrap();
    let d = s.new_data_id(item(5).pointer);
    s.append(a, d).unwrap();
    assert_eq!(s.metadata(a, true).unwrap().data_length, 0);
    assert_eq!(s.stored(&key(2)).unwrap().data.len(), 1);
    // Appending the same item to public data again is refused, as a set refuses it.
    assert_eq!(s.append(a, d), Err(Code::INVALID_SUCCESSOR));
}

#[test]
fn items_are_in_the_networks_order() {
    let ad = |name: u8, private: bool| {
        DataId::Appendable(AdKey {
            name: [name; 32],
            private,
        })
    };
    let sd = |name: u8, type_tag: u64| {
        DataId::Structured(SdKey {
            name: [name; 32],
            type_tag,
        })
    };
    let mut set: BTreeSet<DataId> = BTreeSet::new();
    for id in [
        ad(0, true),
        ad(9, false),
        DataId::Immutable([5; 32]),
        sd(9, 500),
        ad(1, false),
        sd(1, 501),
        sd(1, 500),
        DataId::Immutable([0; 32]),
        ad(0, false),
    ] {
        set.insert(id);
    }
    let order: Vec<DataId> = set.into_iter().collect();
    assert_eq!(
        order,
        [
            sd(1, 500),
            sd(1, 501),
            sd(9, 500),
            DataId::Immutable([0; 32]),
            DataId::Immutable([5; 32]),
            ad(0, false),
            ad(1, false),
            ad(9, false),
            ad(0, true),
        ]
    );
}

#[test]
fn immutable_data_round_trip_and_bounds() {
    let mut s = State::new();
    let w = s.new_writer();
    s.write(w, b"hello ").unwrap();
    s.write(w, b"world").unwrap();
    assert_eq!(
        s.write(w + 100, b"x"),
        Err(Code::INVALID_SELF_ENCRYPTOR_HANDLE)
    );
    let plain = s.new_cipher(Cipher::Plain);
    let d = s.close_writer(w, plain).0.unwrap();
    // Written again after the close that emptied it (self_encryption's small encryptor), closed
    // with other cipher options: other data.
    s.write(w, b"hello world").unwrap();
    let sym = s.new_cipher(Cipher::Symmetric);
    let d2 = s.close_writer(w, sym).0.unwrap();
    assert_ne!(s.data_id_value(d), s.data_id_value(d2));
    assert_eq!(
        s.close_writer(w, 999),
        (
            Err(Code::INVALID_CIPHER_OPT_HANDLE),
            Some(CloseNote::AfterEmptied)
        )
    );
    let (r, size) = s.new_reader(d, false).unwrap();
    assert_eq!(size, 11);
    assert_eq!(s.read(r, 6, 5).unwrap(), b"world");
    assert_eq!(s.read(r, 6, 6), Err(Code::INVALID_READ_OFFSETS));
    assert_eq!(s.new_reader(d2, false), Err(Code::FORBIDDEN_FOR_APP));
    assert!(s.new_reader(d2, true).is_ok());
    let sd = s.new_data_id(DataId::Structured(SdKey {
        name: [1; 32],
        type_tag: 500,
    }));
    assert_eq!(s.new_reader(sd, true), Err(Code::GET_NO_SUCH_DATA));
    assert_eq!(s.drop_reader(r), Ok(()));
    assert_eq!(s.drop_reader(r), Err(Code::INVALID_SELF_ENCRYPTOR_HANDLE));
    assert_eq!(s.drop_writer(w), Ok(()));
    assert_eq!(s.drop_writer(w), Err(Code::INVALID_SELF_ENCRYPTOR_HANDLE));
    // One immutable data holds at most MAX_IMMUTABLE_BYTES.
    let big = s.new_writer();
    s.write(big, &vec![1; MAX_IMMUTABLE_BYTES]).unwrap();
    assert_eq!(s.write(big, b"x"), Err(Code::DATA_TOO_LARGE));
    // The whole network is bounded too: two of these fit (counted as base64), a third does not.
    for n in 0..2u8 {
        let w = s.new_writer();
        s.write(w, &vec![n; MAX_IMMUTABLE_BYTES]).unwrap();
        s.close_writer(w, plain).0.unwrap();
        s.drop_writer(w).unwrap();
    }
    let w = s.new_writer();
    s.write(w, &vec![9; MAX_IMMUTABLE_BYTES]).unwrap();
    assert_eq!(s.close_writer(w, plain).0, Err(Code::NETWORK_FULL));
    // Data that is there already is stored again at no cost.
    let w = s.new_writer();
    s.write(w, &vec![0; MAX_IMMUTABLE_BYTES]).unwrap();
    assert!(s.close_writer(w, plain).0.is_ok());
}

/// What a close leaves in a writer, by size, as self_encryption 0.7.1's sequential encryptor
/// left it (`small_encryptor.rs`, `medium_encryptor.rs`, `large_encryptor.rs`: `close`).
#[test]
fn a_close_empties_small_writers_keeps_medium_ones_and_breaks_large_ones() {
    let mut s = State::new();
    let plain = s.new_cipher(Cipher::Plain);
    let size_after = |s: &mut State, w: u64| {
        let d = s.close_writer(w, plain).0.unwrap();
        s.new_reader(d, true).unwrap().1
    };
    let small = s.new_writer();
    s.write(small, &[1; SMALL_MAX]).unwrap();
    assert_eq!(size_after(&mut s, small), SMALL_MAX as u64);
    assert_eq!(size_after(&mut s, small), 0, "emptied by the first close");
    let medium = s.new_writer();
    s.write(medium, &[2; SMALL_MAX + 1]).unwrap();
    assert_eq!(size_after(&mut s, medium), SMALL_MAX as u64 + 1);
    assert_eq!(size_after(&mut s, medium), SMALL_MAX as u64 + 1, "kept");
    let large = s.new_writer();
    s.write(large, &vec![3; MEDIUM_MAX + 1]).unwrap();
    assert_eq!(size_after(&mut s, large), MEDIUM_MAX as u64 + 1);
    assert_eq!(
        s.close_writer(large, plain),
        (Err(Code::UNEXPECTED), Some(CloseNote::Broken))
    );
    // A failed close (-1517: the cipher is looked up after the writer's own close) empties too.
    let failed = s.new_writer();
    s.write(failed, b"lost").unwrap();
    assert_eq!(
        s.close_writer(failed, 999).0,
        Err(Code::INVALID_CIPHER_OPT_HANDLE)
    );
    assert_eq!(size_after(&mut s, failed), 0);
}

/// A save stops at [`LAST_VERSION`], the most a `--state` file holds: past it, every way of
/// storing a version (post, put, and a structured data's post, delete, unclaim and claim) is the
/// emulator's own refusal, never -25; up to it, each saves.
#[test]
fn no_save_passes_the_last_version() {
    let mut s = State::new();
    let mut ad = Ad::new(key(1), FilterType::BlackList, USER_KEY);
    ad.version = LAST_VERSION - 1;
    s.store(ad.clone());
    let h = s.add_local(ad.clone());
    assert_eq!(s.post(h), Ok(()));
    assert_eq!(s.stored(&key(1)).map(|st| st.version), Some(LAST_VERSION));
    assert_eq!(s.post(h), Err(Code::VERSION_LIMIT));
    assert_eq!(s.stored(&key(1)).map(|st| st.version), Some(LAST_VERSION));
    // A copy past it (as a deserialise could make one) is not stored either.
    let mut late = Ad::new(key(2), FilterType::BlackList, USER_KEY);
    late.version = u64::MAX;
    let h = s.add_local(late);
    assert_eq!(s.put(h), Err(Code::VERSION_LIMIT));
    assert!(s.stored(&key(2)).is_none());

    let sd = |n: u8| SdKey {
        name: [n; 32],
        type_tag: 500,
    };
    let h = s.sd_create(sd(3), u64::MAX, b"x".to_vec(), false);
    assert_eq!(s.sd_put(h), Err(Code::VERSION_LIMIT));
    let h = s.sd_create(sd(3), LAST_VERSION, b"x".to_vec(), false);
    assert_eq!(s.sd_put(h), Ok(()));
    assert_eq!(s.sd_post(h), Err(Code::VERSION_LIMIT));
    assert_eq!(s.sd_delete(h), Err(Code::VERSION_LIMIT));
    assert_eq!(s.sd_unclaim(h), Err(Code::VERSION_LIMIT));
    assert_eq!(s.sd_metadata(h, true).map(|m| m.version), Ok(LAST_VERSION));
    // Deleted at the last version, it cannot be claimed again at the next.
    let h = s.sd_create(sd(4), LAST_VERSION - 1, b"x".to_vec(), false);
    s.sd_put(h).unwrap();
    s.sd_delete(h).unwrap();
    let claim = s.sd_create(sd(4), u64::MAX, b"y".to_vec(), false);
    assert_eq!(s.sd_put(claim), Err(Code::VERSION_LIMIT));
}
