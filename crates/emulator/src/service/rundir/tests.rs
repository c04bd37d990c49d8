//! The run directory's own tests: its lock, status, checks, token files and who made it.

use super::*;

#[test]
fn the_lock_says_whether_it_runs_and_the_status_how_it_ended() {
    let dir = RunDir::create().unwrap();
    let held = dir.claim().unwrap();
    assert_eq!(dir.pid().unwrap(), std::process::id());
    assert!(dir.is_running().unwrap());
    assert!(dir.claim().is_err(), "a second claim");
    let lock = dir.open_lock().unwrap();
    assert!(!wait_ended(&lock, Duration::from_millis(1)).unwrap());
    let stopping = dir.claim_stopping().unwrap();
    assert_eq!(
        dir.claim_stopping().unwrap_err().kind(),
        io::ErrorKind::WouldBlock
    );
    drop(stopping);
    assert_eq!(dir.status(), None);
    dir.write_status(Status::Failed).unwrap();
    assert_eq!(dir.status(), Some(Status::Failed));
    drop(held);
    assert!(!dir.is_running().unwrap());
    assert!(wait_ended(&lock, Duration::from_secs(60)).unwrap());
    dir.remove().unwrap();
    assert_eq!(dir.pid().unwrap_err().kind(), io::ErrorKind::NotFound);
}

#[test]
fn only_a_directory_of_its_own_is_taken_and_only_its_files_removed() {
    let dir = RunDir::create().unwrap();
    dir.claim().unwrap();
    dir.write_status(Status::Stopped).unwrap();
    assert_eq!(dir.check_own(), Ok(()));
    std::fs::write(dir.path().join("data.txt"), "mine").unwrap();
    assert!(matches!(dir.check_own(), Err(Foreign::Not(why)) if why.contains("`data.txt`")),);
    // Removing takes its own files and leaves the rest (and so the directory).
    assert!(dir.remove().is_err());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("data.txt")).unwrap(),
        "mine"
    );
    assert!(!dir.path().join("pid").exists());
    std::fs::remove_file(dir.path().join("data.txt")).unwrap();
    dir.remove().unwrap();
    assert_eq!(dir.check_own(), Err(Foreign::Gone));
    let other = RunDir::at(std::env::temp_dir());
    assert!(matches!(other.check_own(), Err(Foreign::Not(why)) if why.contains("name")));
}

#[test]
fn the_token_is_read_back_only_from_a_regular_file_of_mine_with_mode_600() {
    use std::os::unix::fs::PermissionsExt;
    let dir = RunDir::create().unwrap();
    let secret = "s3cret-token";
    dir.write_token(secret).unwrap();
    let file = dir.path().join("token");
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&file), 0o600);
    assert_eq!(dir.token().as_deref(), Ok(secret));
    assert!(dir.write_token(secret).is_err(), "a second write");
    let refused = |dir: &RunDir, why: &str| {
        let error = dir.token().unwrap_err();
        assert!(error.contains(why), "{error}");
        assert!(!error.contains(secret), "{error}");
    };
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    refused(&dir, "mode 644");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o400)).unwrap();
    refused(&dir, "mode 400");
    // A second name for it, elsewhere: refused while it has one.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let second = std::env::temp_dir().join(format!("{}-second-name", hex(&random_bytes::<8>())));
    std::fs::hard_link(&file, &second).unwrap();
    refused(&dir, "2 names (hard links)");
    std::fs::remove_file(&second).unwrap();
    assert_eq!(dir.token().as_deref(), Ok(secret));
    // A link to a file that would pass: not followed.
    let elsewhere = dir.path().join("about");
    std::fs::rename(&file, &elsewhere).unwrap();
    std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &file).unwrap();
    refused(&dir, "symbolic link");
    std::fs::remove_file(&file).unwrap();
    refused(&dir, "no token file");
    // A FIFO is not waited on.
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &file,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    refused(&dir, "not a regular file");
    std::fs::remove_file(&file).unwrap();
    for text in ["", "\n", "two\nlines\n", "a space\n"] {
        std::fs::write(&file, text).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        refused(&dir, "one token on one line");
    }
    dir.remove().unwrap();
}

#[test]
fn the_emulator_that_made_it_holds_the_directory_and_its_lock() {
    if std::fs::read_dir("/proc/self/fd").is_err() {
        return; // no /proc here: `made_by` cannot tell (its callers fall back on the lock)
    }
    let dir = RunDir::create().unwrap();
    let me = std::process::id();
    let lock = dir.claim().unwrap();
    assert_eq!(
        dir.made_by(me),
        Some(false),
        "the lock alone proves nothing"
    );
    let held = dir.hold().unwrap();
    assert_eq!(dir.made_by(me), Some(true));
    assert_eq!(dir_of_process(me).map(|d| d.path), Some(dir.path.clone()));
    // A directory made by hand around a hard link to that lock is not made by this process.
    let forged = RunDir::create().unwrap();
    std::fs::hard_link(dir.path().join("lock"), forged.path().join("lock")).unwrap();
    std::fs::write(forged.path().join("pid"), format!("{me}\n")).unwrap();
    assert_eq!(forged.made_by(me), Some(false));
    drop((held, lock));
    assert_eq!(dir.made_by(me), Some(false));
    forged.remove().unwrap();
    dir.remove().unwrap();
}

#[test]
fn each_users_token_is_kept_and_read_back_as_the_token_is() {
    use std::os::unix::fs::PermissionsExt;
    let dir = RunDir::create().unwrap();
    let refused = dir.user_token("bob").unwrap_err();
    assert!(refused.contains("no tokens file"), "{refused}");
    let users = [
        ("alice".to_owned(), "tok-a".to_owned()),
        ("bob".to_owned(), "tok-b".to_owned()),
    ];
    dir.write_tokens(&users).unwrap();
    assert_eq!(dir.user_token("bob"), Ok(Some("tok-b".to_owned())));
    assert_eq!(dir.user_token("alice"), Ok(Some("tok-a".to_owned())));
    assert_eq!(dir.user_token("carol"), Ok(None));
    let file = dir.path().join("tokens");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let refused = dir.user_token("bob").unwrap_err();
    assert!(
        refused.contains("its tokens file has mode 644") && !refused.contains("tok-b"),
        "{refused}"
    );
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::write(&file, "bob\n").unwrap();
    assert!(dir
        .user_token("bob")
        .unwrap_err()
        .contains("`NAME TOKEN` lines"));
    dir.remove().unwrap();
}
