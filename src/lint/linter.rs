//! The driver: reads sources statement by statement, keeps the schema
//! current, plans every data statement once, and asks each enabled rule.

use std::path::Path;

use crate::error::{Error, ErrorKind};
use crate::planner::{is_schema_statement, plan_statement, Plan, PlanContext};
use crate::syntax::ast::Statement;
use crate::syntax::parse_statement_with_nesting;
use crate::syntax::script::{split_statements, ScriptStatement};
use crate::syntax::span::Span;

use super::config::LintConfig;
use super::finding::{Finding, Level, Location};
use super::rules;
use super::suggest::SuggestionCache;
use super::suppress::Suppressions;
use super::{ReadStatement, Rule, SchemaContext, StatementContext};

/// A linter over a schema, with a configuration and a set of rules.
pub struct Linter {
    planner: PlanContext,
    config: LintConfig,
    rules: Vec<Box<dyn Rule>>,
    schema: Vec<ReadStatement>,
    queries: Vec<ReadStatement>,
    suppressions: Suppressions,
    suggestions: SuggestionCache,
    /// For the file being read: whether each rule runs on it.
    enabled: Option<(String, Vec<bool>)>,
}

impl Linter {
    /// A linter with every built-in rule, on an empty schema and the default
    /// cluster.
    pub fn new(config: LintConfig) -> Linter {
        Linter::with_context(PlanContext::new(), config)
    }

    /// A linter on an existing schema (for example a session's catalog).
    /// Views and SASI indexes are accepted whatever the catalog's switches
    /// say: the linter judges a design, whichever node it is meant for.
    pub fn with_context(mut planner: PlanContext, config: LintConfig) -> Linter {
        let settings = planner.catalog.settings_mut();
        settings.materialized_views_enabled = true;
        settings.sasi_indexes_enabled = true;
        Linter {
            planner,
            config,
            rules: rules::all(),
            schema: Vec::new(),
            queries: Vec::new(),
            suppressions: Suppressions::default(),
            suggestions: SuggestionCache::default(),
            enabled: None,
        }
    }

    /// Adds a rule of the application's own.
    pub fn add_rule(&mut self, rule: Box<dyn Rule>) {
        self.rules.push(rule);
    }

    /// The rules, built-in and added.
    pub fn rules(&self) -> &[Box<dyn Rule>] {
        &self.rules
    }

    /// The configuration.
    pub fn config(&self) -> &LintConfig {
        &self.config
    }

    /// The schema and cluster as read so far.
    pub fn context(&self) -> &PlanContext {
        &self.planner
    }

