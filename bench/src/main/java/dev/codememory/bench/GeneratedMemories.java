package dev.codememory.bench;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Deterministic developer memories for the query bench. Memory i is the same on every run
 * (it draws from its own seeded random), so a query can name the memory it is about by
 * index alone. Each memory comes with the turn it was recorded from (the prompt, and a
 * reply that states the memory's body first, so the evidence spans are real substrings)
 * and a question a developer would later ask about it.
 *
 * <p>
 * Slots are drawn from word lists with a skew (the first entries of each list are common,
 * the rest a long tail), and class names, tickets, ports and versions multiply the
 * vocabulary, so BM25 sees postings of a realistic shape: a few long lists, many short
 * ones.
 */
final class GeneratedMemories {

    /** One memory, the turn it came from, and a question about it. */
    record Memory(String kind, String title, String body, String prompt, String reply, String question) {

        Memory {
            if (!reply.startsWith(body)) {
                throw new IllegalArgumentException("the reply must state the body first: " + title);
            }
        }
    }

    private static final String[] COMPONENTS = { "checkout service", "billing job", "search index", "auth gateway",
            "reports pipeline", "inventory API", "release workflow", "CI build", "payment webhook",
            "notification worker", "session cache", "order repository", "pricing engine", "feature flag service",
            "audit log", "export scheduler", "image resizer", "rate limiter", "GraphQL gateway", "mobile sync endpoint",
            "tenant onboarding", "email digest job", "metrics exporter", "config loader", "shipping calculator",
            "fraud scorer", "recommendation model", "admin dashboard", "invoice generator", "user profile service",
            "document indexer", "websocket relay", "cron runner", "schema migration tool", "backup agent", "CDN purger",
            "tax calculator", "coupon validator", "warehouse sync", "support inbox", "ledger reconciler", "partner API",
            "geo lookup", "PDF renderer", "SSO bridge", "data retention job" };

    private static final String[] TECH = { "PostgreSQL", "DuckDB", "Redis", "Kafka", "RabbitMQ", "Elasticsearch",
            "OpenSearch", "S3", "gRPC", "GraphQL", "Docker", "Kubernetes", "Helm", "Terraform", "GitHub Actions",
            "Jenkins", "Gradle", "Maven", "Spring Batch", "Spring Boot", "Hibernate", "jOOQ", "Flyway", "Liquibase",
            "Netty", "OkHttp", "Jackson", "Gson", "Caffeine", "Resilience4j", "Micrometer", "Prometheus", "Grafana",
            "OpenTelemetry", "Testcontainers", "JUnit", "Mockito", "WireMock", "SQLite", "MySQL", "MongoDB",
            "Cassandra", "Nginx", "Envoy", "Quartz", "Hazelcast", "ClickHouse", "Parquet", "Avro", "Protobuf" };

    private static final String[] CLASS_HEADS = { "Order", "Invoice", "Payment", "Customer", "Cart", "Price", "Tax",
            "Shipment", "Token", "Session", "Tenant", "Report", "Export", "Import", "Audit", "Retry", "Backoff",
            "Cache", "Index", "Search", "Query", "Schema", "Migration", "Webhook", "Event", "Outbox", "Ledger",
            "Account", "Coupon", "Discount", "Stock", "Warehouse", "Route", "Quota", "Limit", "Feature", "Flag",
            "Metric", "Trace", "Batch", "Chunk", "Cursor", "Page", "Snapshot", "Backup", "Upload", "Thumbnail",
            "Notification", "Digest", "Refund" };

    private static final String[] CLASS_TAILS = { "Service", "Repository", "Controller", "Client", "Mapper",
            "Validator", "Processor", "Reader", "Writer", "Listener", "Handler", "Factory", "Config", "Scheduler",
            "Job", "Step", "Policy", "Resolver", "Codec", "Filter" };

    private static final String[] REASONS = {
            "the nightly reports scan whole tables and columnar storage makes them much faster",
            "it gives us exactly-once delivery together with the outbox table",
            "the team already runs it in production and knows its failure modes",
            "it cut p95 latency from %d ms to %d ms in the load test",
            "the licence of the alternative changed last quarter",
            "it runs embedded, so there is no extra server to operate",
            "it supports partial indexes on the status column",
            "its client handles connection loss and retries without our own wrapper",
            "the schema evolves without downtime when columns are only ever added",
            "the managed offering fits the budget the platform team gave us",
            "startup time matters for the hook and it loads in a fraction of the time",
            "it keeps ordering per partition, which the ledger needs",
            "backups are a single file copy instead of a dump and restore" };

    private static final String[] SYMPTOMS = { "intermittent 502 errors", "duplicate invoices", "slow page loads",
            "timeouts under load", "missing events", "high CPU at night", "out-of-memory crashes",
            "stale search results", "flaky integration tests", "wrong totals in reports", "stuck jobs",
            "growing consumer lag", "dropped websocket connections", "corrupted CSV exports", "login loops",
            "double charges", "empty thumbnails", "expired sessions after deploys", "lost feature flags",
            "slow cold starts" };

    private static final String[] PROBLEMS = { "a race between two writers on the same row",
            "an N+1 query in the mapper", "a missing index on the %s table", "connection pool exhaustion",
            "a cache entry that was never invalidated after writes", "clock skew between nodes",
            "an off-by-one in the pagination cursor", "a deadlock on the outbox table", "unbounded retries",
            "a timezone bug around midnight UTC", "a leaked file handle per request",
            "a serialization mismatch after the upgrade", "lost messages during a consumer rebalance",
            "a regex that backtracks on large payloads", "a default charset that differs between machines",
            "a shared temporary folder between parallel tests" };

    private static final String[] FIXES = { "added an index on %s(%s)",
            "made the writer idempotent with key-derived ids", "moved the remote call out of the transaction",
            "raised the connection pool to %d connections", "added jittered exponential backoff",
            "cached the lookup for %d minutes", "batched the inserts", "pinned the driver to %d.%d",
            "replaced the regex with a small parser", "gave each test its own temporary folder",
            "set the JVM time zone to UTC", "closed the stream in a try-with-resources block",
            "split the job into chunks of %d items", "moved the cleanup into a separate nightly job",
            "added a unique constraint on external_ref" };

    private static final String[] PREFERENCES = { "use constructor injection", "avoid wildcard imports",
            "keep methods under forty lines", "use records for data carriers", "write AssertJ assertions",
            "never log request bodies", "use Optional only for return values", "name tests after the behaviour",
            "put SQL in text blocks", "avoid Lombok", "squash commits before merging",
            "keep feature flags out of domain classes", "use java.time instead of Date", "prefer immutable collections",
            "fail fast on bad settings", "document every public method", "keep one assertion topic per test",
            "run the formatter before pushing" };

    private static final String[] ERRORS = { "a NullPointerException in the mapper", "connection refused on port %d",
            "a ClassCastException from the new codec", "expected 3 but was 4", "a timeout after %d seconds",
            "IllegalStateException: no transaction in progress", "UnsupportedOperationException from an immutable list",
            "a checksum mismatch", "DateTimeParseException on zone offsets",
            "NoSuchMethodError after the dependency bump", "a port already in use", "too many open files" };

    private static final String[] TABLES = { "orders", "invoices", "payments", "customers", "sessions", "events",
            "outbox", "ledger_entries", "shipments", "coupons", "audit_log", "refunds", "stock_levels", "tenants" };

    private static final String[] COLUMNS = { "tenant_id", "created_at", "status", "customer_id", "order_id",
            "external_ref", "updated_at", "account_id" };

    private static final String[] TEAMS = { "platform", "payments", "growth", "data", "mobile", "infra", "search",
            "identity" };

    private static final String[] MONTHS = { "January", "February", "March", "April", "May", "June", "July", "August",
            "September", "October", "November", "December" };

    private static final String[] ARTIFACTS = { "client library", "shaded artifact", "schema", "SDK", "base image",
            "Helm chart" };

    private static final String[] CLOSINGS = { "Tests pass locally.", "I also updated the README.",
            "Let me know if the same applies elsewhere.", "The change is on the branch, not merged yet.",
            "CI is green." };

    private GeneratedMemories() {
    }

    /** Memory i: the same for the same i, on any run. */
    static Memory of(int i) {
        if (i < 0) {
            throw new IllegalArgumentException("memory index must not be negative: " + i);
        }
        Slots s = new Slots(new SplittableRandom(0x9E3779B97F4A7C15L * (i + 1)));
        int kind = s.random.nextInt(100);
        if (kind < 20) {
            String title = "Use " + s.tech + " for the " + s.component;
            String body = "We decided to use " + s.tech + " for the " + s.component + " instead of " + s.tech2 + ": "
                    + s.reason + ". " + s.clazz + " wraps it, and the old " + s.tech2 + " code path goes after release "
                    + s.version + ".";
            return new Memory("decision", title, body,
                    "Should the " + s.component + " keep " + s.tech2 + " or move to " + s.tech + "? " + s.clazz
                            + " is getting hard to maintain.",
                    reply(s, body), "why did we pick " + s.tech + " over " + s.tech2 + " for the " + s.component);
        }
        if (kind < 35) {
            String body = "The root cause of " + s.symptom + " in the " + s.component + " was " + s.problem + ". We "
                    + s.fix + ", and " + s.clazz + " now has a regression test for it (PROJ-" + s.ticket + ").";
            return new Memory(
                    "insight", "Root cause of " + s.symptom + " in the " + s.component, body, "The " + s.component
                            + " shows " + s.symptom + " again since yesterday, can you dig into " + s.clazz + "?",
                    reply(s, body), "what caused the " + s.symptom + " in the " + s.component);
        }
        if (kind < 50) {
            String body = "The " + s.component + " runs on " + s.tech + " behind " + s.tech2 + "; it listens on port "
                    + s.port + ", reads its settings from config/" + s.table + ".yml and is owned by the " + s.team
                    + " team. Entry point: " + s.clazz + ".";
            return new Memory("fact", "How the " + s.component + " is deployed", body,
                    "Where does the " + s.component + " get its configuration from, and which port does it use?",
                    reply(s, body), "which port and config file does the " + s.component + " use");
        }
        if (kind < 60) {
            String body = "Preference: in the " + s.component + " " + s.preference + ", and " + s.preference2
                    + ". Reviews of " + s.clazz + " should check this first.";
            return new Memory("preference", "Code style in the " + s.component, body,
                    "For the " + s.component + ": " + s.preference + ", and " + s.preference2
                            + ". Keep that in mind for " + s.clazz + ".",
                    reply(s, body), "how should code in the " + s.component + " be written, " + s.preference);
        }
        if (kind < 70) {
            String body = "TODO: migrate " + s.clazz + " in the " + s.component + " to " + s.tech + " before the "
                    + s.month + " release; blocked on PROJ-" + s.ticket + " until the " + s.team
                    + " team publishes the new " + s.artifact + ".";
            return new Memory("task", "Migrate " + s.clazz + " to " + s.tech, body,
                    "Add a task: " + s.clazz + " must move to " + s.tech + " before " + s.month
                            + ", but we wait for PROJ-" + s.ticket + ".",
                    reply(s, body), "what blocks the " + s.tech + " migration of " + s.clazz);
        }
        if (kind < 90) {
            String body = "Asked why the " + s.component + " was slow under load: " + s.problem + "; we " + s.fix
                    + ", and p95 dropped from " + s.before + " ms to " + s.after + " ms.";
            return new Memory("exchange", "Why the " + s.component + " was slow under load", body,
                    "Why is the " + s.component + " so slow under load? " + s.clazz + " seems to wait a lot.",
                    reply(s, body), "why was the " + s.component + " slow under load with " + s.clazz);
        }
        String body = "Running ./mvnw test -Dtest=" + s.clazz + "Tests failed with " + s.error + " after the " + s.tech
                + " upgrade to " + s.version + "; we " + s.fix + ".";
        return new Memory("observation", s.clazz + "Tests failed after upgrading " + s.tech, body,
                "Run the " + s.clazz + " tests again after the " + s.tech + " upgrade.", reply(s, body),
                "why did " + s.clazz + "Tests fail after the " + s.tech + " upgrade");
    }

    private static String reply(Slots s, String body) {
        return body + " " + s.closing;
    }

    /**
     * The values one memory's template fills in, drawn in a fixed order from its own
     * random.
     */
    private static final class Slots {

        final SplittableRandom random;

        final String component;

        final String tech;

        final String tech2;

        final String clazz;

        final String reason;

        final String symptom;

        final String problem;

        final String fix;

        final String preference;

        final String preference2;

        final String error;

        final String table;

        final String team;

        final String month;

        final String artifact;

        final String closing;

        final String version;

        final int ticket;

        final int port;

        final int before;

        final int after;

        Slots(SplittableRandom random) {
            this.random = random;
            component = pick(COMPONENTS);
            tech = pick(TECH);
            String other = pick(TECH);
            tech2 = other.equals(tech) ? TECH[(indexOf(TECH, tech) + 1) % TECH.length] : other;
            clazz = pick(CLASS_HEADS) + pick(CLASS_HEADS) + pick(CLASS_TAILS);
            table = pick(TABLES);
            before = 200 + random.nextInt(1800);
            after = 20 + random.nextInt(180);
            reason = String.format(Locale.ROOT, pick(REASONS), before, after);
            symptom = pick(SYMPTOMS);
            problem = String.format(Locale.ROOT, pick(PROBLEMS), table);
            String fixTemplate = pick(FIXES);
            fix = fixTemplate.contains("%s(%s)") ? String.format(Locale.ROOT, fixTemplate, table, pick(COLUMNS))
                    : String.format(Locale.ROOT, fixTemplate, 2 + random.nextInt(60), random.nextInt(10));
            preference = pick(PREFERENCES);
            String second = pick(PREFERENCES);
            preference2 = second.equals(preference)
                    ? PREFERENCES[(indexOf(PREFERENCES, second) + 1) % PREFERENCES.length] : second;
            error = String.format(Locale.ROOT, pick(ERRORS), 1024 + random.nextInt(60_000));
            team = pick(TEAMS);
            month = MONTHS[random.nextInt(MONTHS.length)];
            artifact = pick(ARTIFACTS);
            closing = CLOSINGS[random.nextInt(CLOSINGS.length)];
            version = (1 + random.nextInt(9)) + "." + random.nextInt(30) + "." + random.nextInt(12);
            ticket = 100 + random.nextInt(9_900);
            port = 1024 + random.nextInt(60_000);
        }

        /**
         * Skewed towards the head of the list: entry k is drawn with probability ~
         * 1/sqrt(k).
         */
        private String pick(String[] words) {
            double u = random.nextDouble();
            return words[(int) (words.length * u * u)];
        }

        private static int indexOf(String[] words, String word) {
            for (int i = 0; i < words.length; i++) {
                if (words[i].equals(word)) {
                    return i;
                }
            }
            throw new IllegalArgumentException(word);
        }

    }

}
