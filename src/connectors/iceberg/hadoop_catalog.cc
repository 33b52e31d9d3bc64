#include "connectors/iceberg/hadoop_catalog.h"

#include <charconv>

#include "connectors/iceberg/table_metadata_json.h"

namespace sluice {

namespace {

constexpr const char* kMetadataDir = "metadata";
constexpr const char* kVersionHint = "version-hint.text";
constexpr std::string_view kMetadataSuffix = ".metadata.json";

constexpr std::string_view kGzipMetadataSuffix = ".gz.metadata.json";

// N of "v<N>.metadata.json" or "v<N>.gz.metadata.json" (Java's gzip codec), or nullopt.
std::optional<int64_t> VersionOfFileName(std::string_view name) {
  std::string_view suffix = name.ends_with(kGzipMetadataSuffix) ? kGzipMetadataSuffix : kMetadataSuffix;
  if (name.size() <= 1 + suffix.size() || name[0] != 'v' || !name.ends_with(suffix)) return std::nullopt;
  std::string_view digits = name.substr(1, name.size() - 1 - suffix.size());
  int64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || p != digits.data() + digits.size() || v <= 0) return std::nullopt;
  return v;
}

std::optional<int64_t> ParseHint(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v <= 0) return std::nullopt;
  return v;
}

}  // namespace

HadoopCatalog::HadoopCatalog(std::shared_ptr<FileIO> io, std::string warehouse, std::function<int64_t()> now_ms)
    : io_(std::move(io)), warehouse_(std::move(warehouse)), now_ms_(std::move(now_ms)) {
  while (warehouse_.size() > 1 && warehouse_.back() == '/') warehouse_.pop_back();
}

std::string HadoopCatalog::NamespaceLocation(const IcebergNamespace& ns) const {
  std::string location = warehouse_;
  for (const std::string& level : ns) location = JoinLocation(location, level);
  return location;
}

std::string HadoopCatalog::TableLocation(const TableIdentifier& ident) const {
  return JoinLocation(NamespaceLocation(ident.ns), ident.name);
}

std::string HadoopCatalog::MetadataFileLocation(const std::string& table_location, int64_t version) {
  return JoinLocation(JoinLocation(table_location, kMetadataDir), "v" + std::to_string(version) + ".metadata.json");
}

Status HadoopCatalog::CheckName(const std::string& name, const char* what) const {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
    return Status::InvalidArgument(std::string("Invalid ") + what + " name '" + name +
                                   "' for the hadoop catalog (names are directory names)");
  }
  return Status::OK();
}

Result<std::string> HadoopCatalog::ExistingMetadataFile(const std::string& table_location, int64_t version) const {
  std::string plain = MetadataFileLocation(table_location, version);
  ASSIGN_OR_RETURN(bool exists, io_->Exists(plain));
  if (exists) return plain;
  std::string gz = JoinLocation(JoinLocation(table_location, kMetadataDir), "v" + std::to_string(version) +
                                                                           std::string(kGzipMetadataSuffix));
  ASSIGN_OR_RETURN(exists, io_->Exists(gz));
  return exists ? gz : std::string();
}

