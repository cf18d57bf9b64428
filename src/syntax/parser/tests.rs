use super::*;

fn round_trip(text: &str) -> String {
    let ast = parse_statement(text).unwrap_or_else(|e| panic!("{text}: {}", e.message()));
    let printed = ast.to_string();
    let again = parse_statement(&printed).unwrap_or_else(|e| panic!("{printed}: {}", e.message()));
    assert_eq!(ast, again, "{text} → {printed}");
    printed
}

#[test]
fn select_basic() {
    assert_eq!(
        round_trip("select a, b as x from ks.t where a = 1 and b > 2 order by b desc limit 10 allow filtering;"),
        "SELECT a, b AS x FROM ks.t WHERE a = 1 AND b > 2 ORDER BY b DESC LIMIT 10 ALLOW FILTERING"
    );
}
