#!/usr/bin/env python3
"""Noise, not only hits: how often, and how much, context the hook injects for the prompts a developer types.

Lives real sessions in time order as eval-coding's coding_replay.py does: before each session (after the first) it
runs `--job=graduate` on everything earlier and fires the session's SessionStart through the hook command the
README registers. Then, unlike coding_replay.py, which asks only the first prompt, it asks every prompt: the
session's events before the prompt are imported (`import --hooks`, at their real times), the prompt is fired
through the hook with its own session id, and what the hook printed is recorded. What the hook itself spooled
while being asked (the prompt at the wall-clock time, the record of what it injected) is cut off the spool again,
so the home holds exactly the imported sessions: 280 copies of prompts at today's time would otherwise become
memories the later prompts find. After the session's last prompt the rest of the session is imported.

Which prompts count: the UserPromptSubmit events of the hook files (the converter keeps typed prompts only: no
slash commands, no meta lines) minus those Claude Code writes itself ("[Request interrupted…" markers and the
summary that opens a compacted conversation, "This session is being continued…") and minus contentless ones (no
word of three letters or digits, e.g. "."; the rule coding_replay.py calls trivial). Short replies such as "go
ahead" or "Yes" count: context injected for them is exactly the noise measured here.

Prints one JSON line:
  n                       typed prompts asked
  with_context            share of them that got prompt context (non-empty additionalContext)
  chars_median, chars_p90 size of the prompt context over all n (0 when none)
  ctx_chars_median, ctx_chars_p90  the same over the prompts that got context
  short_n, short_with_context      prompts of fewer than three such words, and the share of them with context
  trivial_n, trivial_with_context  contentless prompts (not in n), and how many got context (should be 0)
  hook_nonzero            hook exits other than 0

Usage: prompt_noise.py TARGET_DIR HOOKS_DIR... [--rows FILE] [--serve]
  TARGET_DIR  the build's jobs/target (the README two levels up gives the hook command)
  HOOKS_DIR   folders of hook events (*.jsonl with a top-level "timestamp"), e.g. eval-coding's
              transcripts_to_hooks.py output folder's hooks/
  --rows FILE writes one JSON row per prompt (session, prompt, chars, context): they carry the sessions' text, so
              keep the file out of the repository
  --serve     one `serve` (its schedule off) answers the hooks and runs import and graduate, as with
              `install --service`; without it every hook is the cold one
The context budget is 30 s (CODE_MEMORY_CONTEXT_BUDGET_MS, as qa_replay.py sets it) unless the environment sets
one: this measures what is injected, not how fast. The hook command is eval-coding's hookcmd.py when CODE_MEMORY_EVAL_CODING (default ../shared/eval-coding beside
the clone) holds it, else read from the README the same way.
"""
import glob, json, os, re, shlex, statistics, subprocess, sys, tempfile, time

SYSTEM = ("[Request interrupted", "This session is being continued from a previous conversation")


def words(s):
    return [w for w in re.findall(r"[a-z0-9]+", s.lower()) if len(w) > 2]


def kind_of(prompt):
    """system (Claude Code wrote it), trivial (no content), short (< 3 words) or typed."""
    if prompt.lstrip().startswith(SYSTEM):
        return "system"
    n = len(words(prompt))
    return "trivial" if n == 0 else "short" if n < 3 else "typed"


