//! The YAML parser's floor as a process: reads each file named on the
//! command line and runs `saphyr-parser`'s event loop over it, as a
//! check's first pass does, and nothing else. Counting its instructions
//! beside `agentc check` of the same files gives the check's ratio to the
//! parser it cannot be faster than (`docs/performance.md`, "The parser at
//! its floor"):
//!
//! ```text
//! cargo build --profile bench --bin agentc --example floor
//! valgrind --tool=callgrind target/release/examples/floor FILE...
//! valgrind --tool=callgrind target/release/agentc check FILE
//! ```

use saphyr_parser::{Event, Parser};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut events = 0usize;
    for path in std::env::args_os().skip(1) {
        let text = match std::fs::read(&path).map(String::from_utf8) {
            Ok(Ok(text)) => text,
            _ => {
                // Quoted and escaped: a name may hold control characters.
                eprintln!("{path:?}: not a readable UTF-8 file");
                return ExitCode::FAILURE;
            }
        };
        for event in Parser::new_from_str(&text) {
            match event {
                Ok((Event::StreamEnd, _)) | Err(_) => break,
                Ok(_) => events += 1,
            }
        }
    }
    println!("{events} events");
    ExitCode::SUCCESS
}
