"""The AWS calls tests/interop/polaris_standin.py makes to vend storage credentials, with the standard
library only: AWS Signature Version 4 over urllib, against the moto server of tests/interop/s3_server.sh
(IAM roles and their inline policies, STS AssumeRole, S3 CreateBucket)."""
import datetime
import hashlib
import hmac
import json
import re
import urllib.error
import urllib.parse
import urllib.request

REGION = "us-east-1"
ACCOUNT = "123456789012"  # moto's default account


def _hmac(key, msg):
    return hmac.new(key, msg.encode(), hashlib.sha256).digest()


class Aws:
    def __init__(self, endpoint, key_id, secret):
        self.endpoint = endpoint.rstrip("/")
        self._key_id = key_id
        self._secret = secret

    def _send(self, service, method, path, body=b"", content_type=None):
        url = urllib.parse.urlsplit(self.endpoint + path)
        now = datetime.datetime.now(datetime.timezone.utc)
        amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
        payload_hash = hashlib.sha256(body).hexdigest()
        headers = {"host": url.netloc, "x-amz-date": amz_date, "x-amz-content-sha256": payload_hash}
        if content_type:
            headers["content-type"] = content_type
        signed = ";".join(sorted(headers))
        canonical = "\n".join([method, urllib.parse.quote(url.path or "/"), url.query,
                               "".join(f"{k}:{headers[k]}\n" for k in sorted(headers)), signed, payload_hash])
        scope = f"{day}/{REGION}/{service}/aws4_request"
        to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
        key = _hmac(_hmac(_hmac(_hmac(("AWS4" + self._secret).encode(), day), REGION), service), "aws4_request")
        signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
        headers["authorization"] = (f"AWS4-HMAC-SHA256 Credential={self._key_id}/{scope}, "
                                    f"SignedHeaders={signed}, Signature={signature}")
        request = urllib.request.Request(url.geturl(), data=body if method != "GET" else None, method=method,
                                         headers={k: v for k, v in headers.items() if k != "host"})
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return reply.status, reply.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def _query(self, service, action, params):
        form = urllib.parse.urlencode(dict(params, Action=action, Version=(
            "2011-06-15" if service == "sts" else "2010-05-08")))
        status, body = self._send(service, "POST", "/", form.encode(), "application/x-www-form-urlencoded")
        if status != 200:
            raise RuntimeError(f"{service} {action} answered {status}: {body[:300]}")
        return body

    def ensure_bucket(self, bucket):
        status, body = self._send("s3", "PUT", "/" + bucket)
        if status not in (200, 409):
            raise RuntimeError(f"CreateBucket {bucket} answered {status}: {body[:300]}")

    def put_role(self, name, policy):
        self._query("iam", "CreateRole", {"RoleName": name, "AssumeRolePolicyDocument": json.dumps({
            "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": "*"},
                                                    "Action": "sts:AssumeRole"}]})})
        self._query("iam", "PutRolePolicy", {"RoleName": name, "PolicyName": "vended",
                                             "PolicyDocument": json.dumps(policy)})
        return f"arn:aws:iam::{ACCOUNT}:role/{name}"

    def revoke_role(self, name):
        self._query("iam", "DeleteRolePolicy", {"RoleName": name, "PolicyName": "vended"})

    def assume_role(self, arn, session):
        body = self._query("sts", "AssumeRole", {"RoleArn": arn, "RoleSessionName": session,
                                                 "DurationSeconds": "900"})
        field = lambda name: re.search(f"<{name}>([^<]*)</{name}>", body).group(1)  # noqa: E731
        return field("AccessKeyId"), field("SecretAccessKey"), field("SessionToken")