Result<bool> HadoopCatalog::IsTableDirectory(const std::string& location) const {
  ASSIGN_OR_RETURN(std::vector<std::string> files, io_->ListDirectory(JoinLocation(location, kMetadataDir), false));
  for (const std::string& f : files) {
    if (std::string_view(f).ends_with(kMetadataSuffix)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Namespaces

Result<std::vector<IcebergNamespace>> HadoopCatalog::ListNamespaces(const IcebergNamespace& parent) {
  std::string location = NamespaceLocation(parent);
  if (!parent.empty()) {
    ASSIGN_OR_RETURN(bool exists, NamespaceExists(parent));
    if (!exists) return Status::NotFound("Namespace does not exist: " + NamespaceToString(parent));
  }
  ASSIGN_OR_RETURN(std::vector<std::string> dirs, io_->ListDirectory(location, true));
  std::vector<IcebergNamespace> out;
  for (const std::string& d : dirs) {
    ASSIGN_OR_RETURN(bool is_table, IsTableDirectory(JoinLocation(location, d)));
    if (is_table) continue;
    IcebergNamespace ns = parent;
    ns.push_back(d);
    out.push_back(std::move(ns));
  }
  return out;
}

Result<bool> HadoopCatalog::NamespaceExists(const IcebergNamespace& ns) {
  if (ns.empty()) return true;
  std::string location = NamespaceLocation(ns);
  ASSIGN_OR_RETURN(bool exists, io_->Exists(location));
  if (!exists) return false;
  ASSIGN_OR_RETURN(bool is_table, IsTableDirectory(location));
  return !is_table;
}

Status HadoopCatalog::CreateNamespace(const IcebergNamespace& ns,
                                      const std::map<std::string, std::string>& properties) {
  if (ns.empty()) return Status::InvalidArgument("Cannot create namespace with invalid name: (empty)");
  for (const std::string& level : ns) RETURN_IF_ERROR(CheckName(level, "namespace"));
  if (!properties.empty()) {
    return Status::NotSupported("Cannot create namespace " + NamespaceToString(ns) +
                                ": metadata is not supported (the hadoop catalog stores no namespace properties)");
  }
  std::string location = NamespaceLocation(ns);
  ASSIGN_OR_RETURN(bool exists, io_->Exists(location));
  if (exists) return Status::InvalidArgument("Namespace already exists: " + NamespaceToString(ns));
  return io_->CreateDirectories(location);
}

Status HadoopCatalog::DropNamespace(const IcebergNamespace& ns) {
  ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (ns.empty() || !exists) return Status::NotFound("Namespace does not exist: " + NamespaceToString(ns));
  std::string location = NamespaceLocation(ns);
  ASSIGN_OR_RETURN(std::vector<std::string> dirs, io_->ListDirectory(location, true));
  ASSIGN_OR_RETURN(std::vector<std::string> files, io_->ListDirectory(location, false));
  if (!dirs.empty() || !files.empty()) {
    return Status::InvalidArgument("Namespace " + NamespaceToString(ns) + " is not empty.");
  }
  return io_->DeleteRecursively(location);
}

// ---------------------------------------------------------------------------------------------
// Tables

Result<std::vector<TableIdentifier>> HadoopCatalog::ListTables(const IcebergNamespace& ns) {
  if (ns.empty()) return Status::InvalidArgument("Missing database in table identifier: (empty)");
  ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists) return Status::NotFound("Namespace does not exist: " + NamespaceToString(ns));
  std::string location = NamespaceLocation(ns);
  ASSIGN_OR_RETURN(std::vector<std::string> dirs, io_->ListDirectory(location, true));
  std::vector<TableIdentifier> out;
  for (const std::string& d : dirs) {
    ASSIGN_OR_RETURN(bool is_table, IsTableDirectory(JoinLocation(location, d)));
    if (is_table) out.push_back({ns, d});
  }
  return out;
}

Result<int64_t> HadoopCatalog::FindVersion(const std::string& table_location) const {
  std::string metadata_dir = JoinLocation(table_location, kMetadataDir);
  std::string hint_location = JoinLocation(metadata_dir, kVersionHint);
  int64_t version = 0;  // 0: none found
  ASSIGN_OR_RETURN(bool hint_exists, io_->Exists(hint_location));
  if (hint_exists) {
    ASSIGN_OR_RETURN(std::string hint, io_->ReadAll(hint_location));
    version = ParseHint(hint).value_or(0);
    if (version > 0) {
      ASSIGN_OR_RETURN(std::string file, ExistingMetadataFile(table_location, version));
      if (file.empty()) version = 0;
    }
  }
  if (version == 0) {
    // No usable hint: the highest v<N> in the directory (Java's fallback).
    ASSIGN_OR_RETURN(std::vector<std::string> files, io_->ListDirectory(metadata_dir, false));
    for (const std::string& f : files) version = std::max(version, VersionOfFileName(f).value_or(0));
  }
  if (version == 0) return version;
  // A committer may have published v<N+1> and died before updating the hint.
  while (true) {
    ASSIGN_OR_RETURN(std::string next, ExistingMetadataFile(table_location, version + 1));
    if (next.empty()) break;
    ++version;
  }
  return version;
}

Status HadoopCatalog::WriteVersionHint(const std::string& table_location, int64_t version) const {
  std::string hint = JoinLocation(JoinLocation(table_location, kMetadataDir), kVersionHint);
  return io_->WriteAtomically(hint, std::to_string(version), /*overwrite=*/true);
}

Result<bool> HadoopCatalog::TableExists(const TableIdentifier& ident) {
  return IsTableDirectory(TableLocation(ident));
}

Result<LoadedTable> HadoopCatalog::LoadTable(const TableIdentifier& ident) {
  std::string location = TableLocation(ident);
  ASSIGN_OR_RETURN(int64_t version, FindVersion(location));
  if (version == 0) return Status::NotFound("Table does not exist: " + ident.ToString());
  LoadedTable table;
  table.ident = ident;
  table.version = version;
  ASSIGN_OR_RETURN(table.metadata_location, ExistingMetadataFile(location, version));
  ASSIGN_OR_RETURN(std::string json, io_->ReadAll(table.metadata_location));
  ASSIGN_OR_RETURN(table.metadata, ParseTableMetadata(json, table.metadata_location));
  return table;
}

Result<LoadedTable> HadoopCatalog::CreateTable(const TableIdentifier& ident, NewTableOptions options) {
  for (const std::string& level : ident.ns) RETURN_IF_ERROR(CheckName(level, "namespace"));
  RETURN_IF_ERROR(CheckName(ident.name, "table"));
  std::string location = TableLocation(ident);
  if (!options.location.empty() && options.location != location) {
    return Status::InvalidArgument("Cannot set a custom location for a path-based table. Expected " + location +
                                   " but got " + options.location);
  }
  options.location = location;
  ASSIGN_OR_RETURN(bool exists, TableExists(ident));
  if (exists) return Status::InvalidArgument("Table already exists: " + ident.ToString());
  if (options.now_ms == 0) options.now_ms = now_ms_();
  ASSIGN_OR_RETURN(TableMetadata metadata, NewTableMetadata(options));
  LoadedTable table{ident, std::move(metadata), MetadataFileLocation(location, 1), 1, {}};
  RETURN_IF_ERROR(io_->CreateDirectories(JoinLocation(location, kMetadataDir)));
  Status written = io_->WriteAtomically(table.metadata_location, TableMetadataToJson(table.metadata), false);
  if (!written.ok()) {
    ASSIGN_OR_RETURN(bool raced, io_->Exists(table.metadata_location));
    if (raced) return Status::InvalidArgument("Table already exists: " + ident.ToString());
    return written;
  }
  // As in Java, a failed hint write does not fail the commit: loading falls back to listing.
  WriteVersionHint(location, 1).IgnoreError();
  return table;
}

Result<LoadedTable> HadoopCatalog::CommitTable(const LoadedTable& base, const TableMetadata& updated,
                                               const std::vector<TableRequirement>& requirements) {
  std::string location = TableLocation(base.ident);
  ASSIGN_OR_RETURN(int64_t current_version, FindVersion(location));
  if (current_version == 0) return Status::NotFound("Table does not exist: " + base.ident.ToString());
  if (current_version != base.version) {
    return Status::Aborted("Cannot commit changes based on stale table metadata (table " + base.ident.ToString() +
                           " is at version " + std::to_string(current_version) + ", the change was built on " +
                           std::to_string(base.version) + ")");
  }
  if (!requirements.empty()) {
    ASSIGN_OR_RETURN(LoadedTable current, LoadTable(base.ident));
    for (const TableRequirement& r : requirements) RETURN_IF_ERROR(CheckRequirement(r, &current.metadata));
  }
  if (updated.table_uuid != base.metadata.table_uuid) {
    return Status::InvalidArgument("Table UUID does not match: current=" + base.metadata.table_uuid +
                                   " != refreshed=" + updated.table_uuid);
  }
  TableMetadata next = updated;
  if (next.last_updated_ms <= base.metadata.last_updated_ms) {
    next.last_updated_ms = std::max(base.metadata.last_updated_ms + 1, now_ms_());
  }
  ASSIGN_OR_RETURN(std::vector<MetadataLogEntry> removed,
                   UpdateMetadataLog(&next, base.metadata, base.metadata_location));
  RETURN_IF_ERROR(next.Validate());

  int64_t next_version = base.version + 1;
  LoadedTable committed{base.ident, std::move(next), MetadataFileLocation(location, next_version), next_version, {}};
  Status written = io_->WriteAtomically(committed.metadata_location, TableMetadataToJson(committed.metadata), false);
  if (!written.ok()) {
    ASSIGN_OR_RETURN(bool raced, io_->Exists(committed.metadata_location));
    if (raced) {
      return Status::Aborted("Version " + std::to_string(next_version) + " already exists: " +
                             committed.metadata_location);
    }
    return written.WithContext("Failed to commit changes to " + base.ident.ToString());
  }
  WriteVersionHint(location, next_version).IgnoreError();  // a hint; loading follows newer versions
  ASSIGN_OR_RETURN(bool delete_old, committed.metadata.BoolProperty(kPropMetadataDeleteAfterCommit, false));
  if (delete_old) {
    // Best effort, as Java's deleteRemovedMetadataFiles: the commit has succeeded already.
    for (const MetadataLogEntry& e : removed) io_->Delete(e.metadata_file).IgnoreError();
  }
  return committed;
}

Status HadoopCatalog::DropTable(const TableIdentifier& ident, bool purge) {
  ASSIGN_OR_RETURN(bool exists, TableExists(ident));
  if (!exists) return Status::NotFound("Table does not exist: " + ident.ToString());
  // Java's HadoopCatalog removes the table directory in both cases; with purge it first deletes the
  // files the metadata references, which for tables written here all live under that directory.
  (void)purge;
  return io_->DeleteRecursively(TableLocation(ident));
}

}  // namespace sluice
