//! A shared archive's server that answers the login and then freezes (its process
//! stopped, a proxy that stops relaying): every statement has a deadline, so a check or a
//! list through it ends with one clear message, without the password, instead of hanging.
//! Between twinspot and the throw-away server sits a loopback proxy the test can freeze.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::archive_keys::run_bounded;
use crate::pg::{ADMIN, ADMIN_PASSWORD, PgServer};
use crate::util::{streams, success, twinspot};

/// The request codes of the messages that may come before a startup message
/// (SSLRequest, GSSENCRequest): the server answers each with one byte.
const PRE_STARTUP: [u32; 2] = [80_877_103, 80_877_104];

/// A loopback proxy to a PostgreSQL server. Frozen, each connection still relays the
/// login, and stops relaying both ways at the client's next statement (a simple query
/// `Q` or a parse `P`), both sockets kept open: a server that took the statement and
/// never says another word.
struct Proxy {
    port: u16,
    frozen: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    /// Every socket, to be shut down when the proxy stops (which ends its threads).
    sockets: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn start(upstream: u16) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let proxy = Self { port, frozen: Arc::default(), stop: Arc::default(), sockets: Arc::default() };
        let (frozen, stop, sockets) = (proxy.frozen.clone(), proxy.stop.clone(), proxy.sockets.clone());
        std::thread::Builder::new()
            .name("proxy-listener".to_string())
            .spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    match listener.accept() {
                        Ok((client, _)) => relay(client, upstream, (&frozen, &stop), &sockets),
                        Err(_) => std::thread::sleep(Duration::from_millis(10)),
                    }
                }
            })
            .unwrap();
        proxy
    }

    /// From now on, each connection freezes at its next statement.
    fn freeze(&self) {
        self.frozen.store(true, Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for socket in self.sockets.lock().unwrap().iter() {
            socket.shutdown(Shutdown::Both).ok();
        }
    }
}

/// Relays `client` to the server on `upstream`, each way on a thread of its own.
fn relay(
    client: TcpStream,
    upstream: u16,
    (frozen, stop): (&Arc<AtomicBool>, &Arc<AtomicBool>),
    sockets: &Mutex<Vec<TcpStream>>,
) {
    client.set_nonblocking(false).unwrap();
    let server = TcpStream::connect(("127.0.0.1", upstream)).unwrap();
    sockets.lock().unwrap().extend([client.try_clone().unwrap(), server.try_clone().unwrap()]);
    let this_frozen = Arc::new(AtomicBool::new(false));
    let (from, to) = (client.try_clone().unwrap(), server.try_clone().unwrap());
    let (frozen, stop_up, here) = (frozen.clone(), stop.clone(), this_frozen.clone());
    std::thread::Builder::new()
        .name("proxy-up".to_string())
        .spawn(move || {
            relay_statements(from, to, &frozen, &here);
            // Frozen (or closed): the sockets stay open until the proxy stops.
            while !stop_up.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(20));
            }
        })
        .unwrap();
    std::thread::Builder::new()
        .name("proxy-down".to_string())
        .spawn(move || {
            let (mut from, mut to) = (server, client);
            let mut buffer = [0u8; 16 * 1024];
            while let Ok(n) = from.read(&mut buffer) {
                if n == 0 || this_frozen.load(Ordering::SeqCst) || to.write_all(&buffer[..n]).is_err() {
                    break;
                }
            }
        })
        .unwrap();
}

/// Relays the client's messages to the server, one whole message at a time, until the
/// connection ends or, the proxy frozen, the client sends a statement: then marks the
/// connection `here` frozen and returns without sending it.
fn relay_statements(mut from: TcpStream, mut to: TcpStream, frozen: &AtomicBool, here: &AtomicBool) {
    let mut read = |n: usize| -> Option<Vec<u8>> {
        let mut bytes = vec![0u8; n];
        from.read_exact(&mut bytes).ok().map(|()| bytes)
    };
    // The startup message, after any SSL or GSS request: a length, no type.
    loop {
        let Some(length) = read(4) else { return };
        let n = u32::from_be_bytes(length[..].try_into().unwrap()) as usize;
        let Some(body) = read(n - 4) else { return };
        if to.write_all(&length).and_then(|()| to.write_all(&body)).is_err() {
            return;
        }
        let code = u32::from_be_bytes(body[..4].try_into().unwrap());
        if !PRE_STARTUP.contains(&code) {
            break;
        }
    }
    // Then typed messages: a type byte and a length.
    loop {
        let Some(head) = read(5) else { return };
        let n = u32::from_be_bytes(head[1..5].try_into().unwrap()) as usize;
        if frozen.load(Ordering::SeqCst) && matches!(head[0], b'Q' | b'P') {
            here.store(true, Ordering::SeqCst);
            return;
        }
        let Some(body) = read(n - 4) else { return };
        if to.write_all(&head).and_then(|()| to.write_all(&body)).is_err() {
            return;
        }
    }
}

#[test]
fn a_server_that_freezes_after_the_login_is_one_message_within_the_statement_deadline() {
    let server = PgServer::start();
    let proxy = Proxy::start(server.port);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("essays")).unwrap();
    let body: String =
        (0..40).map(|i| format!("Essay line {i}: glaciers grind valleys over {i} long ages. ")).collect();
    std::fs::write(dir.join("essays/e1.txt"), &body).unwrap();
    // The statement deadline lowered to 2 s, as a user may set it in the URL.
    let url = format!(
        "postgresql://{ADMIN}:{ADMIN_PASSWORD}@127.0.0.1:{}/postgres?sslmode=disable&twinspot_deadline=2",
        proxy.port
    );
    success(&twinspot(dir, &["archive", "add", &url, "essays", "-q"]));
    let listed = success(&twinspot(dir, &["archive", "list", &url]));
    assert!(listed.contains("e1.txt"), "{listed}");
    proxy.freeze();
    for args in [&["archive", "check", url.as_str(), "essays", "-q"][..], &["archive", "list", url.as_str()]] {
        let (out, took) = run_bounded(dir, args, Duration::from_secs(20));
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        let all = streams(&out);
        assert!(took >= Duration::from_secs(2) && took < Duration::from_secs(6), "{args:?} took {took:?}: {all}");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {all}");
        let address = format!("the archive server 127.0.0.1:{} (", proxy.port);
        assert!(said.contains(&address) && said.contains("did not answer within 2 s"), "{said}");
        assert!(said.contains("twinspot_deadline=SECONDS"), "{said}");
        assert_eq!(said.lines().count(), 1, "one message: {said}");
        assert!(!all.contains(ADMIN_PASSWORD), "the password shown: {all}");
    }
    // The server itself is fine: straight to it, the archive lists.
    let started = Instant::now();
    let direct = success(&twinspot(dir, &["archive", "list", &server.url()]));
    assert!(direct.contains("e1.txt") && started.elapsed() < Duration::from_secs(10), "{direct}");
}
