#!/usr/bin/env bash
# Runs COMMAND next to a real three-node Apache Kafka cluster (KRaft; every node is broker and
# controller, on 127.0.0.1), for the replication and leader-failover test:
#
#   kafka_cluster.sh COMMAND [ARGS...]
#
# As kafka_broker.sh (jars from scripts/install-kafka.sh, free loopback ports, generated
# server.properties, storage formatted with one cluster id, bounded readiness wait, clean shutdown
# however COMMAND ends), with replication factor 3 and min.insync.replicas 2 for the internal topics.
# Readiness: every node answers as a broker (kafka-broker-api-versions lists all three), within
# SLUICE_KAFKA_START_SECONDS (default 180) seconds. COMMAND sees KAFKA_BOOTSTRAP (the three
# listeners), KAFKA_CP and KAFKA_NODES_DIR, in which `bash $KAFKA_NODES_DIR/start-node.sh I` starts
# node I (1-3) again after a test killed it; node I's pid is in $KAFKA_NODES_DIR/node-I.pid and its
# client listener is $KAFKA_NODES_DIR/node-I.port. COMMAND's exit status is returned.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cp_dir="$(bash "$root/scripts/install-kafka.sh")"
cp="$cp_dir/*"
tmp="$(mktemp -d -t sluice-kafka-cluster-XXXXXX)"
nodes=3
cleanup() {
  for i in $(seq 1 $nodes); do
    [ -f "$tmp/node-$i.pid" ] || continue
    pid="$(cat "$tmp/node-$i.pid")"
    kill "$pid" 2>/dev/null || true
  done
  for i in $(seq 1 $nodes); do
    [ -f "$tmp/node-$i.pid" ] || continue
    pid="$(cat "$tmp/node-$i.pid")"
    # A controlled shutdown takes a few seconds; a node that hangs is killed.
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# 2 * nodes distinct free ports.
ports=($(python3 -c '
import socket
socks = [socket.socket() for _ in range(6)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))'))
voters=""
bootstrap=""
for i in $(seq 1 $nodes); do
  voters="$voters${voters:+,}$i@127.0.0.1:${ports[$((nodes + i - 1))]}"
  bootstrap="$bootstrap${bootstrap:+,}127.0.0.1:${ports[$((i - 1))]}"
done
jvm="java -Xms128m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn"
tool_jvm=(java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn)
# A cluster id that starts with "-" would be read as an option by kafka-storage (1 run in 32), as
# kafka_broker.sh knows.
cluster_id="$(python3 -c 'import base64, uuid
print(next(i for i in iter(lambda: base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("="), None) if i[0] != "-"))')"

for i in $(seq 1 $nodes); do
  port="${ports[$((i - 1))]}"
  cport="${ports[$((nodes + i - 1))]}"
  mkdir -p "$tmp/node-$i"
  echo "$port" >"$tmp/node-$i.port"
  cat >"$tmp/node-$i/server.properties" <<PROPS
process.roles=broker,controller
node.id=$i
controller.quorum.voters=$voters
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$tmp/node-$i/logs
num.partitions=1
default.replication.factor=3
offsets.topic.replication.factor=3
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=3
transaction.state.log.min.isr=2
transaction.state.log.num.partitions=1
min.insync.replicas=2
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
PROPS
  "${tool_jvm[@]}" -cp "$cp" kafka.tools.StorageTool format -t "$cluster_id" -c "$tmp/node-$i/server.properties" \
    >"$tmp/node-$i/format.log" 2>&1 || {
    echo "kafka_cluster: kafka-storage format of node $i failed:" >&2; cat "$tmp/node-$i/format.log" >&2; exit 1; }
done

cat >"$tmp/start-node.sh" <<SCRIPT
#!/usr/bin/env bash
# start-node.sh I: starts node I of this cluster in the background; its pid goes to node-I.pid.
set -eu
i="\$1"
$jvm -Dkafka.logs.dir="$tmp/node-\$i" -cp "$cp" kafka.Kafka "$tmp/node-\$i/server.properties" \
  >>"$tmp/node-\$i/server.log" 2>&1 </dev/null &
echo \$! >"$tmp/node-\$i.pid"
SCRIPT
for i in $(seq 1 $nodes); do bash "$tmp/start-node.sh" "$i"; done

deadline=$((SECONDS + ${SLUICE_KAFKA_START_SECONDS:-180}))
until [ "$("${tool_jvm[@]}" -cp "$cp" org.apache.kafka.tools.BrokerApiVersionsCommand --bootstrap-server "$bootstrap" \
          2>"$tmp/ready.log" | grep -c '(id: ')" -ge "$nodes" ]; do
  for i in $(seq 1 $nodes); do
    if ! kill -0 "$(cat "$tmp/node-$i.pid")" 2>/dev/null; then
      echo "kafka_cluster: node $i exited during startup:" >&2
      tail -50 "$tmp/node-$i/server.log" >&2
      exit 1
    fi
  done
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "kafka_cluster: not ready on $bootstrap after ${SLUICE_KAFKA_START_SECONDS:-180}s:" >&2
    tail -30 "$tmp/node-1/server.log" "$tmp/ready.log" >&2
    exit 1
  fi
  sleep 0.5
done

status=0
KAFKA_BOOTSTRAP="$bootstrap" KAFKA_CP="$cp" KAFKA_NODES_DIR="$tmp" "$@" || status=$?
if [ "$status" -ne 0 ]; then
  for i in $(seq 1 $nodes); do
    echo "kafka_cluster: node $i log (last 30 lines):" >&2
    tail -30 "$tmp/node-$i/server.log" >&2 || true
  done
fi
exit "$status"
