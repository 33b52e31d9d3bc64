// The parser's queries: hints, set operations, SELECT, FROM, window specs (parser_internal.h).
#include <algorithm>
#include <utility>

#include "sql/parser_internal.h"

namespace sluice::sql::internal {

Result<std::vector<Hint>> Parser::ParseHintsIfAny() {
  std::vector<Hint> hints;
  Expect("\"/*+\"");
  if (Cur().kind != TokenKind::kHintStart) return hints;
  Advance();
  do {
    Hint h;
    h.pos = Here();
    ASSIGN_OR_RETURN(h.name, ParseIdentifier());
    if (AcceptPunct("(")) {
      if (!AtPunct(")")) {
        bool kv = (Cur().kind == TokenKind::kString || TokIsIdentifier(Cur())) && PeekIsPunct(1, "=");
        do {
          if (kv) {
            const Token key_token = Cur();
            std::string key;
            if (Cur().kind == TokenKind::kString) {
              ASSIGN_OR_RETURN(key, ParseStringLiteral());
            } else {
              ASSIGN_OR_RETURN(key, ParseIdentifier());
            }
            RETURN_IF_ERROR(CheckNewKey(h.kv_options, key, key_token));
            RETURN_IF_ERROR(ExpectPunct("="));
            ASSIGN_OR_RETURN(std::string value, ParseStringLiteral());
            h.kv_options.emplace_back(std::move(key), std::move(value));
          } else {
            Expect("<IDENTIFIER>");
            const Token& t = Cur();
            if (t.kind == TokenKind::kString || t.kind == TokenKind::kInteger || TokIsIdentifier(t)) {
              // Qualified names in list options (BROADCAST(db.t)) are joined with '.'.
              std::string item = t.text;
              Advance();
              while (t.kind != TokenKind::kString && PeekIsPunct(0, ".") && TokIsIdentifier(PeekTok(1))) {
                Advance();
                item += "." + Cur().text;
                Advance();
              }
              h.list_options.push_back(std::move(item));
            } else {
              return ErrorHere();
            }
          }
        } while (AcceptPunct(","));
      }
      RETURN_IF_ERROR(ExpectPunct(")"));
    }
    hints.push_back(std::move(h));
  } while (AcceptPunct(","));
  Expect("\"*/\"");
  if (Cur().kind != TokenKind::kHintEnd) return ErrorHere();
  Advance();
  return hints;
}

// [WITH ...] set-expression [ORDER BY ...] [LIMIT n] [OFFSET n] [FETCH FIRST n ROWS ONLY]
Result<QueryPtr> Parser::ParseQuery() {
  DepthGuard guard(this);
  RETURN_IF_ERROR(CheckDepth());
  SourcePos pos = Here();
  std::vector<Cte> ctes;
  if (AcceptKw("WITH")) {
    do {
      Cte cte;
      cte.pos = Here();
      ASSIGN_OR_RETURN(cte.name, ParseIdentifier());
      if (AtPunct("(")) {
        ASSIGN_OR_RETURN(cte.columns, ParseParenIdentifierList());
      }
      RETURN_IF_ERROR(ExpectKw("AS"));
      RETURN_IF_ERROR(ExpectPunct("("));
      ASSIGN_OR_RETURN(cte.query, ParseQuery());
      RETURN_IF_ERROR(ExpectPunct(")"));
      ctes.push_back(std::move(cte));
    } while (AcceptPunct(","));
  }
  ASSIGN_OR_RETURN(QueryPtr body, ParseSetExpr());
  std::vector<OrderItem> order_by;
  if (AcceptKw("ORDER")) {
    RETURN_IF_ERROR(ExpectKw("BY"));
    ASSIGN_OR_RETURN(order_by, ParseOrderItems());
  }
  ExprPtr limit, offset;
  while (true) {
    if (!limit && AcceptKw("LIMIT")) {
      ASSIGN_OR_RETURN(limit, ParseExpr());
      continue;
    }
    if (!offset && AcceptKw("OFFSET")) {
      ASSIGN_OR_RETURN(offset, ParseExpr());
      if (!AcceptKw("ROWS")) AcceptKw("ROW");
      continue;
    }
    if (!limit && AcceptKw("FETCH")) {
      if (!AcceptKw("FIRST")) RETURN_IF_ERROR(ExpectKw("NEXT"));
      ASSIGN_OR_RETURN(limit, ParseExpr());
      if (!AcceptKw("ROWS")) RETURN_IF_ERROR(ExpectKw("ROW"));
      RETURN_IF_ERROR(ExpectKw("ONLY"));
      continue;
    }
    break;
  }
  bool has_tail = !order_by.empty() || limit || offset;
  if ((has_tail && (!body->order_by.empty() || body->limit || body->offset)) ||
      (!ctes.empty() && !body->with.empty())) {
    // A parenthesized query that already has these clauses: keep it as a subquery.
    auto wrapper = std::make_unique<Select>();
    wrapper->pos = body->pos;
    auto star = std::make_unique<Star>();
    star->pos = body->pos;
    wrapper->items.push_back(SelectItem{body->pos, std::move(star), ""});
    auto sub = std::make_unique<SubqueryRef>();
    sub->pos = body->pos;
    sub->query = std::move(body);
    wrapper->from = std::move(sub);
    body = std::move(wrapper);
  }
  body->with = std::move(ctes);
  if (!body->with.empty()) body->pos = pos;
  if (has_tail) {
    body->order_by = std::move(order_by);
    body->limit = std::move(limit);
    body->offset = std::move(offset);
  }
  return body;
}

Result<std::vector<OrderItem>> Parser::ParseOrderItems() {
  std::vector<OrderItem> items;
  do {
    OrderItem item;
    item.pos = Here();
    ASSIGN_OR_RETURN(item.expr, ParseExpr());
    if (AcceptKw("DESC")) {
      item.descending = true;
    } else {
      AcceptKw("ASC");
    }
    if (AcceptKw("NULLS")) {
      if (AcceptKw("FIRST")) {
        item.nulls = OrderItem::Nulls::kFirst;
      } else {
        RETURN_IF_ERROR(ExpectKw("LAST"));
        item.nulls = OrderItem::Nulls::kLast;
      }
    }
    items.push_back(std::move(item));
  } while (AcceptPunct(","));
  return items;
}

Result<QueryPtr> Parser::ParseSetExpr() {
  ASSIGN_OR_RETURN(QueryPtr left, ParseIntersectExpr());
  while (true) {
    SourcePos pos = Here();
    SetOpKind op;
    if (AcceptKw("UNION")) {
      op = SetOpKind::kUnion;
    } else if (AcceptKw("EXCEPT") || AcceptKw("MINUS")) {
      op = SetOpKind::kExcept;
    } else {
      break;
    }
    auto set = std::make_unique<SetOp>();
    set->pos = pos;
    set->op = op;
    if (AcceptKw("ALL")) {
      set->all = true;
    } else {
      AcceptKw("DISTINCT");
    }
    ASSIGN_OR_RETURN(set->right, ParseIntersectExpr());
    set->left = std::move(left);
    left = std::move(set);
  }
  return left;
}

Result<QueryPtr> Parser::ParseIntersectExpr() {
  ASSIGN_OR_RETURN(QueryPtr left, ParseQueryPrimary());
  while (true) {
    SourcePos pos = Here();
    if (!AcceptKw("INTERSECT")) break;
    auto set = std::make_unique<SetOp>();
    set->pos = pos;
    set->op = SetOpKind::kIntersect;
    if (AcceptKw("ALL")) {
      set->all = true;
    } else {
      AcceptKw("DISTINCT");
    }
    ASSIGN_OR_RETURN(set->right, ParseQueryPrimary());
    set->left = std::move(left);
    left = std::move(set);
  }
  return left;
}

Result<QueryPtr> Parser::ParseQueryPrimary() {
  if (AtKw("SELECT")) return ParseSelect();
  if (AtKw("VALUES")) return ParseValues();
  if (AcceptPunct("(")) {
    ASSIGN_OR_RETURN(QueryPtr q, ParseQuery());
    RETURN_IF_ERROR(ExpectPunct(")"));
    return q;
  }
  return ErrorHere();
}

Result<QueryPtr> Parser::ParseValues() {
  auto v = std::make_unique<Values>();
  v->pos = Here();
  RETURN_IF_ERROR(ExpectKw("VALUES"));
  do {
    AcceptKw("ROW");
    RETURN_IF_ERROR(ExpectPunct("("));
    std::vector<ExprPtr> row;
    do {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      row.push_back(std::move(e));
    } while (AcceptPunct(","));
    RETURN_IF_ERROR(ExpectPunct(")"));
    v->rows.push_back(std::move(row));
  } while (AcceptPunct(","));
  return QueryPtr(std::move(v));
}

Result<QueryPtr> Parser::ParseSelect() {
  auto s = std::make_unique<Select>();
  s->pos = Here();
  RETURN_IF_ERROR(ExpectKw("SELECT"));
  ASSIGN_OR_RETURN(s->hints, ParseHintsIfAny());
  if (AcceptKw("DISTINCT")) {
    s->distinct = true;
  } else {
    AcceptKw("ALL");
  }
  do {
    SelectItem item;
    item.pos = Here();
    if (AtPunct("*")) {
      auto star = std::make_unique<Star>();
      star->pos = Here();
      Advance();
      item.expr = std::move(star);
    } else {
      ASSIGN_OR_RETURN(item.expr, ParseExpr());
      if (item.expr->kind != ExprKind::kStar) {
        ASSIGN_OR_RETURN(item.alias, ParseOptionalAlias());
      }
    }
    s->items.push_back(std::move(item));
    if (AtKw("FROM")) break;
  } while (AcceptPunct(","));
  if (AcceptKw("FROM")) {
    ASSIGN_OR_RETURN(s->from, ParseFromList());
  }
  if (AcceptKw("WHERE")) {
    ASSIGN_OR_RETURN(s->where, ParseExpr());
  }
  if (AcceptKw("GROUP")) {
    RETURN_IF_ERROR(ExpectKw("BY"));
    ASSIGN_OR_RETURN(s->group_by, ParseGroupingElements());
  }
  if (AcceptKw("HAVING")) {
    ASSIGN_OR_RETURN(s->having, ParseExpr());
  }
  if (AcceptKw("WINDOW")) {
    do {
      NamedWindow w;
      w.pos = Here();
      ASSIGN_OR_RETURN(w.name, ParseIdentifier());
      RETURN_IF_ERROR(ExpectKw("AS"));
      ASSIGN_OR_RETURN(w.spec, ParseWindowSpec());
      s->windows.push_back(std::move(w));
    } while (AcceptPunct(","));
  }
  return QueryPtr(std::move(s));
}

// [AS] alias, or "" when none follows.
Result<std::string> Parser::ParseOptionalAlias() {
  if (AcceptKw("AS")) return ParseIdentifier();
  if (AtIdentifier()) return ParseIdentifier();
  return std::string();
}

Result<std::vector<GroupingElement>> Parser::ParseGroupingElements() {
  std::vector<GroupingElement> out;
  do {
    GroupingElement g;
    g.pos = Here();
    if (AtKw("GROUPING") && PeekIsKw(1, "SETS")) {
      Advance();
      Advance();
      g.kind = GroupingElement::Kind::kGroupingSets;
      RETURN_IF_ERROR(ExpectPunct("("));
      ASSIGN_OR_RETURN(g.elements, ParseGroupingElements());
      RETURN_IF_ERROR(ExpectPunct(")"));
    } else if ((AtKw("ROLLUP") || AtKw("CUBE")) && PeekIsPunct(1, "(")) {
      g.kind = AtKw("ROLLUP") ? GroupingElement::Kind::kRollup : GroupingElement::Kind::kCube;
      Advance();
      RETURN_IF_ERROR(ExpectPunct("("));
      ASSIGN_OR_RETURN(g.elements, ParseGroupingElements());
      RETURN_IF_ERROR(ExpectPunct(")"));
    } else if (AtPunct("(") && PeekIsPunct(1, ")")) {
      Advance();
      Advance();
      g.kind = GroupingElement::Kind::kEmpty;
    } else {
      ASSIGN_OR_RETURN(g.expr, ParseExpr());
    }
    out.push_back(std::move(g));
  } while (AcceptPunct(","));
  return out;
}

Result<TableRefPtr> Parser::ParseFromList() {
  ASSIGN_OR_RETURN(TableRefPtr left, ParseTablePrimary());
  while (true) {
    SourcePos pos = Here();
    JoinType type;
    bool natural = false;
    if (AcceptPunct(",")) {
      type = JoinType::kComma;
    } else if (AcceptKw("CROSS")) {
      RETURN_IF_ERROR(ExpectKw("JOIN"));
      type = JoinType::kCross;
    } else {
      natural = AcceptKw("NATURAL");
      if (AcceptKw("JOIN")) {
        type = JoinType::kInner;
      } else if (AcceptKw("INNER")) {
        RETURN_IF_ERROR(ExpectKw("JOIN"));
        type = JoinType::kInner;
      } else if (AcceptKw("LEFT") || AcceptKw("RIGHT") || AcceptKw("FULL")) {
        const Token& prev = tokens_[idx_ - 1];
        type = TokIsKw(prev, "LEFT") ? JoinType::kLeft : TokIsKw(prev, "RIGHT") ? JoinType::kRight : JoinType::kFull;
        AcceptKw("OUTER");
        RETURN_IF_ERROR(ExpectKw("JOIN"));
      } else {
        if (natural) return ErrorHere();
        break;
      }
    }
    auto join = std::make_unique<Join>();
    join->pos = pos;
    join->join_type = type;
    join->natural = natural;
    join->left = std::move(left);
    ASSIGN_OR_RETURN(join->right, ParseTablePrimary());
    if (type != JoinType::kComma && type != JoinType::kCross && !natural) {
      if (AcceptKw("ON")) {
        ASSIGN_OR_RETURN(join->on, ParseExpr());
      } else if (AcceptKw("USING")) {
        ASSIGN_OR_RETURN(join->using_columns, ParseParenIdentifierList());
      } else {
        return ErrorHere();
      }
    }
    left = std::move(join);
  }
  return left;
}

Result<TableRefPtr> Parser::ParseTablePrimary() {
  DepthGuard guard(this);
  RETURN_IF_ERROR(CheckDepth());
  SourcePos pos = Here();
  TableRefPtr ref;
  bool allow_alias = true;
  if (AcceptKw("LATERAL")) {
    if (AcceptKw("TABLE")) {
      ASSIGN_OR_RETURN(ref, ParseTableFunction(pos, /*lateral=*/true));
    } else if (AcceptPunct("(")) {
      auto sub = std::make_unique<SubqueryRef>();
      sub->pos = pos;
      sub->lateral = true;
      ASSIGN_OR_RETURN(sub->query, ParseQuery());
      RETURN_IF_ERROR(ExpectPunct(")"));
      ref = std::move(sub);
    } else {
      return ErrorHere();
    }
  } else if (AtKw("TABLE") && PeekIsPunct(1, "(")) {
    Advance();
    ASSIGN_OR_RETURN(ref, ParseTableFunction(pos, /*lateral=*/false));
  } else if (AcceptKw("UNNEST")) {
    auto un = std::make_unique<Unnest>();
    un->pos = pos;
    RETURN_IF_ERROR(ExpectPunct("("));
    do {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      un->args.push_back(std::move(e));
    } while (AcceptPunct(","));
    RETURN_IF_ERROR(ExpectPunct(")"));
    if (AtKw("WITH") && PeekIsKw(1, "ORDINALITY")) {
      Advance();
      Advance();
      un->with_ordinality = true;
    }
    ref = std::move(un);
  } else if (AtPunct("(")) {
    if (PeekIsKw(1, "SELECT") || PeekIsKw(1, "WITH") || PeekIsKw(1, "VALUES") || PeekIsPunct(1, "(")) {
      // A parenthesized query; "((SELECT ...) UNION ...)" also starts with "((".
      size_t save = idx_;
      bool double_paren = PeekIsPunct(1, "(");
      Advance();
      auto sub = std::make_unique<SubqueryRef>();
      sub->pos = pos;
      auto q = ParseQuery();
      if (q.ok() && AtPunct(")")) {
        Advance();
        sub->query = std::move(q).value();
        ref = std::move(sub);
      } else if (double_paren) {
        // Not a query: a parenthesized join such as ((a JOIN b ON ...) JOIN c ON ...).
        idx_ = save;
        Advance();
        ASSIGN_OR_RETURN(ref, ParseFromList());
        RETURN_IF_ERROR(ExpectPunct(")"));
        allow_alias = false;
      } else {
        if (!q.ok()) return q.status();
        return ErrorHere();
      }
    } else {
      Advance();
      ASSIGN_OR_RETURN(ref, ParseFromList());
      RETURN_IF_ERROR(ExpectPunct(")"));
      allow_alias = ref->kind != TableRefKind::kJoin;
    }
  } else {
    auto t = std::make_unique<TableName>();
    t->pos = pos;
    ASSIGN_OR_RETURN(t->name, ParseCompoundName());
    ASSIGN_OR_RETURN(t->hints, ParseHintsIfAny());
    if (AtKw("FOR") && PeekIsKw(1, "SYSTEM_TIME")) {
      Advance();
      Advance();
      RETURN_IF_ERROR(ExpectKw("AS"));
      RETURN_IF_ERROR(ExpectKw("OF"));
      ASSIGN_OR_RETURN(t->for_system_time, ParseExpr());
    }
    ref = std::move(t);
  }
  if (AtKw("MATCH_RECOGNIZE")) {
    ASSIGN_OR_RETURN(ref, ParseMatchRecognize(std::move(ref)));
    allow_alias = true;
  }
  if (allow_alias) {
    ASSIGN_OR_RETURN(ref->alias, ParseOptionalAlias());
    if (!ref->alias.empty() && AtPunct("(")) {
      ASSIGN_OR_RETURN(ref->column_aliases, ParseParenIdentifierList());
    }
  }
  return ref;
}

// After [LATERAL] TABLE: '(' call ')'.
Result<TableRefPtr> Parser::ParseTableFunction(SourcePos pos, bool lateral) {
  auto tf = std::make_unique<TableFunctionRef>();
  tf->pos = pos;
  tf->lateral = lateral;
  RETURN_IF_ERROR(ExpectPunct("("));
  const Token& call_tok = Cur();
  ASSIGN_OR_RETURN(tf->call, ParseExpr());
  if (tf->call->kind != ExprKind::kCall) return ErrorAt(call_tok, "Expected a table function call in TABLE(...)");
  RETURN_IF_ERROR(ExpectPunct(")"));
  return TableRefPtr(std::move(tf));
}

Result<std::unique_ptr<WindowSpec>> Parser::ParseWindowSpec() {
  auto spec = std::make_unique<WindowSpec>();
  spec->pos = Here();
  RETURN_IF_ERROR(ExpectPunct("("));
  if (AtIdentifier()) {
    ASSIGN_OR_RETURN(spec->base_window, ParseIdentifier());
  }
  if (AcceptKw("PARTITION")) {
    RETURN_IF_ERROR(ExpectKw("BY"));
    do {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      spec->partition_by.push_back(std::move(e));
    } while (AcceptPunct(","));
  }
  if (AcceptKw("ORDER")) {
    RETURN_IF_ERROR(ExpectKw("BY"));
    ASSIGN_OR_RETURN(spec->order_by, ParseOrderItems());
  }
  if (AtKw("ROWS") || AtKw("RANGE")) {
    spec->frame_unit = AtKw("ROWS") ? WindowSpec::FrameUnit::kRows : WindowSpec::FrameUnit::kRange;
    Advance();
    if (AcceptKw("BETWEEN")) {
      ASSIGN_OR_RETURN(spec->frame_start, ParseFrameBound());
      RETURN_IF_ERROR(ExpectKw("AND"));
      ASSIGN_OR_RETURN(FrameBound end, ParseFrameBound());
      spec->frame_end = std::move(end);
    } else {
      ASSIGN_OR_RETURN(spec->frame_start, ParseFrameBound());
    }
  }
  RETURN_IF_ERROR(ExpectPunct(")"));
  return spec;
}

Result<FrameBound> Parser::ParseFrameBound() {
  FrameBound b;
  if (AcceptKw("UNBOUNDED")) {
    if (AcceptKw("PRECEDING")) {
      b.kind = FrameBound::Kind::kUnboundedPreceding;
    } else {
      RETURN_IF_ERROR(ExpectKw("FOLLOWING"));
      b.kind = FrameBound::Kind::kUnboundedFollowing;
    }
    return b;
  }
  if (AcceptKw("CURRENT")) {
    RETURN_IF_ERROR(ExpectKw("ROW"));
    b.kind = FrameBound::Kind::kCurrentRow;
    return b;
  }
  ASSIGN_OR_RETURN(b.offset, ParseAdditive());
  if (AcceptKw("PRECEDING")) {
    b.kind = FrameBound::Kind::kPreceding;
  } else {
    RETURN_IF_ERROR(ExpectKw("FOLLOWING"));
    b.kind = FrameBound::Kind::kFollowing;
  }
  return b;
}

}  // namespace sluice::sql::internal
