//! Selectors: the SELECT clause compiled against a table into typed
//! expressions with Cassandra's result column names, then evaluated on
//! rows — directly, or through aggregates over a group of rows.

use crate::error::Error;
use crate::schema::{Column, Table};
use crate::syntax::ast::{
    CqlType, Ident, MetadataFunction, NativeType, SelectClause, Selector, SelectorKind,
    SubSelection, Term, TermKind,
};
use crate::types::{term_text, DataType, Value};

use super::aggregate::{Accumulator, Aggregate, AggregateFunction};
use super::bind::{eval_term, Binds};
use super::call::written_name;
use super::cell_meta::Meta;
use super::functions::FunctionContext;
use super::functions::{self, CallArg, ResolvedCall};
use super::result::ColumnSpec;
use super::to_json;
use super::view::RowView;

/// A compiled selector.
#[derive(Debug, Clone)]
pub(crate) enum Sel<'t> {
    Column(&'t Column),
    Const(Value),
    /// `writetime()`, `maxwritetime()` or `ttl()`.
    Meta(Meta<'t>),
    Token(Vec<&'t Column>),
    /// A native function, operator, negation or cast.
    Scalar(ResolvedCall, Vec<Sel<'t>>),
    /// An aggregate: its accumulator's index in the group, its argument.
    Aggregate(usize, Option<Box<Sel<'t>>>),
    Element(Box<Sel<'t>>, Value),
    Slice(Box<Sel<'t>>, Option<Value>, Option<Value>),
    Field(Box<Sel<'t>>, usize),
    Tuple(Vec<Sel<'t>>),
    List(Vec<Sel<'t>>),
    Set(Vec<Sel<'t>>),
    Map(Vec<(Sel<'t>, Sel<'t>)>),
    /// `toJson(x)`, with the type of `x`.
    ToJson(Box<Sel<'t>>, DataType),
}

/// A SELECT clause, compiled.
#[derive(Debug, Clone)]
pub(crate) struct Projection<'t> {
    pub(crate) columns: Vec<ColumnSpec>,
    pub(crate) items: Vec<Sel<'t>>,
    /// The aggregates, in accumulator order.
    pub(crate) aggregates: Vec<Aggregate>,
}

impl Projection<'_> {
    /// Whether the clause aggregates rows.
    pub(crate) fn aggregates(&self) -> bool {
        !self.aggregates.is_empty()
    }

    /// Fresh accumulators for one group.
    pub(crate) fn accumulators(&self) -> Vec<Accumulator> {
        self.aggregates.iter().map(Aggregate::accumulator).collect()
    }
}

struct Compiler<'t, 'b, 'f, 'g> {
    table: &'t Table,
    binds: &'b Binds<'b>,
    fcx: &'b mut FunctionContext<'f>,
    aggregates: Vec<Aggregate>,
    _marker: std::marker::PhantomData<&'g ()>,
}

/// Compiles the SELECT clause of `table`.
pub(crate) fn compile<'t>(
    table: &'t Table,
    selection: &SelectClause,
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Projection<'t>, Error> {
    let mut compiler = Compiler {
        table,
        binds,
        fcx,
        aggregates: Vec::new(),
        _marker: std::marker::PhantomData,
    };
    let mut columns = Vec::new();
    let mut items = Vec::new();
    match selection {
        SelectClause::Star => {
            for column in table.star_columns() {
                columns.push(ColumnSpec {
                    name: column.name.clone(),
                    data_type: column.data_type.clone(),
                });
                items.push(Sel::Column(column));
            }
        }
        SelectClause::Items(list) => {
            for item in list {
                if is_between_parentheses(&item.selector) {
                    return Err(Error::invalid(format!(
                        "Cannot infer type for term {} in selection clause (try using a cast to force a type)",
                        header(&item.selector)
                    ))
                    .with_span(item.selector.span));
                }
                let (sel, ty) = compiler.selector(&item.selector).map_err(|e| {
                    if e.span().is_some() {
                        e
                    } else {
                        e.with_span(item.selector.span)
                    }
                })?;
                let name = match &item.alias {
                    Some(alias) => alias.name.clone(),
                    None => header(&item.selector),
                };
                columns.push(ColumnSpec {
                    name,
                    data_type: ty,
                });
                items.push(sel);
            }
        }
    }
    Ok(Projection {
        columns,
        items,
        aggregates: compiler.aggregates,
    })
}

/// Whether `selector` is one selector between parentheses: a one-element
/// tuple or that selector, which Cassandra cannot tell apart without the
/// type a context gives (`(int)(a)`, an operand), so a whole selection
/// item of that shape is refused.
fn is_between_parentheses(selector: &Selector) -> bool {
    matches!(&selector.kind, SelectorKind::Tuple(items) if items.len() == 1)
}

/// Compiles one selector outside a SELECT clause (GROUP BY items).
pub(crate) fn compile_one<'t>(
    table: &'t Table,
    selector: &Selector,
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Sel<'t>, Error> {
    let mut compiler = Compiler {
        table,
        binds,
        fcx,
        aggregates: Vec::new(),
        _marker: std::marker::PhantomData,
    };
    Ok(compiler.selector(selector)?.0)
}

fn native(n: NativeType) -> DataType {
    DataType::Native(n)
}

impl<'t> Compiler<'t, '_, '_, '_> {
    fn column(&self, name: &Ident) -> Result<&'t Column, Error> {
        self.table.column(&name.name).ok_or_else(|| {
            Error::invalid(format!("Undefined column name {}", name.name)).with_span(name.span)
        })
    }

    fn selector(&mut self, selector: &Selector) -> Result<(Sel<'t>, DataType), Error> {
        Ok(match &selector.kind {
            SelectorKind::Column(name) => {
                let c = self.column(name)?;
                (Sel::Column(c), c.data_type.clone())
            }
            SelectorKind::Term(term) => self.constant(term, None)?,
            SelectorKind::TypeHint {
                ty,
                selector: inner,
            } => self.type_hinted(ty, inner)?,
            SelectorKind::CountStar => {
                let agg = Aggregate::count_rows();
                let ty = agg.return_type().clone();
                (self.aggregate(agg, None), ty)
            }
            SelectorKind::Metadata {
                function,
                column,
                sub,
            } => {
                let c = self.column(column)?;
                let (meta, ty) = Meta::compile(*function, c, sub.as_deref(), self.binds, self.fcx)?;
                (Sel::Meta(meta), ty)
            }
            SelectorKind::Cast {
                selector: inner,
                ty,
            } => {
                let (sel, from) = self.selector(inner)?;
                let text = first_column(inner).unwrap_or_else(|| header(inner));
                let CqlType::Native(to) = ty else {
                    return Err(Error::invalid(format!("{text} cannot be cast to {ty}")));
                };
                let call = functions::resolve_cast(CallArg::typed(&from, &text), *to)?;
                let ty = call.return_type().clone();
                (Sel::Scalar(call, vec![sel]), ty)
            }
            SelectorKind::Function { name, args } => self.function(name, args)?,
            SelectorKind::Binary { op, left, right } => {
                let (l, lt) = self.selector(left)?;
                let (r, rt) = self.selector(right)?;
                let (ltext, rtext) = (header(left), header(right));
                let call = functions::resolve_operation(
                    *op,
                    CallArg::typed(&lt, &ltext),
                    CallArg::typed(&rt, &rtext),
                    None,
                )?;
                let ty = call.return_type().clone();
                (Sel::Scalar(call, vec![l, r]), ty)
            }
            SelectorKind::Negate(inner) => {
                let (s, ty) = self.selector(inner)?;
                let text = header(inner);
                let call = functions::resolve_negation(CallArg::typed(&ty, &text), None)?;
                let ty = call.return_type().clone();
                (Sel::Scalar(call, vec![s]), ty)
            }
            SelectorKind::Sub {
                selector: inner,
                sub,
            } => self.sub(inner, sub)?,
            // One selector between parentheses is that selector wherever
            // the type it must have is known (see `compile` for where it
            // is not); a tuple needs two or a tuple type hint.
            SelectorKind::Tuple(items) if items.len() == 1 => self.selector(&items[0])?,
            SelectorKind::Tuple(items) => {
                let (sels, types) = self.all(items)?;
                (Sel::Tuple(sels), DataType::Tuple(types))
            }
            SelectorKind::List(items) => {
                let (sels, types) = self.all(items)?;
                let element = types.into_iter().next().unwrap_or(native(NativeType::Text));
                (
                    Sel::List(sels),
                    DataType::List {
                        element: Box::new(element),
                        frozen: true,
                    },
                )
            }
            SelectorKind::Set(items) => {
                let (sels, types) = self.all(items)?;
                let element = types.into_iter().next().unwrap_or(native(NativeType::Text));
                (
                    Sel::Set(sels),
                    DataType::Set {
                        element: Box::new(element),
                        frozen: true,
                    },
                )
            }
            SelectorKind::Map(entries) => {
                let mut sels = Vec::new();
                let mut kt = native(NativeType::Text);
                let mut vt = native(NativeType::Text);
                for (i, (k, v)) in entries.iter().enumerate() {
                    let (ks, kty) = self.selector(k)?;
                    let (vs, vty) = self.selector(v)?;
                    if i == 0 {
                        kt = kty;
                        vt = vty;
                    }
                    sels.push((ks, vs));
                }
                (
                    Sel::Map(sels),
                    DataType::Map {
                        key: Box::new(kt),
                        value: Box::new(vt),
                        frozen: true,
                    },
                )
            }
        })
    }

    fn all(&mut self, items: &[Selector]) -> Result<(Vec<Sel<'t>>, Vec<DataType>), Error> {
        let mut sels = Vec::new();
        let mut types = Vec::new();
        for item in items {
            let (s, t) = self.selector(item)?;
            sels.push(s);
            types.push(t);
        }
        Ok((sels, types))
    }

    fn aggregate(&mut self, agg: Aggregate, arg: Option<Sel<'t>>) -> Sel<'t> {
        self.aggregates.push(agg.clone());
        Sel::Aggregate(self.aggregates.len() - 1, arg.map(Box::new))
    }

    /// A constant selector: its type from a hint, or from the literal.
    /// `(type) selector`, as Cassandra's `Selectable.WithTypeHint`: a
    /// constant takes the type; anything else must already have it (or
    /// one whose values it can read), and then has it.
    fn type_hinted(
        &mut self,
        ty: &CqlType,
        inner: &Selector,
    ) -> Result<(Sel<'t>, DataType), Error> {
        let hinted = DataType::resolve(ty, &self.table.keyspace, &())?.frozen();
        let (sel, found) = match &inner.kind {
            SelectorKind::Term(term) => return self.constant(term, Some(ty)),
            // Between parentheses under a hint that is not a tuple: the
            // selector inside, under the same hint.
            SelectorKind::Tuple(items) if items.len() == 1 => match hinted {
                DataType::Tuple(_) => {
                    let (sel, found) = self.selector(&items[0])?;
                    (Sel::Tuple(vec![sel]), DataType::Tuple(vec![found]))
                }
                _ => return self.type_hinted(ty, &items[0]),
            },
            _ => self.selector(inner)?,
        };
        // A blob hint reads the value's bytes, as `<type>AsBlob` does.
        if let (DataType::Native(NativeType::Blob), DataType::Native(from)) = (&hinted, &found) {
            if *from != NativeType::Blob {
                let text = header(inner);
                let name = format!("{}AsBlob", from.name());
                let call =
                    functions::resolve_function(&name, &[CallArg::typed(&found, &text)], None)?;
                return Ok((Sel::Scalar(call, vec![sel]), hinted));
            }
        }
        if !reads_as(&hinted, &found.frozen()) {
            let text = format!("({ty}){}", header(inner));
            return Err(Error::invalid(format!(
                "Cannot assign value {text} to {text} of type {}",
                hinted
            )));
        }
        Ok((sel, hinted))
    }

    fn constant(
        &mut self,
        term: &Term,
        hint: Option<&CqlType>,
    ) -> Result<(Sel<'t>, DataType), Error> {
        let ty = match hint {
            Some(ty) => DataType::resolve(ty, &self.table.keyspace, &())?,
            None => literal_type(term).ok_or_else(|| {
                Error::invalid(format!(
                    "Cannot infer type for term {} in selection clause (try using a cast to force a type)",
                    term_text(term)
                ))
            })?,
        };
        let value = eval_term(term, &ty, "selection", self.binds, self.fcx)?;
        Ok((Sel::Const(value), ty))
    }

    fn function(
        &mut self,
        name: &crate::syntax::ast::FunctionName,
        args: &[Selector],
    ) -> Result<(Sel<'t>, DataType), Error> {
        let lower = name.name.name.to_ascii_lowercase();
        if lower == "token" && name.keyspace.is_none() {
            let mut columns = Vec::new();
            for arg in args {
                match &arg.kind {
                    SelectorKind::Column(c) => columns.push(self.column(c)?),
                    _ => {
                        return Err(Error::invalid(
                            "The token function arguments must be the partition key columns",
                        ))
                    }
                }
            }
            self.check_token_arguments(&columns)?;
            return Ok((Sel::Token(columns), native(NativeType::Bigint)));
        }
        if to_json::is_to_json(name) {
            let (sel, ty) = self.selector(to_json::argument(args)?)?;
            return Ok((Sel::ToJson(Box::new(sel), ty), native(NativeType::Text)));
        }
        if let Some(aggregate) = self.aggregate_call(name, args)? {
            return Ok(aggregate);
        }
        // Literal and marker arguments take the types of the overload chosen;
        // the others are compiled first for their types.
        let mut compiled: Vec<Option<(Sel<'t>, DataType)>> = Vec::new();
        for arg in args {
            compiled.push(match &arg.kind {
                SelectorKind::Term(t)
                    if matches!(t.kind, TermKind::Literal(_) | TermKind::Marker(_)) =>
                {
                    None
                }
                _ => Some(self.selector(arg)?),
            });
        }
        let texts: Vec<String> = args.iter().map(header).collect();
        let call_args: Vec<CallArg<'_>> = args
            .iter()
            .zip(&compiled)
            .zip(&texts)
            .map(|((arg, c), text)| match (&arg.kind, c) {
                (
                    SelectorKind::Term(Term {
                        kind: TermKind::Literal(lit),
                        ..
                    }),
                    None,
                ) => CallArg::literal(lit, text),
                (_, None) => CallArg::marker(text),
                (_, Some((_, ty))) => CallArg::typed(ty, text),
            })
            .collect();
        let call = functions::resolve_function(&written_name(name), &call_args, None)?;
        let mut sels = Vec::with_capacity(args.len());
        for ((arg, c), param) in args.iter().zip(compiled).zip(call.arg_types()) {
            sels.push(match (c, &arg.kind) {
                (Some((sel, _)), _) => sel,
                (None, SelectorKind::Term(term)) => {
                    Sel::Const(eval_term(term, param, "argument", self.binds, self.fcx)?)
                }
                (None, _) => Sel::Const(Value::Null),
            });
        }
        let ty = call.return_type().clone();
        Ok((Sel::Scalar(call, sels), ty))
    }

    /// `token(...)` as a selector is `system.token`, whose parameters are the
    /// partition key's types: any columns of those types, in that number.
    fn check_token_arguments(&self, columns: &[&Column]) -> Result<(), Error> {
        let key = &self.table.partition_key;
        if key.len() != columns.len() {
            return Err(Error::invalid(format!(
                "Invalid number of arguments in call to function system.token: {} required but {} provided",
                key.len(),
                columns.len()
            )));
        }
        for (i, (name, given)) in key.iter().zip(columns).enumerate() {
            let Some(param) = self.table.column(name) else {
                continue;
            };
            if param.data_type != given.data_type {
                return Err(Error::invalid(format!(
                    "Type error: {} cannot be passed as argument {i} of function system.token of type {}",
                    given.name, param.data_type
                )));
            }
        }
        Ok(())
    }

    /// A call of count, min, max, sum or avg, or `None` for another function.
    fn aggregate_call(
        &mut self,
        name: &crate::syntax::ast::FunctionName,
        args: &[Selector],
    ) -> Result<Option<(Sel<'t>, DataType)>, Error> {
        let written = written_name(name);
        let Some(function) = AggregateFunction::from_name(&written) else {
            return Ok(None);
        };
        if args.len() != 1 {
            return Err(Error::invalid(format!(
                "Invalid number of arguments in call to function {}: 1 required but {} provided",
                written.to_lowercase(),
                args.len()
            )));
        }
        let arg = &args[0];
        let counts_rows = function == AggregateFunction::Count
            && matches!(&arg.kind, SelectorKind::Term(Term { kind: TermKind::Literal(l), .. }) if *l != crate::syntax::ast::Literal::Null);
        if counts_rows {
            let agg = Aggregate::count_rows();
            let ty = agg.return_type().clone();
            return Ok(Some((self.aggregate(agg, None), ty)));
        }
        let (sel, ty) = self.selector(arg)?;
        let text = header(arg);
        let agg = function.resolve(&written, &[CallArg::typed(&ty, &text)])?;
        let ty = agg.return_type().clone();
        Ok(Some((self.aggregate(agg, Some(sel)), ty)))
    }

    fn sub(&mut self, inner: &Selector, sub: &SubSelection) -> Result<(Sel<'t>, DataType), Error> {
        let (s, ty) = self.selector(inner)?;
        match (sub, &ty) {
            (SubSelection::Field(field), DataType::Udt { fields, .. }) => {
                let i = fields
                    .iter()
                    .position(|(f, _)| *f == field.name)
                    .ok_or_else(|| {
                        Error::invalid(format!(
                            "{} of type {ty} has no field {}",
                            header(inner),
                            field.name
                        ))
                    })?;
                Ok((Sel::Field(Box::new(s), i), fields[i].1.clone()))
            }
            (SubSelection::Element(key), DataType::Map { key: kt, value, .. }) => {
                let k = eval_term(key, kt, "key", self.binds, self.fcx)?;
                Ok((Sel::Element(Box::new(s), k), (**value).clone()))
            }
            (SubSelection::Element(key), DataType::Set { element, .. }) => {
                let k = eval_term(key, element, "key", self.binds, self.fcx)?;
                Ok((Sel::Element(Box::new(s), k), (**element).clone()))
            }
            (
                SubSelection::Slice(from, to),
                DataType::Map { key: kt, .. } | DataType::Set { element: kt, .. },
            ) => {
                let mut bound = |t: &Option<Box<Term>>| -> Result<Option<Value>, Error> {
                    t.as_deref()
                        .map(|t| eval_term(t, kt, "key", self.binds, self.fcx))
                        .transpose()
                };
                let (a, b) = (bound(from)?, bound(to)?);
                Ok((Sel::Slice(Box::new(s), a, b), ty.clone()))
            }
            _ => Err(Error::invalid(format!(
                "Invalid selection {}: it is not a map, set or user type",
                header(inner)
            ))),
        }
    }
}

/// The first column a selector reads: what Cassandra names in a failed
/// cast's message.
fn first_column(selector: &Selector) -> Option<String> {
    match &selector.kind {
        SelectorKind::Column(c) => Some(c.name.clone()),
        SelectorKind::Metadata { column, .. } => Some(column.name.clone()),
        SelectorKind::Cast { selector, .. }
        | SelectorKind::Negate(selector)
        | SelectorKind::TypeHint { selector, .. }
        | SelectorKind::Sub { selector, .. } => first_column(selector),
        SelectorKind::Function { args, .. } => args.iter().find_map(first_column),
        SelectorKind::Binary { left, right, .. } => {
            first_column(left).or_else(|| first_column(right))
        }
        _ => None,
    }
}

/// The type of a literal selector that needs no hint (Cassandra infers only
/// a few: numbers, strings, booleans).
fn literal_type(term: &Term) -> Option<DataType> {
    use crate::syntax::ast::Literal;
    match &term.kind {
        TermKind::Literal(Literal::Integer(_)) => Some(native(NativeType::Int)),
        TermKind::Literal(Literal::Float(_)) => Some(native(NativeType::Double)),
        TermKind::Literal(Literal::String(_)) => Some(native(NativeType::Text)),
        TermKind::Literal(Literal::Boolean(_)) => Some(native(NativeType::Boolean)),
        TermKind::Literal(Literal::Uuid(_)) => Some(native(NativeType::Uuid)),
        TermKind::Literal(Literal::Hex(_)) => Some(native(NativeType::Blob)),
        TermKind::Literal(Literal::Duration(_)) => Some(native(NativeType::Duration)),
        _ => None,
    }
}

/// The result column name Cassandra gives an unaliased selector.
pub(crate) fn header(selector: &Selector) -> String {
    match &selector.kind {
        SelectorKind::Column(c) => c.name.clone(),
        SelectorKind::Term(t) => term_text(t),
        SelectorKind::CountStar => "count".into(),
        SelectorKind::Metadata {
            function,
            column,
            sub,
        } => {
            let f = match function {
                MetadataFunction::WriteTime => "writetime",
                MetadataFunction::MaxWriteTime => "maxwritetime",
                MetadataFunction::Ttl => "ttl",
            };
            let part = sub.as_deref().map(sub_text).unwrap_or_default();
            format!("{f}({}{part})", column.name)
        }
        SelectorKind::Cast { selector, ty } => format!(
            "cast({} as {})",
            header(selector),
            ty.to_string().to_lowercase()
        ),
        SelectorKind::Function { name, args } => {
            let lower = name.name.name.to_ascii_lowercase();
            if lower == "count" && args.len() == 1 && matches!(args[0].kind, SelectorKind::Term(_))
            {
                return "count".into();
            }
            let keyspace = name
                .keyspace
                .as_ref()
                .map_or("system".to_string(), |k| k.name.clone());
            let args: Vec<String> = args.iter().map(header).collect();
            format!("{keyspace}.{}({})", name.name.name, args.join(", "))
        }
        SelectorKind::Binary { op, left, right } => {
            format!("{} {} {}", header(left), op.symbol(), header(right))
        }
        SelectorKind::Negate(inner) => format!("-{}", header(inner)),
        SelectorKind::Sub { selector, sub } => format!("{}{}", header(selector), sub_text(sub)),
        SelectorKind::TypeHint { ty, selector } => format!("({ty}){}", header(selector)),
        SelectorKind::Tuple(items) => format!(
            "({})",
            items.iter().map(header).collect::<Vec<_>>().join(", ")
        ),
        SelectorKind::List(items) => format!(
            "[{}]",
            items.iter().map(header).collect::<Vec<_>>().join(", ")
        ),
        SelectorKind::Set(items) => format!(
            "{{{}}}",
            items.iter().map(header).collect::<Vec<_>>().join(", ")
        ),
        SelectorKind::Map(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{}: {}", header(k), header(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Whether a value of type `found` may stand where `hinted` is wanted, as
/// Cassandra's `isValueCompatibleWith` allows it: the same type, any type
/// as a blob, ascii as text, and the fixed-size integers as a varint.
fn reads_as(hinted: &DataType, found: &DataType) -> bool {
    use NativeType::{Ascii, Bigint, Blob, Int, Smallint, Text, Tinyint, Varint};
    match (hinted, found) {
        _ if hinted == found => true,
        (DataType::Native(Blob), _) => true,
        (DataType::Native(Text), DataType::Native(Ascii)) => true,
        (DataType::Native(Varint), DataType::Native(Tinyint | Smallint | Int | Bigint)) => true,
        _ => false,
    }
}

/// A field, element or slice as a header writes it after its column.
fn sub_text(sub: &SubSelection) -> String {
    match sub {
        SubSelection::Field(f) => format!(".{}", f.name),
        SubSelection::Element(t) => format!("[{}]", term_text(t)),
        SubSelection::Slice(a, b) => format!(
            "[{}..{}]",
            a.as_deref().map(term_text).unwrap_or_default(),
            b.as_deref().map(term_text).unwrap_or_default()
        ),
    }
}

/// Evaluates a selector on a row; aggregates read their finished values
/// from `finished` (one per accumulator).
pub(crate) fn eval(
    sel: &Sel<'_>,
    row: Option<&RowView<'_>>,
    finished: &[Value],
    fcx: &mut FunctionContext<'_>,
) -> Result<Value, Error> {
    Ok(match sel {
        Sel::Column(c) => row.map_or(Value::Null, |r| r.value(c).into_owned()),
        Sel::Const(v) => v.clone(),
        Sel::Meta(meta) => meta.eval(row),
        Sel::Token(columns) => match row {
            Some(r) => {
                let key: Vec<Value> = columns.iter().map(|c| r.value(c).into_owned()).collect();
                Value::Bigint(super::restrict::partition_token(&key)?)
            }
            None => Value::Null,
        },
        Sel::Scalar(f, args) => {
            let values = args
                .iter()
                .map(|a| eval(a, row, finished, fcx))
                .collect::<Result<Vec<_>, _>>()?;
            f.evaluate(&values, fcx)?
        }
        Sel::Aggregate(i, _) => finished.get(*i).cloned().unwrap_or(Value::Null),
        Sel::Element(inner, key) => match eval(inner, row, finished, fcx)? {
            Value::Map(entries) => entries
                .into_iter()
                .find(|(k, _)| k == key)
                .map_or(Value::Null, |(_, v)| v),
            Value::Set(items) => {
                if items.contains(key) {
                    key.clone()
                } else {
                    Value::Null
                }
            }
            _ => Value::Null,
        },
        Sel::Slice(inner, from, to) => {
            let within = |k: &Value| {
                from.as_ref().is_none_or(|f| k >= f) && to.as_ref().is_none_or(|t| k <= t)
            };
            match eval(inner, row, finished, fcx)? {
                Value::Map(entries) => {
                    let kept: Vec<_> = entries.into_iter().filter(|(k, _)| within(k)).collect();
                    if kept.is_empty() {
                        Value::Null
                    } else {
                        Value::Map(kept)
                    }
                }
                Value::Set(items) => {
                    let kept: Vec<_> = items.into_iter().filter(|k| within(k)).collect();
                    if kept.is_empty() {
                        Value::Null
                    } else {
                        Value::Set(kept)
                    }
                }
                other => other,
            }
        }
        Sel::ToJson(inner, ty) => to_json::text(&eval(inner, row, finished, fcx)?, ty),
        Sel::Field(inner, i) => match eval(inner, row, finished, fcx)? {
            Value::Udt(parts) => parts.into_iter().nth(*i).flatten().unwrap_or(Value::Null),
            _ => Value::Null,
        },
        Sel::Tuple(items) => Value::Tuple(
            items
                .iter()
                .map(|s| eval(s, row, finished, fcx).map(|v| (!v.is_null()).then_some(v)))
                .collect::<Result<_, _>>()?,
        ),
        Sel::List(items) => Value::List(
            items
                .iter()
                .map(|s| eval(s, row, finished, fcx))
                .collect::<Result<_, _>>()?,
        ),
        Sel::Set(items) => Value::set_from(
            items
                .iter()
                .map(|s| eval(s, row, finished, fcx))
                .collect::<Result<_, _>>()?,
        ),
        Sel::Map(entries) => {
            let mut out = Vec::new();
            for (k, v) in entries {
                out.push((eval(k, row, finished, fcx)?, eval(v, row, finished, fcx)?));
            }
            Value::map_from(out)
        }
    })
}

/// Feeds one row to a group's accumulators.
pub(crate) fn accumulate(
    projection: &Projection<'_>,
    accumulators: &mut [Accumulator],
    row: &RowView<'_>,
    fcx: &mut FunctionContext<'_>,
) -> Result<(), Error> {
    for item in &projection.items {
        feed(item, accumulators, row, fcx)?;
    }
    Ok(())
}

fn feed(
    sel: &Sel<'_>,
    accumulators: &mut [Accumulator],
    row: &RowView<'_>,
    fcx: &mut FunctionContext<'_>,
) -> Result<(), Error> {
    match sel {
        Sel::Aggregate(i, arg) => {
            let value = match arg {
                Some(a) => eval(a, Some(row), &[], fcx)?,
                None => Value::Boolean(true),
            };
            if let Some(acc) = accumulators.get_mut(*i) {
                acc.add(&value)?;
            }
        }
        Sel::Scalar(_, args) | Sel::Tuple(args) | Sel::List(args) | Sel::Set(args) => {
            for a in args {
                feed(a, accumulators, row, fcx)?;
            }
        }
        Sel::Element(inner, _)
        | Sel::Slice(inner, ..)
        | Sel::Field(inner, _)
        | Sel::ToJson(inner, _) => feed(inner, accumulators, row, fcx)?,
        Sel::Map(entries) => {
            for (k, v) in entries {
                feed(k, accumulators, row, fcx)?;
                feed(v, accumulators, row, fcx)?;
            }
        }
        _ => {}
    }
    Ok(())
}
