// MATCH_RECOGNIZE (...) after a table reference (Calcite's and Flink's grammar):
//   MATCH_RECOGNIZE ( [PARTITION BY e, ...] [ORDER BY item, ...] [MEASURES e AS name, ...]
//     [ONE ROW PER MATCH | ALL ROWS PER MATCH]
//     [AFTER MATCH SKIP (PAST LAST ROW | TO NEXT ROW | TO FIRST v | TO LAST v | TO v)]
//     PATTERN ( pattern ) [WITHIN INTERVAL '...' unit] [SUBSET s = (v, ...), ...] DEFINE v AS cond, ... )
// A measure may start with FINAL or RUNNING (Calcite's prefix operators).
// Patterns: concatenation by juxtaposition, alternation with |, groups in parentheses, and the
// quantifiers * + ? {n} {n,} {n,m} {,m}, each optionally followed by ? (reluctant). The binder decides
// which of them Flink runs.
#include <algorithm>

#include "sql/parser_internal.h"

namespace sluice::sql::internal {

Result<TableRefPtr> Parser::ParseMatchRecognize(TableRefPtr input) {
  auto m = std::make_unique<MatchRecognize>();
  m->pos = Here();
  RETURN_IF_ERROR(ExpectKw("MATCH_RECOGNIZE"));
  RETURN_IF_ERROR(ExpectPunct("("));
  m->input = std::move(input);
  RETURN_IF_ERROR(ParseMatchClauses(m.get()));
  RETURN_IF_ERROR(ExpectPunct(")"));
  return TableRefPtr(std::move(m));
}

Status Parser::ParseMatchClauses(MatchRecognize* m) {
  if (AcceptKw("PARTITION")) {
    RETURN_IF_ERROR(ExpectKw("BY"));
    do {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      m->partition_by.push_back(std::move(e));
    } while (AcceptPunct(","));
  }
  if (AcceptKw("ORDER")) {
    RETURN_IF_ERROR(ExpectKw("BY"));
    ASSIGN_OR_RETURN(m->order_by, ParseOrderItems());
  }
  if (AcceptKw("MEASURES")) RETURN_IF_ERROR(ParseMatchMeasures(m));
  if (AcceptKw("ONE")) {
    RETURN_IF_ERROR(ExpectKw("ROW"));
    RETURN_IF_ERROR(ExpectKw("PER"));
    RETURN_IF_ERROR(ExpectKw("MATCH"));
  } else if (AcceptKw("ALL")) {
    RETURN_IF_ERROR(ExpectKw("ROWS"));
    RETURN_IF_ERROR(ExpectKw("PER"));
    RETURN_IF_ERROR(ExpectKw("MATCH"));
    m->all_rows = true;
  }
  if (AcceptKw("AFTER")) RETURN_IF_ERROR(ParseMatchSkip(m));
  RETURN_IF_ERROR(ExpectKw("PATTERN"));
  RETURN_IF_ERROR(ExpectPunct("("));
  ASSIGN_OR_RETURN(m->pattern, ParsePatternAlternation());
  RETURN_IF_ERROR(ExpectPunct(")"));
  if (AtKw("WITHIN")) {
    Advance();
    SourcePos pos = Here();
    RETURN_IF_ERROR(ExpectKw("INTERVAL"));
    ASSIGN_OR_RETURN(m->within, ParseIntervalLiteral(pos));
  }
  if (AcceptKw("SUBSET")) {
    do {
      MatchRecognize::Subset sub;
      sub.pos = Here();
      ASSIGN_OR_RETURN(sub.name, ParseIdentifier());
      RETURN_IF_ERROR(ExpectPunct("="));
      RETURN_IF_ERROR(ExpectPunct("("));
      do {
        sub.variable_pos.push_back(Here());
        ASSIGN_OR_RETURN(std::string v, ParseIdentifier());
        sub.variables.push_back(std::move(v));
      } while (AcceptPunct(","));
      RETURN_IF_ERROR(ExpectPunct(")"));
      m->subsets.push_back(std::move(sub));
    } while (AcceptPunct(","));
  }
  RETURN_IF_ERROR(ExpectKw("DEFINE"));
  do {
    MatchRecognize::Definition d;
    d.pos = Here();
    ASSIGN_OR_RETURN(d.variable, ParseIdentifier());
    RETURN_IF_ERROR(ExpectKw("AS"));
    ASSIGN_OR_RETURN(d.condition, ParseExpr());
    m->define.push_back(std::move(d));
  } while (AcceptPunct(","));
  return Status::OK();
}

// MEASURES e AS name, ... (after the keyword).
Status Parser::ParseMatchMeasures(MatchRecognize* m) {
  do {
    MatchRecognize::Measure ms;
    ms.pos = Here();
    // FINAL / RUNNING expr (Calcite's prefix operators); FINAL is what ONE ROW PER MATCH computes.
    if ((AtKw("FINAL") || AtKw("RUNNING")) && PeekTok(1).kind == TokenKind::kWord && !PeekIsKw(1, "AS")) {
      ms.running = AtKw("RUNNING");
      Advance();
    }
    ASSIGN_OR_RETURN(ms.expr, ParseExpr());
    RETURN_IF_ERROR(ExpectKw("AS"));
    ASSIGN_OR_RETURN(ms.alias, ParseIdentifier());
    m->measures.push_back(std::move(ms));
  } while (AcceptPunct(","));
  return Status::OK();
}

// MATCH SKIP (PAST LAST ROW | TO NEXT ROW | TO FIRST v | TO LAST v | TO v), after AFTER.
Status Parser::ParseMatchSkip(MatchRecognize* m) {
  RETURN_IF_ERROR(ExpectKw("MATCH"));
  RETURN_IF_ERROR(ExpectKw("SKIP"));
  m->skip_pos = Here();
  if (AcceptKw("PAST")) {
    RETURN_IF_ERROR(ExpectKw("LAST"));
    RETURN_IF_ERROR(ExpectKw("ROW"));
    m->skip = MatchRecognize::Skip::kPastLastRow;
  } else {
    RETURN_IF_ERROR(ExpectKw("TO"));
    if (AtKw("NEXT") && PeekIsKw(1, "ROW")) {
      Advance();
      Advance();
      m->skip = MatchRecognize::Skip::kToNextRow;
    } else {
      // TO v means TO LAST v, as in the standard.
      m->skip = MatchRecognize::Skip::kToLast;
      if (AtKw("FIRST") && !PeekIsPunct(1, "(")) {
        Advance();
        m->skip = MatchRecognize::Skip::kToFirst;
      } else if (AtKw("LAST") && !PeekIsPunct(1, "(")) {
        Advance();
      }
      ASSIGN_OR_RETURN(m->skip_variable, ParseIdentifier());
    }
  }
  return Status::OK();
}

Result<PatternTerm> Parser::ParsePatternAlternation() {
  DepthGuard guard(this);
  RETURN_IF_ERROR(CheckDepth());
  SourcePos pos = Here();
  ASSIGN_OR_RETURN(PatternTerm first, ParsePatternConcat());
  if (!AtPunct("|")) return first;
  PatternTerm alt;
  alt.kind = PatternTerm::Kind::kAlternation;
  alt.pos = pos;
  alt.terms.push_back(std::move(first));
  while (AcceptPunct("|")) {
    ASSIGN_OR_RETURN(PatternTerm next, ParsePatternConcat());
    alt.terms.push_back(std::move(next));
  }
  return alt;
}

Result<PatternTerm> Parser::ParsePatternConcat() {
  SourcePos pos = Here();
  ASSIGN_OR_RETURN(PatternTerm first, ParsePatternPrimary());
  if (AtPunct(")") || AtPunct("|")) return first;
  PatternTerm cat;
  cat.kind = PatternTerm::Kind::kConcat;
  cat.pos = pos;
  cat.terms.push_back(std::move(first));
  while (!AtPunct(")") && !AtPunct("|")) {
    ASSIGN_OR_RETURN(PatternTerm next, ParsePatternPrimary());
    cat.terms.push_back(std::move(next));
  }
  return cat;
}

Result<PatternTerm> Parser::ParsePatternPrimary() {
  PatternTerm t;
  t.pos = Here();
  if (AcceptPunct("(")) {
    t.kind = PatternTerm::Kind::kGroup;
    ASSIGN_OR_RETURN(PatternTerm inner, ParsePatternAlternation());
    t.terms.push_back(std::move(inner));
    RETURN_IF_ERROR(ExpectPunct(")"));
  } else {
    if (AtKw("PERMUTE")) return Status::NotSupported("Currently, CEP doesn't support PERMUTE patterns.");
    if (AtPunct("{")) return Status::NotSupported("Currently, CEP doesn't support '{-' '-}' patterns.");
    ASSIGN_OR_RETURN(t.name, ParseIdentifier());
  }
  RETURN_IF_ERROR(ParsePatternQuantifier(&t));
  return t;
}

Status Parser::ParsePatternQuantifier(PatternTerm* t) {
  if (AcceptPunct("*")) {
    t->min = 0;
    t->max = -1;
  } else if (AcceptPunct("+")) {
    t->min = 1;
    t->max = -1;
  } else if (AcceptPunct("?")) {
    t->min = 0;
    t->max = 1;
  } else if (AtPunct("{") && !PeekIsPunct(1, "-")) {
    Advance();
    constexpr int64_t kMax = 1 << 30;
    if (AcceptPunct(",")) {
      t->min = 0;
      ASSIGN_OR_RETURN(t->max, ParseIntegerLiteral(kMax));
    } else {
      ASSIGN_OR_RETURN(t->min, ParseIntegerLiteral(kMax));
      t->max = t->min;
      if (AcceptPunct(",")) {
        t->max = -1;
        if (!AtPunct("}")) {
          ASSIGN_OR_RETURN(t->max, ParseIntegerLiteral(kMax));
        }
      }
    }
    RETURN_IF_ERROR(ExpectPunct("}"));
  } else {
    return Status::OK();
  }
  t->quantified = true;
  t->reluctant = AcceptPunct("?");
  return Status::OK();
}

}  // namespace sluice::sql::internal
