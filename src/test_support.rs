//! What the integration tests (`tests/`), the benches (`benches/`) and the fuzz targets
//! (`fuzz/fuzz_targets/`) use from the client, and nothing else. It is not an API: safe-ad is a
//! command, its library is only what the binary and these need, and any of this may change
//! with any release.
//!
//! Each item is re-exported under the name of the module it lives in, so
//! `test_support::cli::options_of` is `cli::options_of`.

pub mod cli {
    pub use crate::cli::{
        options_of, spec_of, ClientOptions, Names, Opt, Opts, Reaches, SaveWith, Shell, Spec,
        CLIENT_OPTIONS, COMMANDS,
    };
}

pub mod config_file {
    pub use crate::config_file::{parse, Key};
}

pub mod generate {
    pub use crate::generate::completion;

    pub mod man {
        pub use crate::generate::man::{list, page, pages};
    }
}

pub mod handle {
    pub use crate::handle::Handle;
}

pub mod help {
    pub use crate::help::{command, exit_codes_of, EXAMPLES};
}

pub mod launcher {
    pub use crate::launcher::{
        url_for, HandleKind, Operation, Request, StructuredFetched, OPERATIONS,
    };

    pub mod serialised {
        pub use crate::launcher::serialised::{
            fingerprint, full, is_text, preview, MAX_PREVIEW_CHARS,
        };
    }
}

pub mod name {
    pub use crate::name::Name;
}

pub mod outcome {
    pub use crate::outcome::{describe_body, ExitCodeRow, EXIT_CODES};
}

pub mod report {
    /// The `--json` objects' key tables, which docs/output.md's are written from.
    pub mod json {
        pub use crate::report::json::{table, Row, Table, TABLES};
    }
}

pub mod saving {
    pub use crate::saving::{markdown, roff};
}

pub mod secret {
    pub use crate::secret::Secret;
}

pub mod settings {
    pub use crate::settings::{
        resolve, ConfigRead, Environment, Reader, Spelling, StdinUse, ENV_VARS,
    };
}

pub mod signals {
    pub use crate::signals::REPEAT_WINDOW;
}

pub mod url {
    pub use crate::url::parse_launcher_url;
}

pub mod values {
    pub use crate::values::DEFAULT_TIMEOUT_SECS;
}

pub mod wire {
    pub use crate::wire::{decode_any, AppendableData, DataId, DataKind};
}
