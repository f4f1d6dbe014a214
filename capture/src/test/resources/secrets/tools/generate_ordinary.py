import random, string, base64, hashlib, sys, uuid
R = random.Random(7)
O = sys.argv[1]
def b(n): return bytes(R.getrandbits(8) for _ in range(n))
def hx(n): return ''.join(R.choice('0123456789abcdef') for _ in range(n))
pkgs = ['lodash', 'react', 'react-dom', 'express', 'jsonwebtoken', 'bcrypt', 'passport', 'zod', 'vitest', 'typescript',
        'axios', 'chalk', 'debug', 'ms', 'semver', 'uuid', 'ws', 'yaml', 'tslib', 'esbuild', 'rollup', 'postcss', 'token-types',
        'js-tokens', 'safe-buffer', 'keyv', 'secure-json-parse', 'passport-jwt', 'oauth', 'node-forge']
with open(f'{O}/lockfiles.txt', 'w') as f:
    for p in pkgs:
        v = f'{R.randint(0,9)}.{R.randint(0,20)}.{R.randint(0,30)}'
        f.write(f'    "node_modules/{p}": {{\n')
        f.write(f'      "version": "{v}",\n')
        f.write(f'      "resolved": "https://registry.npmjs.org/{p}/-/{p}-{v}.tgz",\n')
        f.write(f'      "integrity": "sha512-{base64.b64encode(b(64)).decode()}",\n')
        f.write(f'{p}@^{v}:\n  version "{v}"\n  resolved "https://registry.yarnpkg.com/{p}/-/{p}-{v}.tgz#{hx(40)}"\n')
        f.write(f'  integrity sha1-{base64.b64encode(b(20)).decode()}\n')
    for m in ['github.com/golang-jwt/jwt/v5', 'golang.org/x/crypto', 'github.com/pkg/errors', 'github.com/stretchr/testify',
              'go.uber.org/zap', 'github.com/spf13/cobra', 'google.golang.org/grpc', 'github.com/jackc/pgx/v5', 'golang.org/x/oauth2']:
        v = f'v{R.randint(0,5)}.{R.randint(0,20)}.{R.randint(0,9)}'
        f.write(f'{m} {v} h1:{base64.b64encode(b(32)).decode()}\n{m} {v}/go.mod h1:{base64.b64encode(b(32)).decode()}\n')
    for c in ['serde', 'tokio', 'jsonwebtoken', 'ring', 'rustls', 'secrecy', 'argon2', 'clap', 'anyhow', 'tracing']:
        f.write(f'[[package]]\nname = "{c}"\nversion = "1.{R.randint(0,40)}.{R.randint(0,9)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{hx(64)}"\n')
    for p in ['requests', 'cryptography', 'pyjwt', 'passlib', 'urllib3', 'certifi', 'idna', 'keyring', 'secretstorage']:
        f.write(f'{p}==2.{R.randint(0,30)}.{R.randint(0,9)} \\\n    --hash=sha256:{hx(64)} \\\n    --hash=sha256:{hx(64)}\n')
        f.write(f'    {{file = "{p}-2.31.0-py3-none-any.whl", hash = "sha256:{hx(64)}"}},\n')
    for p in ['org.springframework.security:spring-security-crypto', 'io.jsonwebtoken:jjwt-api', 'com.auth0:java-jwt']:
        f.write(f'{p}:6.{R.randint(0,4)}.{R.randint(0,9)}=compileClasspath,runtimeClasspath\n')
        f.write(f'      <sha256>{hx(64)}</sha256>\n')
    f.write(f'  "packages/auth": {{ "lockfileVersion": 3, "requires": true }}\n')
    for p in pkgs[:12]:
        f.write(f"  /{p}@1.{R.randint(0,9)}.{R.randint(0,9)}:\n    resolution: {{integrity: sha512-{base64.b64encode(b(64)).decode()}}}\n")
msgs = ['Fix token refresh race in AuthClient', 'Add password reset endpoint', 'Rotate signing key handling', 'Bump jsonwebtoken from 8.5.1 to 9.0.2',
        'Remove hard-coded API key from tests', 'Read DB_PASSWORD from the environment', 'Refactor secret loading into SecretsProvider',
        'Merge pull request #412 from acme/fix-auth', 'Tokenizer: handle surrogate pairs', 'Use constant-time comparison for HMAC',
        'docs: explain how to set GITHUB_TOKEN', 'chore(deps): update dependency bcrypt to v5.1.1', 'feat(auth): support API keys per project',
        'Revert "Cache credentials in memory"', 'test: cover expired token path']
