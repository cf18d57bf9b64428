use super::*;

/// The key composed in one buffer is the key `compose_partition_key`
/// composes from separately serialized parts, and is refused alike.
#[test]
fn keys_compose_as_their_parts_do() {
    let long = Value::Text("x".repeat(70_000));
    let keys: Vec<Vec<Value>> = vec![
        vec![Value::Text("sensor-1".into())],
        vec![
            Value::Int(7),
            Value::Text("a".into()),
            Value::date_from_days(3),
        ],
        vec![
            Value::Timestamp(-5),
            Value::Blob(vec![1, 2]),
            Value::Double(1.5),
        ],
        vec![Value::Empty, Value::Empty],
        vec![Value::Empty],
        vec![long.clone()],
        vec![Value::Int(1), long],
        vec![Value::Int(1), Value::Null],
    ];
    for key in keys {
        let parts: Result<Vec<Vec<u8>>, _> = key.iter().map(Value::serialize).collect();
        let expected = parts.and_then(|parts| position_of_key_parts(&parts));
        let actual = partition_position(&key);
        match (actual, expected) {
            (Ok(a), Ok(e)) => assert_eq!(a, e, "{key:?}"),
            (Err(a), Err(e)) => assert_eq!(a.message(), e.message(), "{key:?}"),
            (a, e) => panic!("{key:?}: {a:?} against {e:?}"),
        }
    }
}

mod key_buffer {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// However keys repeat, each token and key are those of the key
        /// alone, as a partition's position has them.
        #[test]
        fn a_key_buffer_gives_each_keys_own_token(
            keys in proptest::collection::vec((0u8..4, 0i32..3, any::<bool>()), 1..20),
        ) {
            let mut buffer = KeyBuffer::default();
            for (sensor, day, repeated) in keys {
                let key = [Value::Text(format!("s{sensor}")), Value::Int(day)];
                let position = partition_position(&key).unwrap();
                let token = if repeated {
                    buffer.token_of_likely_repeated(&key)
                } else {
                    buffer.token_of(&key)
                };
                prop_assert_eq!(token.unwrap(), position.token);
                prop_assert_eq!(buffer.bytes(), &*position.key);
            }
        }
    }
}
