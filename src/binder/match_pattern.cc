// MATCH_RECOGNIZE's PATTERN (binder part). A pattern Flink's CEP runs — a sequence of distinct
// variables, each with a quantifier other than a reluctant ? — becomes the Match node's stages and is
// matched with Flink's semantics, refusals included (greedy last variable, empty matches). Any other
// pattern (alternation, a quantified group, a reluctant ?; Flink refuses them) is compiled to a
// program of instructions (plan_node.h, MatchInstr) matched with the SQL standard's row pattern
// semantics (runtime/operators/match_program.h), a deliberate extension (docs/flink_differences.md):
//   X Y       X's instructions, then Y's;
//   X | Y     split (X preferred, then Y), X, jump past Y, Y: the left branch is preferred;
//   X{n,m}    X n times, then m - n nested optional copies (split to X preferred over skipping it
//             when greedy, the other way round when reluctant); X{n,} ends in a loop instead: split
//             (body preferred when greedy), X, jump back to the split.
// Bounded quantifiers are unrolled, so a program is at most kMaxProgram instructions.
#include <functional>

#include "binder/binder.h"
#include "binder/binder_util.h"

namespace sluice {

namespace {

using K = ast::PatternTerm::Kind;

constexpr size_t kMaxProgram = 10000;

// A pattern as Calcite prints it in Flink's plans and messages: _UTF-16LE'A', (x, y) for
// concatenation, |(x, y) for alternation, PATTERN_QUANTIFIER(x, min, max, reluctant).
std::string CalcitePattern(const ast::PatternTerm& t) {
  std::string out;
  switch (t.kind) {
    case K::kVariable: out = "_UTF-16LE'" + t.name + "'"; break;
    case K::kGroup: out = CalcitePattern(t.terms[0]); break;
    case K::kConcat:
    case K::kAlternation:
      out = CalcitePattern(t.terms[0]);
      for (size_t i = 1; i < t.terms.size(); ++i) {
        out = (t.kind == K::kAlternation ? "|(" : "(") + out + ", " + CalcitePattern(t.terms[i]) + ")";
      }
      break;
  }
  if (t.quantified && !(t.min == 1 && t.max == 1 && !t.reluctant)) {
    out = "PATTERN_QUANTIFIER(" + out + ", " + std::to_string(t.min) + ", " + std::to_string(t.max) + ", " +
          (t.reluctant ? "true" : "false") + ")";
  }
  return out;
}

// Whether Flink's CEP runs the pattern: no alternation, no quantified group, no reluctant ?.
bool FlinkRuns(const ast::PatternTerm& t) {
  switch (t.kind) {
    case K::kVariable: return !(t.min == 0 && t.max == 1 && t.reluctant);
    case K::kAlternation: return false;
    case K::kGroup: return !t.quantified && FlinkRuns(t.terms[0]);
    case K::kConcat:
      for (const auto& c : t.terms) {
        if (!FlinkRuns(c)) return false;
      }
      return true;
  }
  return true;
}

// The pattern's variables in order (a pattern Flink runs).
void FlattenPattern(const ast::PatternTerm& t, std::vector<const ast::PatternTerm*>* out) {
  if (t.kind == K::kVariable) {
    out->push_back(&t);
    return;
  }
  for (const auto& c : t.terms) FlattenPattern(c, out);
}

int FindName(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// Compiles a pattern term to instructions (see the file comment).
class PatternCompiler {
 public:
  using ErrorAt = std::function<Status(ast::SourcePos, const std::string&)>;
  PatternCompiler(ErrorAt error, MatchNode* node) : error_(std::move(error)), node_(node) {}

  Status Term(const ast::PatternTerm& t) {
    if (t.max >= 0 && (t.max < t.min || t.max == 0)) {
      return error_(t.pos, "Invalid quantifier {" + std::to_string(t.min) + "," + std::to_string(t.max) + "}");
    }
    for (int64_t i = 0; i < t.min; ++i) RETURN_IF_ERROR(Body(t));
    if (t.max < 0) {
      const int loop = Emit(MatchInstr::Op::kSplit);
      RETURN_IF_ERROR(Body(t));
      Emit(MatchInstr::Op::kJump, loop);
      Prefer(loop, !t.reluctant);
      return Size();
    }
    std::vector<int> splits;
    for (int64_t i = t.min; i < t.max; ++i) {
      splits.push_back(Emit(MatchInstr::Op::kSplit));
      RETURN_IF_ERROR(Size());
      RETURN_IF_ERROR(Body(t));
    }
    for (int s : splits) Prefer(s, !t.reluctant);
    return Size();
  }

 private:
  // The term without its quantifier.
  Status Body(const ast::PatternTerm& t) {
    RETURN_IF_ERROR(Size());
    switch (t.kind) {
      case K::kVariable: {
        int v = FindName(node_->variables, t.name);
        if (v < 0) {
          v = static_cast<int>(node_->variables.size());
          node_->variables.push_back(t.name);
        }
        Emit(MatchInstr::Op::kLabel, v);
        return Status::OK();
      }
      case K::kGroup: return Term(t.terms[0]);
      case K::kConcat:
        for (const auto& c : t.terms) RETURN_IF_ERROR(Term(c));
        return Status::OK();
      case K::kAlternation: {
        std::vector<int> jumps;
        for (size_t i = 0; i < t.terms.size(); ++i) {
          const bool last = i + 1 == t.terms.size();
          const int split = last ? -1 : Emit(MatchInstr::Op::kSplit, 0);
          if (!last) program()[static_cast<size_t>(split)].a = split + 1;
          RETURN_IF_ERROR(Term(t.terms[i]));
          if (last) break;
          jumps.push_back(Emit(MatchInstr::Op::kJump));
          program()[static_cast<size_t>(split)].b = static_cast<int>(program().size());
        }
        for (int j : jumps) program()[static_cast<size_t>(j)].a = static_cast<int>(program().size());
        return Size();
      }
    }
    return Status::OK();
  }

  std::vector<MatchInstr>& program() { return node_->program; }
  int Emit(MatchInstr::Op op, int a = -1) {
    program().push_back(MatchInstr{op, a, -1});
    return static_cast<int>(program().size() - 1);
  }
  // The split at `s`, followed by its body up to the end of the program: into the body first when
  // `body_first`, else past it first.
  void Prefer(int s, bool body_first) {
    MatchInstr& in = program()[static_cast<size_t>(s)];
    const int body = s + 1;
    const int past = static_cast<int>(program().size());
    in.a = body_first ? body : past;
    in.b = body_first ? past : body;
  }
  Status Size() const {
    if (node_->program.size() <= kMaxProgram) return Status::OK();
    return Status::InvalidArgument("The MATCH_RECOGNIZE pattern expands to more than " + std::to_string(kMaxProgram) +
                                   " instructions (its bounded quantifiers are unrolled): use smaller bounds");
  }

  ErrorAt error_;
  MatchNode* node_;
};

// Whether the program can reach kDone from its start without taking a row.
bool MatchesEmpty(const std::vector<MatchInstr>& prog) {
  std::vector<uint8_t> seen(prog.size(), 0);
  std::function<bool(int)> reach = [&](int pc) -> bool {
    if (seen[static_cast<size_t>(pc)]) return false;
    seen[static_cast<size_t>(pc)] = 1;
    const MatchInstr& in = prog[static_cast<size_t>(pc)];
    switch (in.op) {
      case MatchInstr::Op::kDone: return true;
      case MatchInstr::Op::kLabel: return false;
      case MatchInstr::Op::kJump: return reach(in.a);
      case MatchInstr::Op::kSplit: return reach(in.a) || reach(in.b);
    }
    return false;
  };
  return reach(0);
}

// Pattern variables must be unique (Flink's rule, kept for both kinds of pattern).
Status CheckUnique(const ast::PatternTerm& t, std::vector<std::string>* seen) {
  if (t.kind == K::kVariable) {
    if (FindName(*seen, t.name) >= 0) {
      return Status::NotSupported("Pattern variables must be unique. That might change in the future.");
    }
    seen->push_back(t.name);
    return Status::OK();
  }
  for (const auto& c : t.terms) RETURN_IF_ERROR(CheckUnique(c, seen));
  return Status::OK();
}

const char* const kEmptyMatches =
    "Patterns that can produce empty matches are not supported. There must be at least one non-optional state.";

}  // namespace

Status Binder::BindMatchPattern(const ast::MatchRecognize& m, MatchNode* node) const {
  std::vector<std::string> names;
  RETURN_IF_ERROR(CheckUnique(m.pattern, &names));
  if (!FlinkRuns(m.pattern)) {
    PatternCompiler compiler([this](ast::SourcePos pos, const std::string& msg) { return Error(pos, msg); }, node);
    RETURN_IF_ERROR(compiler.Term(m.pattern));
    node->program.push_back(MatchInstr{MatchInstr::Op::kDone, -1, -1});
    if (MatchesEmpty(node->program)) return Status::NotSupported(kEmptyMatches);
    node->pattern_text = CalcitePattern(m.pattern);
    return Status::OK();
  }
  std::vector<const ast::PatternTerm*> terms;
  FlattenPattern(m.pattern, &terms);
  for (const ast::PatternTerm* t : terms) {
    if (t->max >= 0 && (t->max < t->min || t->max == 0)) {
      return Error(t->pos, "Invalid quantifier {" + std::to_string(t->min) + "," + std::to_string(t->max) + "} of " + t->name);
    }
    MatchStage s;
    s.min = t->min;
    s.max = t->max;
    s.reluctant = t->reluctant;
    const bool optional = t->min == 0 && t->max == 1;
    s.greedy = !t->reluctant && !optional && t->min != t->max;
    node->variables.push_back(t->name);
    node->stages.push_back(s);
  }
  bool empty_match = true;
  for (const auto& s : node->stages) empty_match &= s.min == 0;
  if (empty_match) return Status::NotSupported(kEmptyMatches);
  if (node->stages.back().greedy) {
    return Status::NotSupported(
        "Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your pattern with either a "
        "simple variable or reluctant quantifier.");
  }
  return Status::OK();
}

}  // namespace sluice
