"""Generates processors/src/test/resources/secrets/samples.txt: fake secrets in each provider's documented format.

Every value is random (seeded), never a real credential. A line is `family<TAB>text`; the secret values inside text
are wrapped in ⟦ ⟧; `\\n` in text is a line break, `\\\\` a backslash.
"""
import random, string, base64, json, sys

R = random.Random(20261103)
ALNUM = string.ascii_letters + string.digits
UP_NUM = string.ascii_uppercase + string.digits
HEX = '0123456789abcdef'
B64 = ALNUM + '+/'
URLSAFE = ALNUM + '-_'

def rnd(alpha, n): return ''.join(R.choice(alpha) for _ in range(n))

S = '⟦{}⟧'
out = []
def add(family, text): out.append((family, text))

# contexts for shape-detected tokens: neutral ones that do not rely on a secret-named key
def neutral(family, gen, names):
    for name in names:
        v = gen()
        add(family, f'{name}={S.format(v)}')
    v = gen(); add(family, f'here is the key I used: {S.format(v)} (please rotate it)')
    v = gen(); add(family, f'client = Client("{S.format(v)}")')
    v = gen(); add(family, f'{{"id": 7, "value": "{S.format(v)}", "enabled": true}}')
    v = gen(); add(family, f'curl https://api.example.com/v1/items -H "X-Auth: {S.format(v)}"')
    v = gen(); add(family, f'  config.credential = "{S.format(v)}"')
    v = gen(); add(family, f'error: invalid credential {S.format(v)} for project demo')
    v = gen(); add(family, f'- value: {S.format(v)}')

# ---- AI providers
neutral('anthropic', lambda: 'sk-ant-api03-' + rnd(URLSAFE, 93) + 'AA', ['ANTHROPIC_API_KEY', 'CLAUDE_KEY'])
add('anthropic', 'admin key ' + S.format('sk-ant-admin01-' + rnd(URLSAFE, 93) + 'AA'))
neutral('openai', lambda: R.choice(['sk-proj-' + rnd(URLSAFE, 156), 'sk-' + rnd(ALNUM, 20) + 'T3BlbkFJ' + rnd(ALNUM, 20),
                                    'sk-svcacct-' + rnd(URLSAFE, 120)]), ['OPENAI_API_KEY', 'OPENAI_KEY'])
