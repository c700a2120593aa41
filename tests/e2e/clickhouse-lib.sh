# SPDX-License-Identifier: GPL-2.0-or-later
# A private clickhouse-server for tests and benchmarks (sourced): config,
# data and logs under $CH (in the caller's temp dir $T), listening on
# 127.0.0.1 only, on free ports, with modest memory; a one-shard cluster
# "fleet" pointing at itself for the Distributed table.  Never touches
# /etc/clickhouse-server's data.
#   ch_start      start it; returns 1 when it does not answer within 30 s
#   ch_stop       stop it (call from the caller's EXIT trap)
#   chq ARGS...   clickhouse-client against it
#   doc_block M   the fenced block after "<!-- M -->" in docs/fleet.md
: "${T:?}"
: "${SR_SOURCE_DIR:?}"
CH=$T/ch
CH_PID=

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

chq() {
	clickhouse-client --host 127.0.0.1 --port "$PORT" "$@"
}

ch_start() {
	mkdir -p "$CH/data" "$CH/tmp" "$CH/log" "$CH/user_files" "$CH/format_schemas"
	PORT=$(free_port)
	HTTP_PORT=$(free_port)
	cat >"$CH/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <logger><level>warning</level><log>$CH/log/server.log</log><errorlog>$CH/log/error.log</errorlog></logger>
    <listen_host>127.0.0.1</listen_host>
    <tcp_port>$PORT</tcp_port>
    <http_port>$HTTP_PORT</http_port>
    <path>$CH/data/</path>
    <tmp_path>$CH/tmp/</tmp_path>
    <user_files_path>$CH/user_files/</user_files_path>
    <format_schema_path>$CH/format_schemas/</format_schema_path>
    <users_config>$CH/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <max_connections>32</max_connections>
    <max_concurrent_queries>8</max_concurrent_queries>
    <mark_cache_size>67108864</mark_cache_size>
    <uncompressed_cache_size>67108864</uncompressed_cache_size>
    <mlock_executable>false</mlock_executable>
    <remote_servers>
        <fleet><shard><replica><host>127.0.0.1</host><port>$PORT</port></replica></shard></fleet>
    </remote_servers>
</yandex>
XML
	cat >"$CH/users.xml" <<'XML'
<?xml version="1.0"?>
<yandex>
    <profiles><default><max_memory_usage>1000000000</max_memory_usage><max_threads>2</max_threads></default></profiles>
    <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
    <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
XML
	clickhouse-server --config-file="$CH/config.xml" >"$CH/log/stdout" 2>&1 &
	CH_PID=$!
	for _ in $(seq 150); do
		chq --query "SELECT 1" >/dev/null 2>&1 && return 0
		kill -0 "$CH_PID" 2>/dev/null || break
		sleep 0.2
	done
	return 1
}

ch_stop() {
	if [ -n "$CH_PID" ]; then
		kill "$CH_PID" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$CH_PID" 2>/dev/null || break; sleep 0.2; done
		kill -9 "$CH_PID" 2>/dev/null
		wait "$CH_PID" 2>/dev/null
		CH_PID=
	fi
}

doc_block() {
	awk -v m="<!-- $1 -->" '$0 == m { on = 1; next } on && /^```/ { if (in_b) exit; in_b = 1; next } in_b { print }' \
		"$SR_SOURCE_DIR/docs/fleet.md"
}
