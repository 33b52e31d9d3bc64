#!/usr/bin/env bash
# Runs COMMAND next to a real Apache Kafka broker (single KRaft node, broker + controller, on 127.0.0.1):
#
#   kafka_broker.sh COMMAND [ARGS...]
#
# The jars come from scripts/install-kafka.sh. The broker gets two free loopback ports (client and
# controller listeners), a generated server.properties and a log dir in a fresh temporary directory;
# the storage is formatted with kafka-storage. Readiness (a metadata request answered by kafka-topics
# --list) is awaited for at most SLUICE_KAFKA_START_SECONDS (default 120) seconds. COMMAND sees
# KAFKA_BOOTSTRAP (127.0.0.1:<port>), KAFKA_CP (the classpath glob for `java -cp "$KAFKA_CP" <Main>`)
# and KAFKA_LOG_DIR. With SLUICE_KAFKA_SASL=1 the broker also has a SASL_PLAINTEXT listener with the
# PLAIN mechanism (its JAAS config generated here, user 'sluice' with a random password), and COMMAND
# also sees KAFKA_SASL_BOOTSTRAP, KAFKA_SASL_USER and KAFKA_SASL_PASSWORD. With SLUICE_KAFKA_TLS=1 it
# also has an SSL listener that requires a client certificate (a test CA, the broker's and a client's
# keys generated here with openssl and keytool), and COMMAND also sees KAFKA_SSL_BOOTSTRAP, KAFKA_SSL_CA
# (the CA as PEM), KAFKA_SSL_CERT, KAFKA_SSL_KEY (the client's certificate and encrypted key, PEM) and
# KAFKA_SSL_KEY_PASSWORD. The broker is stopped and the directory removed however COMMAND ends; the broker's
# log is printed when COMMAND fails. COMMAND's exit status is returned.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cp_dir="$(bash "$root/scripts/install-kafka.sh")"
cp="$cp_dir/*"
tmp="$(mktemp -d -t sluice-kafka-XXXXXX)"
broker_pid=""
cleanup() {
  if [ -n "$broker_pid" ] && kill -0 "$broker_pid" 2>/dev/null; then
    kill "$broker_pid" 2>/dev/null || true
    # A controlled shutdown takes a few seconds; a broker that hangs is killed.
    for _ in $(seq 1 150); do kill -0 "$broker_pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$broker_pid" 2>/dev/null || true
    wait "$broker_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port="$(free_port)"
controller_port="$(free_port)"
while [ "$controller_port" = "$port" ]; do controller_port="$(free_port)"; done
listeners="PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port"
advertised="PLAINTEXT://127.0.0.1:$port"
protocols="PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
sasl_props=""
if [ "${SLUICE_KAFKA_SASL:-0}" = "1" ]; then
  sasl_port="$(free_port)"
  while [ "$sasl_port" = "$port" ] || [ "$sasl_port" = "$controller_port" ]; do sasl_port="$(free_port)"; done
  sasl_password="$(python3 -c 'import secrets; print(secrets.token_hex(12))')"
  listeners="$listeners,SASL_PLAINTEXT://127.0.0.1:$sasl_port"
  advertised="$advertised,SASL_PLAINTEXT://127.0.0.1:$sasl_port"
  protocols="$protocols,SASL_PLAINTEXT:SASL_PLAINTEXT"
  sasl_props="sasl.enabled.mechanisms=PLAIN
listener.name.sasl_plaintext.sasl.enabled.mechanisms=PLAIN
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_sluice=\"$sasl_password\";"
  export KAFKA_SASL_BOOTSTRAP="127.0.0.1:$sasl_port" KAFKA_SASL_USER=sluice KAFKA_SASL_PASSWORD="$sasl_password"
fi
ssl_props=""
if [ "${SLUICE_KAFKA_TLS:-0}" = "1" ]; then
  # A test CA signs the broker's certificate (SAN 127.0.0.1) and a client certificate; the broker's
  # listener asks for the client's (mutual TLS). Keys are generated here with openssl, the broker's
  # stores are PKCS12 files (its truststore written by keytool); every password is random.
  ssl_port="$(free_port)"
  while [ "$ssl_port" = "$port" ] || [ "$ssl_port" = "$controller_port" ] || [ "$ssl_port" = "${sasl_port:-}" ]; do
    ssl_port="$(free_port)"
  done
  tls="$tmp/tls"
  mkdir -p "$tls"
  store_password="$(python3 -c 'import secrets; print(secrets.token_hex(12))')"
  key_password="$(python3 -c 'import secrets; print(secrets.token_hex(12))')"
  {
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=sluice-test-ca" -keyout "$tls/ca.key" -out "$tls/ca.pem"
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$tls/san.ext"
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$tls/broker.key" -out "$tls/broker.csr"
    openssl x509 -req -in "$tls/broker.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
      -extfile "$tls/san.ext" -out "$tls/broker.pem"
    openssl pkcs12 -export -in "$tls/broker.pem" -inkey "$tls/broker.key" -certfile "$tls/ca.pem" -name broker \
      -passout "pass:$store_password" -out "$tls/broker.p12"
    keytool -importcert -noprompt -alias ca -file "$tls/ca.pem" -keystore "$tls/truststore.p12" -storetype PKCS12 \
      -storepass "$store_password"
    # The client's key is encrypted with its own password ('properties.ssl.key.password').
    openssl req -newkey rsa:2048 -subj "/CN=sluice-client" -passout "pass:$key_password" -keyout "$tls/client.key" \
      -out "$tls/client.csr"
    openssl x509 -req -in "$tls/client.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
      -out "$tls/client.pem"
  } >"$tmp/tls.log" 2>&1 || { echo "kafka_broker: generating the TLS keys failed:" >&2; cat "$tmp/tls.log" >&2; exit 1; }
  listeners="$listeners,SSL://127.0.0.1:$ssl_port"
  advertised="$advertised,SSL://127.0.0.1:$ssl_port"
  protocols="$protocols,SSL:SSL"
  ssl_props="listener.name.ssl.ssl.keystore.type=PKCS12
listener.name.ssl.ssl.keystore.location=$tls/broker.p12
listener.name.ssl.ssl.keystore.password=$store_password
listener.name.ssl.ssl.key.password=$store_password
listener.name.ssl.ssl.truststore.type=PKCS12
listener.name.ssl.ssl.truststore.location=$tls/truststore.p12
listener.name.ssl.ssl.truststore.password=$store_password
listener.name.ssl.ssl.client.auth=required"
  export KAFKA_SSL_BOOTSTRAP="127.0.0.1:$ssl_port" KAFKA_SSL_CA="$tls/ca.pem" KAFKA_SSL_CERT="$tls/client.pem" \
    KAFKA_SSL_KEY="$tls/client.key" KAFKA_SSL_KEY_PASSWORD="$key_password"
fi
jvm=(java -Xms256m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn)
tool_jvm=(java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn)

cat > "$tmp/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=$listeners
advertised.listeners=$advertised
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=$protocols
$sasl_props
$ssl_props
log.dirs=$tmp/logs
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
min.insync.replicas=1
group.initial.rebalance.delay.ms=0
log.cleaner.backoff.ms=500
auto.create.topics.enable=false
PROPS

"${tool_jvm[@]}" -cp "$cp" kafka.tools.StorageTool format -t "$(python3 -c 'import base64, uuid
# A cluster id that starts with "-" would be read as an option by kafka-storage (1 run in 32).
print(next(i for i in iter(lambda: base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("="), None) if i[0] != "-"))')" \
  -c "$tmp/server.properties" >"$tmp/format.log" 2>&1 || {
  echo "kafka_broker: kafka-storage format failed:" >&2; cat "$tmp/format.log" >&2; exit 1; }

