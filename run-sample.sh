#!/usr/bin/env bash
# Runs the sample: builds the adapter and the sample, starts Payara Micro with both on an
# embedded H2 database, places a demo load of orders, shows progress while the message-driven
# beans process them (the orders queue; the ledger, in order per customer, and the large-order desk,
# both subscribed to the order events' topic), prints a summary line, then keeps serving until Ctrl-C.
# The live page it names (/sample/live.html) charts the queue's figures every second meanwhile; the
# dead-letter console (/sqlqueue-console/) shows the invalid orders' dead letters and requeues or deletes them.
#
#   ./run-sample.sh [COUNT]        COUNT orders (default 10000, placed 1000 per request), 3 of them invalid
#
# Environment: SAMPLE_PORT (8080), SAMPLE_INVALID (3), SAMPLE_EXIT=1 to stop after the summary,
# SAMPLE_CONSOLE_PASSWORD for the dead-letter console's user sample-admin (else one is made);
# SQLQUEUE_SAMPLE_URL / _USER / _PASSWORD / _DATASOURCE to use another database, e.g.
#   SQLQUEUE_SAMPLE_URL=jdbc:postgresql://127.0.0.1:5432/shop SQLQUEUE_SAMPLE_USER=shop \
#   SQLQUEUE_SAMPLE_PASSWORD=secret SQLQUEUE_SAMPLE_DATASOURCE=org.postgresql.ds.PGSimpleDataSource ./run-sample.sh
set -euo pipefail
cd "$(dirname "$0")"

count=${1:-10000}
invalid=${SAMPLE_INVALID:-3}
port=${SAMPLE_PORT:-8080}
if ! [[ "$count" =~ ^[0-9]+$ && "$invalid" =~ ^[0-9]+$ ]] || (( count < 1 || count > 1000000 || invalid > count )); then
  echo "usage: ./run-sample.sh [COUNT]: COUNT orders, 1 to 1000000 (default 10000); SAMPLE_INVALID (default 3)" \
    "of them invalid, at most COUNT" >&2
  exit 2
fi
micro_version=6.2025.10
run=target/sample-run
base="http://127.0.0.1:$port/sample/api/orders"
live="http://127.0.0.1:$port/sample/live.html"

mkdir -p "$run"
# Maven's output goes to a file: it writes colour codes even in batch mode
maven() {
  mvn -B -q "$@" > "$run/build.log" 2>&1 || { tail -30 "$run/build.log"; echo "failed: mvn $*; see $run/build.log"; exit 1; }
}
echo "building the adapter and the sample ..."
maven -DskipTests package -pl adapter,ejb-sample,console -am  # into target/ only, nothing installed
if [ ! -f "$run/payara-micro.jar" ]; then
  echo "fetching Payara Micro $micro_version ..."
  maven org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
    -Dartifact=fish.payara.extras:payara-micro:$micro_version -DoutputDirectory="$run" -Dmdep.stripVersion=true
fi
libs=()
if [[ "${SQLQUEUE_SAMPLE_URL:-}" == jdbc:postgresql:* ]]; then
  pg=$(ls adapter/target/rar-work/postgresql-*.jar | head -1)
  libs=(--addlibs "$pg")  # the sample's own JDBC resource needs the driver on the server
fi

rm -rf "$run/tmp" && mkdir -p "$run/tmp"
cp adapter/target/sqlqueue-adapter.rar "$run/sqlqueue-adapter.rar"
# the WAR for a standalone adapter (the -ear.war variant goes into the EAR)
cp "$(ls ejb-sample/target/sqlqueue-ejb-sample-*.war | grep -v -- -ear.war)" "$run/sample.war"
printf 'set configs.config.server-config.network-config.network-listeners.network-listener.http-listener.address=127.0.0.1\n' \
  > "$run/preboot.asadmin"
cp console/target/sqlqueue-console.war "$run/sqlqueue-console.war"
# The dead-letter console's user, in the file realm's group sqlqueue-admin; its password (made once,
# or SAMPLE_CONSOLE_PASSWORD) stays in a file only its owner reads.
console_password_file="$run/console.password"
if [ -n "${SAMPLE_CONSOLE_PASSWORD:-}" ] || [ ! -s "$console_password_file" ]; then
  (umask 077; printf '%s\n' "${SAMPLE_CONSOLE_PASSWORD:-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')}" > "$console_password_file")
fi
(umask 077; printf 'AS_ADMIN_USERPASSWORD=%s\n' "$(cat "$console_password_file")" > "$run/console-user.asadmin-password")
# The adapter first: a WAR deployed before the .rar never activates its message-driven bean.
printf 'deploy %s\ndeploy %s\ncreate-file-user --groups sqlqueue-admin --passwordfile %s sample-admin\ndeploy %s\n' \
  "$PWD/$run/sqlqueue-adapter.rar" "$PWD/$run/sample.war" "$PWD/$run/console-user.asadmin-password" \
  "$PWD/$run/sqlqueue-console.war" > "$run/postboot.asadmin"

