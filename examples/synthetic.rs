//! Writes one of the benchmarks' synthetic protocols to stdout, for
//! measuring the real binary (peak memory, profiles) on the same input:
//!
//! ```text
//! cargo run --release --example synthetic -- types 100000 > /tmp/big/protocol.yaml
//! ```

#[path = "../benches/synthetic/mod.rs"]
mod synthetic;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (kind, size) = match args.as_slice() {
        [kind, size] => match size.replace('_', "").parse::<usize>() {
            Ok(size) => (kind.as_str(), size),
            Err(_) => return usage(),
        },
        _ => return usage(),
    };
    let text = match kind {
        "types" => synthetic::protocol(size),
        "chain" => synthetic::chain(size),
        "union" => synthetic::wide_union(size),
        _ => return usage(),
    };
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: synthetic (types|chain|union) SIZE");
    ExitCode::from(2)
}
