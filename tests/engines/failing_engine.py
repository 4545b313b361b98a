"""An engine process that fails every request but the handshake, for tests of ``check --engine``.

``python tests/engines/failing_engine.py`` declares everything (every Part, rule, term, decision and
action, and the optional ``deck`` request) and answers each ``start``, ``decision``, ``act``,
``observe``, ``log`` and ``deck`` with an internal error. It earns nothing: every scenario it is given
must come out an error, none passed (issue 27: the deck list scenarios once passed on any engine,
decided by the suite's own deck rules).
"""

from __future__ import annotations

import json
import sys


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        ident, op = request.get("id"), request.get("op")
        if op == "handshake":
            engine = {"name": "движок, который отказывает во всём (нарочно)", "version": "0.0.1"}
            answer = {"protocol": "1.1", "engine": engine, "capabilities": {"requests": ["deck"]}}
            reply: dict = {"id": ident, "result": answer}
        elif op == "close":
            reply = {"id": ident, "result": None}
        else:
            reply = {"id": ident, "error": {"kind": "engine", "message": f"{op}: нарочно отказываю"}}
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        if op == "close":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
