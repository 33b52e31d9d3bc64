// RestCatalog: a client of Iceberg's REST catalog protocol (the OpenAPI spec
// open-api/rest-catalog-open-api.yaml of apache/iceberg), so Sluice's Iceberg tables live in any REST
// catalog (Iceberg's reference server, Polaris, Nessie, Gravitino, Lakekeeper, ...).
//
// Connecting fetches GET {uri}/v1/config?warehouse=... and merges its 'defaults' under and its
// 'overrides' over the catalog's properties (as Java's RESTSessionCatalog); 'prefix' from the merged
// properties goes into every path (v1/{prefix}/namespaces/...), 'namespace-separator' joins
// multi-level namespaces in paths (default %1F).
//
// Auth, with Iceberg's property names:
//   'token'              sent as "Authorization: Bearer <token>";
//   'credential'         "<client-id>:<secret>" (or "<secret>"): a token is requested with OAuth2's
//                        client-credentials grant from 'oauth2-server-uri' (default {uri}/v1/oauth/tokens)
//                        with 'scope' (default "catalog"), and requested again before it expires
//                        (unless 'token-refresh-enabled' = 'false') and once after a 401;
//   'header.<Name>'      sent as "<Name>: <value>" on every request.
// Secrets never appear in errors.
//
// Errors name the catalog, its uri and the endpoint, with the server's message and exception type.
// 404s of namespaces and tables are kNotFound, 409s of creates kInvalidArgument (Iceberg's wording,
// as the hadoop catalog), a commit's 409 (CommitFailedException) kAborted (reload and retry); a
// commit's 500/502/504 leaves the commit's state unknown (kRuntimeError, never retried). Requests
// are retried with exponential backoff on 429/503 and, for GET and HEAD, on other 5xx answers and
// network errors.
//
// Threading: thread-safe (the token is guarded; each request is independent).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "connectors/http/http_client.h"
#include "connectors/iceberg/iceberg_catalog.h"

namespace sluice {

struct RestCatalogOptions {
  std::string catalog_name;
  std::string uri;        // the catalog's base URI, e.g. http://127.0.0.1:8181
  std::string warehouse;  // sent to GET /v1/config; may be empty
  std::map<std::string, std::string> properties;  // 'token', 'credential', 'header.*', 'prefix', ...
  int max_attempts = 5;                           // of a retryable request
  int64_t initial_backoff_ms = 100;               // doubled per retry
  std::function<int64_t()> now_ms;                // default: the system clock
  std::function<void(int64_t)> sleep_ms;          // default: sleeps the thread
};

class RestCatalog final : public IcebergCatalog {
 public:
  // Authenticates (when 'credential' is set) and reads the catalog's configuration.
  [[nodiscard]] static Result<std::shared_ptr<RestCatalog>> Connect(RestCatalogOptions options,
                                                                    std::shared_ptr<HttpTransport> transport);

  // The properties after merging the server's configuration.
  const std::map<std::string, std::string>& properties() const { return properties_; }

  Result<std::vector<IcebergNamespace>> ListNamespaces(const IcebergNamespace& parent) override;
  Status CreateNamespace(const IcebergNamespace& ns, const std::map<std::string, std::string>& properties) override;
  Result<bool> NamespaceExists(const IcebergNamespace& ns) override;
  Status DropNamespace(const IcebergNamespace& ns) override;
  Result<std::vector<TableIdentifier>> ListTables(const IcebergNamespace& ns) override;
  Result<LoadedTable> CreateTable(const TableIdentifier& ident, NewTableOptions options) override;
  Result<bool> TableExists(const TableIdentifier& ident) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& ident) override;
  Result<LoadedTable> CommitTable(const LoadedTable& base, const TableMetadata& updated,
                                  const std::vector<TableRequirement>& requirements) override;
  Status DropTable(const TableIdentifier& ident, bool purge) override;

 private:
  struct Reply {
    int status = 0;
    std::string body;
  };
  RestCatalog(RestCatalogOptions options, std::shared_ptr<HttpTransport> transport);

  Status LoadConfig();
  // Sends METHOD {uri}/{path}: auth and header.* headers, retries; a reply of any HTTP status.
  Result<Reply> Call(const std::string& method, const std::string& path, const std::string& body = {});
  Result<Reply> CallOnce(const std::string& method, const std::string& url, const std::string& body,
                         const std::string& content_type, const std::string& auth);
  // The Authorization header value ("" when there is no auth); fetches or refreshes an OAuth2 token.
  Result<std::string> Authorization(bool force_refresh);
  Status FetchToken();
  // An error for a reply the caller does not handle, naming the endpoint and the server's message.
  Status ErrorFor(const std::string& method, const std::string& path, const Reply& reply) const;
  // HEAD {path} (GET when the server has no HEAD endpoint): 2xx true, 404 false.
  Result<bool> Exists(const std::string& path);
  Result<LoadedTable> ParseLoadTable(const TableIdentifier& ident, const Reply& reply, const std::string& what) const;
  // Paths relative to the base uri.
  std::string NamespacePath(const IcebergNamespace& ns) const;
  std::string TablePath(const TableIdentifier& ident) const;
  std::string Place() const;

  RestCatalogOptions options_;
  std::shared_ptr<HttpTransport> transport_;
  std::map<std::string, std::string> properties_;
  std::string base_;       // the uri without a trailing '/'
  std::string prefix_;     // "v1/" or "v1/<prefix>/"
  std::string separator_;  // the namespace separator as it goes into paths (already encoded)

  std::mutex token_mu_;
  std::string token_;              // guarded by token_mu_
  int64_t token_refresh_at_ms_ = 0;  // 0: never (guarded by token_mu_)
};

}  // namespace sluice
