"""Regenerates injection/ordinary/ from what the machine really prints and ships.

Usage: python3 generate_ordinary.py <ordinary-dir> [<repo-root>]

Error output: real commands that fail (python3, javac/java, node/npm, git, bash,
coreutils, gcc/g++, make, cmake, pip), run in a scratch directory, offline.
Documentation: docstrings of CPython's standard library, man pages (git, bash, GNU
and other tools), Debian README files, the --help of the tools above, this
project's README, Javadoc, line comments and commit messages. One sample per line:
error output line by line, documentation one paragraph per line (wrapped lines
joined). Blank lines and exact duplicates within
a file are dropped; nothing else is filtered. Each module, page or README gives at
most its first paragraphs or lines (PER_SOURCE) and a file is cut at ~300 kB.

Needs: python3.11, JDK 17, node 20 / npm, git, gcc/g++, make, cmake, man-db.
Paths under the scratch dir are printed as /tmp/cm-ordinary so reruns compare.
"""
import gzip
import os
import re
import shutil
import subprocess
import sys
import textwrap

OUT = sys.argv[1]
REPO = sys.argv[2] if len(sys.argv) > 2 else None
SCRATCH = '/tmp/cm-ordinary'
LIMIT = 300_000
PER_SOURCE = 40
ENV = dict(os.environ, LANG='C.UTF-8', LC_ALL='C.UTF-8', NO_COLOR='1', TERM='dumb', PYTHONDONTWRITEBYTECODE='1',
           GIT_AUTHOR_NAME='Ada Example', GIT_AUTHOR_EMAIL='ada@example.org', GIT_COMMITTER_NAME='Ada Example',
           GIT_COMMITTER_EMAIL='ada@example.org', GIT_AUTHOR_DATE='2024-05-01T10:00:00Z',
           GIT_COMMITTER_DATE='2024-05-01T10:00:00Z', GIT_CONFIG_GLOBAL='/dev/null', GIT_CONFIG_NOSYSTEM='1',
           npm_config_offline='true', npm_config_update_notifier='false', npm_config_fund='false',
           npm_config_audit='false', PIP_NO_INDEX='1', PIP_DISABLE_PIP_VERSION_CHECK='1', MANWIDTH='2000',
           MAN_KEEP_FORMATTING='', PAGER='cat', GIT_PAGER='cat')


def run(cmd, cwd=SCRATCH, stdin=None, env=None):
    """Runs a shell command and returns stdout + stderr as text (failures expected)."""
    try:
        p = subprocess.run(cmd, shell=True, cwd=cwd, input=stdin, stdin=None if stdin else subprocess.DEVNULL,
                           capture_output=True, text=True, errors='replace', env=env or ENV, timeout=60,
                           executable='/bin/bash')
        return p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        return (e.stdout or b'').decode(errors='replace') + (e.stderr or b'').decode(errors='replace')


def write(name, lines):
    seen, kept, size = set(), [], 0
    for line in lines:
        line = line.rstrip().replace('\r', '')
        if not line.strip() or line in seen:
            continue
        if size + len(line.encode()) + 1 > LIMIT:
            break
        seen.add(line)
        kept.append(line)
        size += len(line.encode()) + 1
    with open(os.path.join(OUT, name), 'w', encoding='utf-8') as f:
        f.write('\n'.join(kept) + '\n')
    print(f'{name}: {len(kept)} lines, {size} bytes')


def paragraphs(text):
    """Joins wrapped lines into one line per paragraph (blank-line separated)."""
    out = []
    for block in re.split(r'\n\s*\n', text):
        joined = ' '.join(l.strip() for l in block.splitlines() if l.strip())
        if joined:
            out.append(joined)
    return out


def fresh(sub=''):
    path = os.path.join(SCRATCH, sub)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, exist_ok=True)
    return path


