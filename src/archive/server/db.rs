//! One connection to the shared archive's server whose every statement has a deadline:
//! a server that answered the login and then froze is given up on, never waited for.
//!
//! The synchronous `postgres` client takes no timeout, so this is its small equivalent:
//! a current-thread tokio runtime, a `tokio_postgres` client and its connection, polled
//! together in `block_on` as the `postgres` crate polls them, each statement under
//! `tokio::time::timeout`. A statement past its deadline is [`SqlError::NoAnswer`], and
//! the connection is then closed: nothing more is sent on it, and every later statement
//! fails at once with the same error (so that it is said once, not waited for again).
//!
//! Two deadlines ([`Deadlines`]): one for ordinary statements, one for maintenance
//! statements that may legitimately run for minutes (see [`Sql::patiently`]).

use std::future::{Future, poll_fn};
use std::io::Cursor;
use std::pin::{Pin, pin};
use std::task::Poll;
use std::time::Duration;

use futures_util::SinkExt;
use tokio_postgres::error::{DbError, SqlState};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Row, Statement, ToStatement};

/// How long an ordinary statement may go without an answer: a check's lookups, a list,
/// a catalog read, a statement of an add's batch. Each takes milliseconds to a few
/// seconds on a large archive (docs/shared-archive.md); thirty seconds is far beyond
/// that and still short enough that a frozen server is one message while the user waits.
pub const STATEMENT_DEADLINE: Duration = Duration::from_secs(30);

/// How long a maintenance statement may go without an answer: `compact`'s fold and
/// `VACUUM`, the count of every posting (`stats`), a schema's creation or upgrade, a
/// batch's COPY of postings, and the wait for the writers' lock (held by another adder's
/// batch or a `compact`). The first fold of 100,000 documents took 22 minutes, most of it
/// in two statements; two hours leaves room for several times that archive.
pub const MAINTENANCE_DEADLINE: Duration = Duration::from_secs(2 * 60 * 60);

/// The largest message of a COPY's data: a batch's share of postings may be many
/// megabytes, sent as messages of moderate size as the `postgres` crate sends them.
const COPY_PIECE: usize = 64 * 1024;

/// The URL parameter that sets [`STATEMENT_DEADLINE`] (seconds).
pub const STATEMENT_SETTING: &str = "twinspot_deadline";

/// The URL parameter that sets [`MAINTENANCE_DEADLINE`] (seconds).
pub const MAINTENANCE_SETTING: &str = "twinspot_maintenance_deadline";

/// The deadlines of a connection's statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// For an ordinary statement.
    pub statement: Duration,
    /// For a maintenance statement.
    pub maintenance: Duration,
}

impl Default for Deadlines {
    fn default() -> Self {
        Self { statement: STATEMENT_DEADLINE, maintenance: MAINTENANCE_DEADLINE }
    }
}

/// A failed statement.
#[derive(Debug, thiserror::Error)]
pub enum SqlError {
    /// The server's error, or the connection's.
    #[error("{0}")]
    Server(tokio_postgres::Error),
    /// No answer within `waited` (set by the URL parameter `setting`): the connection
    /// is given up.
    #[error("no answer within {} s", waited.as_secs())]
    NoAnswer { waited: Duration, setting: &'static str },
}

impl SqlError {
    /// The server's own error, when it answered with one.
    pub fn as_db_error(&self) -> Option<&DbError> {
        match self {
            Self::Server(e) => e.as_db_error(),
            Self::NoAnswer { .. } => None,
        }
    }

    /// The SQLSTATE of the server's error.
    pub fn code(&self) -> Option<&SqlState> {
        match self {
            Self::Server(e) => e.code(),
            Self::NoAnswer { .. } => None,
        }
    }
}

impl From<tokio_postgres::Error> for SqlError {
    fn from(error: tokio_postgres::Error) -> Self {
        Self::Server(error)
    }
}

/// The connection's driver: it sends what the client queues and reads what comes back.
type Driver = Pin<Box<dyn Future<Output = Result<(), tokio_postgres::Error>> + Send>>;

/// A connection still in use.
struct Live {
    runtime: tokio::runtime::Runtime,
    client: tokio_postgres::Client,
    connection: Driver,
    /// The connection's driver has finished (the connection is closed).
    finished: bool,
}

/// A connection whose statements have deadlines.
pub struct Db {
    /// `None` once a statement passed its deadline.
    live: Option<Live>,
    deadlines: Deadlines,
    /// Whether statements now run with the maintenance deadline.
    patient: bool,
    /// The error of the statement that passed its deadline, for every later one.
    given_up: Option<(Duration, &'static str)>,
}

impl Db {
    /// The connection made on `runtime` (whose I/O driver holds its socket).
    pub(super) fn new<S, T>(
        runtime: tokio::runtime::Runtime,
        (client, connection): (tokio_postgres::Client, tokio_postgres::Connection<S, T>),
        deadlines: Deadlines,
    ) -> Self
    where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
        T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let live = Live { runtime, client, connection: Box::pin(connection), finished: false };
        Self { live: Some(live), deadlines, patient: false, given_up: None }
    }

    /// The deadline of the next statement and the URL parameter that sets it.
    fn deadline(&self) -> (Duration, &'static str) {
        match self.patient {
            true => (self.deadlines.maintenance, MAINTENANCE_SETTING),
            false => (self.deadlines.statement, STATEMENT_SETTING),
        }
    }

