#!/usr/bin/env python3
"""Continuity across a compaction, on real Claude Code transcripts (issue 31).

Lives the sessions in time order through the hook command the README registers, as
../shared/eval-coding/coding_replay.py does, and at each compaction point of a transcript (the
first record of the part that opens with "This session is being continued from a previous
conversation", which Claude Code writes when it compacts) fires what Claude Code fires there: a
PreCompact, then a SessionStart with source "compact" for the same session. Nothing is graduated
between the session's start and that point: only the session's raw events, captured through the
hook, are there to answer. Then it checks what the injected context holds against what the
transcript says was true at that moment:

  todos   the to-do items pending or in progress in the last TodoWrite before the point, each found
          when a context line shares >= 0.7 of its words
  files   the last five distinct files edited (Edit, MultiEdit, Write) before the point, each found
          when its file name appears in the context
  goal    the latest typed prompt before the point with three words or more, found when a context
          line shares >= 0.7 of the words of its first 25 words

Two clocks (--times):
  live        each event is captured when the replay sends it (its transcript timestamp dropped), as if
              the compaction came right after the work: the default
  real        each event keeps its transcript timestamp, and PreCompact and SessionStart come now, as
              when a session last touched days ago is resumed with `claude --resume` and compacts

Usage: compaction_replay.py [--times live|real] TARGET_DIR CONVERTER TRANSCRIPT...
  TARGET_DIR  the build's jobs/target (the README beside it gives the hook command)
  CONVERTER   eval-coding's transcripts_to_hooks.py (the transcripts become hook events with it)
Prints one line per compaction point, then one JSON line of figures. Reads no text into the repo.
"""
import json, os, re, shlex, subprocess, sys, tempfile

CONTINUED = "This session is being continued from a previous conversation"
EDITS = ("Edit", "MultiEdit", "Write")


def words(s):
    return [w for w in re.findall(r"[a-z0-9]+", s.lower()) if len(w) > 2]


def overlap(a, b):
    wa, wb = set(words(a)), set(words(b))
    return len(wa & wb) / len(wa) if wa else 0.0


def hook_command(target, readme):
    text = open(readme).read()
    m = re.search(r'"command":\s*"([^"]*jobs\.jar hook)"', text)
    clone = os.path.dirname(os.path.dirname(os.path.abspath(target)))
    return shlex.split(m.group(1).replace("/path/to/code-memory", clone))


def compaction_points(path):
    """(session id, timestamp) of each record that opens a compacted conversation's summary."""
    points = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if not isinstance(o, dict) or o.get("type") != "user":
                continue
            content = (o.get("message") or {}).get("content")
            text = content if isinstance(content, str) else "".join(
                b.get("text", "") for b in content or [] if isinstance(b, dict))
            if text.startswith(CONTINUED) or o.get("isCompactSummary"):
                points.append((o.get("sessionId"), o.get("timestamp")))
    return points


def is_continuation(e):
    return e["hook_event_name"] == "UserPromptSubmit" and e.get("prompt", "").startswith(CONTINUED)


def truth(before):
    todos, files, goal = [], [], None
    for e in before:
        if e["hook_event_name"] == "PostToolUse" and e.get("tool_name") == "TodoWrite":
            todos = [t.get("content", "") for t in (e.get("tool_input") or {}).get("todos") or []
                     if t.get("status") in ("pending", "in_progress")]
        if e["hook_event_name"] == "PostToolUse" and e.get("tool_name") in EDITS:
            path = (e.get("tool_input") or {}).get("file_path")
            if path:
                if path in files:
                    files.remove(path)
                files.append(path)
        if e["hook_event_name"] == "UserPromptSubmit" and not is_continuation(e) and len(words(e["prompt"])) >= 3:
            goal = e["prompt"]
    return todos, files[-5:][::-1], goal


