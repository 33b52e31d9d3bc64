#include "connectors/iceberg/iceberg_options.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>

#include "common/config.h"
#include "common/file_io.h"
#include "connectors/iceberg/hadoop_catalog.h"
#include "connectors/iceberg/iceberg_file_io.h"
#include "connectors/s3/s3_client.h"
#include "connectors/iceberg/partition_spec.h"
#include "connectors/iceberg/rest_catalog.h"
#include "connectors/iceberg/table_metadata.h"
#include "formats/format.h"

namespace sluice {
namespace {

constexpr char kCatalogName[] = "catalog-name";
constexpr char kCatalogType[] = "catalog-type";
constexpr char kCatalogDatabase[] = "catalog-database";
constexpr char kCatalogTable[] = "catalog-table";
constexpr char kWarehouse[] = "warehouse";
constexpr char kUri[] = "uri";
constexpr char kDefaultDatabaseKey[] = "default-database";

// Catalog properties passed through to the catalog client, exact keys and prefixes (Iceberg's
// CatalogProperties, OAuth2Properties, S3FileIOProperties and the REST client's header.*).
constexpr const char* kPassThroughKeys[] = {"credential", "token", "scope", "oauth2-server-uri", "prefix",
                                            "token-refresh-enabled", "audience", "resource"};
constexpr const char* kPassThroughPrefixes[] = {"header.", "rest.", "s3.", "client.", "oauth2."};

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Result<IcebergCatalogType> ParseCatalogType(const std::string& value, const std::string& place) {
  std::string v = Lower(value);
  if (v == "hadoop") return IcebergCatalogType::kHadoop;
  if (v == "rest") return IcebergCatalogType::kRest;
  return Status::InvalidArgument(place + ": unsupported 'catalog-type' = '" + value +
                                 "' (Sluice's Iceberg catalogs are 'hadoop' and 'rest')");
}

// Checks the required options and makes a 'hadoop' warehouse given as a relative local path absolute
// (against the working directory), so the locations written into the table's metadata are absolute
// and every reader, started from any directory, finds the files.
Status CheckRequired(IcebergCatalogConfig& c, const std::string& place) {
  if (c.type == IcebergCatalogType::kHadoop && c.warehouse.empty()) {
    return Status::InvalidArgument(place + ": a 'hadoop' Iceberg catalog needs 'warehouse' (a directory, e.g. "
                                   "'file:///path/warehouse')");
  }
  const bool has_scheme = c.warehouse.find("://") != std::string::npos || c.warehouse.rfind("file:", 0) == 0;
  if (c.type == IcebergCatalogType::kHadoop && !has_scheme && c.warehouse.front() != '/') {
    std::error_code ec;
    std::filesystem::path abs = std::filesystem::absolute(c.warehouse, ec);
    if (ec) return Status::InvalidArgument(place + ": cannot resolve 'warehouse' '" + c.warehouse + "': " + ec.message());
    std::string text = abs.lexically_normal().string();
    while (text.size() > 1 && text.back() == '/') text.pop_back();
    c.warehouse = text;
  }
  if (c.type == IcebergCatalogType::kRest && c.uri.empty()) {
    return Status::InvalidArgument(place + ": a 'rest' Iceberg catalog needs 'uri' (e.g. 'http://127.0.0.1:8181')");
  }
  return Status::OK();
}

// One PARTITIONED BY term: a column (identity) or Spark's transform syntax, which Sluice accepts as
// an extension: bucket(N, col), truncate(W, col), year(col) / years(col), month(s), day(s), hour(s).
Result<PartitionTerm> ParsePartitionTerm(const std::string& text, const std::string& table) {
  PartitionTerm term;
  size_t open = text.find('(');
  if (open == std::string::npos) {
    term.column = text;
    term.transform = Transform::Identity();
    return term;
  }
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("Table '" + table + "': invalid partition term '" + text + "': " + why);
  };
  if (text.back() != ')') return bad("expected name(arguments)");
  std::string fn = Lower(text.substr(0, open));
  std::vector<std::string> args;
  std::string cur;
  for (char c : text.substr(open + 1, text.size() - open - 2)) {
    if (c == ',') {
      args.push_back(cur);
      cur.clear();
    } else if (c != ' ' && c != '`') {
      cur += c;
    }
  }
  args.push_back(cur);
  auto number = [&](const std::string& s) -> Result<int32_t> {
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), ::isdigit) || std::stoi(s) <= 0) {
      return bad("'" + s + "' is not a positive integer");
    }
    return std::stoi(s);
  };
  if (fn == "bucket" || fn == "truncate") {
    if (args.size() != 2) return bad(fn + " takes (N, column)");
    ASSIGN_OR_RETURN(int32_t n, number(args[0]));
    term.transform = fn == "bucket" ? Transform::Bucket(n) : Transform::Truncate(n);
    term.column = args[1];
    return term;
  }
  if (args.size() != 1) return bad(fn + " takes one column");
  term.column = args[0];
  if (fn == "year" || fn == "years") term.transform = Transform::Year();
  else if (fn == "month" || fn == "months") term.transform = Transform::Month();
  else if (fn == "day" || fn == "days") term.transform = Transform::Day();
  else if (fn == "hour" || fn == "hours") term.transform = Transform::Hour();
  else if (fn == "identity") term.transform = Transform::Identity();
  else return bad("unknown transform '" + fn + "' (identity, bucket, truncate, year, month, day, hour)");
  return term;
}

}  // namespace

