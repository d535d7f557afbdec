"""Serve the guide's toy harness, bent as asked, over stdio JSON lines.

Run as ``python toy_stdio.py source=PATH [option=value ...]`` with the options of
``toy.create``.  Run as a script, this directory is first on ``sys.path``, which is
how ``toy`` is found.
"""

import json
import sys

from toy import create


def main() -> None:
    options = dict(arg.split("=", 1) for arg in sys.argv[1:])
    harness = create(**options)
    for line in sys.stdin:
        sys.stdout.write(json.dumps(harness.request(json.loads(line))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
