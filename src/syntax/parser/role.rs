//! Role statements, as Cassandra 5.0's `Parser.g` reads them: CREATE /
//! ALTER / DROP ROLE with `WITH option AND …`, LIST ROLES, and the USER
//! forms (`CREATE USER u WITH PASSWORD 'p' SUPERUSER`).

use super::super::ast::{
    AlterRole, CreateRole, DropRole, Ident, ListRoles, RoleOption, RoleStatement, Statement,
};
use super::super::keyword::Keyword;
use super::super::lexer::TokenKind;
use super::super::span::Span;
use super::common::{if_exists, if_not_exists, kw, name, string, tok};
use super::input::{ExpectedSet, PResult, Tokens};
use super::property_map::constant_map;

fn expected_one_of<'a, T>(i: Tokens<'a>, keywords: &[Keyword]) -> PResult<'a, T> {
    let mut set = ExpectedSet::default();
    for k in keywords {
        set.keyword(*k);
    }
    i.expected(set)
}

fn role(statement: RoleStatement) -> Statement {
    Statement::Role(statement)
}

/// `CREATE ROLE …` after `CREATE ROLE`.
pub(crate) fn create_role<'a>(i: Tokens<'a>, start: Tokens<'a>) -> PResult<'a, Statement> {
    let (i, if_not_exists) = if_not_exists(i)?;
    let (i, name) = role_name(i)?;
    let (i, options) = with_options(i)?;
    let span = i.span_since(start);
    let create = CreateRole {
        if_not_exists,
        name,
        options,
        user: false,
        span,
    };
    Ok((i, role(RoleStatement::Create(create))))
}

/// `ALTER ROLE …` after `ALTER ROLE`.
pub(crate) fn alter_role<'a>(i: Tokens<'a>, start: Tokens<'a>) -> PResult<'a, Statement> {
    let (i, if_exists) = if_exists(i)?;
    let (i, name) = role_name(i)?;
    let (i, options) = with_options(i)?;
    let span = i.span_since(start);
    let alter = AlterRole {
        if_exists,
        name,
        options,
        user: false,
        span,
    };
    Ok((i, role(RoleStatement::Alter(alter))))
}

/// `DROP ROLE …` or `DROP USER …` after the keyword.
pub(crate) fn drop_role<'a>(
    i: Tokens<'a>,
    start: Tokens<'a>,
    user: bool,
) -> PResult<'a, Statement> {
    let (i, if_exists) = if_exists(i)?;
    let (i, name) = if user { user_name(i)? } else { role_name(i)? };
    let span = i.span_since(start);
    let drop = DropRole {
        if_exists,
        name,
        user,
        span,
    };
    Ok((i, role(RoleStatement::Drop(drop))))
}

/// `CREATE USER [IF NOT EXISTS] u [WITH [HASHED] PASSWORD '…'] [SUPERUSER |
/// NOSUPERUSER]`: a role that may log in, not a superuser unless said.
pub(crate) fn create_user<'a>(i: Tokens<'a>, start: Tokens<'a>) -> PResult<'a, Statement> {
    let (i, if_not_exists) = if_not_exists(i)?;
    let (i, name) = user_name(i)?;
    let (i, mut options) = user_password(i)?;
    let (i, superuser) = superuser_flag(i);
    options.push(RoleOption::Login(true));
    options.push(RoleOption::Superuser(superuser.unwrap_or(false)));
    let span = i.span_since(start);
    let create = CreateRole {
        if_not_exists,
        name,
        options,
        user: true,
        span,
    };
    Ok((i, role(RoleStatement::Create(create))))
}

/// `ALTER USER [IF EXISTS] u [WITH [HASHED] PASSWORD '…'] [SUPERUSER |
/// NOSUPERUSER]`.
pub(crate) fn alter_user<'a>(i: Tokens<'a>, start: Tokens<'a>) -> PResult<'a, Statement> {
    let (i, if_exists) = if_exists(i)?;
    let (i, name) = user_name(i)?;
    let (i, mut options) = user_password(i)?;
    let (i, superuser) = superuser_flag(i);
    options.extend(superuser.map(RoleOption::Superuser));
    let span = i.span_since(start);
    let alter = AlterRole {
        if_exists,
        name,
        options,
        user: true,
        span,
    };
    Ok((i, role(RoleStatement::Alter(alter))))
}

/// `LIST ROLES [OF r] [NORECURSIVE]` or `LIST USERS`.
pub(crate) fn list(i: Tokens<'_>) -> PResult<'_, Statement> {
    let start = i;
    let (i, _) = kw(Keyword::List)(i)?;
    let (i, users) = match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Roles)) => (i.advance(1), false),
        Some(TokenKind::Keyword(Keyword::Users)) => (i.advance(1), true),
        _ => return expected_one_of(i, &[Keyword::Roles, Keyword::Users]),
    };
    let (i, of) = if !users && at(i, Keyword::Of) {
        let (i, of) = role_name(i.advance(1))?;
        (i, Some(of))
    } else {
        (i, None)
    };
    let norecursive = !users && at(i, Keyword::Norecursive);
    let i = if norecursive { i.advance(1) } else { i };
    let span = i.span_since(start);
    let list = ListRoles {
        of,
        norecursive,
        users,
        span,
    };
    Ok((i, role(RoleStatement::List(list))))
}

