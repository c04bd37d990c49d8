//! A correction to clap_complete's zsh script (4.6): a positional argument with nothing to
//! complete (a handle, a name, a config value) gets an empty action, which makes `_arguments`
//! show the argument's description as a message; with a message shown, zsh lists a single
//! matching option instead of inserting it (`safe-ad clear-data --sa<TAB>` stayed as typed).
//! Such an argument completes with `_nothing` instead: nothing, and no message in the way.

/// The corrected script.
pub fn corrected(script: &str) -> String {
    let mut fixed = String::with_capacity(script.len() + 256);
    for line in script.split_inclusive('\n') {
        let positional = ["':", "'*:"].iter().any(|start| line.starts_with(start));
        match line.strip_suffix(":' \\\n") {
            Some(spec) if positional => {
                fixed.push_str(spec);
                fixed.push_str(":_nothing' \\\n");
            }
            _ => fixed.push_str(line),
        }
    }
    fixed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positionals_without_an_action_complete_nothing() {
        let script = "'--jobs=[N]:N:' \\\n'*::handles -- Handles:' \\\n':key -- Key:(a b)' \\\n";
        assert_eq!(
            corrected(script),
            "'--jobs=[N]:N:' \\\n'*::handles -- Handles:_nothing' \\\n':key -- Key:(a b)' \\\n"
        );
    }
}
