"""Parses napkin's OTLP/JSON payloads against the official OpenTelemetry
protobuf definitions (the `opentelemetry-proto` package), strictly.

Run by Scripts/otlp-schema-check, which installs the packages in a virtual
environment. Checks, for every payload:
  - every key is the field's JSON name (lowerCamelCase), and exists: an
    unknown or misspelt field is an error;
  - enums are integers; 64-bit integers are strings; trace and span ids are
    lowercase hex of 32 and 16 digits (the OTLP/JSON rules that differ from
    the plain proto3 JSON mapping);
  - the payload then parses with json_format.ParseDict(ignore_unknown_fields=False).
Payloads come from `napkin-inspect export --format otlp` of every example
trace and from a live `rib-house --bug retain-cycle` run sent to a receiver
on 127.0.0.1 (which stops by itself).
"""
import base64
import http.server
import json
import os
import re
import subprocess
import sys
import threading

from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

REQUESTS = {
    "resourceSpans": ExportTraceServiceRequest,
    "resourceLogs": ExportLogsServiceRequest,
    "resourceMetrics": ExportMetricsServiceRequest,
}
SIXTY_FOUR = {FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64,
              FieldDescriptor.TYPE_SFIXED64, FieldDescriptor.TYPE_SINT64}
ID_LENGTHS = {"trace_id": 32, "span_id": 16, "parent_span_id": 16}
HEX = re.compile(r"^[0-9a-f]*$")


def repeated(field):
    if hasattr(field, "is_repeated"):
        return field.is_repeated
    return field.label == FieldDescriptor.LABEL_REPEATED


def check(value, descriptor, path, errors):
    """Checks `value` (a dict) against `descriptor`; returns it with hex ids as base64 for json_format."""
    if not isinstance(value, dict):
        errors.append(f"{path}: expected an object")
        return value
    by_json = {f.json_name: f for f in descriptor.fields}
    out = {}
    for key, item in value.items():
        field = by_json.get(key)
        if field is None:
            errors.append(f"{path}.{key}: no such field in {descriptor.full_name} (or not its lowerCamelCase JSON name)")
            continue
        items = item if repeated(field) else [item]
        if repeated(field) and not isinstance(item, list):
            errors.append(f"{path}.{key}: a repeated field must be an array")
            continue
        converted = []
        for index, element in enumerate(items):
            where = f"{path}.{key}" + (f"[{index}]" if repeated(field) else "")
            if field.type == FieldDescriptor.TYPE_MESSAGE:
                converted.append(check(element, field.message_type, where, errors))
            elif field.type == FieldDescriptor.TYPE_ENUM:
                if not isinstance(element, int) or isinstance(element, bool):
                    errors.append(f"{where}: an enum must be written as an integer, got {element!r}")
                converted.append(element)
            elif field.type in SIXTY_FOUR:
                if not isinstance(element, str) or not re.match(r"^-?[0-9]+$", element):
                    errors.append(f"{where}: a 64-bit integer must be written as a decimal string, got {element!r}")
                converted.append(element)
            elif field.type == FieldDescriptor.TYPE_BYTES and field.name in ID_LENGTHS:
                length = ID_LENGTHS[field.name]
                if not isinstance(element, str) or len(element) != length or not HEX.match(element):
                    errors.append(f"{where}: must be {length} lowercase hex digits, got {element!r}")
                    converted.append("")
                else:
                    converted.append(base64.b64encode(bytes.fromhex(element)).decode())
            else:
                converted.append(element)
        out[key] = converted if repeated(field) else converted[0]
    return out


def parse(payload, source, errors):
    """Checks one payload (a JSON text); returns its signal."""
    try:
        value = json.loads(payload)
    except ValueError as error:
        errors.append(f"{source}: not JSON: {error}")
        return None
    kinds = [key for key in REQUESTS if key in value]
    if len(kinds) != 1:
        errors.append(f"{source}: not an OTLP export request (keys {sorted(value)})")
        return None
    request = REQUESTS[kinds[0]]()
    before = len(errors)
    converted = check(value, request.DESCRIPTOR, source, errors)
    if len(errors) == before:
        try:
            json_format.ParseDict(converted, request, ignore_unknown_fields=False)
        except json_format.ParseError as error:
            errors.append(f"{source}: {error}")
    return kinds[0]


class Receiver(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    payloads = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Receiver.payloads.append((self.path, body.decode("utf-8", "replace")))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


def main():
    products = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    errors = []
    counts = {}

    traces = os.path.join(root, "Examples", "traces")
    exported = subprocess.run([os.path.join(products, "napkin-inspect"), "export", "--format", "otlp", traces],
                              capture_output=True, text=True, timeout=300)
    if exported.returncode != 0:
        errors.append(f"napkin-inspect export failed ({exported.returncode}): {exported.stderr.strip()}")
    for number, line in enumerate(exported.stdout.splitlines(), 1):
        kind = parse(line, f"export line {number}", errors)
        counts[("export", kind)] = counts.get(("export", kind), 0) + 1

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    stopper = threading.Timer(180, server.shutdown)
    stopper.start()
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "NAPKIN_"))}
    environment["OTEL_EXPORTER_OTLP_ENDPOINT"] = f"http://127.0.0.1:{server.server_address[1]}"
    run = subprocess.run([os.path.join(products, "rib-house"), "--bug", "retain-cycle", "--quiet"],
                         env=environment, capture_output=True, text=True, timeout=120)
    server.shutdown()
    stopper.cancel()
    if run.returncode != 0:
        errors.append(f"rib-house failed ({run.returncode}): {run.stderr.strip()}")
    retainer_paths = 0
    for number, (path, body) in enumerate(Receiver.payloads, 1):
        kind = parse(body, f"rib-house request {number} ({path})", errors)
        counts[("rib-house", kind)] = counts.get(("rib-house", kind), 0) + 1
        if kind == "resourceLogs":
            retainer_paths += body.count("napkin.finding.retainer.paths")
    if retainer_paths == 0:
        errors.append("rib-house --bug retain-cycle: no log record carried napkin.finding.retainer.paths")

    for (source, kind), count in sorted(counts.items(), key=str):
        print(f"{source}: {count} {kind} payload(s)")
    for error in errors[:50]:
        print("error:", error, file=sys.stderr)
    if errors:
        print(f"otlp-schema-check: {len(errors)} error(s)", file=sys.stderr)
        return 1
    print("otlp-schema-check: every payload parses strictly against opentelemetry-proto")
    return 0


if __name__ == "__main__":
    sys.exit(main())