fn at(i: Tokens<'_>, k: Keyword) -> bool {
    i.peek_kind() == Some(TokenKind::Keyword(k))
}

/// A role name: a name (folded to lower case unless quoted) or a string
/// constant (kept as written).
fn role_name(i: Tokens<'_>) -> PResult<'_, Ident> {
    match i.peek() {
        Some(t) if matches!(t.kind, TokenKind::String | TokenKind::DollarString) => {
            let span = t.span;
            let (i, name) = string(i)?;
            Ok((i, Ident { name, span }))
        }
        Some(t) if matches!(t.kind, TokenKind::Question | TokenKind::Colon) => {
            i.fail("Bind variables cannot be used for role names", t.span)
        }
        _ => name(i),
    }
}

/// A user name: as a role name, but double quotes are refused.
fn user_name(i: Tokens<'_>) -> PResult<'_, Ident> {
    match i.peek() {
        Some(t) if t.kind == TokenKind::QuotedIdent => i.fail(
            "Quoted strings are are not supported for user names and USER is deprecated, please use ROLE",
            t.span,
        ),
        _ => role_name(i),
    }
}

/// `[WITH option AND …]`.
fn with_options(i: Tokens<'_>) -> PResult<'_, Vec<RoleOption>> {
    if !at(i, Keyword::With) {
        return Ok((i, Vec::new()));
    }
    let (mut i, first) = role_option(i.advance(1))?;
    let mut options = vec![first];
    while at(i, Keyword::And) {
        let (rest, next) = role_option(i.advance(1))?;
        reject_repeated(rest, &options, &next)?;
        options.push(next);
        i = rest;
    }
    let password = options.iter().find_map(|(o, span)| match o {
        RoleOption::Password(_) | RoleOption::HashedPassword(_) => Some(*span),
        _ => None,
    });
    let both = options
        .iter()
        .any(|(o, _)| matches!(o, RoleOption::Password(_)))
        && options
            .iter()
            .any(|(o, _)| matches!(o, RoleOption::HashedPassword(_)));
    if let (true, Some(span)) = (both, password) {
        return i.fail(
            "Options 'password' and 'hashed password' are mutually exclusive",
            span,
        );
    }
    Ok((i, options.into_iter().map(|(o, _)| o).collect()))
}

/// Cassandra refuses an option given twice as a syntax error.
fn reject_repeated<'a>(
    i: Tokens<'a>,
    seen: &[(RoleOption, Span)],
    next: &(RoleOption, Span),
) -> PResult<'a, ()> {
    let name = next.0.name();
    if seen.iter().any(|(o, _)| o.name() == name) {
        return i.fail(format!("Multiple definition for property '{name}'"), next.1);
    }
    Ok((i, ()))
}

/// One option with where it was written.
fn role_option(i: Tokens<'_>) -> PResult<'_, (RoleOption, Span)> {
    let start = i;
    let (i, option) = match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Password)) => {
            let (i, value) = equals_string(i.advance(1))?;
            (i, RoleOption::Password(value))
        }
        Some(TokenKind::Keyword(Keyword::Hashed)) => {
            let (i, _) = kw(Keyword::Password)(i.advance(1))?;
            let (i, value) = equals_string(i)?;
            (i, RoleOption::HashedPassword(value))
        }
        Some(TokenKind::Keyword(Keyword::Login)) => {
            let (i, value) = equals_boolean(i.advance(1))?;
            (i, RoleOption::Login(value))
        }
        Some(TokenKind::Keyword(Keyword::Superuser)) => {
            let (i, value) = equals_boolean(i.advance(1))?;
            (i, RoleOption::Superuser(value))
        }
        Some(TokenKind::Keyword(Keyword::Options)) => {
            let (i, _) = tok(TokenKind::Eq)(i.advance(1))?;
            let (i, entries) = constant_map(i)?;
            (i, RoleOption::Options(entries))
        }
        _ => {
            return expected_one_of(
                i,
                &[
                    Keyword::Password,
                    Keyword::Hashed,
                    Keyword::Login,
                    Keyword::Superuser,
                    Keyword::Options,
                ],
            )
        }
    };
    Ok((i, (option, i.span_since(start))))
}

