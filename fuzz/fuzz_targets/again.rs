#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| agentc_fuzz::again(bytes));