std::string IcebergCatalogConfig::TypeName() const { return type == IcebergCatalogType::kRest ? "rest" : "hadoop"; }

bool IsIcebergCatalogPropertyKey(const std::string& key) {
  for (const char* k : kPassThroughKeys) {
    if (key == k) return true;
  }
  for (const char* p : kPassThroughPrefixes) {
    if (key.rfind(p, 0) == 0 && key.size() > std::string_view(p).size()) return true;
  }
  return false;
}

Result<IcebergCatalogConfig> IcebergCatalogConfig::FromCatalogOptions(const std::string& catalog_name,
                                                                      const std::map<std::string, std::string>& options) {
  const std::string place = "Iceberg catalog '" + catalog_name + "'";
  IcebergCatalogConfig c;
  c.catalog_name = catalog_name;
  std::vector<std::string> known = {"type", kCatalogType, kWarehouse, kUri, kDefaultDatabaseKey};
  known.insert(known.end(), std::begin(kPassThroughKeys), std::end(kPassThroughKeys));
  for (const auto& [k, v] : options) {
    if (k == "type") continue;
    if (k == kCatalogType) {
      ASSIGN_OR_RETURN(c.type, ParseCatalogType(v, place));
    } else if (k == kWarehouse) {
      c.warehouse = v;
    } else if (k == kUri) {
      c.uri = v;
    } else if (k == kDefaultDatabaseKey) {
      c.default_database = v;
    } else if (IsIcebergCatalogPropertyKey(k)) {
      c.properties[k] = v;
    } else {
      std::string msg = place + ": unsupported option '" + k + "'";
      if (auto dym = DidYouMean(k, known)) msg += ". Did you mean '" + *dym + "'?";
      return Status::InvalidArgument(msg);
    }
  }
  if (!options.count(kCatalogType)) {
    return Status::InvalidArgument(place + ": 'catalog-type' is required ('hadoop' or 'rest'; Flink's default, "
                                   "'hive', is not supported)");
  }
  RETURN_IF_ERROR(CheckRequired(c, place));
  return c;
}

Result<IcebergCatalogConfig> IcebergCatalogConfig::FromTableOptions(const std::map<std::string, std::string>& options,
                                                                    const std::string& table) {
  const std::string place = "Table '" + table + "'";
  IcebergCatalogConfig c;
  auto name = options.find(kCatalogName);
  if (name == options.end() || name->second.empty()) {
    return Status::InvalidArgument(place + ": an 'iceberg' table needs 'catalog-name'");
  }
  c.catalog_name = name->second;
  auto type = options.find(kCatalogType);
  if (type == options.end()) {
    return Status::InvalidArgument(place + ": 'catalog-type' is required ('hadoop' or 'rest'; Flink's default, "
                                   "'hive', is not supported)");
  }
  ASSIGN_OR_RETURN(c.type, ParseCatalogType(type->second, place));
  for (const auto& [k, v] : options) {
    if (k == kWarehouse) c.warehouse = v;
    else if (k == kUri) c.uri = v;
    else if (IsIcebergCatalogPropertyKey(k)) c.properties[k] = v;
  }
  RETURN_IF_ERROR(CheckRequired(c, place));
  return c;
}

