#include "connectors/kafka/kafka_client.h"

#include <librdkafka/rdkafka_mock.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <charconv>
#include <chrono>
#include <mutex>
#include <set>

#include "formats/format.h"

namespace sluice {

namespace {

constexpr char kMockScheme[] = "mock://";

struct MockCluster {
  rd_kafka_t* host = nullptr;  // the client instance the mock cluster runs in
  rd_kafka_mock_cluster_t* cluster = nullptr;
  std::string bootstraps;
  std::set<std::string> topics;
};

// Named mock clusters; never destroyed (they serve tables until the process exits).
struct MockRegistry {
  std::mutex mu;
  std::map<std::string, MockCluster> clusters;
};

MockRegistry& Registry() {
  static MockRegistry* registry = new MockRegistry();
  return *registry;
}

// librdkafka logs a failing connection again on every retry (dozens of lines a second); the first line of
// a client says what is wrong, so each client prints that one and no more. The last error a client
// logged is kept too: it is the cause named when a request to the cluster fails (an authentication or
// TLS failure, a refused connection), since the request itself only reports a timeout. The clients'
// log records are the folder's second process-wide object, guarded by its mutex: librdkafka calls
// the log callback from its own threads.
struct ClientLog {
  std::mutex mu;
  std::set<const rd_kafka_t*> logged;
  std::map<const rd_kafka_t*, std::string> last_error;
};

ClientLog& Log() {
  static ClientLog* log = new ClientLog();
  return *log;
}

constexpr int kLogError = 3;  // syslog's LOG_ERR: librdkafka's level for failed connections

void LogFirstLine(const rd_kafka_t* rk, int level, const char* facility, const char* message) {
  {
    std::lock_guard<std::mutex> lock(Log().mu);
    if (level <= kLogError) Log().last_error[rk] = message;
    if (!Log().logged.insert(rk).second) return;
  }
  std::fprintf(stderr, "sluice: librdkafka %s [%d|%s]: %s (later librdkafka messages of this client are not shown)\n",
               rd_kafka_name(rk), level, facility, message);
}

// A destroyed client's address may be reused by the next one.
void ForgetLogged(const rd_kafka_t* rk) {
  std::lock_guard<std::mutex> lock(Log().mu);
  Log().logged.erase(rk);
  Log().last_error.erase(rk);
}

std::string LastClientError(const rd_kafka_t* rk) {
  std::lock_guard<std::mutex> lock(Log().mu);
  auto it = Log().last_error.find(rk);
  return it == Log().last_error.end() ? std::string() : it->second;
}

// An authentication or TLS failure does not go away by waiting: a request fails at once on it.
bool IsDefinitiveFailure(const std::string& text) {
  std::string t = text;
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t.find("authentication") != std::string::npos || t.find("ssl handshake") != std::string::npos ||
         t.find("certificate") != std::string::npos;
}

// librdkafka's text for a failure names the broker as "sasl_plaintext://127.0.0.1:9092/1: ": kept, it
// says which broker. The message never holds a property's value.
std::string PropertyOr(const KafkaTableOptions& options, const std::string& key, const std::string& fallback) {
  auto it = options.properties.find(key);
  return it == options.properties.end() ? fallback : it->second;
}

Result<MockCluster*> FindOrCreateMock(const std::string& name) {
  MockRegistry& reg = Registry();
  auto it = reg.clusters.find(name);
  if (it != reg.clusters.end()) return &it->second;
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  // The hosting instance never connects anywhere; keep it quiet.
  rd_kafka_conf_set(conf, "log_level", "2", errstr, sizeof(errstr));
  rd_kafka_conf_set_log_cb(conf, LogFirstLine);
  rd_kafka_t* host = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
  if (host == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Status::RuntimeError(std::string("Cannot create the Kafka mock cluster '") + name + "': " + errstr);
  }
  rd_kafka_mock_cluster_t* cluster = rd_kafka_mock_cluster_new(host, 1);
  if (cluster == nullptr) {
    rd_kafka_destroy(host);
    return Status::RuntimeError("Cannot create the Kafka mock cluster '" + name + "'");
  }
  MockCluster& mc = reg.clusters[name];
  mc.host = host;
  mc.cluster = cluster;
  mc.bootstraps = rd_kafka_mock_cluster_bootstraps(cluster);
  return &mc;
}

Status SetConf(rd_kafka_conf_t* conf, const std::string& key, const std::string& value,
               const KafkaTableOptions& options) {
  char errstr[512];
  if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), errstr, sizeof(errstr)) == RD_KAFKA_CONF_OK) {
    return Status::OK();
  }
  OptionReader reader(options.table_name, nullptr);
  // librdkafka's message may quote the value: hide it for secrets.
  return reader.InvalidValue("properties." + key, std::string("librdkafka rejects it: ") + errstr);
}

