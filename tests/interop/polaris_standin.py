"""A stand-in for Apache Polaris in the tests (Polaris 1.8.0 cannot run here: docs/iceberg_s3.md): what
Polaris adds on top of Iceberg's REST protocol, in front of Iceberg's RESTCatalogServer (the catalog
itself: tables, commits, metadata files in s3://), standard library only:

  - OAuth2 client credentials at POST /api/catalog/v1/oauth/tokens: principals with a client id and
    secret; bearer tokens that expire after POLARIS_TOKEN_TTL_SECONDS (so a client's refresh before
    expiry is exercised); a missing, unknown or expired token gets 401;
  - a subset of Polaris's management API (/api/management/v1: catalogs, principals, principal roles,
    catalog roles, grants), for the root principal only;
  - Polaris's privileges (TABLE_CREATE, TABLE_LIST, TABLE_READ_DATA, TABLE_WRITE_DATA, TABLE_DROP,
    NAMESPACE_LIST, NAMESPACE_READ_PROPERTIES, ...) granted to catalog roles on the catalog or a namespace
    (and what it contains), checked per Iceberg REST operation under Polaris's operation names; a refusal
    is a 403 with Iceberg's error JSON and Polaris's wording;
  - 'X-Iceberg-Access-Delegation: vended-credentials' on loadTable and createTable: per-table storage
    credentials (config s3.access-key-id / s3.secret-access-key / s3.session-token /
    s3.session-token-expires-at-ms, and the same as 'storage-credentials' for the table's location) from
    STS AssumeRole on the S3 server of a role whose policy covers only the table's location (read-only
    without TABLE_WRITE_DATA), valid for POLARIS_VENDED_TTL_SECONDS: at expiry the role's policy is
    deleted, so expired credentials really stop working. The catalog's own storage keys never leave it.

Environment: ICEBERG_REST_URI and ICEBERG_REST_WAREHOUSE (the upstream server and its warehouse, from
rest_catalog_server.sh), S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY (from s3_server.sh),
POLARIS_ROOT_CLIENT_ID, POLARIS_ROOT_CLIENT_SECRET (the root principal, as Polaris's bootstrap
credentials), POLARIS_PORT.

GET /standin/stats (no auth) answers what the tests check: tokens issued per principal, credentials
vended per table, expired tokens refused, refused operations, every secret it issued (tokens, vended
secret keys and session tokens, for the tests to check that none leaks), and when each commit adding a
snapshot completed, with its checkpoint id.

Usage: polaris_standin.py  (tests/interop/polaris_server.sh starts it)
"""
import itertools
import json
import os
import secrets
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from polaris_aws import Aws
from polaris_privileges import Grants, required_privileges

UPSTREAM = os.environ["ICEBERG_REST_URI"].rstrip("/")
WAREHOUSE = os.environ["ICEBERG_REST_WAREHOUSE"].rstrip("/")
TOKEN_TTL = int(os.environ.get("POLARIS_TOKEN_TTL_SECONDS", "3600"))
VENDED_TTL = float(os.environ.get("POLARIS_VENDED_TTL_SECONDS", "3600"))
ROOT = "root"
# Storage keys of the upstream server (and ours): never relayed to a client.
HIDDEN_PREFIXES = ("s3.", "client.", "adls.", "gcs.", "io-impl")


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.clients = {os.environ["POLARIS_ROOT_CLIENT_ID"]: (ROOT, os.environ["POLARIS_ROOT_CLIENT_SECRET"])}
        self.tokens = {}  # token -> (principal, expires_at)
        self.catalogs = {}  # name -> properties
        self.principals = {ROOT: set()}  # name -> principal roles
        self.principal_roles = {}  # name -> {(catalog, catalog role)}
        self.grants = Grants()
        self.stats = {"tokens": {}, "vended": {}, "expired_tokens": 0, "revoked": 0, "denied": [],
                      "issued_secrets": [], "commits": []}
        self.roles = itertools.count(1)


STATE = State()
AWS = Aws(os.environ["S3_ENDPOINT"], os.environ["S3_ACCESS_KEY_ID"], os.environ["S3_SECRET_ACCESS_KEY"])


def error(status, type_, message):
    return status, {"error": {"message": message, "type": type_, "code": status}}


def forbidden(principal, op, catalog):
    with STATE.lock:
        roles = sorted(STATE.principals.get(principal, ()))
        via = sorted(set(roles) | {cr for r in roles for (c, cr) in STATE.principal_roles.get(r, ()) if c == catalog})
    with STATE.lock:
        STATE.stats["denied"].append(op)
    return error(403, "ForbiddenException",
                 f"Principal '{principal}' with activated PrincipalRoles '[]' and activated grants via "
                 f"'[{', '.join(via)}]' is not authorized for op {op}")


