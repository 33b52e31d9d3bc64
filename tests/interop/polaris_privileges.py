"""Polaris's authorization model as tests/interop/polaris_standin.py applies it: which privileges each
Iceberg REST operation needs (under Polaris's operation names), which granted privileges imply which
(Polaris's privilege hierarchy: e.g. TABLE_WRITE_DATA implies TABLE_READ_DATA and TABLE_LIST), and
grants to catalog roles on a catalog, a namespace (and everything in it) or a table."""
import urllib.parse

_CATALOG = {"CATALOG_MANAGE_CONTENT", "CATALOG_MANAGE_METADATA"}
# required privilege -> the granted privileges that satisfy it
_IMPLIED_BY = {
    "NAMESPACE_LIST": _CATALOG | {"NAMESPACE_CREATE", "NAMESPACE_FULL_METADATA", "NAMESPACE_LIST",
                                  "NAMESPACE_READ_PROPERTIES", "NAMESPACE_WRITE_PROPERTIES"},
    "NAMESPACE_READ_PROPERTIES": _CATALOG | {"NAMESPACE_FULL_METADATA", "NAMESPACE_READ_PROPERTIES",
                                             "NAMESPACE_WRITE_PROPERTIES"},
    "NAMESPACE_CREATE": _CATALOG | {"NAMESPACE_CREATE", "NAMESPACE_FULL_METADATA"},
    "NAMESPACE_DROP": _CATALOG | {"NAMESPACE_DROP", "NAMESPACE_FULL_METADATA"},
    "NAMESPACE_WRITE_PROPERTIES": _CATALOG | {"NAMESPACE_FULL_METADATA", "NAMESPACE_WRITE_PROPERTIES"},
    "TABLE_LIST": _CATALOG | {"TABLE_CREATE", "TABLE_FULL_METADATA", "TABLE_LIST", "TABLE_READ_DATA",
                              "TABLE_READ_PROPERTIES", "TABLE_WRITE_DATA", "TABLE_WRITE_PROPERTIES"},
    "TABLE_CREATE": _CATALOG | {"TABLE_CREATE", "TABLE_FULL_METADATA"},
    "TABLE_DROP": _CATALOG | {"TABLE_DROP", "TABLE_FULL_METADATA"},
    "TABLE_READ_PROPERTIES": _CATALOG | {"TABLE_FULL_METADATA", "TABLE_READ_DATA", "TABLE_READ_PROPERTIES",
                                         "TABLE_WRITE_DATA", "TABLE_WRITE_PROPERTIES"},
    "TABLE_WRITE_PROPERTIES": _CATALOG | {"TABLE_FULL_METADATA", "TABLE_WRITE_DATA", "TABLE_WRITE_PROPERTIES"},
    "TABLE_READ_DATA": {"CATALOG_MANAGE_CONTENT", "TABLE_READ_DATA", "TABLE_WRITE_DATA"},
    "TABLE_WRITE_DATA": {"CATALOG_MANAGE_CONTENT", "TABLE_WRITE_DATA"},
}


def _namespace(segment):
    return tuple(urllib.parse.unquote(segment).split("\x1f"))


def required_privileges(method, rest, query, delegated):
    """(Polaris operation, target, privileges needed) of an Iceberg REST call; `rest` is the path after
    /v1/{prefix}/. A target is ("catalog",), ("namespace", ns) or ("table", ns, name)."""
    parts = rest.split("/")
    params = dict(urllib.parse.parse_qsl(query))
    catalog = ("catalog",)
    if parts == ["namespaces"]:
        if method == "GET":
            parent = params.get("parent")
            return "LIST_NAMESPACES", ("namespace", _namespace(parent)) if parent else catalog, {"NAMESPACE_LIST"}
        return "CREATE_NAMESPACE", catalog, {"NAMESPACE_CREATE"}
    if parts[0] == "namespaces" and len(parts) >= 2:
        ns = ("namespace", _namespace(parts[1]))
        if len(parts) == 2:
            return {"GET": ("LOAD_NAMESPACE_METADATA", ns, {"NAMESPACE_READ_PROPERTIES"}),
                    "HEAD": ("NAMESPACE_EXISTS", ns, {"NAMESPACE_LIST"}),
                    "DELETE": ("DROP_NAMESPACE", ns, {"NAMESPACE_DROP"})}[method]
        if parts[2] == "properties":
            return "UPDATE_NAMESPACE_PROPERTIES", ns, {"NAMESPACE_WRITE_PROPERTIES"}
        if parts[2] == "tables" and len(parts) == 3:
            if method == "GET":
                return "LIST_TABLES", ns, {"TABLE_LIST"}
            if delegated:
                return "CREATE_TABLE_DIRECT_WITH_WRITE_DELEGATION", ns, {"TABLE_CREATE", "TABLE_WRITE_DATA"}
            return "CREATE_TABLE_DIRECT", ns, {"TABLE_CREATE"}
        if parts[2] == "tables":
            table = ("table", ns[1], urllib.parse.unquote(parts[3]))
            if len(parts) > 4:
                return "REPORT_READ_METRICS", table, {"TABLE_READ_DATA"}
            if method == "GET":
                if delegated:
                    return "LOAD_TABLE_WITH_WRITE_DELEGATION", table, {"TABLE_WRITE_DATA"}
                return "LOAD_TABLE", table, {"TABLE_READ_PROPERTIES"}
            if method == "HEAD":
                return "TABLE_EXISTS", table, {"TABLE_LIST"}
            if method == "POST":
                return "UPDATE_TABLE", table, {"TABLE_WRITE_PROPERTIES"}
            if params.get("purgeRequested") == "true":
                return "DROP_TABLE_WITH_PURGE", table, {"TABLE_DROP", "TABLE_WRITE_DATA"}
            return "DROP_TABLE_WITHOUT_PURGE", table, {"TABLE_DROP"}
    if parts == ["tables", "rename"]:
        return "RENAME_TABLE", catalog, {"TABLE_DROP", "TABLE_CREATE"}
    return "COMMIT_TRANSACTION", catalog, {"TABLE_WRITE_PROPERTIES", "TABLE_CREATE"}


class Grants:
    """Privileges granted to catalog roles; not thread-safe (the stand-in holds its lock)."""

    def __init__(self):
        self._grants = {}  # (catalog, catalog role) -> [(securable, privilege)]

    def add_role(self, catalog, role):
        self._grants.setdefault((catalog, role), [])

    def grant(self, catalog, role, kind, namespace, table, privilege):
        if kind == "catalog":
            securable = ("catalog",)
        elif kind == "namespace":
            securable = ("namespace", tuple(namespace))
        else:
            securable = ("table", tuple(namespace), table)
        self._grants[(catalog, role)].append((securable, privilege))

    def held(self, principal_roles, catalog_roles_of, catalog, target):
        """The required privileges (keys of _IMPLIED_BY) the principal holds on `target`."""
        granted = set()
        for principal_role in principal_roles:
            for (c, role) in catalog_roles_of.get(principal_role, ()):
                if c != catalog:
                    continue
                for securable, privilege in self._grants.get((c, role), ()):
                    if _covers(securable, target):
                        granted.add(privilege)
        return {need for need, by in _IMPLIED_BY.items() if granted & by}


def _covers(securable, target):
    if securable[0] == "catalog":
        return True
    if target[0] == "catalog":
        return False
    if securable[0] == "namespace":
        ns = securable[1]
        return target[1][:len(ns)] == ns
    return target[0] == "table" and target[1:] == securable[1:]