// librdkafka's mock broker speaks PLAINTEXT only: a SASL or SSL client would retry its handshake until
// every request timed out (30 s of protocol errors), so such a table fails at once.
Status CheckMockSecurity(const std::map<std::string, std::string>& props, const std::string& servers,
                         const KafkaTableOptions& options) {
  auto it = props.find("security.protocol");
  if (it == props.end()) return Status::OK();
  std::string protocol = it->second;
  for (char& c : protocol) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (protocol == "PLAINTEXT") return Status::OK();
  OptionReader reader(options.table_name, nullptr);
  return reader.InvalidValue("properties.security.protocol",
                             "'" + it->second + "' cannot be used with the mock cluster '" + servers +
                                 "', which has no SASL or TLS (PLAINTEXT only); remove the security options or set "
                                 "'properties.bootstrap.servers' to a real broker");
}

}  // namespace

Result<std::optional<MockClusterAddress>> ParseMockAddress(const std::string& servers) {
  if (servers.rfind(kMockScheme, 0) != 0) return std::optional<MockClusterAddress>();
  MockClusterAddress addr;
  std::string rest = servers.substr(std::string(kMockScheme).size());
  size_t q = rest.find('?');
  addr.name = rest.substr(0, q);
  const Status bad = Status::InvalidArgument(
      "Invalid value for option 'properties.bootstrap.servers': '" + servers +
      "' is not a mock cluster address 'mock://<name>' or 'mock://<name>?partitions=<n>'");
  if (addr.name.empty()) return bad;
  if (q != std::string::npos) {
    std::string query = rest.substr(q + 1);
    if (query.rfind("partitions=", 0) != 0) return bad;
    std::string n = query.substr(11);
    auto r = std::from_chars(n.data(), n.data() + n.size(), addr.partitions);
    if (n.empty() || r.ec != std::errc() || r.ptr != n.data() + n.size() || addr.partitions < 1) return bad;
  }
  return std::optional<MockClusterAddress>(addr);
}

Result<std::string> MockClusterBootstraps(const std::string& name) {
  std::lock_guard<std::mutex> lock(Registry().mu);
  ASSIGN_OR_RETURN(MockCluster * mc, FindOrCreateMock(name));
  return mc->bootstraps;
}

Status EnsureMockTopic(const std::string& name, const std::string& topic, int partitions) {
  std::lock_guard<std::mutex> lock(Registry().mu);
  ASSIGN_OR_RETURN(MockCluster * mc, FindOrCreateMock(name));
  if (mc->topics.count(topic)) return Status::OK();
  rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mc->cluster, topic.c_str(), partitions, 1);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
    return Status::RuntimeError("Cannot create topic '" + topic + "' on the Kafka mock cluster '" + name +
                                "': " + KafkaErrorText(err));
  }
  mc->topics.insert(topic);
  return Status::OK();
}

