// PARSE_URL(url, part[, key]) with Flink's semantics (SqlFunctionUtils.parseUrl over java.net.URL):
// part is one of HOST, PATH, QUERY, REF, PROTOCOL, AUTHORITY, FILE, USERINFO (case-sensitive; any other
// gives NULL); with a key, only QUERY, and the value of the first `key=value` pair of the query. A URL
// java.net.URL refuses (no scheme, a scheme without a handler: Java knows http, https, ftp, file, jar,
// mailto) gives NULL, as does a part the URL does not have. The result is always nullable.
#include <string>
#include <string_view>

#include "function/string_kernels.h"

namespace sluice::fn {

using namespace string_internal;  // NOLINT: the string functions' shared helpers

namespace {

// The pieces of a URL as java.net.URL splits them; `has_*` tells an absent piece from an empty one.
struct UrlParts {
  std::string protocol;
  std::string_view authority, userinfo, host, path, query, ref;
  bool has_authority = false, has_userinfo = false, has_query = false, has_ref = false;
};

bool ParseUrl(std::string_view url, UrlParts* p) {
  // java.net.URL ignores characters up to ' ' around the text.
  while (!url.empty() && static_cast<unsigned char>(url.front()) <= ' ') url.remove_prefix(1);
  while (!url.empty() && static_cast<unsigned char>(url.back()) <= ' ') url.remove_suffix(1);
  size_t colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  for (size_t k = 0; k < colon; ++k) {
    char ch = url[k];
    bool ok = (ch | 0x20) >= 'a' && (ch | 0x20) <= 'z';
    if (k > 0) ok = ok || (ch >= '0' && ch <= '9') || ch == '+' || ch == '-' || ch == '.';
    if (!ok) return false;
  }
  p->protocol.assign(url.substr(0, colon));
  for (char& ch : p->protocol) ch = static_cast<char>(ch | 0x20);
  static const char* const kHandlers[] = {"http", "https", "ftp", "file", "jar", "mailto"};
  bool known = false;
  for (const char* h : kHandlers) known |= p->protocol == h;
  if (!known) return false;
  std::string_view rest = url.substr(colon + 1);
  if (size_t hash = rest.find('#'); hash != std::string_view::npos) {
    p->ref = rest.substr(hash + 1);
    p->has_ref = true;
    rest = rest.substr(0, hash);
  }
  if (rest.substr(0, 2) == "//") {
    rest.remove_prefix(2);
    size_t end = rest.find_first_of("/?");
    p->authority = rest.substr(0, end);
    p->has_authority = true;
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
    std::string_view hostport = p->authority;
    if (size_t at = p->authority.find('@'); at != std::string_view::npos) {
      if (p->authority.rfind('@') != at) return false;
      p->userinfo = p->authority.substr(0, at);
      p->has_userinfo = true;
      hostport = p->authority.substr(at + 1);
    }
    size_t port = hostport.rfind(':');
    if (port != std::string_view::npos && hostport.find(']', port) == std::string_view::npos) {
      for (char ch : hostport.substr(port + 1)) {
        if (ch < '0' || ch > '9') return false;  // java.net.URL: "Invalid port number"
      }
      hostport = hostport.substr(0, port);
    }
    p->host = hostport;
  }
  if (size_t q = rest.find('?'); q != std::string_view::npos) {
    p->query = rest.substr(q + 1);
    p->has_query = true;
    rest = rest.substr(0, q);
  }
  p->path = rest;
  return true;
}

// The value of `key` in a query: the first "key=value" at the start or after '&' (value up to '&').
bool QueryValue(std::string_view query, std::string_view key, std::string* out) {
  for (size_t from = 0; from <= query.size();) {
    size_t p = query.find(key, from);
    if (p == std::string_view::npos) return false;
    if ((p == 0 || query[p - 1] == '&') && p + key.size() < query.size() && query[p + key.size()] == '=') {
      std::string_view v = query.substr(p + key.size() + 1);
      out->assign(v.substr(0, v.find('&')));
      return true;
    }
    from = p + 1;
  }
  return false;
}

bool UrlPart(std::string_view url, std::string_view part, std::string* out) {
  UrlParts p;
  if (!ParseUrl(url, &p)) return false;
  if (part == "HOST") {
    out->assign(p.host);
  } else if (part == "PATH") {
    out->assign(p.path);
  } else if (part == "QUERY") {
    if (!p.has_query) return false;
    out->assign(p.query);
  } else if (part == "REF") {
    if (!p.has_ref) return false;
    out->assign(p.ref);
  } else if (part == "PROTOCOL") {
    out->assign(p.protocol);
  } else if (part == "AUTHORITY") {
    if (!p.has_authority) return false;
    out->assign(p.authority);
  } else if (part == "FILE") {
    out->assign(p.path);
    if (p.has_query) out->append("?").append(p.query);
  } else if (part == "USERINFO") {
    if (!p.has_userinfo) return false;
    out->assign(p.userinfo);
  } else {
    return false;
  }
  return true;
}

Result<FnPtr> ResolveParseUrl(const CallInfo& c) {
  if (c.size() == 2) {
    return NeverFails(Simple(
        c, {AsString, AsString}, LogicalType::String(),
        StringOut([](const Vector* const* a, size_t i, std::string* buf) { return UrlPart(Str(a, 0, i), Str(a, 1, i), buf); }),
        true));
  }
  return NeverFails(Simple(c, {AsString, AsString, AsString}, LogicalType::String(),
                           StringOut([](const Vector* const* a, size_t i, std::string* buf) {
                             if (Str(a, 1, i) != "QUERY") return false;
                             std::string query;
                             if (!UrlPart(Str(a, 0, i), "QUERY", &query)) return false;
                             return QueryValue(query, Str(a, 2, i), buf);
                           }),
                           true));
}

}  // namespace

void RegisterUrlFunctions(FunctionTable* t) {
  t->Add({"PARSE_URL", {"PARSE_URL(<CHARACTER>, <CHARACTER>)", "PARSE_URL(<CHARACTER>, <CHARACTER>, <CHARACTER>)"},
          ResolveParseUrl});
}

}  // namespace sluice::fn
