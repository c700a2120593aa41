#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Validate a JSON document (or each line of an NDJSON stream with --ndjson,
against the schema's decision definition) with Debian's python3-jsonschema."""
import json
import sys

import jsonschema

def main():
    ndjson = sys.argv[1] == "--ndjson"
    schema_path, doc_path = sys.argv[-2], sys.argv[-1]
    with open(schema_path) as f:
        schema = json.load(f)
    if ndjson:
        sub = dict(schema["$defs"]["decision"])
        sub["$defs"] = schema["$defs"]
        validator = jsonschema.Draft202012Validator(sub)
        with open(doc_path) as f:
            for n, line in enumerate(f, 1):
                for err in validator.iter_errors(json.loads(line)):
                    print(f"{doc_path}:{n}: {err.message}")
                    return 1
        return 0
    with open(doc_path) as f:
        doc = json.load(f)
    validator = jsonschema.Draft202012Validator(schema)
    errors = list(validator.iter_errors(doc))
    for err in errors[:10]:
        print(f"{doc_path}: {'/'.join(map(str, err.absolute_path))}: {err.message}")
    return 1 if errors else 0

if __name__ == "__main__":
    sys.exit(main())