def vend(table_location, write):
    """Storage credentials for one table's location: a role whose policy covers that location only."""
    bucket, _, path = table_location[len("s3://"):].partition("/")
    actions = ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload",
               "s3:ListMultipartUploadParts"] if write else ["s3:GetObject"]
    policy = {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": actions, "Resource": f"arn:aws:s3:::{bucket}/{path}/*"},
        {"Effect": "Allow", "Action": ["s3:ListBucket", "s3:ListBucketMultipartUploads"],
         "Resource": f"arn:aws:s3:::{bucket}"}]}
    name = f"polaris-vended-{next(STATE.roles)}"
    key_id, secret, token = AWS.assume_role(AWS.put_role(name, policy), name)
    expires_at = time.time() + VENDED_TTL

    def revoke():
        AWS.revoke_role(name)
        with STATE.lock:
            STATE.stats["revoked"] += 1
    timer = threading.Timer(VENDED_TTL, revoke)
    timer.daemon = True
    timer.start()
    with STATE.lock:
        STATE.stats["vended"][table_location] = STATE.stats["vended"].get(table_location, 0) + 1
        STATE.stats["issued_secrets"] += [secret, token]
    return {"s3.access-key-id": key_id, "s3.secret-access-key": secret, "s3.session-token": token,
            "s3.session-token-expires-at-ms": str(int(expires_at * 1000)),
            "s3.endpoint": AWS.endpoint, "s3.path-style-access": "true", "client.region": "us-east-1"}


def record_commit(table, body):
    """Notes when a commit that adds a snapshot completed, with the snapshot's checkpoint id (for
    bench/iceberg/checkpoint_commit_latency.py)."""
    for update in json.loads(body).get("updates", []):
        summary = update.get("snapshot", {}).get("summary", {}) if update.get("action") == "add-snapshot" else {}
        if "flink.max-committed-checkpoint-id" in summary:
            with STATE.lock:
                STATE.stats["commits"].append({"table": ".".join(table[1]) + "." + table[2],
                                               "checkpoint": int(summary["flink.max-committed-checkpoint-id"]),
                                               "done_ms": time.time() * 1000})


def upstream(method, path, body, headers):
    request = urllib.request.Request(UPSTREAM + path, data=body if body else None, method=method,
                                     headers={k: v for k, v in headers.items()
                                              if k.lower() in ("content-type", "accept")})
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def strip_hidden(config):
    return {k: v for k, v in (config or {}).items() if not k.startswith(HIDDEN_PREFIXES)}


def catalog_call(principal, method, catalog, rest, query, body, headers):
    """An Iceberg REST call on `catalog` (path `rest` after /v1/{prefix}/), authorized, then relayed."""
    if catalog not in STATE.catalogs:
        return error(404, "NotFoundException", f"Unable to find warehouse {catalog}")
    delegated = headers.get("X-Iceberg-Access-Delegation", "").lower() == "vended-credentials"
    op, target, need = required_privileges(method, rest, query, delegated)
    write = True
    if principal != ROOT:
        with STATE.lock:
            held = STATE.grants.held(STATE.principals[principal], STATE.principal_roles, catalog, target)
        if op == "LOAD_TABLE_WITH_WRITE_DELEGATION" and not need <= held:
            op, need, write = "LOAD_TABLE_WITH_READ_DELEGATION", {"TABLE_READ_DATA"}, False
        if not need <= held:
            return forbidden(principal, op, catalog)
    status, raw = upstream(method, "/v1/" + rest + (("?" + query) if query else ""), body, headers)
    if op == "UPDATE_TABLE" and status == 200:
        record_commit(target, body)
    if not raw:
        return status, None
    try:
        reply = json.loads(raw)
    except ValueError:
        return status, raw
    if isinstance(reply, dict) and "metadata" in reply:
        reply["config"] = strip_hidden(reply.get("config"))
        reply.pop("storage-credentials", None)
        if delegated and status == 200:
            location = reply["metadata"]["location"]
            creds = vend(location, write)
            reply["config"].update(creds)
            reply["storage-credentials"] = [{"prefix": location, "config": creds}]
    return status, reply


def management_call(principal, method, parts, body):
    if principal != ROOT:
        return error(403, "ForbiddenException",
                     f"Principal '{principal}' with activated PrincipalRoles '[]' and activated grants via "
                     f"'[]' is not authorized for op {method}_{'_'.join(parts[:1]).upper()}")
    data = json.loads(body) if body else {}
    with STATE.lock:
        if method == "POST" and parts == ["catalogs"]:
            c = data["catalog"]
            base = c.get("properties", {}).get("default-base-location", "").rstrip("/")
            if base != WAREHOUSE:
                return error(400, "BadRequestException", f"the stand-in serves one location, {WAREHOUSE}")
            STATE.catalogs[c["name"]] = c
            return 201, {"catalog": c}
        if method == "POST" and parts == ["principals"]:
            name = data["principal"]["name"]
            client_id, secret = secrets.token_hex(8), secrets.token_hex(16)
            STATE.principals[name] = set()
            STATE.clients[client_id] = (name, secret)
            return 201, {"principal": {"name": name, "clientId": client_id},
                         "credentials": {"clientId": client_id, "clientSecret": secret}}
        if method == "POST" and parts == ["principal-roles"]:
            STATE.principal_roles[data["principalRole"]["name"]] = set()
            return 201, None
        if method == "PUT" and len(parts) == 3 and parts[0] == "principals" and parts[2] == "principal-roles":
            STATE.principals[parts[1]].add(data["principalRole"]["name"])
            return 201, None
        if method == "POST" and len(parts) == 3 and parts[0] == "catalogs" and parts[2] == "catalog-roles":
            STATE.grants.add_role(parts[1], data["catalogRole"]["name"])
            return 201, None
        if method == "PUT" and len(parts) == 4 and parts[0] == "principal-roles" and parts[2] == "catalog-roles":
            STATE.principal_roles[parts[1]].add((parts[3], data["catalogRole"]["name"]))
            return 201, None
        if method == "PUT" and len(parts) == 5 and parts[0] == "catalogs" and parts[4] == "grants":
            g = data["grant"]
            STATE.grants.grant(parts[1], parts[3], g["type"], g.get("namespace"), g.get("tableName"),
                               g["privilege"])
            return 201, None
    return error(404, "NotFoundException", f"no such management endpoint: {method} /{'/'.join(parts)}")


def token_call(body, headers):
    form = dict(urllib.parse.parse_qsl(body.decode()))
    if form.get("grant_type") != "client_credentials":
        return 400, {"error": "unsupported_grant_type", "error_description": "The grant type is invalid"}
    client = STATE.clients.get(form.get("client_id", ""))
    if client is None or not secrets.compare_digest(client[1], form.get("client_secret", "")):
        return 401, {"error": "unauthorized_client", "error_description": "The client is not authorized"}
    token = secrets.token_urlsafe(24)
    with STATE.lock:
        STATE.tokens[token] = (client[0], time.time() + TOKEN_TTL)
        STATE.stats["tokens"][client[0]] = STATE.stats["tokens"].get(client[0], 0) + 1
        STATE.stats["issued_secrets"].append(token)
    return 200, {"access_token": token, "token_type": "bearer", "expires_in": TOKEN_TTL,
                 "issued_token_type": "urn:ietf:params:oauth:token-type:access_token"}


def authenticate(headers):
    auth = headers.get("Authorization", "")
    if not auth.startswith("Bearer "):
        return None
    with STATE.lock:
        entry = STATE.tokens.get(auth[len("Bearer "):])
        if entry and entry[1] < time.time():
            STATE.stats["expired_tokens"] += 1
            return None
    return entry[0] if entry else None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # no tokens or secrets: method, path and status only
        sys.stderr.write("polaris-standin: " + (fmt % args) + "\n")

    def handle_any(self):
        url = urllib.parse.urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        status, reply = self.route(url.path.rstrip("/").split("/")[1:], url.query, body)
        raw = reply if isinstance(reply, bytes) else (json.dumps(reply).encode() if reply is not None else b"")
        self.send_response(status)
        if raw:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        if raw and self.command != "HEAD":
            self.wfile.write(raw)

    def route(self, parts, query, body):
        if parts == ["q", "health"]:
            return 200, {"status": "UP"}
        if parts == ["standin", "stats"]:
            with STATE.lock:
                return 200, STATE.stats
        if parts == ["api", "catalog", "v1", "oauth", "tokens"] and self.command == "POST":
            return token_call(body, self.headers)
        principal = authenticate(self.headers)
        if principal is None:
            return error(401, "NotAuthorizedException", "Unauthorized")
        if parts[:3] == ["api", "management", "v1"]:
            return management_call(principal, self.command, [urllib.parse.unquote(p) for p in parts[3:]], body)
        if parts[:4] == ["api", "catalog", "v1", "config"]:
            catalog = dict(urllib.parse.parse_qsl(query)).get("warehouse", "")
            if catalog not in STATE.catalogs:
                return error(404, "NotFoundException", f"Unable to find warehouse {catalog}")
            return 200, {"defaults": {"default-base-location": WAREHOUSE}, "overrides": {"prefix": catalog}}
        if parts[:3] == ["api", "catalog", "v1"] and len(parts) > 4:
            return catalog_call(principal, self.command, urllib.parse.unquote(parts[3]), "/".join(parts[4:]),
                                query, body, self.headers)
        return error(404, "NotFoundException", f"no such endpoint: {self.command} /{'/'.join(parts)}")

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = handle_any


def main():
    bucket = WAREHOUSE[len("s3://"):].split("/", 1)[0]
    AWS.ensure_bucket(bucket)
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ["POLARIS_PORT"])), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
