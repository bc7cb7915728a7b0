//! `cargo +nightly fuzz run lock`: the lock-file reader. Never a panic or hang; a lock it
//! accepts renders to a text it reads back as the same lock.
#![no_main]

use catalogc::lock::Lock;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(lock) = Lock::parse(text) else {
        return;
    };
    let rendered = lock.render();
    let back = Lock::parse(&rendered).expect("a rendered lock reads back");
    assert_eq!(back, lock, "round trip");
    assert_eq!(back.render(), rendered, "rendering is stable");
});