"${jvm[@]}" -Dkafka.logs.dir="$tmp" -cp "$cp" kafka.Kafka "$tmp/server.properties" >"$tmp/server.log" 2>&1 &
broker_pid=$!

deadline=$((SECONDS + ${SLUICE_KAFKA_START_SECONDS:-120}))
until "${tool_jvm[@]}" -cp "$cp" org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$port" --list \
        >/dev/null 2>"$tmp/ready.log"; do
  if ! kill -0 "$broker_pid" 2>/dev/null; then
    echo "kafka_broker: the broker exited during startup:" >&2
    cat "$tmp/server.log" >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "kafka_broker: not ready on 127.0.0.1:$port after ${SLUICE_KAFKA_START_SECONDS:-120}s:" >&2
    tail -50 "$tmp/server.log" "$tmp/ready.log" >&2
    exit 1
  fi
  sleep 0.5
done

status=0
KAFKA_BOOTSTRAP="127.0.0.1:$port" KAFKA_CP="$cp" KAFKA_LOG_DIR="$tmp/logs" "$@" || status=$?
if [ "$status" -ne 0 ] && [ -s "$tmp/server.log" ]; then
  echo "kafka_broker: broker log (last 80 lines):" >&2
  tail -80 "$tmp/server.log" >&2
fi
exit "$status"
