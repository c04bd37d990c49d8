//! The session's handles at the prompt: `.keep` keeps one (named at the end), a dropped variable
//! and a hint read as typed, handles a line made elsewhere given back where and as they were made,
//! and nearing the launcher's hundred handles said.

use super::*;

#[test]
fn a_kept_handle_stays_held_and_is_named_at_the_end() {
    let Some((emulator, _sandbox, shell)) = session() else {
        return;
    };
    let first = emulator.next_handle();
    let kept = created_handle(&shell.run("k = create --put"));
    let given = created_handle(&shell.run("g = create --put"));
    let screen = shell.run(&format!(".keep {kept}"));
    assert!(
        screen.contains(&format!("handle {kept} will be kept when the session ends")),
        "{screen}"
    );
    // `.handles`: one line each (the terminal shows its tabs as spaces), the kept one marked.
    let screen = shell.run(".handles");
    let listed = |handle: u64| -> Vec<String> {
        let words = screen
            .lines()
            .map(|line| line.split_whitespace().collect::<Vec<_>>())
            .find(|words| words.first() == Some(&handle.to_string().as_str()))
            .unwrap_or_else(|| panic!("{handle} is not listed:\n{screen}"));
        words.into_iter().map(str::to_owned).collect()
    };
    let kept_line = listed(kept);
    assert_eq!(kept_line[1], "appendable-data", "{screen}");
    assert_eq!(kept_line[3..].join(" "), "(kept at the end)", "{screen}");
    assert_eq!(listed(given).len(), 3, "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    let screen = shell.screen.whole();
    assert!(
        screen.contains(&format!(
            "giving back the 1 handle this session made: {given}"
        )),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("safe-ad: kept handle {kept} (name ")),
        "{screen}"
    );
    assert_eq!(
        emulator.handles_since(first),
        vec![("appendable-data", kept)],
        "{screen}"
    );
}

/// At the prompt too, a variable whose handle the session dropped is said to be dropped, by
/// a line and by `.keep`, with nothing sent; and a hint names its command as typed there.
#[test]
fn a_dropped_variable_and_a_hint_read_as_typed_at_the_prompt() {
    let Some((emulator, _sandbox, shell)) = session() else {
        return;
    };
    let made = created_handle(&shell.run("h = create --put"));
    shell.run("drop $h");
    let sent = emulator.requests().len();
    let said = format!(
        "`$h` held handle {made}, which this session dropped with `drop $h`; nothing was sent"
    );
    let screen = shell.run("metadata $h");
    assert_eq!(screen.matches(&said).count(), 1, "{screen}");
    assert_eq!(shell.typed(), "safe-ad [2]>", "{screen}");
    let screen = shell.run(".keep $h");
    assert_eq!(screen.matches(&said).count(), 2, "{screen}");
    assert_eq!(
        emulator.requests().len(),
        sent,
        "a request was sent:\n{screen}"
    );
    let screen = shell.run("clear-data 99");
    assert!(
        screen.contains("get one with `open` (with the data's name) or `create`"),
        "{screen}"
    );
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
}

/// Handles a line made at another launcher than the session's (`--launcher-url`, with a token
/// of its own from `--token-file`) are given back there, the way the line reached it, and the
/// same number at the session's launcher, a handle of the person's made outside the session, is
/// left alone.
#[test]
fn the_handles_a_line_made_elsewhere_are_given_back_where_and_as_they_were_made() {
    if !have("tmux") {
        return;
    }
    const OTHER: &str = "another.t0ken.for-the-second-launcher";
    let home = Emulator::start(&[]);
    let elsewhere = Emulator::spawn(
        SafeAd::new()
            .args(["emulator", "--listen", "127.0.0.1:0", "--token", OTHER])
            .token_may_show(),
    );
    let sandbox = Sandbox::new();
    let other_token = sandbox.path().join("other-token");
    std::fs::write(&other_token, format!("{OTHER}\n")).expect("written");
    // The person's own handle at the session's launcher, made before the session.
    let first_home = home.next_handle();
    let mine = sandbox
        .safe_ad()
        .launcher(&home.url)
        .args(["create", "--put"])
        .run()
        .code(0)
        .stdout()
        .trim()
        .parse::<u64>()
        .expect("a handle");
    let shell = Shell::with_history(&sandbox, &home.url);
    let elsewhere_held = || {
        let handles = elsewhere.http("GET", "/_emulator/handles", Some(OTHER), None);
        (handles.json()["appendableData"]
            .as_array()
            .into_iter()
            .flatten())
        .filter_map(|entry| entry["handle"].as_u64())
        .filter(|&handle| handle >= 6)
        .collect::<Vec<u64>>()
    };
    let made = created_handle(&shell.run(&format!(
        "h = create --put --launcher-url {} --token-file {}",
        elsewhere.url,
        other_token.display()
    )));
    assert_eq!(made, mine, "the same number at both: the case that matters");
    assert_eq!(elsewhere_held(), vec![made]);
    // And one at the session's own launcher: `.handles` then says which launcher each is at.
    let at_home = created_handle(&shell.run("create --put"));
    let screen = shell.run(".handles");
    let listed = |handle: u64, url: &str| {
        screen
            .lines()
            .any(|line| line.starts_with(&format!("{handle} ")) && line.contains(url))
    };
    assert!(listed(made, &elsewhere.url), "{screen}");
    assert!(listed(at_home, &home.url), "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    assert_eq!(
        elsewhere_held(),
        Vec::<u64>::new(),
        "{}",
        shell.screen.whole()
    );
    assert_eq!(
        home.handles_since(first_home),
        vec![("appendable-data", mine)],
        "{}",
        shell.screen.whole()
    );
}

/// A line that takes the session's handles to 90 says once that the launcher keeps 100 of a
/// kind; `.handles` says it again, under its list.
#[test]
fn nearing_the_launchers_hundred_handles_is_said() {
    let Some((emulator, _sandbox, shell)) = session() else {
        return;
    };
    let first = emulator.next_handle();
    shell.run(&vec!["create"; 89].join("; "));
    assert!(!shell.screen.whole().contains("the launcher keeps 100"));
    let screen = shell.run("create");
    assert_eq!(
        screen
            .matches("this session holds 90 appendable-data handles")
            .count(),
        1,
        "{screen}"
    );
    let screen = shell.run(".handles");
    assert_eq!(
        screen
            .matches("this session holds 90 appendable-data handles")
            .count(),
        2,
        "{screen}"
    );
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    assert_eq!(emulator.handles_since(first), vec![]);
}
