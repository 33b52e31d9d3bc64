// A client of a schema registry's Confluent-compatible REST API (Confluent Schema Registry, or
// Apicurio Registry under /apis/ccompat/v7): registers a subject's schema and fetches schemas by id,
// caching both (ids never change their schema).
//
// The HTTP exchange is a seam: formats cannot link the connectors' libcurl client, so the connectors
// library installs it once (SetSchemaRegistryHttp, from BuiltinConnectorFactories) and tests install
// a fake. Authorization header values never appear in errors.
//
// Threading: a client is used by one decoder or encoder (one thread); SetSchemaRegistryHttp is
// called before any client sends.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace sluice {

struct RegistryHttpRequest {
  std::string method = "GET";  // GET or POST
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct RegistryHttpResponse {
  int status = 0;
  std::string body;
};

// Sends one request; fails (kIOError) only when no response arrived.
using RegistryHttpSend = std::function<Result<RegistryHttpResponse>(const RegistryHttpRequest&)>;

// Installs the process's HTTP transport for registry clients.
void SetSchemaRegistryHttp(RegistryHttpSend send);

class SchemaRegistryClient {
 public:
  // `url` is the API's base URL ("http://host:8081", "http://host:8080/apis/ccompat/v7"); `headers`
  // go with every request (Authorization).
  SchemaRegistryClient(std::string url, std::vector<std::pair<std::string, std::string>> headers);

  // POST /subjects/{subject}/versions: the id of `schema_json` under `subject` (registering it when
  // new). With `auto_register` false, POST /subjects/{subject} only looks the schema up.
  [[nodiscard]] Result<int32_t> Register(const std::string& subject, const std::string& schema_json, bool auto_register);
  // GET /schemas/ids/{id}: the schema's JSON. kNotFound when the registry does not know the id.
  [[nodiscard]] Result<std::string> SchemaById(int32_t id);

  const std::string& url() const { return url_; }

 private:
  [[nodiscard]] Result<RegistryHttpResponse> Send(RegistryHttpRequest request);
  Status HttpError(const std::string& what, const RegistryHttpResponse& response) const;

  std::string url_;
  std::vector<std::pair<std::string, std::string>> headers_;
  std::map<std::pair<std::string, std::string>, int32_t> registered_;  // (subject, schema) -> id
  std::map<int32_t, std::string> schemas_;
};

}  // namespace sluice