echo "starting Payara Micro on 127.0.0.1:$port (log: $run/micro.log) ..."
java -Xmx1g -XX:TieredStopAtLevel=1 -Djava.io.tmpdir="$PWD/$run/tmp" -jar "$run/payara-micro.jar" \
  --nohazelcast --disablephonehome --port "$port" "${libs[@]}" \
  --prebootcommandfile "$run/preboot.asadmin" --postbootcommandfile "$run/postboot.asadmin" \
  > "$run/micro.log" 2>&1 &
micro=$!
trap 'kill $micro 2>/dev/null; wait $micro 2>/dev/null || true; echo "stopped"' EXIT

field() { sed -E "s/.*\"$1\":(-?[0-9.]+).*/\1/" <<<"$2"; }
status() { curl -s -m 10 "$base/status"; }

for _ in $(seq 1 120); do
  if status | grep -q '"sent"'; then break; fi
  kill -0 $micro 2>/dev/null || { echo "Payara Micro stopped; see $run/micro.log"; tail -20 "$run/micro.log"; exit 1; }
  sleep 1
done
status | grep -q '"sent"' || { echo "the sample did not come up; see $run/micro.log"; exit 1; }
echo "live page: $live (open it now to watch the orders go through)"
echo "dead-letter console: http://127.0.0.1:$port/sqlqueue-console/ (user sample-admin, password in $console_password_file)"

before=$(status)
start=$(date +%s%N)
echo "placing $count orders ($invalid invalid) ..."
placed=0
bad_left=$invalid
while (( placed < count )); do
  n=$(( count - placed < 1000 ? count - placed : 1000 ))
  bad=$(( bad_left < n ? bad_left : n ))
  bad_left=$(( bad_left - bad ))
  answer=$(curl -s -m 600 -w '\n%{http_code}' -X POST "$base?count=$n&invalid=$bad")
  if [ "${answer##*$'\n'}" != 200 ]; then
    echo "the sample refused the orders: ${answer%$'\n'*}"; exit 1
  fi
  placed=$(( placed + n ))
  echo "  placed $placed of $count"
done
deadline=$(( $(date +%s) + 600 ))
orders_done=
# One line per bean, printed only when its figures changed: the ordered ledger drains after the queue.
declare -A shown=()
show_if_changed() { if [ "${shown[$1]:-}" != "$2" ]; then echo "$2"; shown[$1]=$2; fi; }
ms() { LC_ALL=C printf '%.1f' "$(field "$1" "$s")"; }
while :; do
  s=$(status)
  processed=$(( $(field processed "$s") - $(field processed "$before") ))
  dead=$(( $(field deadLettered "$s") - $(field deadLettered "$before") ))
  ledger=$(( $(field ledger "$s") - $(field ledger "$before") ))
  large=$(( $(field largeOrders "$s") - $(field largeOrders "$before") ))
  show_if_changed orders "  orders:       processed $processed of $count, dead-lettered $dead, pending $(field pending "$s"),"\
" in flight $(field inFlight "$s"); enqueue->onMessage p50 $(ms latencyP50Ms) ms, p99 $(ms latencyP99Ms) ms"
  show_if_changed ledger "  ledger:       $ledger of $count entries in order per customer, $(field ledgerPending "$s") waiting,"\
" $(field ledgerOutOfOrder "$s") out of order"
  show_if_changed large "  large orders: $large"
  if [ -z "$orders_done" ] && (( processed + dead >= count )); then orders_done=$(date +%s%N); fi
  if [ -n "$orders_done" ] && (( ledger >= count )) || (( $(date +%s) > deadline )); then break; fi
  sleep 1
done
rate=$(awk -v n="$processed" -v ns="$(( ${orders_done:-$(date +%s%N)} - start ))" 'BEGIN { printf "%d", n / (ns / 1e9) }')
echo "SAMPLE sent=$count processed=$processed duplicates=$(field duplicates "$s") dead_lettered=$dead rate=$rate/s" \
  "ledger=$ledger ledger_out_of_order=$(field ledgerOutOfOrder "$s") large_orders=$large"

echo "next: $live charts the figures; GET $base/status for the counts, POST $base?count=N to place more;"
echo "      the server's log is $run/micro.log; README.md explains the figures and the properties"
if [ "${SAMPLE_EXIT:-0}" = 1 ]; then exit 0; fi
echo "serving until Ctrl-C"
wait $micro
