//! The bytes of requests in flight — received and not yet answered — kept
//! under two limits as Cassandra keeps them: one for each client address
//! (`native_transport_max_request_data_in_flight_per_ip`) and one for the
//! whole server (`native_transport_max_request_data_in_flight`).
//!
//! A request that does not fit is handled as Cassandra handles it: a
//! connection whose STARTUP asked for `THROW_ON_OVERLOAD` gets an
//! Overloaded error for it and nothing runs; any other connection is
//! answered anyway (the reserve goes over its limit) and reads nothing more
//! until the reserve is back under it — backpressure through TCP instead of
//! an error. Every byte reserved belongs to a request being answered, so a
//! paused connection always resumes.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

/// Cassandra's defaults for a 1 GiB heap (a tenth of it for the server, a
/// fortieth per client address), the figures the oracle node runs with.
pub const DEFAULT_LIMITS: Limits = Limits {
    total: 107_374_182,
    per_ip: 26_843_545,
};

/// The two limits, in bytes of request bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// For the whole server.
    pub total: u64,
    /// For each client address.
    pub per_ip: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        DEFAULT_LIMITS
    }
}

#[derive(Debug, Default)]
struct Usage {
    total: u64,
    per_ip: HashMap<IpAddr, u64>,
}

/// The bytes in flight, shared by every connection of a server.
#[derive(Debug)]
pub struct InFlight {
    limits: Limits,
    usage: Mutex<Usage>,
    released: Notify,
}

/// Bytes reserved for one request; they are given back when it is dropped,
/// once the request is answered.
#[derive(Debug)]
pub struct Reserved {
    reserve: Arc<InFlight>,
    client: IpAddr,
    bytes: u64,
}

impl InFlight {
    /// An empty reserve under `limits`.
    pub fn new(limits: Limits) -> InFlight {
        InFlight {
            limits,
            usage: Mutex::new(Usage::default()),
            released: Notify::new(),
        }
    }

    /// Reserves `bytes` for a request from `client` if both limits allow
    /// it; `None` when the request would take either past its limit.
    pub fn try_reserve(self: &Arc<Self>, client: IpAddr, bytes: u64) -> Option<Reserved> {
        let mut usage = self.usage();
        let of_client = usage.per_ip.get(&client).copied().unwrap_or(0);
        let fits = usage.total.saturating_add(bytes) <= self.limits.total
            && of_client.saturating_add(bytes) <= self.limits.per_ip;
        fits.then(|| self.take(&mut usage, client, bytes))
    }

    /// Reserves `bytes` whatever the limits say: a request from a
    /// connection that waits rather than fails is answered anyway.
    pub fn reserve_over(self: &Arc<Self>, client: IpAddr, bytes: u64) -> Reserved {
        let mut usage = self.usage();
        self.take(&mut usage, client, bytes)
    }

    /// Whether `client` or the whole server is past its limit: a
    /// connection that went over reads nothing more until this is false.
    pub fn over_limit(&self, client: IpAddr) -> bool {
        let usage = self.usage();
        let of_client = usage.per_ip.get(&client).copied().unwrap_or(0);
        usage.total > self.limits.total || of_client > self.limits.per_ip
    }

    /// Completes once neither limit that concerns `client` is passed.
    pub async fn wait_under_limit(&self, client: IpAddr) {
        loop {
            let released = self.released.notified();
            if !self.over_limit(client) {
                return;
            }
            released.await;
        }
    }

    /// The bytes in flight now, for the whole server.
    pub fn in_flight(&self) -> u64 {
        self.usage().total
    }

    fn take(self: &Arc<Self>, usage: &mut Usage, client: IpAddr, bytes: u64) -> Reserved {
        usage.total = usage.total.saturating_add(bytes);
        let of_client = usage.per_ip.entry(client).or_insert(0);
        *of_client = of_client.saturating_add(bytes);
        Reserved {
            reserve: self.clone(),
            client,
            bytes,
        }
    }

    fn usage(&self) -> MutexGuard<'_, Usage> {
        // The counts are plain numbers, whole after every change.
        self.usage.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Reserved {
    fn drop(&mut self) {
        let mut usage = self.reserve.usage();
        usage.total = usage.total.saturating_sub(self.bytes);
        if let Some(of_client) = usage.per_ip.get_mut(&self.client) {
            *of_client = of_client.saturating_sub(self.bytes);
            if *of_client == 0 {
                usage.per_ip.remove(&self.client);
            }
        }
        drop(usage);
        self.reserve.released.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 1));
    const B: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 2));

    fn reserve(total: u64, per_ip: u64) -> Arc<InFlight> {
        Arc::new(InFlight::new(Limits { total, per_ip }))
    }

    #[test]
    fn a_request_past_its_client_limit_does_not_fit_while_another_client_still_does() {
        let r = reserve(100, 60);
        let first = r.try_reserve(A, 50).expect("fits");
        assert!(r.try_reserve(A, 20).is_none());
        let other = r
            .try_reserve(B, 40)
            .expect("another client has its own limit");
        assert!(r.try_reserve(B, 20).is_none(), "the total limit is 100");
        drop(first);
        assert!(r.try_reserve(A, 20).is_some());
        drop(other);
    }

    #[test]
    fn bytes_come_back_when_the_request_is_answered() {
        let r = reserve(100, 100);
        let over = r.reserve_over(A, 150);
        assert!(r.over_limit(A));
        assert_eq!(r.in_flight(), 150);
        drop(over);
        assert!(!r.over_limit(A));
        assert_eq!(r.in_flight(), 0);
    }

    #[tokio::test]
    async fn a_paused_connection_resumes_once_the_reserve_is_back_under_its_limit() {
        let r = reserve(100, 100);
        let over = r.reserve_over(A, 150);
        let waiting = {
            let r = r.clone();
            tokio::spawn(async move { r.wait_under_limit(A).await })
        };
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        drop(over);
        waiting.await.expect("resumes");
    }
}
