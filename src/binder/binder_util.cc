// See binder_util.h.
#include "binder/binder_util.h"

#include <cctype>
#include <set>

#include "function/aggregate/aggregate_function.h"
#include "function/function_registry.h"
#include "function/scalar_function.h"

namespace sluice {

std::string ExprColumnName(size_t index) { return "EXPR$" + std::to_string(index); }

namespace binder_internal {

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string JoinName(const ast::Name& n) {
  std::string s;
  for (const auto& p : n) s += (s.empty() ? "" : ".") + p;
  return s;
}

ExprPtr MakeSpecial(ExprKind kind, LogicalType type, std::vector<ExprPtr> args) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = std::move(type);
  e->args = std::move(args);
  return e;
}

bool AnyNullable(const std::vector<ExprPtr>& args) {
  for (const auto& a : args) {
    if (a->type.nullable()) return true;
  }
  return false;
}

LogicalType AggregateOutputType(const AggregateCall& call, bool may_be_empty) {
  const LogicalType& t = call.function->result_type;
  const std::string& n = call.function->name;
  const bool arg_nullable = !call.arg_types.empty() && call.arg_types[0].nullable();
  if (n == "LISTAGG") return t.WithNullable(arg_nullable);
  static const char* const kNullableIfEmpty[] = {"SUM",     "AVG",      "MIN",        "MAX",        "FIRST_VALUE",
                                                 "LAST_VALUE", "VAR_POP", "VAR_SAMP", "STDDEV_POP", "STDDEV_SAMP"};
  for (const char* name : kNullableIfEmpty) {
    if (n == name) return t.WithNullable(arg_nullable || may_be_empty || call.filter >= 0);
  }
  return t;
}

bool IsGlobalAggregation(const std::vector<ast::GroupingElement>& group_by) {
  for (const auto& g : group_by) {
    if (g.kind != ast::GroupingElement::Kind::kEmpty) return false;
  }
  return true;
}

// Identity projections over a node's output.
std::vector<ExprPtr> IdentityProjections(const Schema& schema) {
  std::vector<ExprPtr> out;
  for (size_t i = 0; i < schema.size(); ++i) out.push_back(MakeColumnRef(static_cast<int>(i), schema.field(i).type));
  return out;
}

// A name for a select item written without an alias: the column or field name it reads, else EXPR$i.
std::string ImplicitName(const ast::Expr& e, size_t index) {
  if (e.kind == ast::ExprKind::kIdentifier) return e.As<ast::Identifier>().parts.back();
  if (e.kind == ast::ExprKind::kFieldAccess) return e.As<ast::FieldAccess>().field;
  return ExprColumnName(index);
}

// Makes output names unique as Flink does (a, a0, a1, ...).
void Uniquify(std::vector<std::string>* names) {
  std::set<std::string> used;
  for (auto& n : *names) {
    if (used.insert(n).second) continue;
    for (int i = 0;; ++i) {
      std::string cand = n + std::to_string(i);
      if (used.insert(cand).second) {
        n = cand;
        break;
      }
    }
  }
}


bool IsAggregateCall(const ast::Expr& e) {
  if (e.kind != ast::ExprKind::kCall) return false;
  const auto& c = e.As<ast::Call>();
  return !c.over && c.over_window.empty() && IsAggregateFunction(c.name.back());
}

void CollectAggregates(const ast::Expr& e, std::vector<const ast::Call*>* out) {
  if (IsAggregateCall(e)) {
    out->push_back(&e.As<ast::Call>());
    return;
  }
  ForEachChild(e, [&](const ast::Expr& c) { CollectAggregates(c, out); });
}

bool IsRowNumberOver(const ast::Expr& e) {
  if (e.kind != ast::ExprKind::kCall) return false;
  const auto& c = e.As<ast::Call>();
  std::string n = c.name.back();
  for (char& ch : n) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return (c.over != nullptr || !c.over_window.empty()) && (n == "ROW_NUMBER" || n == "RANK" || n == "DENSE_RANK");
}

std::vector<ExprPtr> SplitEquiKeys(const ExprPtr& cond, size_t nl, JoinNode* node) {
  std::vector<ExprPtr> conjuncts;
  if (cond) {
    if (cond->kind == ExprKind::kAnd) conjuncts = cond->args;
    else conjuncts = {cond};
  }
  std::vector<ExprPtr> residual;
  for (const auto& c : conjuncts) {
    bool taken = false;
    if (c->kind == ExprKind::kCall && c->function && c->function->name == "=" && c->args.size() == 2) {
      const Expr* a = c->args[0].get();
      const Expr* b = c->args[1].get();
      if (a->kind == ExprKind::kColumnRef && b->kind == ExprKind::kColumnRef &&
          a->type.EqualsIgnoringNullability(b->type)) {
        int ai = a->column_index, bi = b->column_index;
        if (ai >= static_cast<int>(nl) && bi < static_cast<int>(nl)) std::swap(ai, bi);
        if (ai < static_cast<int>(nl) && bi >= static_cast<int>(nl)) {
          node->left_keys.push_back(ai);
          node->right_keys.push_back(bi - static_cast<int>(nl));
          taken = true;
        }
      }
    }
    if (!taken) residual.push_back(c);
  }
  return residual;
}

}  // namespace binder_internal

using namespace binder_internal;  // NOLINT

void CollectOverAggregates(const ast::Expr& e, std::vector<const ast::Call*>* out) {
  if (e.kind == ast::ExprKind::kCall) {
    const auto& c = e.As<ast::Call>();
    if ((c.over != nullptr || !c.over_window.empty()) && !IsRowNumberOver(e)) {
      out->push_back(&c);
      return;
    }
  }
  ForEachChild(e, [&](const ast::Expr& c) { CollectOverAggregates(c, out); });
}



}  // namespace sluice