with open(f'{O}/git-and-ids.txt', 'w') as f:
    for i in range(60):
        sha = hx(40)
        f.write(f'commit {sha}\n')
        f.write(f'{sha[:7]} {R.choice(msgs)}\n')
        f.write(f'Author: Dev {i} <dev{i}@example.com>\n')
        if i % 3 == 0:
            f.write(f'Merge: {hx(7)} {hx(7)}\n')
        if i % 4 == 0:
            f.write(f'diff --git a/src/auth/token.ts b/src/auth/token.ts\nindex {hx(7)}..{hx(7)} 100644\n')
        if i % 5 == 0:
            f.write(f'   {hx(7)}..{hx(7)}  main -> main\n')
    for i in range(60):
        f.write(f'{uuid.UUID(bytes=b(16), version=4)}\n')
        f.write(f'  "id": "{uuid.UUID(bytes=b(16), version=4)}", "session_id": "{uuid.UUID(bytes=b(16), version=4)}"\n' if i % 2 else f'request_id={uuid.UUID(bytes=b(16), version=4)} trace_id={hx(32)} span_id={hx(16)}\n')
    for i in range(30):
        f.write(f'FROM node:20-alpine@sha256:{hx(64)}\n' if i % 2 else f'image: ghcr.io/acme/api@sha256:{hx(64)}\n')
        f.write(f'sha256sum: {hx(64)}  dist/app-{i}.tar.gz\n')
        f.write(f'md5: {hx(32)}  etag: "{hx(32)}"\n')
    for i in range(40):
        png = base64.b64encode(b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR' + b(R.randint(40, 200))).decode()
        kind = R.choice(['png', 'jpeg', 'gif', 'webp', 'svg+xml'])
        f.write(f'<img src="data:image/{kind};base64,{png}" alt="logo">\n' if i % 2 else f'  background: url(data:image/{kind};base64,{png});\n')
        f.write(f'"data": "{base64.b64encode(b(R.randint(30, 120))).decode()}",\n')
    for i in range(30):
        f.write(f'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{base64.b64encode(b(32)).decode()[:43]} dev{i}@laptop\n')
        f.write(f'github.com ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{base64.b64encode(b(90)).decode()}\n' if i % 3 == 0 else f'SHA256:{base64.b64encode(b(32)).decode().rstrip("=")} (ED25519)\n')
    for i in range(20):
        f.write(f'-----BEGIN CERTIFICATE-----\nMII{base64.b64encode(b(45)).decode()}\n-----END CERTIFICATE-----\n' if i % 4 == 0 else f'-----BEGIN PUBLIC KEY-----\n')
        f.write(f'  "x5t": "{base64.urlsafe_b64encode(b(20)).decode().rstrip("=")}", "kid": "{hx(16)}", "n": "{base64.urlsafe_b64encode(b(128)).decode().rstrip("=")}", "e": "AQAB"\n')
logs = ['[INFO] Tests run: 42, Failures: 0, Errors: 0, Skipped: 1, Time elapsed: 3.21 s - in dev.acme.auth.TokenServiceTests',
        '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project auth',
        'java.lang.IllegalStateException: token expired at 2026-11-02T09:00:00Z',
        '\tat dev.acme.auth.TokenService.verify(TokenService.java:88)',
        '\tat org.springframework.security.web.authentication.AuthenticationFilter.doFilterInternal(AuthenticationFilter.java:169)',
        'Caused by: io.jsonwebtoken.ExpiredJwtException: JWT expired 3600000 milliseconds ago',
        'npm WARN deprecated request@2.88.2: request has been deprecated',
        'npm ERR! code E401', 'npm ERR! Unable to authenticate, your authentication token seems to be invalid.',
        'error: failed to push some refs to origin', 'remote: Invalid username or password.', 'fatal: Authentication failed for repository',
        'FAILED tests/test_auth.py::test_login_with_wrong_password - AssertionError: assert 401 == 200',
        'tests/test_auth.py::test_token_refresh PASSED                                      [ 45%]',
        '2026-11-02 09:00:01.123 INFO 4242 --- [main] o.s.s.web.DefaultSecurityFilterChain : Will secure any request',
        '2026-11-02T09:00:02Z WARN auth: token refresh failed, retrying in 2s (attempt 1/5)',
        'level=info msg="loaded secrets" count=4 source=vault', 'level=error msg="invalid api key" status=401 request_id=abc-123',
        'Downloading https://repo.maven.apache.org/maven2/io/jsonwebtoken/jjwt-api/0.12.5/jjwt-api-0.12.5.pom',
        'BUILD SUCCESSFUL in 12s', '12 actionable tasks: 12 executed', 'warning: unused variable: `token`',
        ' --> src/auth.rs:42:9', '   |     let token = read_token()?;', 'error[E0425]: cannot find value `secret` in this scope',
        "TypeError: Cannot read properties of undefined (reading 'token')", '    at verifyToken (/app/src/auth.js:17:23)',
        'Traceback (most recent call last):', '  File "/app/auth.py", line 12, in login', '    if not verify(password, user.password_hash):',
        'KeyError: \'SECRET_KEY\'', 'django.core.exceptions.ImproperlyConfigured: The SECRET_KEY setting must not be empty.',
        'psql: error: connection to server at "db" (10.0.0.5), port 5432 failed: FATAL:  password authentication failed for user "app"',
        "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)",
        'HTTP/1.1 401 Unauthorized', 'WWW-Authenticate: Bearer realm="api", error="invalid_token"', 'Set-Cookie: theme=dark; Path=/; SameSite=Lax',
        'Content-Type: application/json', 'X-RateLimit-Remaining: 4999', 'x-request-id: 5f0c2a10-9f1b-4c1e-8a0e-3d2b1c0a9e8f']
with open(f'{O}/logs.txt', 'w') as f:
    for i in range(3):
        for l in logs:
            f.write(l.replace('42', str(40 + i)) + '\n')
