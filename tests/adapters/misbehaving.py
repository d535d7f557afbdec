"""A deliberately badly behaved stdio harness, one misbehaviour per mode.

Run as ``python misbehaving.py MODE [ARG]``.  Each request line is answered (or not)
according to MODE; a well-formed answer is ``{"n": N, "pid": PID, "echo": REQUEST}``,
N counting the requests this process has seen.
"""

import json
import os
import signal
import subprocess
import sys
import time


def answer(n: int, request: object) -> None:
    sys.stdout.write(json.dumps({"n": n, "pid": os.getpid(), "echo": request}) + "\n")
    sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    arg = sys.argv[2] if len(sys.argv) > 2 else ""
    if mode == "exit":
        sys.stderr.write("toy harness: cannot open config file 'harness.toml'\n")
        sys.exit(3)
    if mode == "deaf":
        time.sleep(3600)
    if mode == "early":
        # Answers at once, before reading (or without ever reading) the request.
        answer(0, None)
        time.sleep(3600)
    if mode == "chatty-exit":
        for i in range(2000):
            sys.stderr.write(f"debug line {i} " + "." * 500 + "\n")
        sys.stderr.write("last words before exit\n")
        sys.exit(9)
    if mode == "wrapper":
        # Stands in for `npm run harness`: the real harness is a grandchild.
        sys.exit(subprocess.call([sys.executable, __file__, "hang-pid", arg]))
    for n, line in enumerate(sys.stdin, start=1):
        request = json.loads(line)
        if mode == "good":
            answer(n, request)
        elif mode == "garbage":
            sys.stdout.write("Traceback? no: \x1b[31mnot json\x1b[0m at all\n")
            sys.stdout.flush()
        elif mode == "array":
            sys.stdout.write("[1, 2, 3]\n")
            sys.stdout.flush()
        elif mode == "nan":
            sys.stdout.write('{"value": NaN}\n')
            sys.stdout.flush()
        elif mode == "blank":
            sys.stdout.write("\n   \r\n")
            sys.stdout.flush()
            sys.stdout.write(json.dumps({"n": n, "echo": request}) + "\r\n")
            sys.stdout.flush()
        elif mode == "hang-once":
            if not os.path.exists(arg):
                open(arg, "w").close()
                time.sleep(3600)
            answer(n, request)
        elif mode == "hang-pid":
            with open(arg + ".tmp", "w") as out:
                out.write(str(os.getpid()))
            os.replace(arg + ".tmp", arg)  # whole, or not at all
            time.sleep(3600)
        elif mode == "huge":
            size = int(arg)
            out = sys.stdout.buffer
            block = b"x" * (1024 * 1024)
            out.write(b'{"blob": "')
            for _ in range(size // len(block)):
                out.write(block)
            out.write(b'"}\n')
            out.flush()
        elif mode == "crash-second":
            if n == 2:
                sys.stderr.write("toy harness: segfault-ish failure on request 2\n")
                sys.stderr.flush()
                os._exit(7)
            answer(n, request)
        elif mode == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
        elif mode == "chatty":
            for i in range(2000):
                sys.stderr.write(f"debug line {i} " + "." * 500 + "\n")
            sys.stderr.write(f"last words of request {n}\n")
            sys.stderr.flush()
            answer(n, request)
        elif mode == "stray":
            # One write, so that both lines arrive together: no race with the next request.
            reply = json.dumps({"n": n, "pid": os.getpid(), "echo": request})
            sys.stdout.write(reply + '\n{"unasked": true}\n')
            sys.stdout.flush()
        elif mode == "stubborn":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            answer(n, request)
        elif mode == "deep":
            sys.stdout.write('{"n": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
            sys.stdout.flush()
        elif mode == "duplicate":
            sys.stdout.write('{"n": 1, "echo": {"cmd": "a", "cmd": "b"}}\n')
            sys.stdout.flush()
        elif mode == "exit-after-answer":
            answer(n, request)
            sys.exit(0)
        else:
            raise SystemExit(f"unknown mode {mode}")
    if mode == "stubborn":  # ignores the end of its input too
        time.sleep(3600)


if __name__ == "__main__":
    main()
