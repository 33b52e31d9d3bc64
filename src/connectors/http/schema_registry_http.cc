#include "connectors/http/schema_registry_http.h"

#include <mutex>

#include "connectors/http/http_client.h"
#include "formats/avro_confluent/schema_registry.h"

namespace sluice {

void InstallSchemaRegistryHttp() {
  static std::once_flag once;
  std::call_once(once, [] {
    HttpClientOptions options;
    options.request_timeout_ms = 30'000;
    std::shared_ptr<HttpTransport> transport = NewCurlHttpTransport(options);
    SetSchemaRegistryHttp([transport](const RegistryHttpRequest& r) -> Result<RegistryHttpResponse> {
      HttpRequest request;
      request.method = r.method;
      request.url = r.url;
      request.headers = r.headers;
      request.body = r.body;
      ASSIGN_OR_RETURN(HttpResponse response, transport->Send(request));
      return RegistryHttpResponse{response.status, std::move(response.body)};
    });
  });
}

}  // namespace sluice
