//! cqlsh's `RateMeter` (the `Processed: N rows; Rate: …` progress line, written at most
//! every REPORTFREQUENCY seconds and once more at the end, also to RATEFILE) and
//! `describe_interval`, whose Python 3 float division gives its odd
//! `0 day, 0 hour, 0 minute, and 1.500 seconds`.

use std::fs::OpenOptions;
use std::io::Write;
use std::time::Instant;

use super::Printer;

/// Counts rows and reports the rate.
#[derive(Debug)]
pub(super) struct RateMeter {
    update_interval: f64,
    log_file: String,
    start: Instant,
    last_checkpoint: Instant,
    current_rate: f64,
    current_record: u64,
    total_records: u64,
}

impl RateMeter {
    /// A meter reporting every `update_interval` seconds, also to `log_file` when not
    /// empty (an existing file is removed first, as cqlsh does).
    pub(super) fn new(update_interval: f64, log_file: &str) -> RateMeter {
        if !log_file.is_empty() && std::path::Path::new(log_file).is_file() {
            let _ = std::fs::remove_file(log_file);
        }
        let now = Instant::now();
        RateMeter {
            update_interval,
            log_file: log_file.to_string(),
            start: now,
            last_checkpoint: now,
            current_rate: 0.0,
            current_record: 0,
            total_records: 0,
        }
    }

    /// Counts `n` more rows, reporting if the interval has passed.
    pub(super) fn increment(&mut self, n: u64, printer: &mut Printer) {
        self.current_record += n;
        if self.current_record == 0 {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.last_checkpoint).as_secs_f64() >= self.update_interval {
            self.update(now);
            self.log_message(printer);
        }
    }

    fn update(&mut self, now: Instant) {
        let elapsed = now.duration_since(self.last_checkpoint).as_secs_f64();
        if elapsed >= 1e-9 {
            let rate = self.current_record as f64 / elapsed;
            self.current_rate = if self.current_rate == 0.0 {
                rate
            } else {
                (self.current_rate + rate) / 2.0
            };
        }
        self.last_checkpoint = now;
        self.total_records += self.current_record;
        self.current_record = 0;
    }

    fn average_rate(&self) -> f64 {
        let elapsed = self.start.elapsed().as_secs_f64();
        if elapsed >= 1e-9 {
            self.total_records as f64 / elapsed
        } else {
            0.0
        }
    }

    fn log_message(&self, printer: &mut Printer) {
        let output = format!(
            "Processed: {} rows; Rate: {:7.0} rows/s; Avg. rate: {:7.0} rows/s\r",
            self.total_records,
            self.current_rate,
            self.average_rate()
        );
        printer.msg_eol(&output, "\r");
        if !self.log_file.is_empty() {
            if let Ok(mut file) = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.log_file)
            {
                let _ = writeln!(file, "{output}");
            }
        }
    }

    /// The final count, after one last progress line.
    pub(super) fn total(&mut self, printer: &mut Printer) -> u64 {
        self.update(Instant::now());
        self.log_message(printer);
        self.total_records
    }
}

/// `CopyTask.describe_interval`.
pub(super) fn describe_interval(seconds: f64) -> String {
    let mut seconds = seconds;
    let mut parts: Vec<String> = Vec::new();
    for (length, unit) in [(86_400.0, "day"), (3600.0, "hour"), (60.0, "minute")] {
        let count = seconds.trunc() / length;
        if count > 0.0 {
            let plural = if count > 1.0 { "s" } else { "" };
            parts.push(format!("{} {unit}{plural}", count.trunc()));
        }
        seconds %= length;
    }
    let words = format!("{seconds:.3} seconds");
    match parts.len() {
        0 => words,
        1 => format!("{} and {words}", parts[0]),
        _ => format!("{}, and {words}", parts.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_read_as_cqlsh_prints_them() {
        // From cqlshlib.copyutil.CopyTask.describe_interval under Python 3.11.
        assert_eq!(describe_interval(0.1234), "0.123 seconds");
        assert_eq!(describe_interval(0.9999), "1.000 seconds");
        assert_eq!(
            describe_interval(5.3),
            "0 day, 0 hour, 0 minute, and 5.300 seconds"
        );
        assert_eq!(
            describe_interval(61.5),
            "0 day, 0 hour, 1 minutes, and 1.500 seconds"
        );
        assert_eq!(
            describe_interval(3700.2),
            "0 day, 1 hours, 1 minutes, and 40.200 seconds"
        );
        assert_eq!(
            describe_interval(90000.5),
            "1 days, 1 hour, and 0.500 seconds"
        );
    }
}
