//! The language server's framing (`catalogc::lsp::framing`): any byte stream reads as
//! messages and JSON-RPC error answers until it ends, never a panic, never an allocation
//! the stream did not pay for, and every frame consumes input.
#![no_main]

use catalogc::lsp::framing::{Frame, read_frame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut r = std::io::BufReader::new(data);
    for _ in 0..=data.len() {
        match read_frame(&mut r) {
            Ok(Frame::End) | Err(_) => return,
            Ok(Frame::Reply(v)) => {
                let code = v["error"]["code"].as_i64();
                assert!(matches!(code, Some(-32700 | -32600)), "{v}");
            }
            Ok(Frame::Message(_)) => {}
        }
    }
    panic!("more frames than bytes of input");
});
