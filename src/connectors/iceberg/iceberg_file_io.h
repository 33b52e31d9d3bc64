// Which FileIO an Iceberg table's files go through: the local file system or S3, by each location's
// scheme (connectors/s3/s3_file_io.h), configured with Iceberg's S3FileIO properties ('s3.endpoint',
// 's3.path-style-access', 's3.access-key-id', 's3.secret-access-key', 's3.session-token',
// 'client.region', ...) from the catalog's options (for a REST catalog merged with its /v1/config),
// overlaid with the per-table configuration a REST catalog returns with loadTable (vended
// credentials, 'header.X-Iceberg-Access-Delegation' = 'vended-credentials').
//
// Vended credentials that carry 's3.session-token-expires-at-ms' are loaded again through the
// catalog's loadTable when less than kVendedRefreshMarginMs remains (or, for credentials that live
// shorter than twice that, half their life), so a long-running job keeps writing after its first
// credentials expire.
//
// Threading: the returned FileIO is thread-safe (the refresh is guarded).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "common/file_io.h"
#include "connectors/iceberg/iceberg_catalog.h"
#include "connectors/iceberg/iceberg_options.h"
#include "connectors/s3/sigv4.h"

namespace sluice {

inline constexpr int64_t kVendedRefreshMarginMs = 5 * 60 * 1000;

// The FileIO of a catalog's own files (the hadoop catalog's warehouse).
std::shared_ptr<FileIO> IcebergCatalogFileIO(const IcebergCatalogConfig& config);

// The S3 credentials vended with `table` (its loadTable config), loaded again through `catalog` when
// they near expiry; nullptr when the table came without vended credentials.
std::function<Result<AwsCredentials>()> VendedCredentialsProvider(std::shared_ptr<IcebergCatalog> catalog,
                                                                  const LoadedTable& table,
                                                                  std::function<int64_t()> now_ms = nullptr);

// The FileIO of one table's files. `now_ms` defaults to the system clock.
std::shared_ptr<FileIO> IcebergTableFileIO(std::shared_ptr<IcebergCatalog> catalog, const IcebergCatalogConfig& config,
                                           const LoadedTable& table, std::function<int64_t()> now_ms = nullptr);

}  // namespace sluice
