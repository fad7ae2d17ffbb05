"""What api_cases.py and browser_case.py share: a `tally serve` in the
background on a free loopback port, HTTP requests with urllib (the real
server, real sockets), multipart uploads, and checks that record failures
instead of stopping so one run reports everything wrong.
"""
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, file=sys.stderr)
    return cond


def done():
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES), file=sys.stderr)
        sys.exit(1)
    print("all checks passed")


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


class Server:
    """tally serve in the background; .url is where it listens."""

    def __init__(self, tally, work, *extra):
        self.work = work
        os.makedirs(work, exist_ok=True)
        self.db = os.path.join(work, "runs.db")
        self.p = subprocess.Popen([tally, "serve", "--listen", "127.0.0.1:0", "--db", self.db,
                                   "--dir", os.path.join(work, "srv")] + list(extra),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.p.stdout.readline()
        m = re.search(r"open (http://\S+)", line)
        if not m:
            self.p.kill()
            raise SystemExit("tally serve did not start: " + line + self.p.stderr.read())
        self.url = m.group(1).split("?")[0].rstrip("/")

    def stop(self):
        self.p.terminate()
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            check(False, "tally serve did not stop on SIGTERM")
        err = self.p.stderr.read()
        if err.strip():
            print("tally serve's stderr:\n" + err, file=sys.stderr)
        check(self.p.returncode == 0, "tally serve ended with status %d" % self.p.returncode)
        # the workers' own stderr: a sanitizer report there fails the test too
        for root, _, files in os.walk(os.path.join(self.work, "srv")):
            if "stderr.log" in files:
                with open(os.path.join(root, "stderr.log"), errors="replace") as f:
                    log = f.read()
                check(not re.search(r"Sanitizer|runtime error", log), "%s/stderr.log: %s" % (root, log[:2000]))

    def request(self, method, path, body=None, headers=None, ctype=None):
        """(status, headers, body bytes); the page's X-Tally header unless told otherwise."""
        h = {"X-Tally": "1"}
        h.update(headers or {})
        h = {k: v for k, v in h.items() if v is not None}
        if ctype:
            h["Content-Type"] = ctype
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        req = urllib.request.Request(self.url + path, data=body, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def oversized(self, length, chunked_body=None):
        """An upload larger than --max-upload, as a careful client sends it: either its Content-Length
        with Expect: 100-continue (the server answers before any body is sent), or a chunked body
        with no length (the server reads and drops it, then answers). Returns the status."""
        host, port = self.url.split("//")[1].split(":")
        c = http.client.HTTPConnection(host, int(port), timeout=30)
        c.putrequest("POST", "/api/programs")
        c.putheader("X-Tally", "1")
        c.putheader("Content-Type", "multipart/form-data; boundary=xyz")
        if chunked_body is None:
            c.putheader("Content-Length", str(length))
            c.putheader("Expect", "100-continue")
            c.endheaders()
        else:
            c.putheader("Transfer-Encoding", "chunked")
            c.endheaders()
            for k in range(0, len(chunked_body), 65536):
                part = chunked_body[k:k + 65536]
                c.send(b"%x\r\n" % len(part) + part + b"\r\n")
            c.send(b"0\r\n\r\n")
        r = c.getresponse()
        r.read()
        c.close()
        return r.status

    def json(self, method, path, body=None, headers=None):
        st, _, b = self.request(method, path, body, headers)
        try:
            return st, json.loads(b)
        except ValueError:
            return st, {"raw": b.decode(errors="replace")}

    def upload(self, parts, headers=None):
        """parts: {field: bytes or str}; bytes go as files."""
        boundary = uuid.uuid4().hex
        out = []
        for k, v in parts.items():
            if isinstance(v, bytes):
                out.append(("--%s\r\nContent-Disposition: form-data; name=\"%s\"; filename=\"%s.dat\"\r\n"
                            "Content-Type: application/octet-stream\r\n\r\n" % (boundary, k, k)).encode() + v + b"\r\n")
            else:
                out.append(("--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n"
                            % (boundary, k, v)).encode())
        body = b"".join(out) + ("--%s--\r\n" % boundary).encode()
        st, _, b = self.request("POST", "/api/programs", body, headers,
                                ctype="multipart/form-data; boundary=" + boundary)
        try:
            return st, json.loads(b)
        except ValueError:
            return st, {"raw": b.decode(errors="replace")}

    def wait_job(self, job, timeout=60):
        """Polls a run to its end; returns (final poll answer, every event)."""
        events, since, t0 = [], 0, time.time()
        while True:
            st, r = self.json("GET", "/api/jobs/%d?since=%d" % (job, since))
            if st != 200:
                check(False, "poll of run %d: status %d %s" % (job, st, r))
                return r, events
            events += r["events"]
            since = r["next"]
            if r.get("more"):
                continue
            if r["state"] != "running":
                return r, events
            if time.time() - t0 > timeout:
                check(False, "run %d still running after %d s" % (job, timeout))
                return r, events
            time.sleep(0.1)


def event(events, kind):
    for e in events:
        if e.get("t") == kind:
            return e
    return None


def tally_report_json(tally, db, run_id):
    """`tally report RUN --json` from the command line: the store as the CLI reads it."""
    out = subprocess.run([tally, "report", run_id, "--db", db, "--json"], capture_output=True, text=True)
    if out.returncode not in (0, 2):
        check(False, "tally report %s failed (%d): %s" % (run_id, out.returncode, out.stderr))
        return None
    return json.loads(out.stdout)