def put(path, text):
    path = os.path.join(SCRATCH, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(textwrap.dedent(text).lstrip('\n'))


# ---------------------------------------------------------------------------------------------- python
PY = {
    'zero': 'def ratio(a, b):\n    return a / b\nprint(ratio(3, 0))\n',
    'key': 'cfg = {"db": {"host": "localhost"}}\nprint(cfg["db"]["port"])\n',
    'index': 'items = [1, 2, 3]\nfor i in range(4):\n    print(items[i])\n',
    'none_attr': 'import re\nm = re.match(r"(\\d+)", "abc")\nprint(m.group(1))\n',
    'type_add': 'count = 3\nprint("total: " + count)\n',
    'missing_arg': 'def connect(host, port, timeout):\n    pass\nconnect("db", 5432)\n',
    'int_parse': 'print(int("12a"))\n',
    'module': 'import yaml_does_not_exist\n',
    'import_name': 'from os import walkk\n',
    'syntax_paren': 'print(len([1, 2, 3)\n',
    'syntax_colon': 'if True\n    print("x")\n',
    'fstring': 'x = 1\nprint(f"{x!}")\n',
    'indent': 'def f():\nreturn 1\n',
    'tab': 'if True:\n\tx = 1\n        y = 2\n',
    'name_hint': 'values = [1]\nprint(valuse)\n',
    'recursion': 'def f(n):\n    return f(n + 1)\nf(0)\n',
    'json': 'import json\njson.loads("{\\"a\\": 1,}")\n',
    'fnf': 'open("/tmp/cm-ordinary/does/not/exist.txt")\n',
    'perm': 'open("/proc/1/mem", "rb").read(1)\n',
    'unicode': 'open("/tmp/cm-ordinary/latin1.bin", "w", encoding="latin-1").write("caf\\u00e9")\nopen("/tmp/cm-ordinary/latin1.bin", encoding="utf-8").read()\n',
    'assert': 'def test():\n    assert [1, 2] == [1, 3], "lists differ"\ntest()\n',
    'context': 'try:\n    {}["k"]\nexcept KeyError:\n    raise ValueError("bad config")\n',
    'cause': 'try:\n    int("x")\nexcept ValueError as e:\n    raise RuntimeError("could not read the port") from e\n',
    'group': 'raise ExceptionGroup("several failed", [ValueError("a"), TypeError("b")])\n',
    'asyncio': 'import asyncio\nasync def boom():\n    raise ConnectionError("refused")\nasyncio.run(boom())\n',
    'subprocess': 'import subprocess\nsubprocess.run(["false"], check=True)\n',
    'sqlite': 'import sqlite3\nc = sqlite3.connect(":memory:")\nc.execute("select * from users")\n',
    're': 'import re\nre.compile("(unclosed")\n',
    'stopiter': 'def g():\n    next(iter([]))\n    yield 1\nlist(g())\n',
    'frozen': 'from dataclasses import dataclass\n@dataclass(frozen=True)\nclass P:\n    x: int\nP(1).x = 2\n',
    'enum': 'import enum\nclass Color(enum.Enum):\n    RED = 1\nColor(3)\n',
    'decimal': 'import decimal\ndecimal.Decimal("abc")\n',
    'unpack': 'a, b = [1, 2, 3]\n',
    'call_none': 'handler = None\nhandler("event")\n',
    'hash': 'd = {[1]: 2}\n',
    'overflow': 'import math\nmath.exp(1000)\n',
    'memory': 'import struct\nstruct.pack("i", 2**40)\n',
    'warning': 'import warnings\nwarnings.warn("the old API is deprecated; use connect_v2()", DeprecationWarning)\nprint("ok")\n',
    'logging': 'import logging\nlogging.basicConfig()\ntry:\n    1/0\nexcept Exception:\n    logging.getLogger("app").exception("request failed")\n',
    'argparse': 'import argparse\np = argparse.ArgumentParser(prog="deploy")\np.add_argument("--env", choices=["dev", "prod"], required=True)\np.parse_args(["--env", "test"])\n',
    'timeout': 'import socket\ns = socket.create_connection(("127.0.0.1", 9), timeout=1)\n',
    'urllib': 'import urllib.request\nurllib.request.urlopen("http://127.0.0.1:9/")\n',
    'keyboard': 'raise KeyboardInterrupt\n',
    'system_exit': 'import sys\nsys.exit("fatal: configuration file is missing")\n',
    'attr_module': 'import os\nos.getcwdd()\n',
    'iter_int': 'for x in 5:\n    pass\n',
    'bytes_str': 'b"abc" + "def"\n',
    'pickle': 'import pickle\npickle.loads(b"not a pickle")\n',
    'zip': 'import zipfile\nzipfile.ZipFile("/etc/hostname")\n',
    'csv': 'import csv, io\nlist(csv.reader(io.StringIO("a,\\"b\\nc")))\n',
    'datetime': 'from datetime import datetime\ndatetime.strptime("2024-13-01", "%Y-%m-%d")\n',
    'tomllib': 'import tomllib\ntomllib.loads("a = ")\n',
    'lookup': 'import codecs\ncodecs.lookup("utf-9")\n',
}
UNITTEST = '''
import unittest

class ParserTests(unittest.TestCase):
    def test_reads_port(self):
        self.assertEqual({"port": 80}, {"port": 8080})

    def test_rejects_empty(self):
        with self.assertRaises(ValueError):
            int("5")

    def test_error(self):
        raise RuntimeError("fixture database is not running")

    @unittest.skip("needs network")
    def test_download(self):
        pass

    def test_ok(self):
        self.assertTrue(True)

if __name__ == "__main__":
    unittest.main(verbosity=2)
'''
DOCTEST = '''
def add(a, b):
    """Adds two numbers.

    >>> add(2, 2)
    5
    >>> add("a", 1)
    'a1'
    """
    return a + b

if __name__ == "__main__":
    import doctest
    doctest.testmod()
'''


def python_errors():
    fresh()
    out = []
    for name, src in PY.items():
        put(f'py/{name}.py', src)
        out += run(f'python3 -W always py/{name}.py').splitlines()
    put('py/test_parser.py', UNITTEST)
    out += run('python3 py/test_parser.py').splitlines()
    put('py/doc.py', DOCTEST)
    out += run('python3 py/doc.py').splitlines()
    out += run('echo "{bad json" | python3 -m json.tool').splitlines()
    out += run('python3 -c "import this"').splitlines()
    out += run('python3 -m venv /proc/nope').splitlines()
    out += run('python3 -m http.server not-a-port').splitlines()
    for cmd in ['install nonexistent-package-cm', 'install -r missing-requirements.txt', 'uninstall -y not-installed-cm',
                'install ./no-such-dir', 'install "requests>=99"', 'show not-installed-cm', 'install --bogus-flag x',
                'download six --no-index -d /tmp/cm-ordinary/dl', 'check']:
        out += run(f'python3 -m pip {cmd}').splitlines()
    put('py/setup.py', 'from setuptools import setup\nsetup(name="x", version="not a version!!")\n')
    out += run('cd py && python3 setup.py --version').splitlines()
    write('python-errors.txt', out)


# ---------------------------------------------------------------------------------------------- java
JAVA_BROKEN = {
    'Symbol': 'class Symbol { void f() { undefinedVar++; String s = helper(); } }',
    'Types': 'import java.util.*; class Types { int f() { String s = 5; List<String> l = new ArrayList<Integer>(); return "x"; } }',
    'Missing': 'class Missing { int f(int x) { if (x > 0) return 1; } }',
    'Checked': 'class Checked { void f() { java.nio.file.Files.readString(java.nio.file.Path.of("a")); } }',
    'Syntax': 'class Syntax { void f() { int x = 1 System.out.println(x) } }',
    'Unreachable': 'class Unreachable { int f() { return 1; System.out.println(); } }',
    'Final': 'class Final { void f() { final int x = 1; x = 2; } }',
    'Abstract': 'abstract class A { abstract void run(); } class Abstract extends A { }',
    'Override': 'class Override { @java.lang.Override public String toStrin() { return ""; } }',
    'Raw': 'import java.util.*; class Raw { @Deprecated void old() {} void f() { List l = new ArrayList(); l.add("x"); old(); Object o = (String) "s"; } }',
    'Pkg': 'import org.springframework.batch.core.Job; class Pkg { Job job; }',
    'Generic': 'import java.util.*; class Generic { void f() { Map<String, List<Integer>> m = new HashMap<>(); m.put("a", List.of("b")); } }',
    'Lambda': 'import java.util.function.*; class Lambda { void f() { int n = 0; Runnable r = () -> n++; } }',
    'Switch': 'class Switch { int f(Object o) { return switch (o) { case String s -> 1; }; } }',
    'Dup': 'class Dup { void f() {} void f() {} }',
}
JAVA_RUNTIME = '''
import java.util.*;

public class Main {
    record Order(String id, Customer customer) {}
    record Customer(String name, Address address) {}
    record Address(String city) {}

    static int depth(int n) { return depth(n + 1) + 1; }

    public static void main(String[] args) throws Exception {
        String which = args[0];
        switch (which) {
            case "npe" -> System.out.println(new Order("o1", new Customer("c", null)).customer().address().city());
            case "aioobe" -> { int[] a = new int[3]; a[5] = 1; }
            case "cce" -> { Object o = "x"; Integer i = (Integer) o; }
            case "nfe" -> Integer.parseInt("8080a");
            case "cme" -> { List<Integer> l = new ArrayList<>(List.of(1, 2, 3)); for (Integer i : l) l.remove(i); }
            case "soe" -> depth(0);
            case "oom" -> { List<long[]> l = new ArrayList<>(); while (true) l.add(new long[1_000_000]); }
            case "uoe" -> List.of(1).add(2);
            case "ise" -> { Iterator<String> it = new ArrayList<String>().iterator(); it.next(); }
            case "cause" -> {
                try { Integer.parseInt("x"); }
                catch (NumberFormatException e) { throw new IllegalStateException("could not read setting server.port", e); }
            }
            case "assert" -> { assert which.isEmpty() : "expected an empty argument"; }
            case "iae" -> java.util.UUID.fromString("not-a-uuid");
            case "arith" -> System.out.println(1 / (which.length() - 5));
            case "io" -> java.nio.file.Files.readAllLines(java.nio.file.Path.of("/tmp/cm-ordinary/missing.txt"));
            case "interrupted" -> { Thread.currentThread().interrupt(); Thread.sleep(10); }
            case "thread" -> { Thread t = new Thread(() -> { throw new RuntimeException("worker failed"); }, "worker-1"); t.start(); t.join(); }
            default -> throw new IllegalArgumentException("unknown case: " + which);
        }
    }
}
'''


def java_errors():
    fresh()
    out = []
    for name, src in JAVA_BROKEN.items():
        put(f'java/{name}.java', src + '\n')
        out += run(f'javac -Xlint:all -d out java/{name}.java').splitlines()
    put('java/Main.java', JAVA_RUNTIME)
    out += run('javac -d out java/Main.java').splitlines()
    for case in ['npe', 'aioobe', 'cce', 'nfe', 'cme', 'soe', 'uoe', 'ise', 'cause', 'iae', 'arith', 'io',
                 'interrupted', 'thread', 'bogus']:
        text = run(f'java -cp out Main {case}')
        out += text.splitlines()[:60]  # a StackOverflowError prints 1024 identical frames
    out += run('java -Xmx16m -cp out Main oom').splitlines()
    out += run('java -ea -cp out Main assert').splitlines()
    out += run('java -cp out NoSuchMain').splitlines()
    out += run('java -cp out Main').splitlines()
    out += run('java -jar missing.jar').splitlines()
    out += run('java --bogus-option').splitlines()
    out += run('javac').splitlines()
    out += run('javac --release 99 java/Dup.java').splitlines()
    put('jar/META-INF/MANIFEST.MF', 'Manifest-Version: 1.0\n')
    out += run('cd jar && jar cfm ../app.jar META-INF/MANIFEST.MF . && cd .. && java -jar app.jar').splitlines()
    write('java-errors.txt', out)


# ---------------------------------------------------------------------------------------------- node / npm
NODE = {
    'undef': 'const user = undefined;\nconsole.log(user.profile.name);\n',
    'ref': 'function total(items) { return items.reduce((a, b) => a + b, 0) + tax; }\ntotal([1, 2]);\n',
    'syntax': 'const x = {\n  a: 1,\n  b: 2\n;\n',
    'json': 'JSON.parse("{\\"name\\": \\"app\\",}");\n',
    'require': 'const express = require("express-not-installed");\n',
    'rejection': 'async function load() { throw new Error("ECONNREFUSED 127.0.0.1:5432"); }\nload();\n',
    'fs': 'require("fs").readFileSync("/tmp/cm-ordinary/config.json");\n',
    'argtype': 'require("fs").readFileSync(42n);\n',
    'assert': 'const assert = require("assert");\nassert.deepStrictEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] });\n',
    'range': 'function f() { return f(); }\nf();\n',
    'notfn': 'const api = {};\napi.fetchUsers();\n',
    'const': 'const port = 80;\nport = 8080;\n',
    'esm': 'import fs from "fs";\n',
    'cause': 'try { JSON.parse("x"); } catch (e) { throw new Error("invalid settings file", { cause: e }); }\n',
    'aggregate': 'Promise.any([Promise.reject(new Error("a")), Promise.reject(new Error("b"))]);\n',
    'url': 'new URL("not a url");\n',
    'bigint': 'console.log(1n + 1);\n',
    'emitter': 'const { EventEmitter } = require("events");\nnew EventEmitter().emit("error", new Error("socket hang up"));\n',
    'child': 'require("child_process").execSync("exit 3");\n',
    'deprecation': 'new Buffer(10);\nconsole.log("done");\n',
}


def node_errors():
    fresh()
    out = []
    for name, src in NODE.items():
        put(f'node/{name}.js', src)
        out += run(f'node node/{name}.js').splitlines()
    put('esm/index.mjs', 'import { missing } from "node:fs";\n')
    out += run('node esm/index.mjs').splitlines()
    out += run('node --check node/syntax.js').splitlines()
    out += run('node -e "process.exit(2)"; echo "exit $?"').splitlines()
    out += run('npm run build').splitlines()  # no package.json
    put('app/package.json', '{\n  "name": "app",\n  "version": "1.0.0",\n  "scripts": {\n    "test": "node test.js",\n'
        '    "lint": "eslint-not-installed ."\n  },\n  "dependencies": {\n    "left-pad-cm-missing": "^1.0.0"\n  }\n}\n')
    put('app/test.js', 'const assert = require("assert");\nassert.strictEqual(1 + 1, 3, "arithmetic is broken");\n')
    for cmd in ['run build', 'test', 'run lint', 'ls', 'install --offline', 'install --offline left-pad-cm-missing',
                'version patch', 'publish --dry-run', 'audit', 'outdated', 'ci', 'uninstall nothing-here',
                'bogus-command', 'init -y --scope=@-bad']:
        out += run(f'cd app && npm {cmd}').splitlines()
    put('bad/package.json', '{ "name": "bad", "version": "1.0.0", }\n')
    out += run('cd bad && npm install --offline').splitlines()
    out += run('npx --no-install not-a-tool-cm').splitlines()
    out = [re.sub(r'\d{4}-\d\d-\d\dT\d\d_\d\d_\d\d_\d+Z', '2024-05-01T10_00_00_000Z', l) for l in out]
    write('node-npm-errors.txt', out)


# ---------------------------------------------------------------------------------------------- git
def git_output():
    fresh()
    out = []
    g = lambda cmd, d='repo': run(cmd, cwd=os.path.join(SCRATCH, d)).splitlines()
    out += g('git status', '')
    out += g('git log', '')
    os.makedirs(os.path.join(SCRATCH, 'repo'))
    out += g('git init -b main')
    out += g('git log')
    out += g('git commit -m "empty"')
    out += run('git -c user.name= -c user.email= commit --allow-empty -m x', cwd=os.path.join(SCRATCH, 'repo'),
               env={k: v for k, v in ENV.items() if not k.startswith('GIT_AUTHOR') and not k.startswith('GIT_COMMITTER')}
               | {'HOME': SCRATCH, 'EMAIL': ''}).splitlines()
    put('repo/app.py', 'def main():\n    print("hello")\n')
    put('repo/.gitignore', '*.log\nbuild/\n')
    put('repo/debug.log', 'x\n')
    out += g('git add debug.log')
    out += g('git add . && git commit -m "Initial commit"')
    out += g('git checkout no-such-branch')
    out += g('git switch -c feature && git checkout -b feature')
    put('repo/app.py', 'def main():\n    print("hello from feature")\n')
    out += g('git commit -am "Feature greeting" && git checkout main')
    put('repo/app.py', 'def main():\n    print("hello from main")\n')
    out += g('git commit -am "Main greeting"')
    out += g('git merge feature')
    out += g('git status')
    out += g('git diff')
    out += g('git commit -m "try"')
    out += g('git merge --abort && git rebase feature')
    out += g('git status')
    out += g('git rebase --continue')
    out += g('git rebase --abort && git cherry-pick feature')
    out += g('git cherry-pick --abort; git stash')
    put('repo/app.py', 'def main():\n    print("local edit")\n')
    out += g('git stash && git checkout feature && git stash pop')
    out += g('git checkout -- . ; git checkout main; git branch -d feature')
    out += g('git push')
    out += g('git push origin main')
    out += g('git pull')
    out += g('git fetch origin')
    out += g('git remote add origin /tmp/cm-ordinary/nowhere.git && git push -u origin main')
    out += g('git clone /tmp/cm-ordinary/nowhere.git clone2', '')
    out += g('git rm missing.txt')
    out += g('git reset --hard HEAD~5')
    out += g('git checkout HEAD~1')
    out += g('git checkout main; git show no-such-ref')
    out += g('git config --get user.signingkey; echo "exit $?"')
    put('repo/bad.patch', 'diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n-def nope():\n+def yes():\n')
    out += g('git apply bad.patch')
    out += g('git am bad.patch; git am --abort')
    put('repo/ws.py', 'x = 1   \n\ty = 2\n')
    out += g('git add ws.py && git diff --cached --check')
    out += g('git bisect start && git bisect bad && git bisect good HEAD; git bisect reset')
    out += g('git tag v1 && git tag v1')
    out += g('git branch -m main main2 && git branch -m main2 main && git branch -D nope')
    out += g('git submodule update --init')
    out += g('git worktree add ../wt main')
    out += g('git blame nope.py')
    out += g('git grep -n "hello" && git grep --bogus')
    out += g('git commit --amend --no-edit --date=garbage')
    out += g('git not-a-command')
    out += g('git rebase -i --exec false HEAD~1', 'repo')
    out += g('git gc --prune=bogus')
    out += g('git help -g')
    out += g('git help -a | head -150')
    write('git-output.txt', out)


# ---------------------------------------------------------------------------------------------- shell, gcc, make
C_BROKEN = {
    'undeclared.c': '#include <stdio.h>\nint main(void) { printf("%d\\n", count); return 0; }\n',
    'implicit.c': 'int main(void) { char buf[8]; strcpy(buf, "too long for the buffer"); return atoi(buf); }\n',
    'format.c': '#include <stdio.h>\nint main(void) { long n = 5; printf("%d %s\\n", n); int unused; return 0; }\n',
    'link.c': 'int helper(int);\nint main(void) { return helper(1); }\n',
    'header.c': '#include <libfoo/foo.h>\nint main(void) { return 0; }\n',
    'types.c': 'struct point { int x; };\nint main(void) { struct point p; p.y = 1; int *q = 5; return *q; }\n',
    'syntax.c': 'int main(void) { int x = 1 return x }\n',
}
CPP_BROKEN = '#include <vector>\n#include <string>\n#include <map>\nint main() { std::map<std::string, std::vector<int>> m; m["a"].push_back("x"); std::vector<int> v; v.foo(); }\n'
ASAN = '#include <stdlib.h>\nint main(void) { int *a = malloc(4 * sizeof(int)); a[4] = 1; free(a); return a[0]; }\n'
SEGV = 'int main(void) { int *p = 0; return *p; }\n'


def shell_errors():
    fresh()
    out = []
    for cmd in ['nosuchcommand --version', 'if [ 1 -eq 1 ]; then echo x', 'echo $(( 1 + ))', 'set -u; echo "$UNSET_VAR"',
                'x=abc; echo ${x:bad}', 'echo ${x/', 'ls /tmp/cm-ordinary/missing', 'cat /tmp', 'cd /nonexistent',
                'rm /tmp/cm-ordinary/missing.txt', 'rm -r /tmp/cm-ordinary/missing', 'cp a b', 'mv a b', 'mkdir /tmp',
                'chmod 755 missing', 'touch /proc/x', 'ln -s a /tmp', 'tar xf missing.tar', 'tar czf out.tgz missing',
                'grep -E "(" /etc/hostname', 'grep pattern missing.txt', 'sed -e "s/a/b" /etc/hostname',
                'sed -i "s/x/y/" missing', 'find /tmp/cm-ordinary/missing -name "*.py"', 'sort -k x /etc/hostname',
                'awk "{ print $1 " /etc/hostname', 'xargs -n0 echo < /dev/null', 'head -n abc /etc/hostname',
                'tail -n x /etc/hostname', 'kill 999999', 'wc missing', 'diff missing1 missing2', 'exec 3<missing', 'readlink -e missing',
                'gzip -d /etc/hostname', 'unzip missing.zip', 'bash -n <<< "for i in 1 2; do echo"', 'false && echo no',
                'bash -c "exit 7"; echo "exit status $?"', 'ulimit -n abc', 'declare -A m; m=([a]=)', 'source missing.sh',
                'trap "echo cleanup" EXIT; exit 3', 'curl -sS http://127.0.0.1:9/', 'wget -q http://127.0.0.1:9/ -O /dev/null',
                'curl -sS https://', 'ssh -o BatchMode=yes -p 9 127.0.0.1 true', 'du -sh missing', 'stat missing',
                'date -d "not a date"', 'printf "%d\\n" abc', 'test -z', '[ a -gt 1 ]', 'timeout 1 sleep 5; echo "exit $?"',
                'env -i /bin/bash -c nosuch', 'make', 'python', 'pip', 'java -version', 'man nosuchpage',
                'apt-get install -y nothing-here-cm', 'dpkg -L not-installed-cm', 'sudo ls', 'systemctl status nothing']:
        out += run(cmd).splitlines()
    for name, src in C_BROKEN.items():
        put(f'c/{name}', src)
        out += run(f'gcc -Wall -Wextra -o c/a.out c/{name}').splitlines()
    put('c/tpl.cpp', CPP_BROKEN)
    out += run('g++ -Wall -o c/tpl c/tpl.cpp').splitlines()
    put('c/asan.c', ASAN)
    out += run('gcc -g -fsanitize=address -o c/asan c/asan.c && ASAN_OPTIONS=detect_leaks=0 ./c/asan').splitlines()
    put('c/segv.c', SEGV)
    out += run('gcc -o c/segv c/segv.c && ./c/segv; echo "exit $?"').splitlines()
    put('mk/Makefile', 'all: build test\nbuild:\n\tgcc -o app main.c\ntest:\n\t./run-tests.sh\nbad:\n    echo spaces\n')
    out += run('cd mk && make; make test; make nosuchtarget; make bad').splitlines()
    put('cm/CMakeLists.txt', 'cmake_minimum_required(VERSION 3.10)\nproject(app C)\nfind_package(NoSuchLib REQUIRED)\nadd_executable(app main.c)\n')
    out += run('cd cm && cmake -S . -B build').splitlines()
    write('shell-c-errors.txt', out)


# ---------------------------------------------------------------------------------------------- help texts
def help_output():
    out = []
    for cmd in ['python3 --help', 'python3 --help-env', 'python3 --help-xoptions', 'python3 -m pip --help',
                'python3 -m pip install --help', 'python3 -m unittest --help', 'python3 -m pdb --help', 'java -help',
                'java -X', 'javac -help', 'javac -X', 'node --help', 'npm help', 'npm help install', 'npm install --help',
                'git --help', 'git commit -h', 'git rebase -h', 'git push -h', 'git config -h', 'gcc --help',
                'gcc --help=warnings', 'make --help', 'cmake --help', 'curl --help all', 'wget --help', 'grep --help',
                'sed --help', 'find --help', 'tar --help', 'ls --help', 'cp --help', 'rm --help', 'ssh', 'gpg --help',
                'bash -c "help"', 'bash -c "help set"', 'bash -c "help trap"', 'bash -c "help shopt"', 'mvn --help']:
        out += run(cmd, cwd='/tmp').splitlines()
    write('help-output.txt', out)


# ---------------------------------------------------------------------------------------------- documentation
PY_MODULES = ['argparse', 'subprocess', 'unittest', 'unittest.mock', 'pdb', 'logging', 'warnings', 'dis', 'ast',
              'inspect', 'contextlib', 'shutil', 'os', 'sys', 'typing', 'importlib', 'code', 'cmd', 'string', 'json',
              're', 'asyncio', 'threading', 'signal', 'socket', 'ssl', 'http.server', 'urllib.request', 'email.message',
              'sqlite3', 'tempfile', 'pickle', 'doctest', 'trace', 'tokenize', 'textwrap', 'functools', 'dataclasses',
              'enum', 'abc', 'configparser', 'getopt', 'shlex', 'platform', 'sysconfig', 'site', 'venv', 'zipfile',
              'tarfile', 'hashlib', 'secrets', 'random', 'datetime', 'pathlib', 'glob', 'fnmatch', 'difflib',
              'pprint', 'traceback', 'gc', 'atexit', 'builtins']


def python_docs():
    """The docstrings of each module, its public functions and classes and their methods, in that order."""
    import importlib, inspect
    out = []
    for name in PY_MODULES:
        mod = importlib.import_module(name)
        docs = [mod.__doc__]
        for attr in sorted(a for a in dir(mod) if not a.startswith('_')):
            obj = getattr(mod, attr)
            if not (inspect.isfunction(obj) or inspect.isclass(obj) or inspect.isbuiltin(obj)):
                continue
            if getattr(obj, '__module__', None) not in (mod.__name__, '_' + mod.__name__, 'builtins'):
                continue
            docs.append(obj.__doc__)
            if inspect.isclass(obj):
                docs += [m.__doc__ for k, m in sorted(vars(obj).items()) if not k.startswith('_') and callable(m)]
        paras = []
        for doc in docs:
            if isinstance(doc, str):
                paras += paragraphs(inspect.cleandoc(doc))
        out += paras[:PER_SOURCE]
    write('python-docs.txt', out)


GIT_MAN = ['git', 'git-rebase', 'git-commit', 'git-push', 'git-reset', 'git-merge', 'git-config', 'git-am',
           'git-apply', 'git-cherry-pick', 'git-stash', 'git-checkout', 'git-clean', 'git-filter-branch', 'githooks',
           'gitattributes', 'gitignore', 'git-bisect', 'git-submodule', 'git-worktree', 'git-log', 'git-diff',
           'git-fetch', 'git-pull', 'git-tag', 'git-send-email', 'git-interpret-trailers', 'gitworkflows',
           'gittutorial', 'gitfaq', 'gitcli', 'git-fsck', 'git-gc', 'git-notes', 'git-replace', 'git-sparse-checkout']
GNU_MAN = ['bash', 'find', 'grep', 'sed', 'tar', 'make', 'curl', 'ssh', 'ssh_config', 'sudo', 'env', 'xargs', 'rsync',
           'cron', 'crontab', 'gpg', 'wget', 'ld', 'gdb', 'strace', 'systemd', 'nice', 'chmod', 'ls']


def man_docs():
    for name, pages in [('git-manpages.txt', GIT_MAN), ('gnu-manpages.txt', GNU_MAN)]:
        out = []
        for page in pages:
            text = run(f'man -P cat {page} 2>/dev/null', cwd='/tmp')
            out += [l.strip() for l in text.splitlines() if l.strip()][:PER_SOURCE * 3]
        write(name, out)


# licences as in each package's /usr/share/doc/<package>/copyright (listed in ../README.md)
README_PACKAGES = ['git', 'bash', 'grep', 'sed', 'coreutils', 'findutils', 'gzip', 'gnupg', 'make', 'gdb', 'wget',
                   'googletest', 'apt', 'dpkg', 'man-db', 'jq', 'tmux', 'valgrind', 'python3.11', 'openssh-client']


def readmes():
    out = []
    base = '/usr/share/doc'
    for pkg in README_PACKAGES:
        d = os.path.join(base, pkg)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.startswith('README'):
                continue
            p = os.path.join(d, f)
            if not os.path.isfile(p):
                continue
            data = gzip.open(p, 'rt', errors='replace').read() if f.endswith('.gz') else open(p, errors='replace').read()
            out += paragraphs(data)[:PER_SOURCE * 2]
    write('debian-readmes.txt', out)


def project_docs():
    if not REPO:
        return
    out = []
    out += paragraphs(open(os.path.join(REPO, 'README.md')).read())
    for root, _, files in sorted(os.walk(REPO)):
        if '/src/main/java' not in root:
            continue
        for f in sorted(files):
            if not f.endswith('.java'):
                continue
            src = open(os.path.join(root, f)).read()
            for doc in re.findall(r'/\*\*(.*?)\*/', src, re.S):
                text = '\n'.join(re.sub(r'^\s*\* ?', '', l) for l in doc.splitlines())
                out += paragraphs(text)
            out += [l.strip()[2:].strip() for l in src.splitlines() if l.strip().startswith('//')]
    write('code-memory-docs.txt', out)
    log = run('git log --no-merges --format=%B%n', cwd=REPO)
    write('code-memory-commits.txt', paragraphs(log))


if __name__ == '__main__':
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(SCRATCH, exist_ok=True)
    steps = [python_errors, java_errors, node_errors, git_output, shell_errors, help_output, python_docs, man_docs,
             readmes, project_docs]
    only = os.environ.get('ONLY')
    for step in steps:
        if not only or step.__name__ in only.split(','):
            step()
    shutil.rmtree(SCRATCH, ignore_errors=True)
