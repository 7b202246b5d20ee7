//! A `volley serve` child process on a loopback port: what the fault, multi-process and load
//! tests start, kill with SIGKILL and start again. Dropping it kills it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A free loopback port (the operating system's choice; free when this returns).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a loopback port")
}

/// A server process: the program, its database, its port and its extra options.
pub struct ServerProcess {
    exe: PathBuf,
    db: String,
    args: Vec<String>,
    pub port: u16,
    child: Option<Child>,
}

impl ServerProcess {
    /// Start `exe serve` on a free loopback port with database `db` and `args`, and wait
    /// until it answers.
    pub fn start(exe: &Path, db: &str, args: &[&str]) -> Result<ServerProcess, String> {
        let mut p = ServerProcess {
            exe: exe.to_path_buf(),
            db: db.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
            port: free_port(),
            child: None,
        };
        p.restart()?;
        Ok(p)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// SIGKILL, and wait for it to be gone.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Start it (again) on the same port and database, and wait until it answers (20 s).
    pub fn restart(&mut self) -> Result<(), String> {
        self.kill();
        let child = Command::new(&self.exe)
            .args(["serve", "--addr", &format!("127.0.0.1:{}", self.port), "--db", &self.db])
            .args(&self.args)
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: {e}", self.exe.display()))?;
        self.child = Some(child);
        for _ in 0..400 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        self.kill();
        Err(format!("the server did not come up on port {}", self.port))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
