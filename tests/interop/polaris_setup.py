"""The seed's Step 1 against a Polaris management API (tests/interop/polaris_server.sh's stand-in; the
same calls as Polaris's): as root, a catalog on POLARIS_WAREHOUSE_LOCATION, the namespace `stream`, a
principal for the job, a principal role and a catalog role holding only the job's privileges on
namespace `stream` (no drop). Prints the job's credential, '<client-id>:<secret>'.

With --metadata, prints instead the current metadata JSON of a table, loaded through the catalog as
root (examples/larkspur/report.sh reads snapshot summaries from it with LAKE=polaris).

Usage: polaris_setup.py [CATALOG [PRINCIPAL]]   (defaults: larkspur, sluice)
       polaris_setup.py --metadata CATALOG NAMESPACE TABLE
"""
import json
import os
import sys
import urllib.parse
import urllib.request

JOB_PRIVILEGES = ["TABLE_CREATE", "TABLE_LIST", "TABLE_READ_DATA", "TABLE_WRITE_DATA", "NAMESPACE_LIST",
                  "NAMESPACE_READ_PROPERTIES"]


def token(credential):
    client_id, secret = credential.split(":", 1)
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": client_id,
                                   "client_secret": secret, "scope": "PRINCIPAL_ROLE:ALL"}).encode()
    with urllib.request.urlopen(os.environ["POLARIS_URI"] + "/v1/oauth/tokens", form, timeout=30) as r:
        return json.load(r)["access_token"]


def call(bearer, method, url, body=None):
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                     method=method, headers={"Authorization": "Bearer " + bearer,
                                                             "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as r:
        raw = r.read()
        return json.loads(raw) if raw else None


def metadata(catalog, namespace, table):
    root = token(os.environ["POLARIS_ROOT_CREDENTIAL"])
    loaded = call(root, "GET", f"{os.environ['POLARIS_URI']}/v1/{catalog}/namespaces/{namespace}/tables/{table}")
    print(json.dumps(loaded["metadata"], indent=1))


def main():
    if sys.argv[1:2] == ["--metadata"]:
        metadata(*sys.argv[2:5])
        return
    catalog = sys.argv[1] if len(sys.argv) > 1 else "larkspur"
    principal = sys.argv[2] if len(sys.argv) > 2 else "sluice"
    mgmt = os.environ["POLARIS_MANAGEMENT_URI"]
    root = token(os.environ["POLARIS_ROOT_CREDENTIAL"])
    location = os.environ["POLARIS_WAREHOUSE_LOCATION"]
    call(root, "POST", f"{mgmt}/catalogs", {"catalog": {
        "name": catalog, "type": "INTERNAL", "properties": {"default-base-location": location},
        "storageConfigInfo": {"storageType": "S3", "allowedLocations": [location],
                              "roleArn": "arn:aws:iam::123456789012:role/polaris"}}})
    call(root, "POST", f"{os.environ['POLARIS_URI']}/v1/{catalog}/namespaces",
         {"namespace": ["stream"], "properties": {}})
    created = call(root, "POST", f"{mgmt}/principals", {"principal": {"name": principal}})
    call(root, "POST", f"{mgmt}/principal-roles", {"principalRole": {"name": f"{principal}_role"}})
    call(root, "PUT", f"{mgmt}/principals/{principal}/principal-roles", {"principalRole": {"name": f"{principal}_role"}})
    call(root, "POST", f"{mgmt}/catalogs/{catalog}/catalog-roles", {"catalogRole": {"name": "stream_writer"}})
    call(root, "PUT", f"{mgmt}/principal-roles/{principal}_role/catalog-roles/{catalog}",
         {"catalogRole": {"name": "stream_writer"}})
    for privilege in JOB_PRIVILEGES:
        call(root, "PUT", f"{mgmt}/catalogs/{catalog}/catalog-roles/stream_writer/grants",
             {"grant": {"type": "namespace", "namespace": ["stream"], "privilege": privilege}})
    credentials = created["credentials"]
    print(f"{credentials['clientId']}:{credentials['clientSecret']}")


if __name__ == "__main__":
    main()
