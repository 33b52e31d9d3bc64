#include "formats/avro_confluent/schema_registry.h"

#include <simdjson.h>

#include <mutex>

#include "formats/json/json_format.h"

namespace sluice {

namespace {

std::mutex& TransportMutex() {
  static std::mutex m;
  return m;
}

RegistryHttpSend& Transport() {
  static RegistryHttpSend send;
  return send;
}

std::string PathSegment(std::string_view s) {
  std::string out;
  static const char* kHex = "0123456789ABCDEF";
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

// The "message" of a registry error body ({"error_code": 40403, "message": "Schema not found"}).
std::string ErrorMessage(const std::string& body) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(body).get(doc) == simdjson::SUCCESS) {
    std::string_view msg;
    if (doc["message"].get(msg) == simdjson::SUCCESS) return std::string(msg);
  }
  return body.size() > 200 ? body.substr(0, 200) + "..." : body;
}

}  // namespace

void SetSchemaRegistryHttp(RegistryHttpSend send) {
  std::lock_guard<std::mutex> lock(TransportMutex());
  Transport() = std::move(send);
}

SchemaRegistryClient::SchemaRegistryClient(std::string url, std::vector<std::pair<std::string, std::string>> headers)
    : url_(std::move(url)), headers_(std::move(headers)) {
  while (!url_.empty() && url_.back() == '/') url_.pop_back();
}

Result<RegistryHttpResponse> SchemaRegistryClient::Send(RegistryHttpRequest request) {
  RegistryHttpSend send;
  {
    std::lock_guard<std::mutex> lock(TransportMutex());
    send = Transport();
  }
  if (!send) return Status::Internal("No HTTP transport is installed for schema registry clients");
  request.headers.insert(request.headers.end(), headers_.begin(), headers_.end());
  request.headers.emplace_back("Accept", "application/vnd.schemaregistry.v1+json, application/json");
  if (request.method == "POST") request.headers.emplace_back("Content-Type", "application/vnd.schemaregistry.v1+json");
  auto r = send(request);
  if (!r.ok()) return r.status().WithContext("Schema registry " + url_);
  return r;
}

Status SchemaRegistryClient::HttpError(const std::string& what, const RegistryHttpResponse& response) const {
  std::string msg = what + " failed at the schema registry " + url_ + ": HTTP " + std::to_string(response.status) +
                    ": " + ErrorMessage(response.body);
  if (response.status == 401 || response.status == 403) {
    msg += " (check 'basic-auth.user-info' / 'bearer-auth.token')";
  }
  return response.status == 404 ? Status::NotFound(msg) : Status::IOError(msg);
}

Result<int32_t> SchemaRegistryClient::Register(const std::string& subject, const std::string& schema_json,
                                               bool auto_register) {
  auto key = std::make_pair(subject, schema_json);
  if (auto it = registered_.find(key); it != registered_.end()) return it->second;
  RegistryHttpRequest req;
  req.method = "POST";
  req.url = url_ + "/subjects/" + PathSegment(subject) + (auto_register ? "/versions" : "");
  req.body = "{\"schema\":";
  AppendJsonString(schema_json, &req.body);
  req.body += "}";
  ASSIGN_OR_RETURN(RegistryHttpResponse resp, Send(std::move(req)));
  const std::string what = auto_register ? "Registering the schema under subject '" + subject + "'"
                                         : "Looking up the schema under subject '" + subject + "'";
  if (resp.status != 200) return HttpError(what, resp);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  int64_t id = 0;
  if (parser.parse(resp.body).get(doc) != simdjson::SUCCESS || doc["id"].get(id) != simdjson::SUCCESS) {
    return Status::IOError(what + ": the schema registry " + url_ + " answered without an id: " + ErrorMessage(resp.body));
  }
  registered_[key] = static_cast<int32_t>(id);
  return static_cast<int32_t>(id);
}

Result<std::string> SchemaRegistryClient::SchemaById(int32_t id) {
  if (auto it = schemas_.find(id); it != schemas_.end()) return it->second;
  RegistryHttpRequest req;
  req.url = url_ + "/schemas/ids/" + std::to_string(id);
  ASSIGN_OR_RETURN(RegistryHttpResponse resp, Send(std::move(req)));
  const std::string what = "Fetching the schema with id " + std::to_string(id);
  if (resp.status != 200) return HttpError(what, resp);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view schema;
  if (parser.parse(resp.body).get(doc) != simdjson::SUCCESS || doc["schema"].get(schema) != simdjson::SUCCESS) {
    return Status::IOError(what + ": the schema registry " + url_ + " answered without a schema");
  }
  std::string_view type;
  if (doc["schemaType"].get(type) == simdjson::SUCCESS && type != "AVRO") {
    return Status::InvalidArgument(what + ": it is a " + std::string(type) + " schema, not an Avro one");
  }
  return schemas_[id] = std::string(schema);
}

}  // namespace sluice
