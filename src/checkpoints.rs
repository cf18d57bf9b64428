//! Named snapshots of a session and a clock that moves on command — what
//! `CLUSTER SNAPSHOT`, `RESTORE`, `RESET` and `CLOCK` do, in the shell and
//! over the wire alike, so a test can start every case from the same data
//! and expire a TTL without sleeping.

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::{Error, ErrorKind};
use crate::session::OffsetClock;
use crate::types::serialize::parse_timestamp;
use crate::Session;

/// The snapshots taken so far, the session as it started, and the clock
/// installed on it.
#[derive(Debug)]
pub struct Checkpoints {
    initial: Session,
    named: HashMap<String, Session>,
    clock: Arc<OffsetClock>,
}

impl Checkpoints {
    /// Installs a movable clock on `session` and keeps the session as it
    /// is now, to reset to.
    pub fn new(session: &mut Session) -> Checkpoints {
        let clock = Arc::new(OffsetClock::new(session.clock()));
        session.set_clock(clock.clone());
        Checkpoints {
            initial: session.clone(),
            named: HashMap::new(),
            clock,
        }
    }

    /// `CLUSTER SNAPSHOT name`: the schema and data as they are now.
    pub fn snapshot(&mut self, name: &str, session: &Session) {
        self.named.insert(name.to_string(), session.clone());
    }

    /// `CLUSTER RESTORE name`.
    pub fn restore(&self, name: &str, session: &mut Session) -> Result<(), Error> {
        let snapshot = self
            .named
            .get(name)
            .ok_or_else(|| invalid(format!("No snapshot named '{name}'")))?;
        restore_keeping_nodes(session, snapshot);
        Ok(())
    }

    /// `CLUSTER RESET`: back to the session as it started.
    pub fn reset(&self, session: &mut Session) {
        restore_keeping_nodes(session, &self.initial);
    }

    /// `CLUSTER CLOCK SET 'timestamp'`.
    pub fn set_clock(&self, text: &str, session: &Session) -> Result<(), Error> {
        let millis = parse_timestamp(text, || session.now_micros() / 1000)
            .map_err(|e| invalid(e.message()))?;
        self.clock.set_micros(millis.saturating_mul(1000));
        Ok(())
    }

    /// `CLUSTER CLOCK ADVANCE duration`: seconds, or a CQL duration of
    /// days or less.
    pub fn advance_clock(&self, text: &str) -> Result<(), Error> {
        self.clock.advance_micros(advance_micros(text)?);
        Ok(())
    }
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidRequest, message)
}

/// Restores `snapshot`, keeping each node up or down as it is now (node
/// state is the cluster's, not the data's).
fn restore_keeping_nodes(session: &mut Session, snapshot: &Session) {
    let states: Vec<(String, bool)> = session
        .context()
        .ring
        .nodes()
        .iter()
        .map(|n| (n.id.clone(), n.up))
        .collect();
    session.restore(snapshot);
    let ring = &mut session.context_mut().ring;
    for (id, up) in states {
        let _ = if up {
            ring.set_up(&id)
        } else {
            ring.set_down(&id)
        };
    }
}

/// A duration without months (`1h30m`, `P2D`) or whole seconds, in
/// microseconds.
fn advance_micros(text: &str) -> Result<i64, Error> {
    if let Ok(seconds) = text.parse::<i64>() {
        return Ok(seconds.saturating_mul(1_000_000));
    }
    let duration = crate::types::duration::parse_duration(text).map_err(invalid)?;
    if duration.months != 0 {
        return Err(invalid(
            "CLUSTER CLOCK ADVANCE takes days or less (months have no fixed length)",
        ));
    }
    let day_micros = 86_400_000_000i64;
    Ok(i64::from(duration.days)
        .saturating_mul(day_micros)
        .saturating_add(duration.nanos / 1000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_advance_the_clock() {
        assert_eq!(advance_micros("90").unwrap(), 90_000_000);
        assert_eq!(advance_micros("1h30m").unwrap(), 5_400_000_000);
        assert_eq!(advance_micros("2d").unwrap(), 2 * 86_400_000_000);
        assert!(advance_micros("1mo").is_err());
        assert!(advance_micros("soon").is_err());
    }
}
