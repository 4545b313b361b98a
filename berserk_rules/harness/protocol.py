"""The engine as a process: the client side of the NDJSON protocol.

An :class:`EngineProcess` is an engine (``berserk-engine serve``, an engine in any language, or any
Python driver served by :mod:`berserk_rules.harness.host`) started once per pytest process, reused scenario
after scenario and restarted after a crash, with a per-request time limit. Scenarios reach it
through a checked driver (:class:`~berserk_rules.harness.checked.ProcessDriver`), which checks every
value that crosses the boundary against the schemas and adds the per-scenario time limit.

Whatever goes wrong on the engine's side — it exits or is killed by a signal, hangs, writes
something that is not a line of JSON, answers with a wrong id, breaks a schema, reports an
internal error — raises :class:`~berserk_rules.harness.driver.EngineFailure` naming the request, the
reason and the end of the engine's stderr: that scenario is an ``error``, every other scenario
runs on (in a fresh process if needed).

Whatever the engine's children do, nothing here waits for them: the engine runs in a process
group of its own, and stopping it kills the whole group; a grandchild that left the group
(``setsid``) and still holds the engine's stdout or stderr open holds nothing up — the engine's own
exit tells that it died (not the end of its output), and the thread that reads its stderr is told
to stop instead of waiting for an end of file that never comes. Of the stderr only a tail of
:data:`STDERR_BYTES` bytes is kept, however long its lines.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import Any

from berserk_rules.harness import contract, messages, replies
from berserk_rules.harness.driver import EngineFailure, Rejected, SetupRejected, Unsupported

PROTOCOL = "1.1"  # 1.1: the optional request deck (capabilities.requests)
CLIENT = {"name": "berserk-rules", "version": "0+checkout"}  # the version: set from the package below


def _client_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("berserk-rules")
    except PackageNotFoundError:  # a checkout on the path, not installed
        return CLIENT["version"]


CLIENT["version"] = _client_version()
DEFAULT_TIMEOUT = 5.0  # seconds per request
DEFAULT_SCENARIO_TIMEOUT = 20.0  # seconds per scenario
STARTUP_TIMEOUT = 15.0  # seconds for a starting engine's handshake (at least --timeout)
MAX_LINE = 64 * 1024 * 1024
STDERR_BYTES = 64 * 1024  # the tail of the engine's stderr that is kept
STDERR_LINES = 40  # of it, the lines a failure message shows
STDERR_LAST_READ = 1 << 20  # at most this much is still read from stderr once the engine is stopped
STDERR_JOIN = 2.0  # seconds to wait for the stderr reader to finish after the engine is stopped
EXIT_POLL = 0.2  # seconds between looks at whether the engine has exited while waiting for an answer
STARTUP_ATTEMPTS = 3  # consecutive failed starts after which the engine is not started again

# the schema of each message's reply, from the table of messages
RESULT_SCHEMAS = {m.name: m.reply for m in messages.MESSAGES}


def parse_seconds(value: str, option: str) -> float:
    """A positive, finite number of seconds given to ``option``; :class:`UserError` otherwise."""
    import math

    from berserk_rules.errors import UserError

    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not math.isfinite(seconds) or seconds <= 0:
        raise UserError(f"{option} {value}: ожидается положительное число секунд")
    return seconds


def describe_exit(code: int | None) -> str:
    """«код выхода 3» or «сигнал SIGSEGV (11)» for a process's return code."""
    if code is None:
        return "процесс ещё идёт"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "неизвестный сигнал"
        return f"сигнал {name} ({-code})"
    return f"код выхода {code}"


