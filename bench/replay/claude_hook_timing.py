#!/usr/bin/env python3
"""The hook's time as the real Claude Code CLI measures it (issue 29).

Runs `claude -p PROMPT` N times in PROJECT against a minimal stand-in for the Anthropic Messages API on
127.0.0.1 (one text answer, streamed or not), with code-memory registered by `install` in a throwaway HOME
and CODE_MEMORY_HOME pointing at an existing home (start `serve` on it first to measure the path through
serve), then reads Claude Code's own `--debug-file` lines ("Hooks: EVENT [command] finished with status S
(N ms)") and prints, per hook event, the count, median, p90, min and max, and how many runs got the prompt's
context. Standard library only.

Usage: claude_hook_timing.py CLI JOBS_TARGET CODE_MEMORY_HOME PROJECT PROMPT [RUNS]
"""
import http.server, json, os, re, socketserver, statistics, subprocess, sys, tempfile, threading

HOOK_RUN = re.compile(r"\[DEBUG] (?:Hooks: )?(\w+)(?::\S+)? \[(.*?)](?: \(plugin [^)]*\))? "
                      r"(?:finished|completed) with status (-?\d+)(?: \((\d+)ms\))?")


class StandIn(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, body, kind="application/json"):
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.reply(json.dumps({"data": [{"id": "claude-sonnet-4-5", "type": "model", "display_name": "stand-in"}],
                               "has_more": False}).encode())

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))) or b"{}")
        if self.path.startswith("/v1/messages/count_tokens"):
            self.reply(json.dumps({"input_tokens": 10}).encode())
            return
        model = request.get("model", "claude-sonnet-4-5")
        usage = {"input_tokens": 10, "output_tokens": 1}
        if not request.get("stream"):
            self.reply(json.dumps({"id": "msg_1", "type": "message", "role": "assistant", "model": model,
                                   "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn",
                                   "stop_sequence": None, "usage": usage}).encode())
            return
        events = [
            ("message_start", {"type": "message_start", "message": {
                "id": "msg_1", "type": "message", "role": "assistant", "model": model, "content": [],
                "stop_reason": None, "stop_sequence": None, "usage": usage}}),
            ("content_block_start", {"type": "content_block_start", "index": 0,
                                     "content_block": {"type": "text", "text": ""}}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                     "delta": {"type": "text_delta", "text": "ok"}}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                               "usage": {"output_tokens": 1}}),
            ("message_stop", {"type": "message_stop"}),
        ]
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        for name, data in events:
            self.wfile.write(("event: %s\ndata: %s\n\n" % (name, json.dumps(data))).encode())


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def main():
    cli, target, home, project, prompt = sys.argv[1:6]
    runs = int(sys.argv[6]) if len(sys.argv) > 6 else 20
    server = Server(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    work = tempfile.mkdtemp(prefix="cm-hook-timing-")
    env = dict(os.environ, HOME=os.path.join(work, "home"), CODE_MEMORY_HOME=home, IS_SANDBOX="1",
               ANTHROPIC_BASE_URL="http://127.0.0.1:%d" % server.server_address[1],
               ANTHROPIC_API_KEY="sk-ant-api03-stand-in-" + "0" * 60 + "-AAAAAAAA",
               CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_TELEMETRY="1", DISABLE_AUTOUPDATER="1")
    os.makedirs(env["HOME"])
    subprocess.run(["java", "-jar", os.path.join(target, "jobs.jar"), "install"], env=env, check=True,
                   capture_output=True)
    times, with_context = {}, 0
    for i in range(runs):
        debug = os.path.join(work, "debug-%d.log" % i)
        subprocess.run([cli, "-p", prompt, "--permission-mode", "bypassPermissions", "--debug-file", debug],
                       cwd=project, env=env, capture_output=True, timeout=300)
        log = open(debug, errors="replace").read()
        with_context += '"hookEventName":"UserPromptSubmit","additionalContext"' in log
        for m in HOOK_RUN.finditer(log):
            if m.group(4) and "jobs.jar hook" in m.group(2):
                times.setdefault(m.group(1), []).append(int(m.group(4)))
    for event, ms in sorted(times.items()):
        ms.sort()
        print("%-18s %3d runs  median %6.1f ms  p90 %5d ms  min %5d  max %5d" % (
            event, len(ms), statistics.median(ms), ms[max(0, int(len(ms) * 0.9) - 1)], ms[0], ms[-1]))
    print("runs whose prompt got context: %d of %d (debug logs in %s)" % (with_context, runs, work))


if __name__ == "__main__":
    main()
