#include "types/row_kind.h"

namespace sluice {

std::string_view RowKindShortString(RowKind kind) {
  switch (kind) {
    case RowKind::kInsert: return "+I";
    case RowKind::kUpdateBefore: return "-U";
    case RowKind::kUpdateAfter: return "+U";
    case RowKind::kDelete: return "-D";
  }
  return "??";
}

bool ParseRowKind(std::string_view text, RowKind* kind) {
  if (text == "+I") *kind = RowKind::kInsert;
  else if (text == "-U") *kind = RowKind::kUpdateBefore;
  else if (text == "+U") *kind = RowKind::kUpdateAfter;
  else if (text == "-D") *kind = RowKind::kDelete;
  else return false;
  return true;
}

std::string ChangelogMode::ToString() const {
  static constexpr const char* kNames[] = {"I", "UB", "UA", "D"};
  std::string out;
  for (unsigned i = 0; i < 4; ++i) {
    if (bits_ & (1u << i)) {
      if (!out.empty()) out += ",";
      out += kNames[i];
    }
  }
  return out.empty() ? "NONE" : out;
}

}  // namespace sluice
