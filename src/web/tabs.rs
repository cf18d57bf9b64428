//! One session per browser tab, so what one person changes (a node down, a
//! table of their own) is not what another sees. Tabs are capped in number
//! and forgotten after sitting idle; each starts as a cheap clone of the
//! preloaded session.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::deadline::Timeouts;
use crate::session::Session;

/// What one tab holds.
#[derive(Debug)]
pub struct Tab {
    /// Its session.
    pub session: Session,
    /// The replication factor of the demo keyspace in `datacenter1`.
    pub rf: u32,
    /// Whether the second data centre is in the ring.
    pub second_dc: bool,
    /// Rows per region before the HBase view splits it.
    pub split_rows: usize,
    last_used: Instant,
}

/// Every tab, and the session a new one starts from.
#[derive(Debug)]
pub struct Tabs {
    base: Session,
    tabs: Mutex<HashMap<String, Arc<Mutex<Tab>>>>,
    max: usize,
    idle: Duration,
    timeouts: Timeouts,
    ids: RandomState,
    counter: AtomicU64,
}

/// Why a tab could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TabError {
    /// No tab has that id (it expired, or never was).
    Unknown,
    /// Every slot is taken by a tab still in use.
    Full,
}

/// Rows per region the HBase view starts with.
pub const DEFAULT_SPLIT_ROWS: usize = 2_000;

impl Tabs {
    /// At most `max` tabs, each forgotten after `idle` without a request,
    /// their reads stopped past `timeouts`.
    pub fn new(base: Session, max: usize, idle: Duration, timeouts: Timeouts) -> Tabs {
        Tabs {
            base,
            tabs: Mutex::new(HashMap::new()),
            max,
            idle,
            timeouts,
            ids: RandomState::new(),
            counter: AtomicU64::new(0),
        }
    }

    /// A new tab's id, after forgetting the idle ones.
    pub fn open(&self) -> Result<String, TabError> {
        let mut tabs = lock(&self.tabs);
        let now = Instant::now();
        tabs.retain(|_, tab| {
            // A tab busy running a statement is in use, whatever its age.
            tab.try_lock()
                .map_or(true, |t| now.duration_since(t.last_used) < self.idle)
        });
        if tabs.len() >= self.max {
            return Err(TabError::Full);
        }
        let id = self.fresh_id();
        tabs.insert(id.clone(), Arc::new(Mutex::new(self.fresh_tab())));
        Ok(id)
    }

    /// The tab `id`, marked as used now.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Tab>>, TabError> {
        let tab = lock(&self.tabs).get(id).cloned().ok_or(TabError::Unknown)?;
        lock(&tab).last_used = Instant::now();
        Ok(tab)
    }

    /// A tab as it starts: the preloaded session and the seed's settings.
    pub fn fresh_tab(&self) -> Tab {
        let mut session = self.base.clone();
        session.set_timeouts(Some(self.timeouts));
        Tab {
            session,
            rf: super::presets::DEFAULT_RF,
            second_dc: false,
            split_rows: DEFAULT_SPLIT_ROWS,
            last_used: Instant::now(),
        }
    }

    /// How many tabs are open.
    pub fn len(&self) -> usize {
        lock(&self.tabs).len()
    }

    /// Whether no tab is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// 128 bits from the process's random hashing keys and a counter: ids
    /// another page cannot guess.
    fn fresh_id(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let half = |salt: u64| {
            let mut h = self.ids.build_hasher();
            h.write_u64(n);
            h.write_u64(salt);
            h.finish()
        };
        format!("{:016x}{:016x}", half(1), half(2))
    }
}

/// Locks `mutex`, taking the data even if a holder panicked: a tab's
/// session is changed only by statements, which leave it whole on error.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
