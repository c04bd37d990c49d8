//! The floor program of `compare.sh`: what any client must do for one call of `safe-ad
//! clear-data 1` (connect, send the same request, read the answer), and nothing more. The
//! bench builds it with rustc alone (no crates, `-O`) into its work directory.
//!
//!   floor HOST:PORT PATH TOKEN   DELETE PATH with the token; exit 0 on a 200
//!   floor --version              one line, as `safe-ad --version`

use std::io::{Read, Write};
use std::net::TcpStream;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--version") {
        println!("floor 0.1.0");
        return;
    }
    let [_, host, path, token] = args.as_slice() else {
        eprintln!("usage: floor HOST:PORT PATH TOKEN | floor --version");
        std::process::exit(2);
    };
    let mut stream = TcpStream::connect(host.as_str()).expect("connect");
    let request =
        format!("DELETE {path} HTTP/1.1\r\nauthorization: Bearer {token}\r\nhost: {host}\r\n\r\n");
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = stream.read(&mut buf).expect("read");
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&answer);
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    if name.eq_ignore_ascii_case("content-length") {
                        value.trim().parse::<usize>().ok()
                    } else {
                        None
                    }
                })
                .unwrap_or(0);
            if answer.len() >= end + 4 + length {
                break;
            }
        }
    }
    let ok = answer.starts_with(b"HTTP/1.1 200");
    println!("{}", if ok { "cleared" } else { "failed" });
    std::process::exit(if ok { 0 } else { 1 });
}