def main():
    args = sys.argv[1:]
    times = "live"
    if args[:1] == ["--times"]:
        times, args = args[1], args[2:]
    if times not in ("live", "real"):
        sys.exit("--times is live or real, not " + times)
    target, converter, transcripts = os.path.abspath(args[0]), args[1], args[2:]
    jar = os.path.join(target, "jobs.jar")
    hook = hook_command(target, os.path.join(os.path.dirname(os.path.dirname(target)), "README.md"))
    work = tempfile.mkdtemp(prefix="cm-compaction-")
    out = os.path.join(work, "converted")
    subprocess.run([sys.executable, converter, "--out", out] + transcripts, check=True, capture_output=True)
    points = {}
    for t in transcripts:
        # a resumed session's file repeats the records of the one it resumes: each point once
        for sid, ts in compaction_points(t):
            if ts not in points.setdefault(sid, []):
                points[sid].append(ts)
    sessions = {}
    for name in os.listdir(os.path.join(out, "hooks")):
        for line in open(os.path.join(out, "hooks", name)):
            e = json.loads(line)
            sessions.setdefault(e["session_id"], []).append(e)
    order = sorted(sessions.values(), key=lambda evs: min(e["timestamp"] for e in evs))
    env = dict(os.environ)

    def run(argv, stdin=None, quiet=False):
        # capture needs the spool line only: no context is asked for, which saves a search per prompt
        return subprocess.run(argv, input=stdin, capture_output=True,
                              env=dict(env, CODE_MEMORY_CONTEXT="off") if quiet else env)

    def fire(event):
        p = run(hook, json.dumps(event).encode())
        text = p.stdout.decode().strip()
        try:
            return p.returncode, json.loads(text)["hookSpecificOutput"]["additionalContext"]
        except (ValueError, KeyError, TypeError):
            return p.returncode, text

    def capture(events):
        # through the hook, as Claude Code delivers them (no import, no graduation); with
        # real times each keeps the moment the transcript gives it
        for e in events:
            if not is_continuation(e):
                kept = e if times == "real" else {k: v for k, v in e.items() if k != "timestamp"}
                run(hook, json.dumps(kept).encode(), quiet=True)

    figures = {"points": 0, "todos": [0, 0], "files": [0, 0], "goal": [0, 0], "hook_nonzero": 0, "largest": 0}
    for i, evs in enumerate(order):
        evs.sort(key=lambda e: e["timestamp"])
        sid = evs[0]["session_id"]
        if sid not in points:
            continue
        # a home of its own, where everything earlier is long-term memory by now, as it
        # would be the next day
        env["CODE_MEMORY_HOME"] = os.path.join(work, "home-" + sid[:8])
        earlier = [e for s in order[:i] for e in s]
        if earlier:
            tmp = os.path.join(work, "earlier-" + sid[:8] + ".jsonl")
            with open(tmp, "w") as g:
                for e in earlier:
                    g.write(json.dumps(e) + "\n")
            run(["java", "-jar", jar, "import", "--hooks", tmp])
            run(["java", "-jar", jar, "--job=graduate"])
        done = 0
        for ts in sorted(points[sid]):
            before = [e for e in evs if e["timestamp"] < ts]
            capture(before[done:])
            done = len(before)
            base = {"session_id": sid, "transcript_path": evs[0].get("transcript_path", ""), "cwd": evs[0]["cwd"]}
            rc1, _ = fire(dict(base, hook_event_name="PreCompact", trigger="auto", custom_instructions=""))
            rc2, ctx = fire(dict(base, hook_event_name="SessionStart", source="compact"))
            figures["hook_nonzero"] += (rc1 != 0) + (rc2 != 0)
            figures["largest"] = max(figures["largest"], len(ctx))
            lines = ctx.splitlines()
            todos, files, goal = truth(before)
            t_hit = sum(any(overlap(t, l) >= 0.7 for l in lines) for t in todos)
            f_hit = sum(os.path.basename(f) in ctx for f in files)
            g_hit = int(goal is not None and any(overlap(" ".join(goal.split()[:25]), l) >= 0.7 for l in lines))
            figures["points"] += 1
            for key, hit, n in (("todos", t_hit, len(todos)), ("files", f_hit, len(files)),
                                ("goal", g_hit, int(goal is not None))):
                figures[key][0] += hit
                figures[key][1] += n
            print(f"{sid[:8]} at {ts}: to-dos {t_hit}/{len(todos)}, files {f_hit}/{len(files)}, "
                  f"goal {g_hit}/{int(goal is not None)}, context {len(ctx)} chars", file=sys.stderr)
    result = {k: (round(v[0] / v[1], 3) if isinstance(v, list) and v[1] else v) for k, v in figures.items()}
    result.update({k + "_n": v[1] for k, v in figures.items() if isinstance(v, list)})
    result["times"] = times
    result["work"] = work
    print(json.dumps(result))


if __name__ == "__main__":
    main()