Status ValidateClientProperties(const KafkaTableOptions& options) {
  ASSIGN_OR_RETURN(auto props, ClientProperties(options));
  ASSIGN_OR_RETURN(auto mock, ParseMockAddress(props["bootstrap.servers"]));
  if (mock) {
    RETURN_IF_ERROR(CheckMockSecurity(props, props["bootstrap.servers"], options));
    props.erase("bootstrap.servers");
  }
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  Status s = Status::OK();
  for (const auto& [key, value] : props) {
    s = SetConf(conf, key, value, options);
    if (!s.ok()) break;
  }
  rd_kafka_conf_destroy(conf);
  return s;
}

KafkaHandle::~KafkaHandle() {
  if (rk_ == nullptr) return;
  if (consumer_) rd_kafka_consumer_close(rk_);
  rd_kafka_destroy(rk_);
  ForgetLogged(rk_);
}

std::string KafkaErrorText(rd_kafka_resp_err_t err) { return std::string("Kafka: ") + rd_kafka_err2str(err); }

Result<std::unique_ptr<KafkaHandle>> CreateKafkaClient(const KafkaTableOptions& options, const KafkaClientSpec& spec) {
  ASSIGN_OR_RETURN(auto props, ClientProperties(options));
  ASSIGN_OR_RETURN(auto mock, ParseMockAddress(props["bootstrap.servers"]));
  if (mock) {
    RETURN_IF_ERROR(CheckMockSecurity(props, props["bootstrap.servers"], options));
    ASSIGN_OR_RETURN(props["bootstrap.servers"], MockClusterBootstraps(mock->name));
    for (const std::string& topic : options.topics) RETURN_IF_ERROR(EnsureMockTopic(mock->name, topic, mock->partitions));
  }
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  auto apply = [&](const std::map<std::string, std::string>& kv) -> Status {
    for (const auto& [key, value] : kv) {
      Status s = SetConf(conf, key, value, options);
      if (!s.ok()) return s;
    }
    return Status::OK();
  };
  std::map<std::string, std::string> defaults = spec.defaults;
  // The mock broker logs every client disconnect; only critical messages are worth showing.
  if (mock) defaults.emplace("log_level", "2");
  Status s = apply(defaults);
  if (s.ok()) s = apply(props);
  if (s.ok()) s = apply(spec.overrides);
  if (!s.ok()) {
    rd_kafka_conf_destroy(conf);
    return s;
  }
  if (spec.dr_msg_cb != nullptr) rd_kafka_conf_set_dr_msg_cb(conf, spec.dr_msg_cb);
  if (spec.opaque != nullptr) rd_kafka_conf_set_opaque(conf, spec.opaque);
  rd_kafka_conf_set_log_cb(conf, LogFirstLine);
  char errstr[512];
  rd_kafka_t* rk = rd_kafka_new(spec.type, conf, errstr, sizeof(errstr));
  if (rk == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Status::RuntimeError(std::string("Cannot create a Kafka client: ") + errstr);
  }
  return std::make_unique<KafkaHandle>(rk, spec.type == RD_KAFKA_CONSUMER);
}

rd_kafka_resp_err_t KafkaMetadata(rd_kafka_t* rk, bool all_topics, rd_kafka_topic_t* only,
                                  const rd_kafka_metadata_t** md) {
  // Short requests, so an authentication or TLS failure the client logged ends the wait early.
  constexpr int kSliceMs = 500;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kKafkaRequestTimeoutMs);
  while (true) {
    rd_kafka_resp_err_t err = rd_kafka_metadata(rk, all_topics ? 1 : 0, only, md, kSliceMs);
    if (err != RD_KAFKA_RESP_ERR__TIMED_OUT && err != RD_KAFKA_RESP_ERR__TRANSPORT) return err;
    if (IsDefinitiveFailure(LastClientError(rk)) || std::chrono::steady_clock::now() >= deadline) return err;
  }
}

