# SPDX-License-Identifier: GPL-2.0-only
# clickhouse.bash - ClickHouse servers for the fleet tests and bench: plain
# processes on loopback, each with its own config (root <yandex>, as 18.16
# wants; current versions read it too), data, tmp and log under one private
# directory, ports chosen free when started, a remote_servers cluster "fleet"
# of every server started, stopped by pid. Source it; needs tm_wait.
#
#   ch_init DIR            the directory every server lives in (removed by ch_cleanup)
#   ch_ports NAME          pick NAME's free loopback ports (all before the first start)
#   ch_start NAME          write NAME's config and start it; waits until it answers
#                          (it is SIGKILLed when the shell that started it ends)
#   ch_kill NAME           SIGKILL NAME and wait for it to be gone
#   ch_cleanup             kill every server started, remove DIR
#   ch_url NAME [DB]       http://127.0.0.1:PORT/DB
#   ch_q NAME SQL          run SQL on NAME over HTTP, the answer on stdout

CH_SERVER=$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)
CH_NAMES=()

ch_init() {
	CH_DIR=$1
	mkdir -p "$CH_DIR"
}

# A loopback TCP port nothing listens on now (the server's bind tells a race).
ch_free_port() {
	local p i
	for i in $(seq 1 100); do
		p=$((20000 + RANDOM % 40000))
		if [ -z "$(ss -Htln "sport = :$p" 2>/dev/null)" ] &&
		   [[ " ${CH_TAKEN:-} " != *" $p "* ]]; then
			CH_TAKEN="${CH_TAKEN:-} $p"
			echo "$p"
			return 0
		fi
	done
	echo "no free loopback port found" >&2
	return 1
}

ch_ports() {
	local name=$1 d="$CH_DIR/$1"
	mkdir -p "$d"
	ch_free_port >"$d/http_port" && ch_free_port >"$d/tcp_port" &&
		ch_free_port >"$d/inter_port" || return 1
	CH_NAMES+=("$name")
}

ch_port() { cat "$CH_DIR/$1/${2}_port"; }

ch_url() { echo "http://127.0.0.1:$(ch_port "$1" http)/${2:-default}"; }

ch_write_config() {
	local d="$CH_DIR/$1" n
	mkdir -p "$d/data" "$d/tmp" "$d/log" "$d/user_files"
	{
		echo '<?xml version="1.0"?>'
		echo '<yandex>'
		echo "  <logger><level>warning</level><log>$d/log/server.log</log>"
		echo "    <errorlog>$d/log/error.log</errorlog><size>10M</size><count>1</count></logger>"
		echo '  <listen_host>127.0.0.1</listen_host>'
		echo "  <http_port>$(ch_port "$1" http)</http_port>"
		echo "  <tcp_port>$(ch_port "$1" tcp)</tcp_port>"
		echo "  <interserver_http_port>$(ch_port "$1" inter)</interserver_http_port>"
		echo "  <path>$d/data/</path><tmp_path>$d/tmp/</tmp_path>"
		echo "  <user_files_path>$d/user_files/</user_files_path>"
		echo "  <format_schema_path>$d/data/format_schemas/</format_schema_path>"
		echo '  <mark_cache_size>67108864</mark_cache_size>'
		echo '  <uncompressed_cache_size>67108864</uncompressed_cache_size>'
		echo "  <users_config>$d/users.xml</users_config>"
		echo '  <default_profile>default</default_profile>'
		echo '  <default_database>default</default_database>'
		echo '  <remote_servers><fleet>'
		for n in "${CH_NAMES[@]}"; do
			echo "    <shard><replica><host>127.0.0.1</host><port>$(ch_port "$n" tcp)</port></replica></shard>"
		done
		echo '  </fleet></remote_servers>'
		echo '</yandex>'
	} >"$d/config.xml"
	cat >"$d/users.xml" <<-EOF
	<?xml version="1.0"?>
	<yandex>
	  <profiles><default></default></profiles>
	  <users><default><password></password>
	    <networks><ip>127.0.0.1</ip></networks>
	    <profile>default</profile><quota>default</quota></default></users>
	  <quotas><default><interval><duration>3600</duration><queries>0</queries>
	    <errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows>
	    <execution_time>0</execution_time></interval></default></quotas>
	</yandex>
	EOF
}

ch_ping() { curl -sf --max-time 2 "http://127.0.0.1:$(ch_port "$1" http)/ping" >/dev/null; }

ch_start() {
	local d="$CH_DIR/$1"
	ch_write_config "$1"
	# no descriptor of bats' own (3) may stay open in the server; and it dies
	# with the shell that started it, should that shell be killed first
	setpriv --pdeathsig KILL "$CH_SERVER" --config-file="$d/config.xml" \
		>"$d/log/stdout" 2>&1 3>&- 4>&- &
	echo $! >"$d/pid"
	# no job notice when it is killed; ch_kill waits on its pid
	disown
	tm_wait 30 "ClickHouse server $1 to answer" ch_ping "$1" || {
		cat "$d/log/stdout" "$d/log/error.log" >&2 2>/dev/null
		return 1
	}
}

ch_gone() { ! kill -0 "$1" 2>/dev/null; }

# SIGKILL: a test server is discarded (18.16 takes ~9 s to stop gracefully).
ch_kill() {
	local pidf="$CH_DIR/$1/pid" pid
	[ -f "$pidf" ] || return 0
	pid=$(cat "$pidf")
	kill -KILL "$pid" 2>/dev/null
	tm_wait 10 "ClickHouse server $1 (pid $pid) to go" ch_gone "$pid"
	rm -f "$pidf"
}

ch_cleanup() {
	local n
	[ -n "${CH_DIR:-}" ] || return 0
	for n in "${CH_NAMES[@]}"; do
		ch_kill "$n"
	done
	rm -rf "$CH_DIR"
}

ch_q() {
	curl -sS --max-time 60 "http://127.0.0.1:$(ch_port "$1" http)/" --data-binary "$2"
}
