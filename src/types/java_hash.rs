//! The order Java's hash collections iterate strings in: Cassandra's
//! messages print sets of names (the tables of a batch, unknown options)
//! straight from a `HashSet` or a `HashMap`'s keys, so widerow lists them
//! the same way rather than sorted.

/// `names` (no two alike) in the order a Java `HashSet<String>` filled
/// one by one iterates them (the tables of a batch): 16 buckets at first,
/// doubling while more than three quarters full.
pub(crate) fn java_set_order(names: Vec<String>) -> Vec<String> {
    let mut buckets = 16usize;
    while names.len() * 4 > buckets * 3 {
        buckets *= 2;
    }
    in_buckets(names, buckets)
}

/// The keys left in `new HashMap<>(source)` of a map of `source_len`
/// entries, in the order it iterates them (the unknown caching
/// sub-options): the copy's table is sized for the source, the smallest
/// power of two above `source_len / 0.75 + 1`.
pub(crate) fn java_map_copy_order(names: Vec<String>, source_len: usize) -> Vec<String> {
    let wanted = source_len * 4 / 3 + 1;
    in_buckets(names, wanted.max(1).next_power_of_two())
}

/// By bucket of the spread `String.hashCode` in a table of `buckets`,
/// ties in the order given.
fn in_buckets(names: Vec<String>, buckets: usize) -> Vec<String> {
    let bucket = |name: &str| {
        let hash = name.encode_utf16().fold(0i32, |h, unit| {
            h.wrapping_mul(31).wrapping_add(i32::from(unit))
        });
        let spread = (hash as u32) ^ ((hash as u32) >> 16);
        spread as usize & (buckets - 1)
    };
    let mut ordered: Vec<(usize, usize, String)> = names
        .into_iter()
        .enumerate()
        .map(|(at, name)| (bucket(&name), at, name))
        .collect();
    ordered.sort_unstable_by_key(|(bucket, at, _)| (*bucket, *at));
    ordered.into_iter().map(|(_, _, name)| name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_come_in_java_hash_set_order() {
        // Spread hash codes of "bk.a", "bk.t", "bk.zz": buckets 2, 1, 3 of
        // 16, the order a 5.0.8 node lists them in.
        let names = ["bk.a", "bk.t", "bk.zz"].map(String::from).to_vec();
        assert_eq!(java_set_order(names), ["bk.t", "bk.a", "bk.zz"]);
    }

    #[test]
    fn a_copied_map_has_the_buckets_its_source_needs() {
        // A two-entry map copied has 4 buckets: "nope" falls in 1 and
        // "other" in 2 (in 16 they would be 5 and 2), as the node lists them.
        let names = ["other", "nope"].map(String::from).to_vec();
        assert_eq!(java_map_copy_order(names.clone(), 2), ["nope", "other"]);
        assert_eq!(java_set_order(names), ["other", "nope"]);
    }
}
