#!/usr/bin/env python3
"""A schema registry speaking the subset of the Confluent REST API that Flink's and Sluice's avro-confluent
formats use, in memory, on 127.0.0.1 (standard library only). It stands in for Apicurio Registry 3.3.3,
whose modules Maven Central does not serve (docs/formats.md, "The registry in the tests").

  confluent_registry.py PORT [USER:PASSWORD]

  POST /subjects/{subject}/versions  {"schema": "..."}  -> {"id": N}  (the same schema text gets the same id)
  POST /subjects/{subject}           {"schema": "..."}  -> {"subject", "id", "version", "schema"} or 404 40403
  GET  /schemas/ids/{id}                                -> {"schema": "..."} or 404 40403
  GET  /subjects                                        -> ["subject", ...]  (the readiness probe)

With USER:PASSWORD every request needs that HTTP basic authorization (else 401).
Schemas are compared by their parsed JSON (Confluent compares canonical forms; enough for the tests).
"""
import base64
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

LOCK = threading.Lock()
SCHEMAS = []      # id - 1 -> schema text
BY_CANON = {}     # canonical json -> id
SUBJECTS = {}     # subject -> [id, ...] (versions)
AUTH = None


def canon(text):
    return json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/vnd.schemaregistry.v1+json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def authorized(self):
        if AUTH is None:
            return True
        if self.headers.get("Authorization") == "Basic " + base64.b64encode(AUTH.encode()).decode():
            return True
        self.reply(401, {"error_code": 401, "message": "Unauthorized"})
        return False

    def do_GET(self):
        if not self.authorized():
            return
        parts = [unquote(p) for p in self.path.split("?")[0].strip("/").split("/")]
        with LOCK:
            if parts == ["subjects"]:
                return self.reply(200, sorted(SUBJECTS))
            if len(parts) == 3 and parts[:2] == ["schemas", "ids"] and parts[2].isdigit():
                i = int(parts[2])
                if 1 <= i <= len(SCHEMAS):
                    return self.reply(200, {"schema": SCHEMAS[i - 1]})
                return self.reply(404, {"error_code": 40403, "message": "Schema %d not found" % i})
        self.reply(404, {"error_code": 404, "message": "HTTP 404 Not Found"})

    def do_POST(self):
        if not self.authorized():
            return
        parts = [unquote(p) for p in self.path.split("?")[0].strip("/").split("/")]
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        try:
            key = canon(body["schema"])
        except (KeyError, ValueError) as e:
            return self.reply(422, {"error_code": 42201, "message": "Invalid schema: %s" % e})
        with LOCK:
            if len(parts) == 3 and parts[0] == "subjects" and parts[2] == "versions":
                if key not in BY_CANON:
                    SCHEMAS.append(body["schema"])
                    BY_CANON[key] = len(SCHEMAS)
                sid = BY_CANON[key]
                versions = SUBJECTS.setdefault(parts[1], [])
                if sid not in versions:
                    versions.append(sid)
                return self.reply(200, {"id": sid})
            if len(parts) == 2 and parts[0] == "subjects":
                sid = BY_CANON.get(key)
                versions = SUBJECTS.get(parts[1], [])
                if sid is None or sid not in versions:
                    return self.reply(404, {"error_code": 40403, "message": "Schema not found"})
                return self.reply(200, {"subject": parts[1], "id": sid, "version": versions.index(sid) + 1,
                                        "schema": SCHEMAS[sid - 1]})
        self.reply(404, {"error_code": 404, "message": "HTTP 404 Not Found"})


def main():
    global AUTH
    if len(sys.argv) > 2:
        AUTH = sys.argv[2]
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
