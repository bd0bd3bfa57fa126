#!/usr/bin/env python3
"""Checks ports/fusejit/vcpkg.json: vcpkg's manifest schema, then the rules for a port; every bad manifest must fail.

Usage: validate_manifest.py SCHEMA PORT_DIR VERSION_HEADER BAD_MANIFEST_DIR

The schema (vcpkg.schema.json beside this file) is JSON Schema draft 7, checked with the
jsonschema module (Debian's python3-jsonschema). The port rules are what the schema cannot say:
a port's manifest names the port (its directory) and has exactly one version, and fusejit's
version is the one in include/fusejit/version.hpp. Each file in BAD_MANIFEST_DIR breaks one rule
and must be rejected for it (its "$expect" text appears in a reported problem), which shows that
each check can fail.
Exit status: 0 all as expected, 1 a check went wrong, 77 jsonschema is not installed (skip).
"""
import json
import os
import re
import sys

try:
    import jsonschema
except ImportError:
    print("python3-jsonschema is not installed: the manifest check is skipped")
    sys.exit(77)

VERSION_FIELDS = ("version", "version-semver", "version-date", "version-string")


def problems(manifest, validator, port_name, version):
    """Every reason `manifest` is not a valid vcpkg.json for the port; empty when it is."""
    found = [f"schema: {'/'.join(map(str, e.absolute_path)) or '(top)'}: [{e.validator}] {e.message}"
             for e in validator.iter_errors(manifest)]
    if isinstance(manifest, dict):
        if manifest.get("name") != port_name:
            found.append(f"port: name {manifest.get('name')!r} is not the port's directory {port_name!r}")
        versions = [f for f in VERSION_FIELDS if f in manifest]
        if len(versions) != 1:
            found.append(f"port: needs exactly one of {', '.join(VERSION_FIELDS)}; has {versions}")
        elif manifest[versions[0]] != version:
            found.append(f"port: version {manifest[versions[0]]!r} is not version.hpp's {version!r}")
    return found


def main():
    schema_path, port_dir, header_path, bad_dir = sys.argv[1:5]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    with open(header_path, encoding="utf-8") as f:
        match = re.search(r'^#define FUSEJIT_VERSION "([0-9.]+)"', f.read(), re.M)
    if not match:
        print(f"no FUSEJIT_VERSION in {header_path}")
        return 1
    version = match.group(1)
    port_name = os.path.basename(os.path.normpath(port_dir))

    ok = True
    manifest_path = os.path.join(port_dir, "vcpkg.json")
    with open(manifest_path, encoding="utf-8") as f:
        found = problems(json.load(f), validator, port_name, version)
    if found:
        ok = False
        print(f"FAIL {manifest_path}:\n  " + "\n  ".join(found))
    else:
        print(f"ok   {manifest_path} (version {version})")

    bad = sorted(n for n in os.listdir(bad_dir) if n.endswith(".json"))
    if not bad:
        print(f"FAIL no bad manifests in {bad_dir}")
        ok = False
    for name in bad:
        with open(os.path.join(bad_dir, name), encoding="utf-8") as f:
            found = problems(json.load(f), validator, port_name, version)
        with open(os.path.join(bad_dir, name), encoding="utf-8") as f:
            expect = json.load(f).get("$expect", "")
        hits = [p for p in found if expect and expect in p]
        if hits:
            print(f"ok   {name} rejected: {hits[0]}")
        else:
            ok = False
            print(f"FAIL {name} not rejected for {expect!r}; problems: {found}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
