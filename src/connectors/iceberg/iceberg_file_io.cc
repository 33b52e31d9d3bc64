#include "connectors/iceberg/iceberg_file_io.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>

#include "connectors/iceberg/rest_catalog.h"
#include "connectors/s3/s3_file_io.h"

namespace sluice {
namespace {

int64_t SystemNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string Get(const std::map<std::string, std::string>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? std::string() : it->second;
}

AwsCredentials CredentialsOf(const std::map<std::string, std::string>& config) {
  return {Get(config, "s3.access-key-id"), Get(config, "s3.secret-access-key"), Get(config, "s3.session-token")};
}

int64_t ExpiryOf(const std::map<std::string, std::string>& config) {
  std::string v = Get(config, "s3.session-token-expires-at-ms");
  return v.empty() ? 0 : std::strtoll(v.c_str(), nullptr, 10);
}

// Vended credentials of one table, loaded again through the catalog shortly before they expire.
class VendedCredentials {
 public:
  VendedCredentials(std::shared_ptr<IcebergCatalog> catalog, TableIdentifier ident,
                    const std::map<std::string, std::string>& config, std::function<int64_t()> now_ms)
      : catalog_(std::move(catalog)), ident_(std::move(ident)), now_ms_(std::move(now_ms)),
        credentials_(CredentialsOf(config)) {
    Schedule(ExpiryOf(config));
  }

  Result<AwsCredentials> Get() {
    std::lock_guard<std::mutex> lock(mu_);
    if (refresh_at_ms_ > 0 && now_ms_() >= refresh_at_ms_) {
      Result<LoadedTable> table = catalog_->LoadTable(ident_);
      if (!table.ok()) {
        return table.status().WithContext("Cannot refresh the vended storage credentials of Iceberg table " +
                                          ident_.ToString());
      }
      credentials_ = CredentialsOf(table->config);
      Schedule(ExpiryOf(table->config));
    }
    return credentials_;
  }

 private:
  // Loaded again kVendedRefreshMarginMs before `expires_ms`, or at half their remaining life when
  // that is shorter (short-lived credentials, as the OAuth2 token's refresh in rest_catalog.cc).
  void Schedule(int64_t expires_ms) {
    if (expires_ms <= 0) {
      refresh_at_ms_ = 0;
      return;
    }
    const int64_t now = now_ms_();
    const int64_t life = std::max<int64_t>(expires_ms - now, 0);
    refresh_at_ms_ = now + std::max(life / 2, life - kVendedRefreshMarginMs);
  }

  std::mutex mu_;
  std::shared_ptr<IcebergCatalog> catalog_;
  TableIdentifier ident_;
  std::function<int64_t()> now_ms_;
  AwsCredentials credentials_;
  int64_t refresh_at_ms_ = 0;  // 0: never
};

std::map<std::string, std::string> CatalogProperties(const IcebergCatalog* catalog, const IcebergCatalogConfig& config) {
  if (const auto* rest = dynamic_cast<const RestCatalog*>(catalog)) return rest->properties();
  return config.properties;
}

}  // namespace

std::shared_ptr<FileIO> IcebergCatalogFileIO(const IcebergCatalogConfig& config) {
  return NewFileIO(config.properties, "Iceberg catalog '" + config.catalog_name + "'");
}

std::function<Result<AwsCredentials>()> VendedCredentialsProvider(std::shared_ptr<IcebergCatalog> catalog,
                                                                  const LoadedTable& table,
                                                                  std::function<int64_t()> now_ms) {
  if (Get(table.config, "s3.access-key-id").empty()) return nullptr;
  auto vended = std::make_shared<VendedCredentials>(std::move(catalog), table.ident, table.config,
                                                    now_ms ? std::move(now_ms) : std::function<int64_t()>(&SystemNowMs));
  return [vended]() { return vended->Get(); };
}

std::shared_ptr<FileIO> IcebergTableFileIO(std::shared_ptr<IcebergCatalog> catalog, const IcebergCatalogConfig& config,
                                           const LoadedTable& table, std::function<int64_t()> now_ms) {
  std::map<std::string, std::string> properties = CatalogProperties(catalog.get(), config);
  for (const auto& [k, v] : table.config) properties[k] = v;
  const std::string place = "Iceberg table " + table.ident.ToString() + " of catalog '" + config.catalog_name + "'";
  return NewFileIO(std::move(properties), place, VendedCredentialsProvider(std::move(catalog), table, std::move(now_ms)));
}

}  // namespace sluice