fn equals_string(i: Tokens<'_>) -> PResult<'_, String> {
    let (i, _) = tok(TokenKind::Eq)(i)?;
    string(i)
}

fn equals_boolean(i: Tokens<'_>) -> PResult<'_, bool> {
    let (i, _) = tok(TokenKind::Eq)(i)?;
    match i.peek() {
        Some(t) if t.kind == TokenKind::Boolean => {
            Ok((i.advance(1), i.text(t).eq_ignore_ascii_case("true")))
        }
        _ => i.expected_kind(TokenKind::Boolean),
    }
}

/// The USER form's `WITH PASSWORD '…'` or `WITH HASHED PASSWORD '…'` (no
/// `=`), if given.
fn user_password(i: Tokens<'_>) -> PResult<'_, Vec<RoleOption>> {
    if !at(i, Keyword::With) {
        return Ok((i, Vec::new()));
    }
    let i = i.advance(1);
    let (i, hashed) = if at(i, Keyword::Hashed) {
        (i.advance(1), true)
    } else {
        (i, false)
    };
    let (i, _) = kw(Keyword::Password)(i)?;
    let (i, value) = string(i)?;
    let option = if hashed {
        RoleOption::HashedPassword(value)
    } else {
        RoleOption::Password(value)
    };
    Ok((i, vec![option]))
}

/// `SUPERUSER` (true), `NOSUPERUSER` (false), or neither.
fn superuser_flag(i: Tokens<'_>) -> (Tokens<'_>, Option<bool>) {
    match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Superuser)) => (i.advance(1), Some(true)),
        Some(TokenKind::Keyword(Keyword::Nosuperuser)) => (i.advance(1), Some(false)),
        _ => (i, None),
    }
}

#[cfg(test)]
mod tests {
    use crate::syntax::ast::{RoleOption, RoleStatement, Statement};
    use crate::{parse_statement, ErrorKind};

    fn role(text: &str) -> RoleStatement {
        match parse_statement(text) {
            Ok(Statement::Role(r)) => r,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn error(text: &str) -> (ErrorKind, String) {
        let e = parse_statement(text).unwrap_err();
        (e.kind(), e.message().to_string())
    }

    #[test]
    fn role_statements_print_back_to_themselves() {
        for text in [
            "CREATE ROLE alice",
            "CREATE ROLE IF NOT EXISTS alice WITH PASSWORD = 'it''s' AND LOGIN = true AND SUPERUSER = false",
            "CREATE ROLE 'Mixed Case' WITH HASHED PASSWORD = '$2a$10$x'",
            "CREATE ROLE r WITH OPTIONS = {'a': 1}",
            "ALTER ROLE IF EXISTS alice WITH LOGIN = false",
            "ALTER ROLE alice",
            "DROP ROLE IF EXISTS alice",
            "LIST ROLES",
            "LIST ROLES OF alice NORECURSIVE",
            "LIST USERS",
            "CREATE USER IF NOT EXISTS bob WITH PASSWORD 'pw' SUPERUSER",
            "CREATE USER bob NOSUPERUSER",
            "ALTER USER bob WITH HASHED PASSWORD '$2a$10$x'",
            "ALTER USER bob SUPERUSER",
            "DROP USER IF EXISTS bob",
        ] {
            let parsed = role(text);
            assert_eq!(parsed.to_string(), text);
            assert_eq!(role(&parsed.to_string()), parsed, "{text}");
        }
    }

    #[test]
    fn names_fold_unless_quoted_and_users_log_in() {
        let RoleStatement::Create(c) = role("create role Alice with login = TRUE") else {
            panic!()
        };
        assert_eq!(c.name.name, "alice");
        assert_eq!(c.options, vec![RoleOption::Login(true)]);
        let RoleStatement::Drop(d) = role("DROP ROLE \"Alice\"") else {
            panic!()
        };
        assert_eq!(d.name.name, "Alice");
        let RoleStatement::Create(u) = role("CREATE USER 'Bob' WITH PASSWORD 'x'") else {
            panic!()
        };
        assert_eq!(u.name.name, "Bob");
        assert_eq!(
            u.options,
            vec![
                RoleOption::Password("x".into()),
                RoleOption::Login(true),
                RoleOption::Superuser(false)
            ]
        );
    }

    #[test]
    fn bad_role_statements_get_cassandras_syntax_errors() {
        let syntax = |m: &str| (ErrorKind::SyntaxException, m.to_string());
        assert_eq!(
            error("CREATE ROLE r WITH LOGIN = true AND LOGIN = false"),
            syntax("Multiple definition for property 'LOGIN'")
        );
        assert_eq!(
            error("CREATE ROLE r WITH PASSWORD = 'a' AND HASHED PASSWORD = 'b'"),
            syntax("Options 'password' and 'hashed password' are mutually exclusive")
        );
        assert_eq!(
            error("CREATE ROLE ?"),
            syntax("Bind variables cannot be used for role names")
        );
        assert_eq!(
            error("CREATE USER \"Bob\""),
            syntax("Quoted strings are are not supported for user names and USER is deprecated, please use ROLE")
        );
        let (_, boolean) = error("CREATE ROLE r WITH LOGIN = 'yes'");
        assert!(boolean.contains("expecting BOOLEAN"), "{boolean}");
        let (_, string) = error("CREATE ROLE r WITH PASSWORD = 1");
        assert!(string.contains("expecting STRING_LITERAL"), "{string}");
        let (_, unknown) = error("CREATE ROLE r WITH FOO = true");
        assert!(
            unknown.starts_with("line 1:19 no viable alternative at input 'FOO'"),
            "{unknown}"
        );
        let (_, list) = error("LIST ROLE");
        assert!(
            list.contains("no viable alternative at input 'ROLE'"),
            "{list}"
        );
    }
}
