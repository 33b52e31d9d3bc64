// The WINDOW clause (binder.h): `SELECT agg(x) OVER w ... WINDOW w AS (PARTITION BY ... ORDER BY ...
// [ROWS|RANGE ...])`, and windows refining a named one (`OVER (w ROWS BETWEEN ...)`, `w2 AS (w ...)`),
// resolved as Calcite's SqlWindow.overlay does: the reference may add an ORDER BY when the named window
// has none, and a frame when it has none; it may not repeat PARTITION BY. The OVER aggregate then binds
// the resolved window as if it were written inline.
#include <set>

#include "binder/binder.h"
#include "sql/unparser.h"

namespace sluice {

namespace {

// The window's text as written, to find two equal specifications.
std::string SpecDigest(const ast::WindowSpec& w) {
  std::string d = w.base_window + "|";
  for (const auto& p : w.partition_by) d += sql::Unparse(*p) + ",";
  d += "|";
  for (const auto& o : w.order_by) {
    d += sql::Unparse(*o.expr) + (o.descending ? " DESC" : "") + "/" + std::to_string(static_cast<int>(o.nulls)) + ",";
  }
  d += "|" + std::to_string(static_cast<int>(w.frame_unit));
  if (w.frame_unit != ast::WindowSpec::FrameUnit::kNone) {
    auto bound = [](const ast::FrameBound& b) {
      return std::to_string(static_cast<int>(b.kind)) + (b.offset ? sql::Unparse(*b.offset) : "");
    };
    d += "|" + bound(w.frame_start) + "|" + (w.frame_end ? bound(*w.frame_end) : "-");
  }
  return d;
}

}  // namespace

Status Binder::SetNamedWindows(const ast::Select& select) {
  named_windows_.clear();
  std::set<std::string> specs;
  for (const auto& w : select.windows) {
    if (named_windows_.count(w.name)) return Error(w.pos, "Duplicate window names not allowed");
    named_windows_[w.name] = &w;
    // Calcite refuses two names for one specification.
    if (!specs.insert(SpecDigest(*w.spec)).second) {
      return Error(w.pos, "Duplicate window specification not allowed in the same window clause");
    }
  }
  // Resolve every definition once, so a reference to an unknown or refined-wrongly window is reported
  // even when no OVER call uses it, and cycles are refused.
  for (const auto& w : select.windows) {
    ASSIGN_OR_RETURN(ResolvedWindow r, ResolveWindowSpec(*w.spec, 0));
    (void)r;
  }
  return Status::OK();
}

Result<Binder::ResolvedWindow> Binder::ResolveWindow(const ast::Call& call) const {
  if (call.over) return ResolveWindowSpec(*call.over, 0);
  auto it = named_windows_.find(call.over_window);
  if (it == named_windows_.end()) return Error(call.pos, "Window '" + call.over_window + "' not found");
  return ResolveWindowSpec(*it->second->spec, 1);
}

Result<Binder::ResolvedWindow> Binder::ResolveWindowSpec(const ast::WindowSpec& spec, int depth) const {
  ResolvedWindow out;
  out.pos = spec.pos;
  out.partition_by = &spec.partition_by;
  out.order_by = &spec.order_by;
  out.frame = &spec;
  if (spec.base_window.empty()) return out;
  auto it = named_windows_.find(spec.base_window);
  if (it == named_windows_.end()) return Error(spec.pos, "Window '" + spec.base_window + "' not found");
  if (depth > static_cast<int>(named_windows_.size())) {
    return Error(spec.pos, "Window '" + spec.base_window + "' refers to itself");
  }
  ASSIGN_OR_RETURN(ResolvedWindow base, ResolveWindowSpec(*it->second->spec, depth + 1));
  if (!spec.partition_by.empty()) return Error(spec.pos, "PARTITION BY not allowed with existing window reference");
  if (!spec.order_by.empty() && !base.order_by->empty()) {
    return Error(spec.pos, "ORDER BY not allowed in both base and referenced windows");
  }
  if (base.frame->frame_unit != ast::WindowSpec::FrameUnit::kNone) {
    return Error(spec.pos, "Referenced window cannot have framing declarations");
  }
  out.partition_by = base.partition_by;
  if (spec.order_by.empty()) out.order_by = base.order_by;
  return out;
}

}  // namespace sluice
