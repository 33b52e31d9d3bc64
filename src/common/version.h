// The Sluice version, one definition for the CLI's --version and the files Sluice writes (Parquet's
// created_by, Iceberg snapshot summaries). Keep it equal to project(VERSION) in CMakeLists.txt.
#pragma once

namespace sluice {

inline constexpr char kSluiceVersion[] = "0.1.0";

}  // namespace sluice