void IcebergCatalogConfig::ToTableOptions(std::map<std::string, std::string>* options) const {
  (*options)["connector"] = "iceberg";
  (*options)[kCatalogName] = catalog_name;
  (*options)[kCatalogType] = TypeName();
  if (!warehouse.empty()) (*options)[kWarehouse] = warehouse;
  if (!uri.empty()) (*options)[kUri] = uri;
  for (const auto& [k, v] : properties) (*options)[k] = v;
}

std::vector<OptionSpec> IcebergConnectionOptionSpecs() {
  return {
      {kCatalogName, true, "", "The Iceberg catalog's name (the table's catalog in messages and snapshot summaries)."},
      {kCatalogType, true, "", "'hadoop' (a warehouse directory: <warehouse>/<db>/<table>/metadata/v<N>.metadata.json) "
                               "or 'rest' (Iceberg's REST catalog protocol at 'uri'). Flink's 'hive' is refused."},
      {kCatalogDatabase, false, "default", "The table's namespace in the catalog."},
      {kCatalogTable, false, "", "The table's name in the catalog (default: the Flink table's name)."},
      {kWarehouse, false, "", "The warehouse location: required for 'hadoop', optional for 'rest'."},
      {kUri, false, "", "The REST catalog's base URI ('rest' only)."},
      {"credential", false, "", "OAuth2 client credentials '<client-id>:<secret>' for a REST catalog (secret)."},
      {"token", false, "", "A bearer token for a REST catalog (secret)."},
      {"scope", false, "", "The OAuth2 scope a REST catalog's token is requested with."},
      {"oauth2-server-uri", false, "", "The OAuth2 token endpoint (default: the REST catalog's v1/oauth/tokens)."},
      {"header.#", false, "", "An HTTP header sent to a REST catalog (e.g. 'header.X-Iceberg-Access-Delegation')."},
      {"rest.#", false, "", "REST client properties, passed to the catalog."},
      {"s3.#", false, "", "S3FileIO properties ('s3.endpoint', 's3.access-key-id', ...), passed to the catalog."},
      {"client.#", false, "", "Client properties ('client.region'), passed to the catalog."},
  };
}

std::vector<OptionSpec> IcebergTablePropertySpecs() {
  return {
      {kPropFormatVersion, false, "2", "The table's format version when Sluice creates it: 1, 2 or 3."},
      {"write.upsert.enabled", false, "false", "Upsert writes by the table's PRIMARY KEY (identifier fields), as Flink's."},
      {kPropFormatDefault, false, "parquet", "The data file format; Sluice writes 'parquet'."},
      {kPropParquetCompression, false, "zstd", "Parquet compression: zstd, snappy, gzip or uncompressed."},
      {"write.parquet.compression-level", false, "", "The codec's level (zstd 1-22, gzip 1-9); empty: the codec's default."},
      {"write.parquet.row-group-size-bytes", false, "134217728", "Target Parquet row group size."},
      {"write.parquet.page-size-bytes", false, "1048576", "Target Parquet page size."},
      {"write.parquet.page-row-limit", false, "20000", "Most rows in one Parquet page."},
      {"write.parquet.dict-size-bytes", false, "2097152", "Largest dictionary before a column falls back to plain encoding."},
      {kPropTargetFileSize, false, "536870912", "A data file is rolled once it reaches this size."},
      {kPropMetadataPreviousVersionsMax, false, "100", "Metadata files kept in the metadata log."},
      {kPropMetadataDeleteAfterCommit, false, "false", "Delete metadata files that fall out of the metadata log."},
      {"sluice.write.delete-mode", false, "equality",
       "How upserts delete: 'equality' (Flink's equality deletes), 'position' (position deletes from a primary-key "
       "index) or 'dv' (deletion vectors, format v3)."},
  };
}

Status CheckIcebergTableProperties(const std::map<std::string, std::string>& properties, const std::string& table) {
  std::vector<std::string> known;
  for (const auto& s : IcebergTablePropertySpecs()) known.push_back(s.key);
  for (const auto& s : IcebergConnectionOptionSpecs()) known.push_back(s.key);
  for (const auto& [k, v] : properties) {
    if (k == "connector" || std::find(known.begin(), known.end(), k) != known.end() || IsIcebergCatalogPropertyKey(k)) {
      continue;
    }
    std::string msg = "Table '" + table + "': unsupported Iceberg table property '" + k + "'";
    if (auto dym = DidYouMean(k, known)) msg += ". Did you mean '" + *dym + "'?";
    return Status::InvalidArgument(msg + " (docs/iceberg.md lists the properties Sluice implements)");
  }
  return Status::OK();
}