def shown_call(op: str, payload: dict[str, Any]) -> str:
    """``act(«А», {"type": "pass"})`` — the request as the messages name it."""
    if op == messages.ACT.name:
        action = json.dumps(payload.get("action"), ensure_ascii=False)
        action = action if len(action) <= 100 else action[:97] + "…"
        return f"act(«{payload.get('player')}», {action})"
    if op in (messages.OBSERVE.name, messages.LOG.name):
        viewer = payload.get("viewer")
        return f"{op}({'судья' if viewer is None else '«' + str(viewer) + '»'})"
    return f"{op}()" if op != messages.START.name else f"{op}(позиция)"


class _Died(Exception):
    pass


class StderrTail:
    """The last :data:`STDERR_BYTES` bytes an engine writes to stderr, read by a thread of its own.

    The thread reads the pipe (non-blocking, woken by ``select``) until its end of file, or until
    :meth:`finish` asks it to stop: then it takes what the pipe holds at that moment (at most
    :data:`STDERR_LAST_READ` bytes) and closes it. A grandchild of the engine that holds the pipe
    open for ever therefore holds up neither the reader nor whoever stops the engine.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self.data = bytearray()
        self.cut = False  # bytes were dropped from the front
        self.lock = threading.Lock()
        self.wake_r, self.wake_w = os.pipe()
        self.thread = threading.Thread(target=self._run, name="engine-stderr", daemon=True)
        self.thread.start()

    def _take(self, budget: int) -> bool:
        """Read what the pipe holds now (up to ``budget`` bytes); False at its end of file."""
        while budget > 0:
            try:
                chunk = os.read(self.fd, min(budget, 1 << 16))
            except BlockingIOError:
                return True
            if not chunk:
                return False
            budget -= len(chunk)
            with self.lock:
                self.data += chunk
                if len(self.data) > STDERR_BYTES:
                    del self.data[: len(self.data) - STDERR_BYTES]
                    self.cut = True
        return True

    def _run(self) -> None:
        try:
            while True:
                ready, _, _ = select.select([self.fd, self.wake_r], [], [])
                if self.wake_r in ready:  # finish(): the engine is stopped, take what is there
                    self._take(STDERR_LAST_READ)
                    return
                if not self._take(1 << 16):
                    return
        except (OSError, ValueError):  # pragma: no cover - a broken pipe, a descriptor select cannot take
            return
        finally:
            for fd in (self.fd, self.wake_r):
                try:
                    os.close(fd)
                except OSError:  # pragma: no cover
                    pass

    def finish(self) -> None:
        """Stop the reader (once the engine is stopped) and wait a bounded time for it to end."""
        if self.wake_w >= 0:
            try:
                os.write(self.wake_w, b"x")
            except OSError:  # the reader has ended and closed its end
                pass
            os.close(self.wake_w)
            self.wake_w = -1
        self.thread.join(STDERR_JOIN)

    def text(self) -> str:
        """The tail as text: its last :data:`STDERR_LINES` lines (a cut first line begins with «…»)."""
        with self.lock:
            data, cut = bytes(self.data), self.cut
        lines = data.decode("utf-8", "replace").rstrip("\n").split("\n")
        if len(lines) > STDERR_LINES:
            lines, cut = lines[-STDERR_LINES:], True
        if cut and lines:
            lines[0] = "…" + lines[0]
        return "\n".join(lines) if data else ""


class _TimedOut(Exception):
    pass


class EngineProcess:
    """One engine process speaking the protocol; started on first use and after a crash."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        shown: str | None = None,
    ) -> None:
        self.command = list(command)
        self.cwd = cwd
        self.env = env
        self.timeout = timeout
        self.shown = shown or " ".join(self.command)
        self.proc: subprocess.Popen[bytes] | None = None
        self.info: dict[str, Any] | None = None  # the handshake result
        self.next_id = 0
        self.buffer = bytearray()
        self.tail: StderrTail | None = None  # the stderr of the last process started
        self.failed_starts = 0
        self.fatal: str | None = None  # set when starting again would only fail again
        self.checker = contract.Checker()
        self.result_text: str | None = None  # the JSON text of the last answer's result

    # --- process ---------------------------------------------------------------------------

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def ensure(self, deadline: float | None = None) -> dict[str, Any]:
        """The running engine's handshake result; starts (or restarts) the process if needed."""
        if self.alive() and self.info is not None:
            return self.info
        if self.fatal:
            raise EngineFailure(self.fatal)
        self.stop()
        try:
            info = self._start(deadline)
        except EngineFailure as exc:
            self.failed_starts += 1
            if self.failed_starts >= STARTUP_ATTEMPTS and not self.fatal:
                self.fatal = (
                    f"{exc} — движок не запустился {self.failed_starts} раза подряд; "
                    "остальные сценарии этого процесса не запускаются"
                )
            self.stop()
            raise
        self.failed_starts = 0
        return info

    def _start(self, deadline: float | None) -> dict[str, Any]:
        self.tail = None
        self.buffer.clear()
        # The stderr pipe is ours, not Popen's: only the reader thread reads and closes it.
        err_r, err_w = os.pipe()
        try:
            self.proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err_w,
                cwd=self.cwd,
                env=self.env,
                # a group of its own: a terminal Ctrl-C goes to pytest, which stops the engine
                # itself, and stop() kills the engine's children with it
                process_group=0,
            )
        except OSError as exc:
            os.close(err_r)
            self.fatal = f"движок «{self.shown}» не запускается: {exc.strerror or exc}"
            raise EngineFailure(self.fatal) from None
        finally:
            os.close(err_w)
        self.tail = StderrTail(err_r)
        self.info = None
        startup = max(STARTUP_TIMEOUT, self.timeout)  # loading an engine takes time
        info = self._call(messages.HANDSHAKE.name, {"protocol": PROTOCOL, "client": CLIENT}, None, startup)
        try:
            self.checker.check(messages.HANDSHAKE.reply, info, "handshake()")
        except contract.ContractError as exc:
            self.fatal = f"движок «{self.shown}»: ответ на handshake не по протоколу: {exc}"
            raise EngineFailure(self.fatal) from None
        theirs = str(info["protocol"])
        if theirs.split(".")[0] != PROTOCOL.split(".")[0]:
            self.fatal = (
                f"движок «{self.shown}» говорит на протоколе версии {theirs}, а berserk-rules — "
                f"на версии {PROTOCOL}: основные версии должны совпадать"
            )
            raise EngineFailure(self.fatal)
        self.info = info
        return info

    def stderr_tail(self) -> str:
        """The end of the last engine process's stderr (see :class:`StderrTail`)."""
        return self.tail.text() if self.tail is not None else ""

    def stop(self) -> None:
        """Stop the process and its whole process group, and forget it; never waits on a pipe.

        The group is killed even when the engine itself has already ended: its children in the
        group go with it (while any of them lives the group's id stays taken, so it names no other
        group; once none does, there is nothing to kill). A grandchild that left the group cannot
        be found: it is left alone, and the pipes it may hold are simply no longer read.
        """
        proc, self.proc, self.info = self.proc, None, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            if proc.poll() is None:
                proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not ignored
            pass
        for stream in (proc.stdin, proc.stdout):  # nobody else reads or writes them
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        if self.tail is not None:
            self.tail.finish()

    def close(self) -> None:
        """End the session politely (``close``), then stop the process."""
        if self.alive() and self.info is not None:
            try:
                self._call(messages.CLOSE.name, {}, time.monotonic() + min(self.timeout, 2.0))
            except EngineFailure:
                pass
        self.stop()

    # --- requests ----------------------------------------------------------------------------

    def request(self, op: str, payload: dict[str, Any], deadline: float | None = None) -> Any:
        """Send one request and return the response's ``result``; refusals raise
        :class:`Rejected` / :class:`SetupRejected`, anything else :class:`EngineFailure`."""
        self.ensure(deadline)
        return self._call(op, payload, deadline)

    def _call(
        self, op: str, payload: dict[str, Any], deadline: float | None, timeout: float | None = None
    ) -> Any:
        what = shown_call(op, payload)
        ident = self.next_id
        self.next_id += 1
        message = {"id": ident, "op": op, **payload}
        line = json.dumps(message, ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n"
        timeout = timeout or self.timeout
        limit = time.monotonic() + timeout
        scenario_limit = deadline is not None and deadline < limit
        limit = min(limit, deadline) if deadline is not None else limit
        try:
            self._write(line)
            raw = self._read_line(limit)
        except _TimedOut:
            self.stop()
            if scenario_limit:
                why = "сценарий превысил свой предел времени (--scenario-timeout)"
            else:
                why = f"движок не ответил за {timeout:g} с (предел ожидания ответа, --timeout)"
            raise self._failure(f"{what}: {why}; процесс остановлен") from None
        except _Died:
            code = self._reap()
            raise self._failure(f"{what}: движок завершился ({describe_exit(code)})") from None
        except BaseException:
            # interrupted (Ctrl-C) in the middle of a request: its answer would be taken for the
            # next request's, so this process is done with
            self.stop()
            raise
        self.result_text = None
        try:
            response, result_text = replies.loads_response(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            self.stop()
            sample = raw[:120].decode("utf-8", "replace")
            raise self._failure(f"{what}: ответ движка — не строка JSON ({exc}): «{sample}»") from None
        try:
            self.checker.check("protocol#/$defs/response", response, f"ответ на {what}", raw.decode("utf-8"))
        except contract.ContractError as exc:
            self.stop()
            raise self._failure(str(exc)) from None
        if response["id"] != ident:
            self.stop()
            raise self._failure(f"{what}: ответ с номером {response['id']}, а ждали {ident}")
        if "error" in response:
            error = response["error"]
            kind = error["kind"]
            if kind == "rejected" and op == messages.ACT.name:
                raise Rejected(str(error.get("rule")), str(error.get("message")))
            if kind == "setup_rejected" and op in (messages.START.name, messages.DECK.name):
                raise SetupRejected(str(error.get("message")))
            if kind == "unsupported":
                raise Unsupported(f"{what}: движок этого не поддерживает: {error.get('message')}")
            detail = f"\n{error['traceback']}" if error.get("traceback") else ""
            names = {
                "engine": "внутренняя ошибка движка",
                "protocol": "движок не понял запрос",
                "unsupported": "движок этого не поддерживает",
                "rejected": "отказ не на действие",
                "setup_rejected": "отказ в позиции не на start",
            }
            raise self._failure(f"{what}: {names.get(kind, kind)}: {error.get('message')}{detail}")
        self.result_text = result_text
        return response["result"]

    def _write(self, line: bytes) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise _Died from None

    def _read_line(self, limit: float) -> bytes:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                if line.strip():
                    return line
                continue
            remaining = limit - time.monotonic()
            if remaining <= 0:
                raise _TimedOut
            ready, _, _ = select.select([fd], [], [], min(remaining, EXIT_POLL))
            if not ready:
                # The engine may have died while a grandchild of it holds its stdout open (then no
                # end of file comes): its own exit says so; what it wrote before is still read.
                if self.proc.poll() is not None:
                    ready, _, _ = select.select([fd], [], [], 0)
                    if not ready:
                        raise _Died
                else:
                    continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise _Died
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE:
                self.stop()
                raise EngineFailure(f"движок пишет строку длиннее {MAX_LINE // 1024 // 1024} МБ")

    def _reap(self) -> int | None:
        proc = self.proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
        self.stop()  # the stderr reader takes the last lines the engine wrote
        return code

    def _failure(self, message: str) -> EngineFailure:
        tail = self.stderr_tail()
        if tail:
            tail = tail[-2000:]
            message += f"\nstderr движка:\n{tail}"
        return EngineFailure(message)
