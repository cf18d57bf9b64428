//! The engine's own thread, behind a bounded queue. A statement runs
//! right on the runtime thread it arrived on when no other statement is
//! running on one (the cheapest path, and pipelined requests are answered
//! in one go); while one is, the others come here and wait without holding
//! a runtime thread — so a long scan holds up at most one runtime thread,
//! and every other connection's reads, OPTIONS and new connections are
//! still served.

use std::panic::{catch_unwind, AssertUnwindSafe};

use tokio::sync::{mpsc, oneshot};

/// Statements waiting for the engine at most; a connection sends one at a
/// time, so past this many connections at once a sender waits its turn.
const QUEUE: usize = 1024;

type Job = Box<dyn FnOnce() + Send>;

/// The queue in front of the engine thread. The thread ends when the
/// executor is dropped.
#[derive(Debug)]
pub struct Executor {
    jobs: mpsc::Sender<Job>,
}

/// The engine thread is gone (it could not be started).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

/// How a job ended: its result, or the message of its panic (a bug, which
/// the engine thread outlives).
pub type Outcome<R> = Result<R, String>;

impl Executor {
    /// Starts the engine thread.
    pub fn start() -> Executor {
        let (jobs, mut queue) = mpsc::channel::<Job>(QUEUE);
        let spawned = std::thread::Builder::new()
            .name("widerow-engine".into())
            .spawn(move || {
                while let Some(job) = queue.blocking_recv() {
                    job();
                }
            });
        if let Err(e) = spawned {
            // Every `run` then answers `Stopped`, which the caller turns
            // into a server error for the request.
            eprintln!("widerow: cannot start the engine thread: {e}");
        }
        Executor { jobs }
    }

    /// Runs `job` on the engine thread and waits for it without holding a
    /// runtime thread.
    pub async fn run<R: Send + 'static>(
        &self,
        job: impl FnOnce() -> R + Send + 'static,
    ) -> Result<Outcome<R>, Stopped> {
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move || {
            let outcome = catch_unwind(AssertUnwindSafe(job)).map_err(panic_message);
            let _ = answer.send(outcome);
        });
        self.jobs.send(job).await.map_err(|_| Stopped)?;
        answered.await.map_err(|_| Stopped)
    }
}

fn panic_message(panic: Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the statement failed inside the engine".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_run_in_order_and_a_panic_is_an_answer_not_the_end() {
        let executor = Executor::start();
        let first = executor.run(|| 1).await.unwrap();
        let failed = executor.run(|| -> i32 { panic!("boom") }).await.unwrap();
        let after = executor.run(|| 3).await.unwrap();
        assert_eq!(first, Ok(1));
        assert_eq!(failed, Err("boom".to_string()));
        assert_eq!(after, Ok(3));
    }
}
