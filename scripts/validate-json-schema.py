#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema (any draft the schema declares).

Usage: validate-json-schema.py SCHEMA DOCUMENT...
Exit 0 when every document is valid, 1 when one is not, 3 when the jsonschema package is
missing (install it with: python3 -m pip install jsonschema).
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("the Python package 'jsonschema' is missing: python3 -m pip install jsonschema", file=sys.stderr)
    sys.exit(3)

schema_path, *documents = sys.argv[1:]
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
validator_class = jsonschema.validators.validator_for(schema)
validator_class.check_schema(schema)
validator = validator_class(schema)
failed = False
for path in documents:
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    for error in errors[:20]:
        location = "/" + "/".join(str(p) for p in error.absolute_path)
        print(f"{path}: {location}: {error.message[:300]}", file=sys.stderr)
    failed = failed or bool(errors)
sys.exit(1 if failed else 0)