def percentile(values, p):
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    s = sorted(values)
    return s[max(0, min(len(s) - 1, -(-p * len(s) // 100) - 1))]


def hook_command(target, readme):
    clone = os.path.dirname(os.path.dirname(os.path.abspath(target)))
    shared = os.environ.get("CODE_MEMORY_EVAL_CODING", os.path.join(os.path.dirname(clone), "shared", "eval-coding"))
    if os.path.exists(os.path.join(shared, "hookcmd.py")):
        sys.path.insert(0, shared)
        from hookcmd import hook_command as from_readme
        return from_readme(target, readme)
    m = re.search(r'"command":\s*"([^"]*jobs\.jar hook)"', open(readme).read())
    return shlex.split(m.group(1).replace("/path/to/code-memory", clone))


def main(argv):
    rows_file = argv[argv.index("--rows") + 1] if "--rows" in argv else None
    use_serve = "--serve" in argv
    args = [a for i, a in enumerate(argv) if not a.startswith("--") and (i == 0 or argv[i - 1] != "--rows")]
    if len(args) < 2:
        sys.exit(__doc__.split("Usage: ")[1].split("\n")[0])
    target, dirs = os.path.abspath(args[0]), args[1:]
    jar = os.path.join(target, "jobs.jar")
    hook = hook_command(target, os.path.join(os.path.dirname(os.path.dirname(target)), "README.md"))
    home = tempfile.mkdtemp(prefix="cm-noise-")
    # what is injected is measured here, not how fast: a loaded machine must not turn context into a timeout
    env = dict(os.environ, CODE_MEMORY_HOME=home)
    env.setdefault("CODE_MEMORY_CONTEXT_BUDGET_MS", "30000")
    spool = os.path.join(home, "spool", "current.jsonl")

    sessions = {}
    for d in dirs:
        for f in sorted(glob.glob(os.path.join(d, "*.jsonl"))):
            for line in open(f):
                e = json.loads(line)
                sessions.setdefault(e["session_id"], []).append(e)
    order = sorted(sessions.values(), key=lambda evs: min(e["timestamp"] for e in evs))
    for evs in order:
        evs.sort(key=lambda e: e["timestamp"])

    def java(*a):
        return subprocess.run(["java", "-jar", jar, *a], capture_output=True, text=True, env=env)

    def imported(events):
        if not events:
            return
        f = os.path.join(home, "next.jsonl")
        with open(f, "w") as g:
            for e in events:
                g.write(json.dumps(e) + "\n")
        r = java("import", "--hooks", f)
        if r.returncode != 0:
            sys.exit("import failed: " + (r.stdout + r.stderr).strip()[-300:])

    def asked(ev):
        """What the hook printed for ev, and its exit code; what it spooled meanwhile is cut off again."""
        before = os.path.getsize(spool) if os.path.exists(spool) else None
        ev = {k: v for k, v in ev.items() if k != "timestamp"}
        p = subprocess.run(hook, input=json.dumps(ev).encode(), capture_output=True, env=env)
        if before is None:
            if os.path.exists(spool):
                os.remove(spool)
        else:
            with open(spool, "r+b") as g:
                g.truncate(before)
        out = p.stdout.decode().strip()
        if not out:
            return "", p.returncode
        try:
            return json.loads(out)["hookSpecificOutput"]["additionalContext"], p.returncode
        except (ValueError, KeyError, TypeError):
            return out, p.returncode  # plain text is context too

    serve = None
    if use_serve:
        serve = subprocess.Popen(["java", "-jar", jar, "serve", "--code-memory.schedule.enabled=false"], env=env,
                                 stdout=open(os.path.join(home, "serve.out"), "w"), stderr=subprocess.STDOUT)
        for _ in range(180):
            if os.path.exists(os.path.join(home, "serve.sock")):
                break
            time.sleep(1)
    rows, bad_rc = [], 0
    try:
        for i, evs in enumerate(order):
            if i > 0:
                g = java("--job=graduate")
                if g.returncode != 0:
                    sys.exit(f"graduate failed before session {i}: {(g.stdout + g.stderr).strip().splitlines()[-1:]}")
                start = next((e for e in evs if e["hook_event_name"] == "SessionStart"), None)
                if start:
                    bad_rc += asked(start)[1] != 0
            done = 0
            for j, e in enumerate(evs):
                if e["hook_event_name"] != "UserPromptSubmit":
                    continue
                kind = kind_of(e.get("prompt") or "")
                if kind == "system":
                    continue
                imported(evs[done:j])
                done = j
                context, rc = asked(e)
                bad_rc += rc != 0
                rows.append({"session": e["session_id"], "kind": kind, "chars": len(context),
                             "prompt": e["prompt"], "context": context})
            imported(evs[done:])
    finally:
        if serve:
            serve.terminate()
            try:
                serve.wait(60)
            except subprocess.TimeoutExpired:
                serve.kill()

    if rows_file:
        with open(rows_file, "w") as g:
            for r in rows:
                g.write(json.dumps(r) + "\n")
    typed = [r for r in rows if r["kind"] != "trivial"]
    short = [r for r in typed if r["kind"] == "short"]
    trivial = [r for r in rows if r["kind"] == "trivial"]
    sizes = [r["chars"] for r in typed]
    given = [c for c in sizes if c > 0]
    share = lambda rs: round(sum(r["chars"] > 0 for r in rs) / len(rs), 3) if rs else None
    print(json.dumps({
        "sessions": len(order), "n": len(typed), "with_context": share(typed),
        "chars_median": statistics.median(sizes) if sizes else 0, "chars_p90": percentile(sizes, 90) if sizes else 0,
        "ctx_chars_median": statistics.median(given) if given else 0,
        "ctx_chars_p90": percentile(given, 90) if given else 0,
        "short_n": len(short), "short_with_context": share(short),
        "trivial_n": len(trivial), "trivial_with_context": sum(r["chars"] > 0 for r in trivial),
        "hook_nonzero": bad_rc, "serve": use_serve, "home": home}))


if __name__ == "__main__":
    main(sys.argv[1:])
