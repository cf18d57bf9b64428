//! Aggregate functions (count, min, max, sum, avg) as accumulators.
