#!/usr/bin/env python3
"""A year of real history, from import to "everything has vectors" (issue 35).

Replays real Claude Code sessions (hook events, as eval-coding's transcripts_to_hooks.py makes
them) as many projects: each copy gets its own session ids and working directory, and copies are
spaced evenly so that the last one ends at the given day. 100 copies of the 14 eval-coding sessions
are 183,200 events (the issue's acceptance set); 546 copies are a million. Then it runs
`import --hooks` and `--job=graduate` in a fresh home and prints the job's own lines, the wall times
and one JSON line of figures.

Usage: year_replay.py TARGET_DIR HOOKS_DIR COPIES [--hours-apart H] [--end YYYY-MM-DD] [--work DIR]
  TARGET_DIR  the build's jobs/target
  HOOKS_DIR   a directory of *.jsonl hook events
  COPIES      how many projects to make of them
Run from the clone's root when the events' transcript_path values are relative to it. Writes only
under --work (default: a new temporary directory).
"""
import argparse, datetime, glob, json, os, re, subprocess, sys, tempfile, time

p = argparse.ArgumentParser()
p.add_argument("target")
p.add_argument("hooks")
p.add_argument("copies", type=int)
p.add_argument("--hours-apart", type=float, default=None,
               help="between copies (default: spread over 365 days)")
p.add_argument("--end", default=datetime.date.today().isoformat())
p.add_argument("--work", default=None)
a = p.parse_args()

work = a.work or tempfile.mkdtemp(prefix="cm-year-")
os.makedirs(work, exist_ok=True)
home = os.path.join(work, "home")
events = [json.loads(l) for f in sorted(glob.glob(os.path.join(a.hooks, "*.jsonl"))) for l in open(f)]


def parse(ts):
    return datetime.datetime.fromisoformat(ts.replace("Z", "+00:00"))


last = max(parse(e["timestamp"]) for e in events)
step = datetime.timedelta(hours=a.hours_apart if a.hours_apart else 365 * 24 / a.copies)
end = datetime.datetime.fromisoformat(a.end).replace(tzinfo=datetime.timezone.utc)
offset = end - last - (a.copies - 1) * step
spool = os.path.join(work, "hooks.jsonl")
with open(spool, "w") as out:
    for k in range(a.copies):
        shift = offset + k * step
        for e in events:
            copy = dict(e)
            copy["session_id"] = f"{e['session_id']}-p{k:04d}"
            copy["cwd"] = f"/work/year/p{k:04d}{e['cwd']}"
            copy["timestamp"] = (parse(e["timestamp"]) + shift).isoformat().replace("+00:00", "Z")
            out.write(json.dumps(copy) + "\n")
n = len(events) * a.copies
print(f"{n:,} events: {len(events):,} events x {a.copies} projects, {step} apart, ending {a.end}", flush=True)

env = dict(os.environ, CODE_MEMORY_HOME=home)
jar = os.path.join(os.path.abspath(a.target), "jobs.jar")
t0 = time.time()
subprocess.run(["java", "-jar", jar, "import", "--hooks", spool], env=env, check=True, capture_output=True)
t1 = time.time()
g = subprocess.run(["java", "-jar", jar, "--job=graduate"], env=env, capture_output=True, text=True)
t2 = time.time()
print(g.stdout, end="")
if g.returncode != 0:
    print(g.stderr, file=sys.stderr)
    sys.exit(g.returncode)


def seconds(line):
    m = re.search(r"· (?:(\d+) min )?([\d.]+) s$", line)
    return int(m.group(1) or 0) * 60 + float(m.group(2)) if m else 0.0


# the job runs the newest two weeks first, then "older sessions next" and everything else
lines = g.stdout.splitlines()
cut = next((i for i, l in enumerate(lines) if "older sessions next" in l), len(lines))
newest = sum(seconds(l) for l in lines[:cut])
embeds = [re.search(r"embedded (\d+) of \d+ \(([\d.]+)/s\)", l) for l in lines if "embed memories" in l]
embeds = [m for m in embeds if m]
texts = sum(int(m.group(1)) for m in embeds)
embed_s = sum(seconds(l) for l in lines if "embed memories" in l)
print(json.dumps({
    "events": n, "projects": a.copies, "import_s": round(t1 - t0, 1), "graduate_s": round(t2 - t1, 1),
    "everything_with_vectors_s": round(t2 - t0, 1),
    "newest_two_weeks_with_vectors_s": round(t1 - t0 + newest, 1),
    "texts_embedded": texts, "texts_per_s": round(texts / embed_s, 1) if embed_s else None,
    "load": os.getloadavg()[0], "home": home,
}))