    /// Loads schema statements (e.g. `DESCRIBE SCHEMA` output) without
    /// linting them; a statement that fails is returned as an error.
    pub fn load_schema(&mut self, name: &str, text: &str) -> Result<(), Vec<Finding>> {
        let mut failures = Vec::new();
        for statement in split_statements(text) {
            let result = self
                .parse_within_limits(&statement.text)
                .and_then(|parsed| self.planner.apply_schema(&parsed).map(|_| parsed));
            match result {
                Ok(parsed) => self.schema.push(ReadStatement {
                    file: name.to_string(),
                    source: statement,
                    statement: parsed,
                    planned: None,
                }),
                Err(error) => failures.push(error_finding(name, &statement, &error)),
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(failures)
        }
    }

    /// Lints one source text named `name`. Findings that need every file
    /// (a query no table serves, unused suppressions) come from
    /// [`Linter::finish`].
    pub fn lint_str(&mut self, name: &str, text: &str) -> Vec<Finding> {
        let statements = split_statements(text);
        let starts: Vec<(usize, usize)> = statements.iter().map(|s| (s.line, s.offset)).collect();
        self.suppressions.read(name, text, &starts);
        // Which rules run here is decided once per file, not per statement.
        let flags = self
            .rules
            .iter()
            .map(|r| self.config.is_enabled(r.as_ref(), name))
            .collect();
        self.enabled = Some((name.to_string(), flags));
        // Statements are kept for the rules that run at the end; reserving
        // once avoids copying a growing list of large entries.
        self.queries.reserve(statements.len());
        let mut findings = Vec::new();
        for statement in statements {
            findings.extend(self.lint_statement(name, statement));
        }
        self.filter(findings)
    }

    /// Lints a file.
    pub fn lint_file(&mut self, path: &Path) -> std::io::Result<Vec<Finding>> {
        let text = std::fs::read_to_string(path)?;
        Ok(self.lint_str(&path.display().to_string(), &text))
    }

    /// Runs the rules that need every file, and reports unused suppressions.
    pub fn finish(&mut self) -> Vec<Finding> {
        let mut findings = Vec::new();
        let cx = SchemaContext {
            planner: &self.planner,
            statements: &self.schema,
            queries: &self.queries,
            config: &self.config,
            suggestions: &self.suggestions,
            generation: self.schema.len(),
        };
        let files: Vec<&str> = self
            .schema
            .iter()
            .chain(&self.queries)
            .map(|r| r.file.as_str())
            .collect();
        for rule in &self.rules {
            let runs_somewhere = files
                .iter()
                .any(|file| self.config.is_enabled(rule.as_ref(), file));
            if !runs_somewhere {
                continue;
            }
            let mut out = Vec::new();
            rule.check_schema(&cx, &mut out);
            findings.extend(
                out.into_iter()
                    .filter(|f| self.config.is_enabled(rule.as_ref(), &f.location.file)),
            );
        }
        let mut findings = self.filter(findings);
        findings.extend(rules::unused_suppressions(
            &self.suppressions,
            &self.config,
            &self.rules,
        ));
        findings
    }

    fn lint_statement(&mut self, name: &str, statement: ScriptStatement) -> Vec<Finding> {
        let parsed = match self.parse_within_limits(&statement.text) {
            Ok(parsed) => parsed,
            Err(error) => return vec![error_finding(name, &statement, &error)],
        };
        if is_schema_statement(&parsed) {
            if let Err(error) = self.planner.apply_schema(&parsed) {
                // Rules still see the refused statement (catalog unchanged),
                // so one can explain the refusal (e.g. COMPACT STORAGE).
                let mut findings = vec![error_finding(name, &statement, &error)];
                findings.extend(self.ask_rules(name, &statement, &parsed, None));
                return findings;
            }
            let findings = self.ask_rules(name, &statement, &parsed, None);
            self.schema.push(ReadStatement {
                file: name.to_string(),
                source: statement,
                statement: parsed,
                planned: None,
            });
            return findings;
        }
        let plan = plan_statement(&self.planner, &parsed);
        let findings = self.ask_rules(name, &statement, &parsed, Some(&plan));
        let class = plan.as_ref().ok().map(|p| p.class);
        self.queries.push(ReadStatement {
            file: name.to_string(),
            source: statement,
            statement: parsed,
            planned: Some((self.schema.len(), class)),
        });
        findings
    }

    /// Parses as a session would run the statement: its size and IN lists
    /// within `[limits]` before the parser or any rule reads it, so that
    /// no rule's work grows past what the limits allow.
    fn parse_within_limits(&self, text: &str) -> Result<Statement, Error> {
        let limits = &self.planner.limits;
        limits.check_size(text)?;
        let parsed = parse_statement_with_nesting(text, limits.nesting_depth)?;
        limits.check_in_lists(&parsed)?;
        Ok(parsed)
    }

    fn ask_rules(
        &self,
        name: &str,
        statement: &ScriptStatement,
        parsed: &Statement,
        plan: Option<&Result<Plan, Error>>,
    ) -> Vec<Finding> {
        let cx = StatementContext {
            planner: &self.planner,
            statement: parsed,
            file: name,
            source: statement,
            plan,
            config: &self.config,
            suggestions: &self.suggestions,
            generation: self.schema.len(),
        };
        let mut findings = Vec::new();
        let enabled = self.enabled.as_ref().filter(|(file, _)| file == name);
        for (i, rule) in self.rules.iter().enumerate() {
            let runs = match enabled {
                Some((_, flags)) => flags.get(i).copied().unwrap_or(false),
                None => self.config.is_enabled(rule.as_ref(), name),
            };
            if runs {
                rule.check_statement(&cx, &mut findings);
            }
        }
        findings
    }

    /// Drops findings of rules the configuration disables for their file
    /// (the driver's own E001/E002 included), then suppressed ones.
    fn filter(&mut self, findings: Vec<Finding>) -> Vec<Finding> {
        let (rules, config, suppressions) = (&self.rules, &self.config, &mut self.suppressions);
        findings
            .into_iter()
            .filter(|f| {
                rules
                    .iter()
                    .find(|r| r.name() == f.name)
                    .is_none_or(|r| config.is_enabled(r.as_ref(), &f.location.file))
            })
            .filter(|f| {
                let line = f.source.as_ref().map_or(f.location.line, |s| s.line);
                !suppressions.silences(&f.location.file, line, f.name, f.code)
            })
            .collect()
    }
}

/// A finding for a statement Cassandra would not accept at all: a syntax
/// error, or a schema or query error other than the ones rules explain.
pub(crate) fn error_finding(file: &str, statement: &ScriptStatement, error: &Error) -> Finding {
    let (name, code) = match error.kind() {
        ErrorKind::SyntaxException => ("syntax-error", "E001"),
        _ => ("invalid-statement", "E002"),
    };
    let span = error.span().unwrap_or(Span::new(0, statement.text.len()));
    Finding {
        name,
        code,
        level: Level::Error,
        location: Location::of(file, statement, span),
        message: format!("{}: {}", error.kind().name(), error.message()),
        help: error.help_text().map(str::to_string),
        suggestion: None,
        source: Some(statement.clone()),
        span,
    }
}