Status KafkaClusterError(rd_kafka_t* rk, const KafkaTableOptions& options, const std::string& action,
                         rd_kafka_resp_err_t err) {
  std::string protocol = PropertyOr(options, "security.protocol", "PLAINTEXT");
  for (char& c : protocol) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string how = "security.protocol " + protocol;
  if (protocol.rfind("SASL", 0) == 0) {
    how += ", sasl.mechanism " + PropertyOr(options, "sasl.mechanism", PropertyOr(options, "sasl.mechanisms", "GSSAPI"));
  }
  const std::string cause = rk != nullptr ? LastClientError(rk) : std::string();
  std::string text = KafkaErrorText(err);
  // KafkaMetadata waited out its whole timeout unless the cause is a definitive failure.
  if ((err == RD_KAFKA_RESP_ERR__TIMED_OUT || err == RD_KAFKA_RESP_ERR__TRANSPORT) && !IsDefinitiveFailure(cause)) {
    text += " after " + std::to_string(kKafkaRequestTimeoutMs / 1000) + " s";
  }
  return Status::IOError(action + " '" + PropertyOr(options, "bootstrap.servers", "") + "' (" + how +
                         "): " + (cause.empty() ? text : cause + " (" + text + ")"));
}

Status CheckKafkaReachable(rd_kafka_t* rk, const KafkaTableOptions& options) {
  const rd_kafka_metadata_t* md = nullptr;
  // No topic named and all_topics = 0: the brokers' metadata only, which creates no topic.
  rd_kafka_resp_err_t err = KafkaMetadata(rk, false, nullptr, &md);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return KafkaClusterError(rk, options, "Cannot connect to the Kafka cluster", err);
  rd_kafka_metadata_destroy(md);
  return Status::OK();
}

Result<std::vector<TopicPartitions>> DiscoverTopics(rd_kafka_t* rk, const KafkaTableOptions& options) {
  std::vector<TopicPartitions> out;
  const std::string servers = options.properties.count("bootstrap.servers") ? options.properties.at("bootstrap.servers") : "";
  if (!options.topics.empty()) {
    for (const std::string& topic : options.topics) {
      rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
      const rd_kafka_metadata_t* md = nullptr;
      rd_kafka_resp_err_t err = KafkaMetadata(rk, false, rkt, &md);
      rd_kafka_topic_destroy(rkt);
      if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        return KafkaClusterError(rk, options, "Cannot read the metadata of topic '" + topic + "' from", err);
      }
      rd_kafka_resp_err_t terr = md->topic_cnt == 1 ? md->topics[0].err : RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART;
      int32_t partitions = md->topic_cnt == 1 ? md->topics[0].partition_cnt : 0;
      rd_kafka_metadata_destroy(md);
      if (terr != RD_KAFKA_RESP_ERR_NO_ERROR || partitions == 0) {
        return Status::NotFound("Topic '" + topic + "' does not exist on the Kafka cluster '" + servers +
                                "'" + (terr != RD_KAFKA_RESP_ERR_NO_ERROR ? " (" + KafkaErrorText(terr) + ")" : ""));
      }
      out.push_back({topic, partitions});
    }
    return out;
  }
  RE2 pattern(options.topic_pattern);
  if (!pattern.ok()) {
    return Status::InvalidArgument("Invalid value for option 'topic-pattern' of table '" + options.table_name +
                                   "': " + pattern.error());
  }
  const rd_kafka_metadata_t* md = nullptr;
  rd_kafka_resp_err_t err = KafkaMetadata(rk, true, nullptr, &md);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return KafkaClusterError(rk, options, "Cannot list the topics of the Kafka cluster", err);
  for (int i = 0; i < md->topic_cnt; ++i) {
    const auto& t = md->topics[i];
    if (t.err != RD_KAFKA_RESP_ERR_NO_ERROR || t.partition_cnt == 0) continue;
    if (RE2::FullMatch(t.topic, pattern)) out.push_back({t.topic, t.partition_cnt});
  }
  rd_kafka_metadata_destroy(md);
  std::sort(out.begin(), out.end(), [](const TopicPartitions& a, const TopicPartitions& b) { return a.topic < b.topic; });
  return out;
}

}  // namespace sluice