Result<std::shared_ptr<IcebergCatalog>> OpenIcebergCatalog(const IcebergCatalogConfig& config) {
  if (config.type == IcebergCatalogType::kRest) {
    RestCatalogOptions options;
    options.catalog_name = config.catalog_name;
    options.uri = config.uri;
    options.warehouse = config.warehouse;
    options.properties = config.properties;
    ASSIGN_OR_RETURN(auto catalog, RestCatalog::Connect(std::move(options), NewCurlHttpTransport()));
    return std::shared_ptr<IcebergCatalog>(std::move(catalog));
  }
  std::shared_ptr<FileIO> io = IcebergCatalogFileIO(config);
  if (config.warehouse.find("://") != std::string::npos && config.warehouse.rfind("file:", 0) != 0 &&
      !IsS3Location(config.warehouse)) {
    return Status::NotSupported("Iceberg catalog '" + config.catalog_name + "': warehouse '" + config.warehouse +
                                "' is neither on the local file system (file:// or a path) nor in S3 (s3://, s3a://)");
  }
  return std::shared_ptr<IcebergCatalog>(std::make_shared<HadoopCatalog>(io, config.warehouse, &NowMillis));
}

Result<IcebergTableRef> IcebergTableRefFromContext(const ConnectorContext& ctx) {
  IcebergTableRef ref;
  ASSIGN_OR_RETURN(ref.catalog, IcebergCatalogConfig::FromTableOptions(ctx.options, ctx.table_name));
  auto db = ctx.options.find(kCatalogDatabase);
  ref.ident.ns = {db == ctx.options.end() ? std::string("default") : db->second};
  auto t = ctx.options.find(kCatalogTable);
  if (t != ctx.options.end()) {
    ref.ident.name = t->second;
  } else {
    size_t dot = ctx.table_name.rfind('.');
    ref.ident.name = dot == std::string::npos ? ctx.table_name : ctx.table_name.substr(dot + 1);
  }
  return ref;
}

Result<NewTableOptions> IcebergNewTableOptions(const Schema& schema, const std::vector<std::string>& primary_key,
                                               const std::vector<std::string>& partition_keys,
                                               const std::map<std::string, std::string>& properties,
                                               const std::string& table) {
  RETURN_IF_ERROR(CheckIcebergTableProperties(properties, table));
  NewTableOptions opts;
  auto iceberg_schema = ToIcebergSchema(schema, primary_key);
  if (!iceberg_schema.ok()) return iceberg_schema.status().WithContext("Table '" + table + "'");
  opts.schema = std::move(*iceberg_schema);
  std::vector<PartitionTerm> terms;
  for (const auto& k : partition_keys) {
    ASSIGN_OR_RETURN(PartitionTerm term, ParsePartitionTerm(k, table));
    terms.push_back(std::move(term));
  }
  auto spec = BuildPartitionSpec(opts.schema, terms);
  if (!spec.ok()) return spec.status().WithContext("Table '" + table + "'");
  opts.spec = std::move(*spec);
  for (const auto& [k, v] : properties) {
    // Connection keys are the catalog's business, not the table's.
    bool connection = k == "connector" || IsIcebergCatalogPropertyKey(k);
    for (const auto& s : IcebergConnectionOptionSpecs()) connection = connection || s.key == k;
    if (!connection) opts.properties[k] = v;
  }
  opts.now_ms = NowMillis();
  return opts;
}

Result<LoadedTable> OpenIcebergTable(IcebergCatalog* catalog, const IcebergTableRef& ref, const ConnectorContext& ctx,
                                     bool create_if_missing) {
  ASSIGN_OR_RETURN(bool exists, catalog->TableExists(ref.ident));
  if (exists || !create_if_missing) return catalog->LoadTable(ref.ident);
  ASSIGN_OR_RETURN(bool ns_exists, catalog->NamespaceExists(ref.ident.ns));
  if (!ns_exists) RETURN_IF_ERROR(catalog->CreateNamespace(ref.ident.ns, {}));
  ASSIGN_OR_RETURN(NewTableOptions opts, IcebergNewTableOptions(ctx.physical_schema, ctx.primary_key, ctx.partition_keys,
                                                                ctx.options, ctx.table_name));
  return catalog->CreateTable(ref.ident, std::move(opts));
}

}  // namespace sluice