    /// Runs `statement` on the client, the connection driven beside it, within the
    /// deadline; past it, the connection is closed for good.
    fn run<R>(
        &mut self,
        statement: impl AsyncFnOnce(&tokio_postgres::Client) -> Result<R, tokio_postgres::Error>,
    ) -> Result<R, SqlError> {
        if let Some((waited, setting)) = self.given_up {
            return Err(SqlError::NoAnswer { waited, setting });
        }
        let (deadline, setting) = self.deadline();
        let Some(Live { runtime, client, connection, finished }) = &mut self.live else {
            return Err(SqlError::NoAnswer { waited: deadline, setting });
        };
        let outcome = runtime.block_on(async {
            let mut statement = pin!(tokio::time::timeout(deadline, statement(client)));
            poll_fn(|cx| {
                // As the `postgres` crate does: the connection's own error (the server
                // gone mid-statement) is the statement's.
                if !*finished {
                    match connection.as_mut().poll(cx) {
                        Poll::Ready(Err(e)) => {
                            *finished = true;
                            return Poll::Ready(Ok(Err(e)));
                        }
                        Poll::Ready(Ok(())) => *finished = true,
                        Poll::Pending => {}
                    }
                }
                statement.as_mut().poll(cx)
            })
            .await
        });
        match outcome {
            Ok(answer) => answer.map_err(SqlError::Server),
            Err(_elapsed) => {
                self.give_up(deadline, setting);
                Err(SqlError::NoAnswer { waited: deadline, setting })
            }
        }
    }

    /// Closes the connection without a word to the server (which does not answer): its
    /// socket is closed, so the server, if it wakes, rolls back what was not committed.
    fn give_up(&mut self, waited: Duration, setting: &'static str) {
        self.given_up = Some((waited, setting));
        if let Some(live) = self.live.take() {
            let Live { runtime, client, connection, .. } = live;
            drop((client, connection));
            runtime.shutdown_background();
        }
    }

    /// Begins a transaction, ended by [`Tx::commit`] or rolled back when dropped.
    pub fn transaction(&mut self) -> Result<Tx<'_>, SqlError> {
        self.batch_execute("BEGIN")?;
        Ok(Tx { db: self, open: true })
    }
}

impl Drop for Db {
    /// Says goodbye to the server as the `postgres` crate does (the client dropped, the
    /// connection sends its last message and closes), within the statement deadline.
    fn drop(&mut self) {
        if let Some(Live { runtime, client, connection, finished }) = self.live.take() {
            drop(client);
            if !finished {
                // Closing is best effort: a server that does not take the goodbye within
                // the deadline loses the connection as a lost client's.
                let closed =
                    runtime.block_on(async { tokio::time::timeout(self.deadlines.statement, connection).await });
                drop(closed);
            }
            runtime.shutdown_background();
        }
    }
}

/// A transaction on a [`Db`]: rolled back when dropped uncommitted.
pub struct Tx<'a> {
    db: &'a mut Db,
    open: bool,
}

impl Tx<'_> {
    /// Commits the transaction.
    pub fn commit(mut self) -> Result<(), SqlError> {
        self.open = false;
        self.db.batch_execute("COMMIT")
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.open && self.db.given_up.is_none() {
            // A rollback that fails leaves the connection broken, and the server rolls
            // the transaction back as it closes: the error that ended the transaction
            // early is the one told.
            drop(self.db.batch_execute("ROLLBACK"));
        }
    }
}

/// What the archive's statements run on: a connection or a transaction of it (as the
/// `postgres` crate's `GenericClient`).
pub trait Sql {
    /// The connection.
    fn db(&mut self) -> &mut Db;

    /// The rows of `statement`.
    fn query<T: ?Sized + ToStatement>(
        &mut self,
        statement: &T,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, SqlError> {
        self.db().run(async |c| c.query(statement, params).await)
    }

    /// The one row of `statement`.
    fn query_one<T: ?Sized + ToStatement>(
        &mut self,
        statement: &T,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Row, SqlError> {
        self.db().run(async |c| c.query_one(statement, params).await)
    }

    /// The row of `statement`, if any.
    fn query_opt<T: ?Sized + ToStatement>(
        &mut self,
        statement: &T,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, SqlError> {
        self.db().run(async |c| c.query_opt(statement, params).await)
    }

    /// Runs `statement`; the rows it changed.
    fn execute<T: ?Sized + ToStatement>(
        &mut self,
        statement: &T,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, SqlError> {
        self.db().run(async |c| c.execute(statement, params).await)
    }

    /// Runs `statements` (several, separated by `;`, without parameters).
    fn batch_execute(&mut self, statements: &str) -> Result<(), SqlError> {
        self.db().run(async |c| c.batch_execute(statements).await)
    }

    /// Prepares `query`.
    fn prepare(&mut self, query: &str) -> Result<Statement, SqlError> {
        self.db().run(async |c| c.prepare(query).await)
    }

    /// Runs `COPY … FROM STDIN` statement `sql` with `data`, sent in pieces of
    /// 64 KiB; the rows copied.
    fn copy_in(&mut self, sql: &str, data: &[u8]) -> Result<u64, SqlError> {
        self.db().run(async |c| {
            let sink = c.copy_in::<_, Cursor<Vec<u8>>>(sql).await?;
            let mut sink = pin!(sink);
            for piece in data.chunks(COPY_PIECE) {
                sink.send(Cursor::new(piece.to_vec())).await?;
            }
            sink.as_mut().finish().await
        })
    }

    /// Runs `work` with the maintenance deadline for its statements.
    fn patiently<R>(&mut self, work: impl FnOnce(&mut Self) -> R) -> R
    where
        Self: Sized,
    {
        let before = std::mem::replace(&mut self.db().patient, true);
        let out = work(self);
        self.db().patient = before;
        out
    }
}

impl Sql for Db {
    fn db(&mut self) -> &mut Db {
        self
    }
}

impl Sql for Tx<'_> {
    fn db(&mut self) -> &mut Db {
        self.db
    }
}
