//! A `watch` started at the prompt: its changes print above the line being typed and it stops with
//! the session; one with bad words is refused and starts nothing.

use super::*;

/// A structured data name for an append.
const ITEM: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

#[test]
fn a_watch_prints_changes_above_the_line_being_typed_and_stops_with_the_session() {
    let Some((emulator, sandbox, shell)) = session() else {
        return;
    };
    let first = emulator.next_handle();
    shell.run(".watch 5 --interval 0.05");
    shell.screen.wait_for("[watch 1] 5: watching: version");
    // Half a line typed, then the data changes under it, from another process.
    shell.screen.type_text("metad");
    shell.wait_typed("safe-ad> metad");
    sandbox
        .safe_ad()
        .launcher(&emulator.url)
        .args(["append", "5", "--structured", ITEM])
        .run()
        .code(0);
    let screen = shell.screen.wait_for("[watch 1] 5: appended index");
    // The change printed above the prompt, and the line being typed kept as it was.
    shell.wait_typed("safe-ad> metad");
    let appended = (screen.lines())
        .position(|line| line.starts_with("[watch 1] 5: appended index"))
        .expect("the change's line");
    let lines: Vec<&str> = screen.lines().collect();
    let prompt = (lines.iter())
        .rposition(|line| line.starts_with("safe-ad> metad"))
        .expect("the prompt's line");
    assert!(appended < prompt, "the change above the prompt:\n{screen}");
    shell.screen.press(&["C-u"]);
    shell.wait_typed("safe-ad>");
    let screen = shell.run(".watch");
    assert!(
        screen.contains("1\twatch 5 --interval 0.05") || screen.contains("1       watch 5"),
        "{screen}"
    );
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    // The watch was stopped and waited for: every handle its polls took is given back, and
    // what it said as it stopped is not printed as news.
    assert_eq!(
        emulator.handles_since(first),
        vec![],
        "{}",
        shell.screen.whole()
    );
    assert!(
        !shell.screen.whole().contains("[watch 1] safe-ad: error"),
        "{}",
        shell.screen.whole()
    );
}

/// `.watch` with words `watch` would refuse is refused at once (exit 2 at the prompt) with
/// `watch`'s reason, and starts nothing: it once said `watch 1 started`, then the process's
/// usage error, and the prompt's code stayed 0.
#[test]
fn a_watch_with_bad_words_is_refused_and_starts_nothing() {
    let Some((emulator, _sandbox, shell)) = session() else {
        return;
    };
    let before = emulator.requests().len();
    for (words, why) in [
        ("1 --interval x", "--interval"),
        ("1 --count 0", "--count"),
        ("1 --no-such", "--no-such"),
        ("1 2", "unexpected argument"),
        ("-5", "watch"),
    ] {
        let screen = shell.run(&format!(".watch {words}"));
        let said = screen
            .lines()
            .rev()
            .find(|line| line.contains(".watch:"))
            .unwrap_or_else(|| panic!(".watch {words} refused:\n{screen}"));
        assert!(said.contains(why), ".watch {words}: {said}\n{screen}");
        assert_eq!(shell.typed(), "safe-ad [2]>", ".watch {words}:\n{screen}");
    }
    let screen = shell.run(".watch");
    assert!(screen.contains("no watch is running"), "{screen}");
    assert!(!screen.contains("started"), "{screen}");
    assert_eq!(shell.leave(), 0, "{}", shell.screen.whole());
    assert_eq!(emulator.requests().len(), before, "nothing sent");
}
