// RowKind and ChangelogMode: what a change is, and which kinds of change a stream may carry.
//
// RowKind mirrors Flink's org.apache.flink.types.RowKind: +I insert, -U update-before (the old row of
// an update), +U update-after (the new row), -D delete. ChangelogMode is a set of RowKinds, printed as
// Flink's EXPLAIN prints it: "I", "I,UA,D", "I,UB,UA,D". Insert-only streams are append-only; a
// stream with UA but without UB is an upsert stream and needs a unique key to be read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sluice {

enum class RowKind : uint8_t { kInsert = 0, kUpdateBefore = 1, kUpdateAfter = 2, kDelete = 3 };

// "+I", "-U", "+U", "-D".
std::string_view RowKindShortString(RowKind kind);
// Parses "+I", "-U", "+U", "-D"; returns false on anything else.
bool ParseRowKind(std::string_view text, RowKind* kind);
// True for +I and +U: the row is (re)asserted; false for -U and -D: the row is retracted.
inline bool IsAccumulate(RowKind kind) { return kind == RowKind::kInsert || kind == RowKind::kUpdateAfter; }

class ChangelogMode {
 public:
  constexpr ChangelogMode() = default;
  static constexpr ChangelogMode InsertOnly() { return ChangelogMode(1u << 0); }
  static constexpr ChangelogMode Upsert() { return ChangelogMode((1u << 0) | (1u << 2) | (1u << 3)); }
  static constexpr ChangelogMode All() { return ChangelogMode(0xF); }

  bool Contains(RowKind kind) const { return bits_ & (1u << static_cast<unsigned>(kind)); }
  ChangelogMode With(RowKind kind) const { return ChangelogMode(bits_ | (1u << static_cast<unsigned>(kind))); }
  ChangelogMode Without(RowKind kind) const { return ChangelogMode(bits_ & ~(1u << static_cast<unsigned>(kind))); }
  ChangelogMode Union(ChangelogMode other) const { return ChangelogMode(bits_ | other.bits_); }
  bool IsInsertOnly() const { return bits_ == 1u; }
  bool empty() const { return bits_ == 0; }
  // "I,UB,UA,D" in that order, as Flink's EXPLAIN CHANGELOG_MODE.
  std::string ToString() const;
  bool operator==(const ChangelogMode& o) const { return bits_ == o.bits_; }
  bool operator!=(const ChangelogMode& o) const { return bits_ != o.bits_; }

 private:
  constexpr explicit ChangelogMode(unsigned bits) : bits_(static_cast<uint8_t>(bits)) {}
  uint8_t bits_ = 0;
};

}  // namespace sluice
