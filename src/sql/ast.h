// The syntax tree of Sluice's Flink SQL dialect, as the parser (parser.h) builds it.
//
// The tree is purely syntactic: names are not resolved and nothing is typed except the data types
// written in the text (CAST targets, column types), which the parser already maps to LogicalType.
// Every node is a plain struct owned through std::unique_ptr and carries the 1-based line and
// column where it starts in the whole script. Each family (Statement, Query, TableRef, Expr) has a
// base struct with a `kind` enum; a node of kind K is the derived struct whose `kKind` is K, so
// consumers switch on `kind` and downcast with `As<T>()` (checked).
//
// Identifiers keep the case they were written in (Flink compares them case-sensitively); keywords
// are case-insensitive and never appear as strings here, except function names, which keep the
// spelling of the text (the binder resolves them case-insensitively).
//
// Invariant: Unparse(tree) (unparser.h) parses back to a tree that unparses to the same text.
//
// Threading: a tree is a plain value; it is built by one thread and then only read.
//
// The nodes live in three headers, each including the one before: ast_expr.h (expressions and what
// the tree shares), ast_query.h (table references and queries) and ast_statement.h (statements).
#pragma once

#include "sql/ast_statement.h"
