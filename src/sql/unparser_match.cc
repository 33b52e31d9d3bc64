// MATCH_RECOGNIZE's unparsing (see unparser_internal.h), as parser_match.cc parses it.
#include "sql/unparser.h"
#include "sql/unparser_internal.h"

#include <string>

namespace sluice::sql {

using namespace ast;  // NOLINT: prints MATCH_RECOGNIZE's nodes

namespace {

// A pattern term; a quantifier always as {min,max} with `?` when reluctant, which parses back to the
// same term.
std::string PatternText(const PatternTerm& t) {
  std::string out;
  switch (t.kind) {
    case PatternTerm::Kind::kVariable: out = QuoteIdentifier(t.name); break;
    case PatternTerm::Kind::kGroup: out = "(" + PatternText(t.terms[0]) + ")"; break;
    case PatternTerm::Kind::kConcat:
    case PatternTerm::Kind::kAlternation:
      for (size_t i = 0; i < t.terms.size(); ++i) {
        if (i) out += t.kind == PatternTerm::Kind::kConcat ? " " : " | ";
        out += PatternText(t.terms[i]);
      }
      break;
  }
  if (t.quantified) {
    out += "{" + std::to_string(t.min) + "," + (t.max >= 0 ? std::to_string(t.max) : std::string()) + "}";
    if (t.reluctant) out += "?";
  }
  return out;
}

}  // namespace

std::string MatchRecognizeText(UnparserBase& unparser, const MatchRecognize& m) {
  std::string out = unparser.TableRefText(*m.input) + " MATCH_RECOGNIZE (";
  if (!m.partition_by.empty()) out += "PARTITION BY " + unparser.ExprList(m.partition_by) + " ";
  if (!m.order_by.empty()) out += "ORDER BY " + unparser.OrderItems(m.order_by) + " ";
  if (!m.measures.empty()) {
    out += "MEASURES ";
    for (size_t i = 0; i < m.measures.size(); ++i) {
      out += (i ? ", " : "") + unparser.Expr(*m.measures[i].expr) + " AS " + QuoteIdentifier(m.measures[i].alias);
    }
    out += " ";
  }
  out += m.all_rows ? "ALL ROWS PER MATCH " : "ONE ROW PER MATCH ";
  switch (m.skip) {
    case MatchRecognize::Skip::kPastLastRow: out += "AFTER MATCH SKIP PAST LAST ROW "; break;
    case MatchRecognize::Skip::kToNextRow: out += "AFTER MATCH SKIP TO NEXT ROW "; break;
    case MatchRecognize::Skip::kToFirst: out += "AFTER MATCH SKIP TO FIRST " + QuoteIdentifier(m.skip_variable) + " "; break;
    case MatchRecognize::Skip::kToLast: out += "AFTER MATCH SKIP TO LAST " + QuoteIdentifier(m.skip_variable) + " "; break;
  }
  out += "PATTERN (" + PatternText(m.pattern) + ")";
  if (m.within) out += " WITHIN " + unparser.Expr(*m.within);
  for (size_t i = 0; i < m.subsets.size(); ++i) {
    out += (i ? ", " : " SUBSET ") + QuoteIdentifier(m.subsets[i].name) + " = (";
    for (size_t j = 0; j < m.subsets[i].variables.size(); ++j) out += (j ? ", " : "") + QuoteIdentifier(m.subsets[i].variables[j]);
    out += ")";
  }
  out += " DEFINE ";
  for (size_t i = 0; i < m.define.size(); ++i) {
    out += (i ? ", " : "") + QuoteIdentifier(m.define[i].variable) + " AS " + unparser.Expr(*m.define[i].condition);
  }
  return out + ")";
}

}  // namespace sluice::sql