neutral('huggingface', lambda: 'hf_' + rnd(string.ascii_letters, 34), ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN'])
neutral('groq', lambda: 'gsk_' + rnd(ALNUM, 52), ['GROQ_API_KEY'])
neutral('replicate', lambda: 'r8_' + rnd(ALNUM, 37), ['REPLICATE_API_TOKEN'])
neutral('xai', lambda: 'xai-' + rnd(ALNUM, 80), ['XAI_API_KEY'])
neutral('perplexity', lambda: 'pplx-' + rnd(ALNUM, 48), ['PPLX_KEY'])
neutral('langsmith', lambda: 'lsv2_pt_' + rnd(HEX, 32) + '_' + rnd(HEX, 10), ['LANGCHAIN_API_KEY'])

# ---- cloud
neutral('aws-access-key-id', lambda: R.choice(['AKIA', 'ASIA']) + rnd('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16), ['AWS_ACCESS_KEY_ID', 'aws_access_key_id'])
for tmpl in ['aws_secret_access_key = {}', 'AWS_SECRET_ACCESS_KEY={}', 'export AWS_SECRET_ACCESS_KEY="{}"',
             '"SecretAccessKey": "{}",', 'secretAccessKey: {}', 'aws configure set aws_secret_access_key {}',
             '  aws_secret_access_key: "{}"', 'AWS_SECRET_KEY = \'{}\'', 'spark.hadoop.fs.s3a.secret.key={}',
             '[default]\\naws_access_key_id = AKIA' + rnd('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16) + '\\naws_secret_access_key = {}']:
    v = rnd(B64, 40)
    if tmpl.startswith('[default]'):
        add('aws-secret-key', tmpl.replace('AKIA', '⟦AKIA').replace('\\naws_secret', '⟧\\naws_secret').format(S.format(v)))
    else:
        add('aws-secret-key', tmpl.format(S.format(v)))
for tmpl in ['aws_session_token = {}', 'AWS_SESSION_TOKEN="{}"', '"SessionToken": "{}"']:
    add('aws-session-token', tmpl.format(S.format('IQoJb3JpZ2luX2VjE' + rnd(B64, 200) + '==')))
def gcp_sa():
    key = base64.b64encode(bytes(R.getrandbits(8) for _ in range(600))).decode()
    lines = '\\\\n'.join(key[i:i+64] for i in range(0, len(key), 64))
    return '-----BEGIN PRIVATE KEY-----\\\\n' + lines + '\\\\n-----END PRIVATE KEY-----\\\\n'
for _ in range(4):
    pk = gcp_sa(); pkid = rnd(HEX, 40)
    add('gcp-service-account', '{"type": "service_account", "project_id": "demo-123", "private_key_id": "' + pkid
        + '", "private_key": "' + S.format(pk) + '", "client_email": "ci@demo-123.iam.gserviceaccount.com"}')
add('gcp-service-account', '  "private_key": "' + S.format(gcp_sa()) + '",')
add('gcp-service-account', 'GOOGLE_PRIVATE_KEY="' + S.format(gcp_sa()) + '"')
neutral('gcp-api-key', lambda: 'AIza' + rnd(URLSAFE, 35), ['GOOGLE_API_KEY', 'MAPS_KEY'])
neutral('google-oauth', lambda: R.choice(['GOCSPX-' + rnd(URLSAFE, 28), 'ya29.a0' + rnd(URLSAFE, 120), '1//0' + rnd(URLSAFE, 100)]), ['GOOGLE_CLIENT_SECRET'])
for _ in range(5):
    k = base64.b64encode(bytes(R.getrandbits(8) for _ in range(64))).decode()
    add('azure-storage', 'DefaultEndpointsProtocol=https;AccountName=demostore;AccountKey=' + S.format(k) + ';EndpointSuffix=core.windows.net')
add('azure-storage', 'AZURE_STORAGE_KEY=' + S.format(base64.b64encode(bytes(R.getrandbits(8) for _ in range(64))).decode()))
add('azure-storage', 'Endpoint=sb://demo.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=' + S.format(base64.b64encode(bytes(R.getrandbits(8) for _ in range(32))).decode()))
add('azure-storage', 'https://demostore.blob.core.windows.net/c/file.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&sig=' + S.format(rnd(ALNUM, 40) + '%2B' + rnd(ALNUM, 6) + '%3D'))
neutral('azure-ad-client-secret', lambda: rnd(ALNUM, 3) + R.choice('0123456789') + 'Q~' + rnd(ALNUM + '_~.-', 34), ['AZURE_CLIENT_SECRET'])
for tmpl in ['AZURE_OPENAI_API_KEY={}', '"subscriptionKey": "{}"', 'Ocp-Apim-Subscription-Key: {}']:
    add('azure-api-key', tmpl.format(S.format(rnd(HEX, 32))))
neutral('alibaba', lambda: 'LTAI' + rnd(ALNUM, 20), ['ALIBABA_ACCESS_KEY_ID'])
neutral('digitalocean', lambda: R.choice(['dop_v1_', 'doo_v1_']) + rnd(HEX, 64), ['DIGITALOCEAN_TOKEN'])
for tmpl in ['CLOUDFLARE_API_TOKEN={}', 'cloudflare_api_token = "{}"', 'export CF_API_TOKEN={}']:
    add('cloudflare', tmpl.format(S.format(rnd(URLSAFE, 40))))
add('cloudflare', 'origin key ' + S.format('v1.0-' + rnd(HEX, 24) + '-' + rnd(HEX, 146)))
neutral('heroku', lambda: 'HRKU-' + rnd(URLSAFE, 60), ['HEROKU_API_KEY'])
add('heroku', 'HEROKU_API_KEY=' + S.format(f'{rnd(HEX,8)}-{rnd(HEX,4)}-{rnd(HEX,4)}-{rnd(HEX,4)}-{rnd(HEX,12)}'))
neutral('vault-terraform', lambda: R.choice(['hvs.' + rnd(URLSAFE, 90), rnd(ALNUM, 14) + '.atlasv1.' + rnd(URLSAFE, 67)]), ['VAULT_TOKEN', 'TFE_TOKEN'])
neutral('databricks', lambda: 'dapi' + rnd(HEX, 32), ['DATABRICKS_TOKEN'])
neutral('supabase', lambda: R.choice(['sbp_' + rnd(HEX, 40), 'sb_secret_' + rnd(URLSAFE, 32)]), ['SUPABASE_ACCESS_TOKEN'])
neutral('netlify-fly', lambda: R.choice(['nfp_' + rnd(ALNUM, 36), 'fm2_' + rnd(ALNUM + '+/', 120)]), ['NETLIFY_AUTH_TOKEN', 'FLY_API_TOKEN'])

# ---- code hosting, packages
neutral('github', lambda: R.choice(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']) + rnd(ALNUM, 36), ['GITHUB_TOKEN', 'GH_TOKEN'])
neutral('github-fine-grained', lambda: 'github_pat_' + rnd(ALNUM, 22) + '_' + rnd(ALNUM, 59), ['GITHUB_PAT'])
neutral('gitlab', lambda: R.choice(['glpat-' + rnd(URLSAFE, 20), 'gldt-' + rnd(URLSAFE, 20), 'glrt-' + rnd(URLSAFE, 20), 'GR1348941' + rnd(URLSAFE, 20)]), ['GITLAB_TOKEN', 'CI_JOB_TOKEN'])
neutral('bitbucket', lambda: 'ATBB' + rnd(ALNUM, 32), ['BITBUCKET_APP_PASSWORD'])
neutral('atlassian', lambda: 'ATATT3xFfGF0' + rnd(URLSAFE, 180) + '=' + rnd(HEX, 8).upper(), ['JIRA_API_TOKEN'])
neutral('npm', lambda: 'npm_' + rnd(ALNUM, 36), ['NPM_TOKEN'])
add('npm', '//registry.npmjs.org/:_authToken=' + S.format('npm_' + rnd(ALNUM, 36)))
add('npm', '//npm.pkg.github.com/:_authToken=' + S.format(rnd(HEX, 40)))
neutral('pypi', lambda: 'pypi-AgEIcHlwaS5vcmc' + rnd(URLSAFE, 140), ['PYPI_TOKEN', 'TWINE_PASSWORD'])
add('pypi', '[pypi]\\nusername = __token__\\npassword = ' + S.format('pypi-AgEIcHlwaS5vcmc' + rnd(URLSAFE, 140)))
neutral('rubygems-nuget-clojars', lambda: R.choice(['rubygems_' + rnd(HEX, 48), 'oy2' + rnd(string.ascii_lowercase + string.digits, 43), 'CLOJARS_' + rnd(string.ascii_lowercase + string.digits, 60)]), ['GEM_HOST_API_KEY'])
neutral('docker', lambda: 'dckr_pat_' + rnd(URLSAFE, 27), ['DOCKER_TOKEN', 'DOCKERHUB_TOKEN'])
for _ in range(3):
    auth = base64.b64encode(('ci-bot:' + rnd(ALNUM, 16)).encode()).decode()
    add('docker', '{"auths": {"https://index.docker.io/v1/": {"auth": "' + S.format(auth) + '"}}}')
add('docker', 'docker login -u ci-bot -p ' + S.format(rnd(ALNUM, 16)) + ' registry.example.com')
add('docker', 'echo done; docker login --username ci --password ' + S.format(rnd(ALNUM, 18)) + ' ghcr.io')

# ---- messaging, payments, SaaS
neutral('slack-token', lambda: R.choice(['xoxb-', 'xoxp-', 'xoxa-2-', 'xoxe.xoxp-1-']).replace('xoxe.xoxp-1-', 'xoxp-1-') + f'{R.randint(10**10,10**12)}-{R.randint(10**10,10**12)}-' + rnd(ALNUM, 24), ['SLACK_BOT_TOKEN', 'SLACK_TOKEN'])
add('slack-token', 'app token ' + S.format(f'xapp-1-A{rnd(UP_NUM,10)}-{R.randint(10**12,10**13)}-' + rnd(HEX, 64)))
for _ in range(5):
    add('slack-webhook', 'SLACK_WEBHOOK_URL=https://hooks.slack.com/services/' + S.format(f'T{rnd(UP_NUM,10)}/B{rnd(UP_NUM,10)}/{rnd(ALNUM,24)}'))
for _ in range(3):
    add('discord', 'webhook: https://discord.com/api/webhooks/' + S.format(f'{R.randint(10**17,10**18)}/{rnd(URLSAFE,68)}'))
for tmpl in ['DISCORD_BOT_TOKEN={}', 'discord_token: "{}"']:
    add('discord', tmpl.format(S.format('M' + rnd(ALNUM, 25) + '.' + rnd(URLSAFE, 6) + '.' + rnd(URLSAFE, 38))))
neutral('telegram', lambda: f'{R.randint(10**8, 10**10 - 1)}:AA' + rnd(URLSAFE, 33), ['TELEGRAM_BOT_TOKEN'])
neutral('stripe', lambda: R.choice(['sk_live_', 'sk_test_', 'rk_live_']) + rnd(ALNUM, 99), ['STRIPE_SECRET_KEY', 'STRIPE_KEY'])
add('stripe', 'STRIPE_WEBHOOK_SECRET=' + S.format('whsec_' + rnd(ALNUM, 32)))
neutral('square', lambda: R.choice(['sq0atp-' + rnd(URLSAFE, 22), 'sq0csp-' + rnd(URLSAFE, 43), 'EAAA' + rnd(ALNUM, 60)]), ['SQUARE_ACCESS_TOKEN'])
neutral('twilio', lambda: 'SK' + rnd(HEX, 32), ['TWILIO_API_KEY'])
for tmpl in ['TWILIO_AUTH_TOKEN={}', 'client = Client(account_sid, auth_token="{}")', 'twilio_auth_token: {}']:
    add('twilio', tmpl.format(S.format(rnd(HEX, 32))))
neutral('sendgrid', lambda: 'SG.' + rnd(URLSAFE, 22) + '.' + rnd(URLSAFE, 43), ['SENDGRID_API_KEY'])
neutral('mailgun-mailchimp', lambda: R.choice(['key-' + rnd(HEX, 32), rnd(HEX, 32) + '-us' + str(R.randint(1, 21))]), ['MAILGUN_API_KEY', 'MAILCHIMP_KEY'])
neutral('shopify', lambda: R.choice(['shpat_', 'shpss_', 'shpca_']) + rnd(HEX, 32), ['SHOPIFY_ACCESS_TOKEN'])
neutral('linear-notion', lambda: R.choice(['lin_api_' + rnd(ALNUM, 40), 'secret_' + rnd(ALNUM, 43), 'ntn_' + rnd(ALNUM, 46)]), ['LINEAR_API_KEY', 'NOTION_TOKEN'])
neutral('postman', lambda: 'PMAK-' + rnd(HEX, 24) + '-' + rnd(HEX, 34), ['POSTMAN_API_KEY'])
neutral('grafana-newrelic', lambda: R.choice(['glc_' + rnd(ALNUM, 60) + '==', 'glsa_' + rnd(ALNUM, 32) + '_' + rnd(HEX, 8), 'NRAK-' + rnd(UP_NUM, 27)]), ['GRAFANA_TOKEN', 'NEW_RELIC_API_KEY'])
neutral('sentry', lambda: 'sntrys_eyJpYXQiOjE3MDAwMDAwMDB9' + rnd(URLSAFE, 60), ['SENTRY_AUTH_TOKEN'])
for _ in range(3):
    add('sentry', 'SENTRY_DSN=https://' + S.format(rnd(HEX, 32)) + f'@o{R.randint(10**5,10**6)}.ingest.sentry.io/{R.randint(10**6,10**7)}')
neutral('doppler-pulumi', lambda: R.choice(['dp.pt.' + rnd(ALNUM, 43), 'pul-' + rnd(HEX, 40)]), ['DOPPLER_TOKEN', 'PULUMI_ACCESS_TOKEN'])
neutral('airtable-dropbox-figma', lambda: R.choice(['pat' + rnd(ALNUM, 14) + '.' + rnd(HEX, 64), 'sl.' + rnd(URLSAFE, 140), 'figd_' + rnd(URLSAFE, 40)]), ['AIRTABLE_TOKEN'])
neutral('age-key', lambda: 'AGE-SECRET-KEY-1' + rnd('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58), ['SOPS_AGE_KEY'])
neutral('firebase-fcm', lambda: 'AAAA' + rnd(URLSAFE, 7) + ':APA91b' + rnd(URLSAFE, 134), ['FCM_SERVER_KEY'])

# ---- JWT and keys
def jwt():
    h = base64.urlsafe_b64encode(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()).decode().rstrip('=')
    p = base64.urlsafe_b64encode(json.dumps({"sub": rnd(HEX, 8), "iat": R.randint(1.6e9, 1.8e9), "role": "service_role"}).encode()).decode().rstrip('=')
    return h + '.' + p + '.' + rnd(URLSAFE, 43)
neutral('jwt', jwt, ['SUPABASE_SERVICE_ROLE_KEY', 'SESSION'])
add('jwt', 'Authorization: Bearer ' + S.format(jwt()))
add('jwt', 'Cookie: session=' + S.format(jwt()) + '; Path=/')
def pem(kind):
    body = base64.b64encode(bytes(R.getrandbits(8) for _ in range(300))).decode()
    lines = '\\n'.join(body[i:i+64] for i in range(0, len(body), 64))
    return f'-----BEGIN {kind}PRIVATE KEY-----\\n{lines}\\n-----END {kind}PRIVATE KEY-----'
for kind in ['RSA ', 'EC ', 'OPENSSH ', '', 'ENCRYPTED ', 'DSA ']:
    add('pem-private-key', 'the key:\\n' + S.format(pem(kind)) + '\\nthanks')
add('pem-private-key', S.format('-----BEGIN PGP PRIVATE KEY BLOCK-----\\n\\nlQOYBF' + rnd(B64, 120) + '\\n=' + rnd(B64, 4) + '\\n-----END PGP PRIVATE KEY BLOCK-----'))
for tmpl in ['client-key-data: {}', '    client-key-data: {}']:
    add('kubeconfig', tmpl.format(S.format('LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo' + rnd(B64, 200) + '==')))
add('kubeconfig', '    token: ' + S.format(jwt()))

# ---- authorization headers
for _ in range(3):
    add('authorization-header', 'curl -H "Authorization: Bearer ' + S.format(rnd(ALNUM, 40)) + '" https://api.example.com')
    add('authorization-header', "headers: {'Authorization': 'Basic " + S.format(base64.b64encode(('admin:' + rnd(ALNUM, 12)).encode()).decode()) + "'}")
    add('authorization-header', 'Authorization: token ' + S.format(rnd(HEX, 40)))
    add('authorization-header', 'requests.get(url, headers={"X-Api-Key": "' + S.format(rnd(ALNUM, 32)) + '"})')

# ---- connection strings
users = ['admin', 'app', 'postgres', 'root', 'svc_orders', 'neo4j']
def pw(): return R.choice([rnd(ALNUM, 16), rnd(ALNUM, 8) + '!' + rnd(ALNUM, 4), 'Tr0ub4dor-' + rnd(ALNUM, 4), rnd(string.ascii_lowercase, 10) + str(R.randint(10, 99))])
for scheme, fam, host in [('postgres', 'postgres-url', 'db.internal:5432/app'), ('postgresql', 'postgres-url', 'localhost/orders'),
                          ('mysql', 'mysql-url', 'mysql.internal:3306/shop'), ('mongodb+srv', 'mongodb-url', 'cluster0.ab1cd.mongodb.net/test?retryWrites=true'),
                          ('mongodb', 'mongodb-url', '10.0.0.5:27017/admin'), ('redis', 'redis-url', 'cache.internal:6379/0'),
                          ('rediss', 'redis-url', 'cache.upstash.io:6380'), ('amqp', 'amqp-url', 'rabbit.internal:5672/vhost'),
                          ('amqps', 'amqp-url', 'b-1.mq.amazonaws.com:5671'), ('sqlserver', 'mssql-url', 'sql.internal:1433'),
                          ('https', 'url-basic-auth', 'git.example.com/org/repo.git'), ('ftp', 'url-basic-auth', 'files.example.com/in'),
                          ('smtp', 'url-basic-auth', 'smtp.mailgun.org:587'), ('neo4j+s', 'neo4j-url', 'abc123.databases.neo4j.io')]:
    for tmpl in ['DATABASE_URL={}', 'url: "{}"', 'engine = create_engine("{}")', 'connecting to {} ...']:
        add(fam, tmpl.format(f'{scheme}://{R.choice(users)}:{S.format(pw())}@{host}'))
add('redis-url', 'REDIS_URL=redis://:' + S.format(pw()) + '@localhost:6379')
for tmpl in ['Server=tcp:sql.internal,1433;Database=shop;User Id=sa;Password={};Encrypt=true',
             'Data Source=db;Initial Catalog=app;User ID=app;Password={};', 'jdbc:postgresql://db:5432/app?user=app&password={}&ssl=true',
             'jdbc:mysql://db/app?user=root&password={}', 'dsn := "app:{}@tcp(127.0.0.1:3306)/shop?parseTime=true"',
             'Host=db;Port=5432;Username=app;Password={}']:
    add('connection-string-kv', tmpl.format(S.format(pw())))

# ---- key-value forms with secret-named keys
names = ['DB_PASSWORD', 'POSTGRES_PASSWORD', 'MYSQL_ROOT_PASSWORD', 'REDIS_PASSWORD', 'SMTP_PASS', 'JWT_SECRET', 'SECRET_KEY_BASE',
         'DJANGO_SECRET_KEY', 'APP_KEY', 'API_TOKEN', 'AUTH_TOKEN', 'ENCRYPTION_KEY', 'CLIENT_SECRET', 'SESSION_SECRET', 'ADMIN_PASSWORD',
         'NEO4J_PASSWORD', 'RABBITMQ_DEFAULT_PASS', 'KEYCLOAK_ADMIN_PASSWORD', 'WEBHOOK_SECRET', 'PRIVATE_KEY_PASSPHRASE']
def val(): return R.choice([pw(), rnd(ALNUM, 32), rnd(HEX, 64), 'base64:' + base64.b64encode(bytes(R.getrandbits(8) for _ in range(32))).decode(),
                            rnd(string.ascii_lowercase, 6) + '-' + rnd(string.ascii_lowercase, 6) + '-' + str(R.randint(1000, 9999))])
for n in names:
    add('env-file', f'{n}={S.format(val())}')
    add('env-file', f'export {n}="{S.format(val())}"')
for n in names[:10]:
    k = n.lower()
    add('yaml', f'  {k}: {S.format(val())}')
    add('yaml', f'{k}: "{S.format(val())}"')
    add('json', f'{{"{k}": "{S.format(val())}", "port": 5432}}')
    add('json', f'  "{n}": "{S.format(val())}",')
    add('toml', f'{k} = "{S.format(val())}"')
    add('properties', f'app.{k}={S.format(val())}')
for n in names[10:]:
    k = n.lower()
    add('yaml', f'    {k}: \'{S.format(val())}\'')
    add('json', f'"{k}":"{S.format(val())}"')
    add('toml', f'{k}="{S.format(val())}"')
    add('ini', f'{k} = {S.format(val())}')
for tmpl in ['password: {}', 'password = "{}"', "'password' => '{}',", 'password := "{}"', ':password => "{}"',
             'private static final String API_KEY = "{}";', 'const apiKey = "{}";', 'let secret = \'{}\';', 'val dbPassword: String = "{}"',
             'password: str = "{}"', 'self.api_key = "{}"', 'config.token = "{}"', 'user.setPassword("{}");', '.password("{}")',
             '<password>{}</password>', '<add key="ApiSecret" value="{}" />', 'Password: {}', 'pwd={}', 'apikey: {}', '--password={}',
             'mysql -u root -p{} shop', 'psql "postgresql://app@db/app?password={}"', 'sshpass -p \'{}\' ssh deploy@host',
             '--db-password {}', 'token={}', 'client_secret={}&grant_type=client_credentials']:
    add('code-literal', tmpl.format(S.format(val())))
# JSON inside a string field, as tools print it
for n in ['NEO4J_PASSWORD', 'api_key', 'DB_PASSWORD', 'secret']:
    add('escaped-json', '{\\\\"' + n + '\\\\": \\\\"' + S.format(val()) + '\\\\", \\\\"host\\\\": \\\\"db\\\\"}')
    add('escaped-json', 'result: "{\\\\"config\\\\": {\\\\"' + n + '\\\\":\\\\"' + S.format(val()) + '\\\\"}}"')

# ---- defaults of environment lookups
for tmpl in ['neo4j_password: System.get_env("NEO4J_PASSWORD", "{}")', 'password = os.getenv("DB_PASSWORD", "{}")',
             "password = os.environ.get('POSTGRES_PASSWORD', '{}')", 'const token = process.env.API_TOKEN || "{}";',
             'const secret = process.env.JWT_SECRET ?? "{}";', 'password: ${{DB_PASSWORD:-{}}}', 'url: jdbc:x?pw=${{DB_PASSWORD:{}}}',
             'POSTGRES_PASSWORD: ${{POSTGRES_PASSWORD:-{}}}', 'api_key = ENV.fetch("STRIPE_API_KEY", "{}")', "define('DB_PASSWORD', '{}');",
             "'password' => env('DB_PASSWORD', '{}'),", 'String pw = System.getenv().getOrDefault("DB_PASSWORD", "{}");',
             'secret = os.getenv("SECRET_KEY") or "{}"', 'password = config.get("database", "password", fallback="{}")',
             'System.setProperty("db.password", "{}");', 'token := getenv("GITHUB_TOKEN", "{}")']:
    add('getenv-default', tmpl.format(S.format(val())))

# ---- credentials lines
for tmpl in ['Credentials: neo4j/{}', 'credentials: admin/{}', 'Login credentials: root:{}', 'creds = admin:{}',
             'default credentials: elastic/{}', 'CREDENTIALS=svc:{}']:
    add('credentials-line', tmpl.format(S.format(pw())))
for _ in range(3):
    add('netrc', f'machine api.example.com login ci@example.com password {S.format(pw())}')
add('netrc', f'machine github.com\\n  login octocat\\n  password {S.format("ghp_" + rnd(ALNUM, 36))}')
for _ in range(3):
    add('cli-flags', f'curl -u admin:{S.format(pw())} https://jenkins.example.com/api/json')
    add('cli-flags', f'./deploy.sh --api-token {S.format(rnd(ALNUM, 32))} --env prod')

# ---- high-entropy values under secret-named keys without a provider prefix
for n in ['MISTRAL_API_KEY', 'COHERE_API_KEY', 'ALGOLIA_ADMIN_KEY', 'OKTA_API_TOKEN', 'VERCEL_TOKEN', 'CIRCLECI_TOKEN',
          'DATADOG_API_KEY', 'PAGERDUTY_TOKEN', 'ASANA_ACCESS_TOKEN', 'CONTENTFUL_ACCESS_TOKEN', 'MAPBOX_SECRET', 'OPENROUTER_KEY']:
    add('generic-high-entropy', f'{n}={S.format(rnd(ALNUM, R.randint(24, 48)))}')
    add('generic-high-entropy', f'  "{n.lower()}": "{S.format(rnd(ALNUM, R.randint(24, 48)))}"')

# ---- the assignment shapes of gitleaks' sample generator (MIT): one family per shape, provider names as identifiers
shapes = {
    'ini-quoted': ['{i}Token="{s}"', '{i}Token = "{s}"'], 'ini-unquoted': ['{i}Token={s}', '{i}Token = {s}'],
    'json-string': ['{\\n    "{i}_token": "{s}"\\n}'], 'json-escaped': ['\\\\{\\n    \\\\"{i}_token\\\\": \\\\"{s}\\\\"\\n\\\\}'],
    'xml-element': ['<{i}Token>{s}</{i}Token>', '<{i}Token>\\n    {s}\\n</{i}Token>'],
    'yaml-shapes': ['{i}_token: {s}', "{i}_token: '{s}'", '{i}_token: "{s}"', '{i}_token: |\\n  {s}', '{i}_token: >\\n  {s}'],
    'language-shapes': ['string {i}Token = "{s}";', 'var {i}Token string = "{s}"', '{i}Token := "{s}"', '{i}Token := `{s}`',
                        'String {i}Token = "{s}";', 'var {i}Token = "{s}"', '${i}Token .= "{s}"', "{i}Token = '{s}'", '{i}Token = "{s}"'],
    'misc-shapes': ['{i}Token,{s},', '  "{i}Token" => "{s}"'],
    'make-shapes': ['{i}_TOKEN = "{s}"', '{i}_TOKEN := "{s}"', '{i}_TOKEN ::= "{s}"', '{i}_TOKEN :::= "{s}"', '{i}_TOKEN ?= "{s}"', '{i}_TOKEN += "{s}"'],
}
providers = ['adobe', 'asana', 'beamer', 'bittrex', 'codecov', 'coinbase', 'contentful', 'datadog', 'droneci', 'etsy', 'fastly',
             'finicity', 'finnhub', 'flickr', 'freshbooks', 'gitter', 'gocardless', 'hubspot', 'intercom', 'kraken', 'kucoin',
             'launchdarkly', 'lob', 'mapbox', 'mattermost', 'messagebird', 'netlify', 'nytimes', 'okta', 'plaid', 'rapidapi',
             'sendinblue', 'sumologic', 'travisci', 'twitch', 'twitter', 'typeform', 'yandex', 'zendesk']
for fam, tmpls in shapes.items():
    for t in tmpls:
        for _ in range(2):
            secret = R.choice([rnd(HEX, 32), rnd(ALNUM, 40), rnd(string.ascii_lowercase + string.digits, 24), rnd(URLSAFE, 43)])
            text = t.replace('{i}', R.choice(providers)).replace('{s}', S.format(secret))
            add('gitleaks-' + fam, text)

# ---- widened for issue 40 from the detectors' public rule sets and the providers' documented formats (sources in
# ../README.md): gitleaks cmd/generate/config/rules/*.go, detect-secrets detect_secrets/plugins/*.py, GitHub secret
# scanning's supported patterns. Our own random values in each documented shape; nothing copied from their tests.
LOWNUM = string.ascii_lowercase + string.digits
neutral('onepassword-secret-key', lambda: 'A3-' + rnd(UP_NUM, 6) + '-' + R.choice([rnd(UP_NUM, 11), rnd(UP_NUM, 6) + '-' + rnd(UP_NUM, 5)])
        + '-' + rnd(UP_NUM, 5) + '-' + rnd(UP_NUM, 5) + '-' + rnd(UP_NUM, 5), ['OP_SECRET_KEY'])
add('onepassword-secret-key', 'Secret Key: ' + S.format('A3-' + rnd(UP_NUM, 6) + '-' + rnd(UP_NUM, 6) + '-' + rnd(UP_NUM, 5) + '-' + rnd(UP_NUM, 5) + '-' + rnd(UP_NUM, 5) + '-' + rnd(UP_NUM, 5)))
neutral('adobe-client-secret', lambda: 'p8e-' + rnd(R.choice([HEX, ALNUM]), 32), ['ADOBE_CLIENT_SECRET'])
neutral('aws-bedrock-api-key', lambda: 'ABSK' + base64.b64encode(b'BedrockAPIKey-' + rnd(LOWNUM, 4).encode() + b'-at-' + rnd(string.digits, 12).encode() + b':' + rnd(ALNUM, 60).encode()).decode(), ['AWS_BEARER_TOKEN_BEDROCK'])
neutral('aws-access-key-id-a3t', lambda: 'A3T' + rnd(UP_NUM, 17), ['AWS_ACCESS_KEY_ID'])
neutral('dynatrace', lambda: 'dt0c01.' + rnd(R.choice([UP_NUM, LOWNUM]), 24) + '.' + rnd(R.choice([UP_NUM, LOWNUM]), 64), ['DT_API_TOKEN'])
neutral('easypost', lambda: R.choice(['EZAK', 'EZTK']) + rnd(ALNUM, 54), ['EASYPOST_API_KEY'])
for _ in range(6):
    app = rnd(string.digits, R.choice([15, 16]))
    sec = rnd(URLSAFE, R.choice([27, 32]))
    add('facebook-app-token', R.choice(['FB_ACCESS_TOKEN={}', 'graph.facebook.com/me?access_token={}', 'const token = "{}";',
                                       'facebook {}']).format(S.format(app + R.choice(['|', '%7C']) + sec)))
neutral('flutterwave', lambda: R.choice(['FLWSECK_TEST-' + rnd(HEX, 12), 'FLWSECK_TEST-' + rnd(HEX, 32) + '-X', 'FLWSECK-' + rnd(HEX, 32) + '-X',
                                         'FLWPUBK_TEST-' + rnd(HEX, 32) + '-X', 'FLWPUBK-' + rnd(HEX, 32) + '-X']), ['FLW_SECRET_KEY'])
neutral('gitlab-more', lambda: R.choice(['glagent-' + rnd(URLSAFE, 50), 'glffct-' + rnd(URLSAFE, 20)]), ['GITLAB_AGENT_TOKEN'])
neutral('intra42', lambda: 's-s4t2' + R.choice(['ud', 'af']) + '-' + rnd(HEX, 64), ['FT_CLIENT_SECRET'])
def jwt_part(obj): return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip('=')
def a_jwt(signed=True):
    t = jwt_part({'alg': R.choice(['HS256', 'RS256']), 'typ': 'JWT'}) + '.' + jwt_part({'sub': rnd(string.digits, 8), 'iat': 1700000000 + R.randint(0, 10**7)})
    return t + ('.' + rnd(URLSAFE, 43) if signed else '')
neutral('jwt-base64', lambda: base64.b64encode(a_jwt().encode()).decode(), ['AUTH_JWT_B64'])
for _ in range(4):
    add('jwt-unsigned', R.choice(['token = "{}"', 'Cookie: session={}', '{{"id_token": "{}"}}', 'fixture: {}']).format(S.format(a_jwt(False))))
for _ in range(3):
    v1 = base64.b64encode(rnd(ALNUM, 16).encode()).decode(); v2 = base64.b64encode(rnd(ALNUM, 12).encode()).decode()
    add('kubernetes-secret', 'apiVersion: v1\\nkind: Secret\\nmetadata:\\n  name: db-' + rnd(string.ascii_lowercase, 5) + '\\ntype: Opaque\\ndata:\\n  username: '
        + S.format(v2) + '\\n  password: ' + S.format(v1) + '\\n')
    v3 = base64.b64encode(('{"auths":{"registry.example.com":{"auth":"' + base64.b64encode(rnd(ALNUM, 20).encode()).decode() + '"}}}').encode()).decode()
    add('kubernetes-secret', 'apiVersion: v1\\ndata:\\n  .dockerconfigjson: ' + S.format(v3) + '\\nkind: Secret\\ntype: kubernetes.io/dockerconfigjson\\n')
    add('kubernetes-secret', 'kind: "Secret"\\nstringData:\\n  api-endpoint-credential: |\\n    ' + S.format(rnd(ALNUM, 30)) + '\\nmetadata:\\n  name: app\\n')
for tmpl in ['curl -u deploy:{} https://ci.example.com/api', 'curl --user "ops:{}" https://example.com/health',
             'curl -X POST https://api.example.com/jobs \\\\\\n  -H "Accept: application/json" \\\\\\n  -u builder:{}',
             'curl -u ":{}" https://localhost:9200/_cat/indices', 'curl -sS --user admin:{} -k https://localhost:9200']:
    add('curl-user', tmpl.format(S.format(rnd(ALNUM, 8) + R.choice(['@', '!', '$', '#']) + rnd(ALNUM, 6))))
neutral('openshift', lambda: 'sha256~' + rnd(URLSAFE, 43), ['OC_TOKEN'])
neutral('sourcegraph', lambda: R.choice(['sgp_' + rnd(HEX, 40), 'sgp_' + rnd(HEX, 16) + '_' + rnd(HEX, 40), 'sgp_local_' + rnd(HEX, 40)]), ['SRC_ACCESS_TOKEN'])
neutral('stripe-prod', lambda: R.choice(['sk_prod_', 'rk_prod_']) + rnd(ALNUM, 99), ['STRIPE_KEY'])
neutral('slack-rotating-and-app', lambda: R.choice(['xoxe.xoxp-1-' + rnd(ALNUM, 140), 'xoxe-1-' + rnd(ALNUM, 140),
                                                    'xapp-1-' + rnd(UP_NUM, 11) + '-' + rnd(string.digits, 13) + '-' + rnd(HEX, 64)]), ['SLACK_APP_TOKEN'])
for _ in range(3):
    user = rnd(HEX, 8); pw = rnd(HEX, 8)
    add('sidekiq', 'BUNDLE_ENTERPRISE__CONTRIBSYS__COM=' + S.format(user + ':' + pw))
    add('sidekiq', 'source "https://' + S.format(user) + ':' + S.format(pw) + '@gems.contribsys.com/" do')
add('sidekiq', 'bundle config --local BUNDLE_GEMS__CONTRIBSYS__COM: ' + S.format(rnd(HEX, 8) + ':' + rnd(HEX, 8)))
for tmpl in ['<add key="ClearTextPassword" value="{}" />', "<add key='Password' value='{}'/>", '<add key="ApiKey" value="{}" />']:
    add('nuget-config', tmpl.format(S.format(rnd(ALNUM, 16))))
for tmpl in ['SONAR_LOGIN={}', 'sonar.login={}', '-Dsonar.login={}', 'sonarLogin: "{}"']:
    add('sonar', tmpl.format(S.format(R.choice(['squ_', 'sqp_', '']) + rnd(HEX, 40))))
for tmpl in ['SUMOLOGIC_ACCESSID="{}"', 'sumo_access_id: {}', 'sumologic.accessId = "{}"']:
    add('sumologic-access-id', tmpl.format(S.format('su' + rnd(ALNUM, 12))))
for tmpl in ['cloudflare: "{}"', 'sourcegraph: {}', '"cloudflare": "{}",']:
    add('provider-named-keys', tmpl.format(S.format(rnd(ALNUM, 40))))
neutral('flyio-fo1', lambda: 'fo1_' + rnd(URLSAFE, 43), ['FLY_API_TOKEN'])
neutral('vault-legacy-token', lambda: 's.' + rnd(string.ascii_uppercase, 3) + rnd(string.digits, 3) + rnd(string.ascii_lowercase, 3) + rnd(ALNUM, 15), ['VAULT_TOKEN'])
neutral('telegram-short-id', lambda: rnd(string.digits, R.choice([5, 7, 12, 16])) + ':A' + rnd(URLSAFE, 34), ['TELEGRAM_BOT_TOKEN'])
neutral('artifactory', lambda: R.choice(['AKCp' + rnd(ALNUM, 69), 'AP' + R.choice('0123456789ABCDEF') + rnd(LOWNUM, 3) + rnd(ALNUM, 60)]), ['ARTIFACTORY_API_KEY'])
add('artifactory', 'X-JFrog-Art-Api: ' + S.format('AKCp' + rnd(ALNUM, 69)))
def discord_bot():
    return base64.b64encode(rnd(string.digits, 18).encode()).decode().rstrip('=') + '.' + rnd(URLSAFE, 6) + '.' + rnd(URLSAFE, R.choice([27, 38]))
neutral('discord-bot-token', discord_bot, ['DISCORD_BOT_TOKEN'])
neutral('twilio-sid', lambda: R.choice(['AC', 'SK']) + rnd(LOWNUM, 32), ['TWILIO_SID'])

def esc(t): return t.replace('\\\\\\\\', '\\\\\\\\')
with open(sys.argv[1], 'w') as f:
    f.write('# family<TAB>text; ⟦…⟧ marks a secret value; \\n is a line break, \\\\ a backslash. Generated, fake values.\n')
    for fam, text in out:
        f.write(f'{fam}\t{text}\n')
fams = {}
for fam, _ in out: fams[fam] = fams.get(fam, 0) + 1
print(len(out), 'samples', len(fams), 'families', file=sys.stderr)
