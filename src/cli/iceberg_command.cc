#include "cli/iceberg_command.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "common/file_io.h"
#include "common/time_util.h"
#include "connectors/iceberg/iceberg_file_io.h"
#include "connectors/iceberg/iceberg_maintenance.h"
#include "connectors/iceberg/iceberg_options.h"

namespace sluice {
namespace {

Result<IcebergCatalogConfig> CatalogOf(const std::string& text) {
  std::map<std::string, std::string> options{{"type", "iceberg"}};
  if (text.find('=') == std::string::npos) {
    options["catalog-type"] = "hadoop";
    options["warehouse"] = text;
  } else {
    size_t begin = 0;
    while (begin <= text.size()) {
      size_t end = text.find(',', begin);
      if (end == std::string::npos) end = text.size();
      const std::string item = text.substr(begin, end - begin);
      const size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0) {
        return Status::InvalidArgument("catalog option '" + item + "' is not key=value");
      }
      options[item.substr(0, eq)] = item.substr(eq + 1);
      begin = end + 1;
    }
  }
  return IcebergCatalogConfig::FromCatalogOptions("iceberg", options);
}

Result<TableIdentifier> TableOf(const std::string& text) {
  TableIdentifier ident;
  size_t begin = 0;
  std::vector<std::string> parts;
  while (begin <= text.size()) {
    size_t end = text.find('.', begin);
    if (end == std::string::npos) end = text.size();
    std::string part = text.substr(begin, end - begin);
    if (part.size() >= 2 && part.front() == '`' && part.back() == '`') part = part.substr(1, part.size() - 2);
    parts.push_back(part);
    begin = end + 1;
  }
  if (parts.size() < 2 || std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); })) {
    return Status::InvalidArgument("table '" + text + "' is not <database>.<table>");
  }
  ident.name = parts.back();
  parts.pop_back();
  ident.ns = parts;
  return ident;
}

Result<int64_t> MillisOf(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) return std::stoll(text);
  if (auto micros = ParseTimestamp(text)) return *micros / 1000;
  return Status::InvalidArgument("--older-than '" + text +
                                 "' is neither epoch milliseconds nor a timestamp 'YYYY-MM-DD HH:MM:SS' (UTC)");
}

// remove_orphan_files: the cutoff defaults to 3 days ago, as the procedure's older_than.
Status RemoveOrphans(const IcebergCommandOptions& o, IcebergCatalog* catalog, FileIO* io, const TableIdentifier& ident,
                     int64_t now_ms, std::ostream& out, std::ostream& err) {
  constexpr int64_t kDayMs = 24LL * 3600 * 1000;
  RemoveOrphanFilesRequest request;
  request.dry_run = o.dry_run;
  request.older_than_ms = now_ms - 3 * kDayMs;
  if (!o.older_than.empty()) {
    ASSIGN_OR_RETURN(request.older_than_ms, MillisOf(o.older_than));
  }
  if (request.older_than_ms > now_ms - kDayMs) {
    err << "sluice: warning: --older-than is less than 24 hours ago: a file written by a job that has not "
           "committed it yet counts as an orphan and is deleted (docs/iceberg.md)\n";
  }
  ASSIGN_OR_RETURN(RemoveOrphanFilesResult r, RemoveOrphanFiles(catalog, io, ident, request));
  for (const std::string& location : r.orphan_file_locations) out << "orphan_file_location\t" << location << "\n";
  return Status::OK();
}

Status Run(const IcebergCommandOptions& o, std::ostream& out, std::ostream& err) {
  ASSIGN_OR_RETURN(IcebergCatalogConfig config, CatalogOf(o.catalog));
  ASSIGN_OR_RETURN(TableIdentifier ident, TableOf(o.table));
  ASSIGN_OR_RETURN(std::shared_ptr<IcebergCatalog> catalog, OpenIcebergCatalog(config));
  // The table's FileIO (local or S3, with its vended credentials when the catalog hands them out).
  ASSIGN_OR_RETURN(LoadedTable table, catalog->LoadTable(ident));
  std::shared_ptr<FileIO> io = IcebergTableFileIO(catalog, config, table);
  if (o.action == "compact") {
    RewriteDataFilesOptions options;
    options.target_file_size = o.target_file_size;
    ASSIGN_OR_RETURN(RewriteDataFilesResult r, RewriteDataFiles(catalog.get(), io, ident, options));
    out << "rewritten_data_files_count\t" << r.rewritten_data_files << "\n"
        << "added_data_files_count\t" << r.added_data_files << "\n"
        << "rewritten_bytes_count\t" << r.rewritten_bytes << "\n"
        << "removed_delete_files_count\t" << r.removed_delete_files << "\n";
    return Status::OK();
  }
  const int64_t now_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  if (o.action == "remove-orphan-files") return RemoveOrphans(o, catalog.get(), io.get(), ident, now_ms, out, err);
  ExpireSnapshotsRequest request;
  request.now_ms = now_ms;
  if (!o.older_than.empty()) {
    ASSIGN_OR_RETURN(int64_t ms, MillisOf(o.older_than));
    request.older_than_ms = ms;
  }
  request.retain_last = o.retain_last;
  ASSIGN_OR_RETURN(ExpireSnapshotsResult r, ExpireSnapshotsAndFiles(catalog.get(), io.get(), ident, request));
  out << "expired_snapshots_count\t" << r.expired_snapshots << "\n"
      << "deleted_data_files_count\t" << r.deleted_data_files << "\n"
      << "deleted_position_delete_files_count\t" << r.deleted_position_delete_files << "\n"
      << "deleted_equality_delete_files_count\t" << r.deleted_equality_delete_files << "\n"
      << "deleted_manifest_files_count\t" << r.deleted_manifest_files << "\n"
      << "deleted_manifest_lists_count\t" << r.deleted_manifest_lists << "\n";
  return Status::OK();
}

}  // namespace

int RunIcebergCommand(const IcebergCommandOptions& options, std::ostream& out, std::ostream& err) {
  Status st = Run(options, out, err);
  if (!st.ok()) {
    err << "sluice: error in iceberg " << options.action << ": " << st.message() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace sluice
