package dev.codememory.processors.privacy;

import dev.codememory.config.text.Latin1View;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The secret rules of {@link Redactor}: where in a text a secret value sits. Every rule
 * reads the same input and adds spans; overlapping and touching spans are merged and each
 * merged span becomes one {@link Redactor#SECRET_MARKER}. Only the value is masked: a
 * key, a header name, a user name, a URL's host stay, so the text still reads.
 *
 * <p>
 * Rules, each behind a cheap substring check so text without a hint of a secret costs one
 * or two passes:
 * <ol>
 * <li><b>Private key blocks</b> ({@code -----BEGIN … PRIVATE KEY-----} to its END line,
 * or to the end of the text when unclosed), also inside JSON strings where the line
 * breaks are {@code \n} escapes.</li>
 * <li><b>Provider token shapes</b>: a fixed prefix and a body of the documented alphabet
 * and length (Anthropic and OpenAI {@code sk-…}, AWS key ids, GitHub, GitLab, Slack,
 * Stripe, Google, Twilio, SendGrid, npm, PyPI, Docker, Hugging Face, JWTs and some fifty
 * more), found by one scan that only looks at a word start whose first character begins
 * some prefix; and a few unprefixed shapes (Azure AD client secrets, Telegram bot tokens,
 * Mailchimp keys, Terraform Cloud tokens, Sentry DSN keys, Slack/Discord/Teams webhook
 * paths).</li>
 * <li><b>Credentials in URLs and DSNs</b>: the password of
 * {@code scheme://user:password@host} and of Go's {@code user:password@tcp(host)}.</li>
 * <li><b>Authorization values</b>: the credential after {@code Bearer} or {@code Basic}
 * when it looks like one (a digit or mixed case), so "bearer authentication" in prose
 * stays.</li>
 * <li><b>Values of secret-named keys</b> in text, JSON (also JSON held as an escaped
 * string inside another string), YAML, TOML, {@code .env}, INI, shell, code and
 * connection strings: see {@link #classify(String)} for which names count and
 * {@link #keyValues} for which values are masked (literals are, code is not:
 * {@code password = getpass()}, {@code secret: str}, {@code token=token},
 * {@code os.environ["SECRET_KEY"]} stay); the default of an environment lookup
 * ({@code getenv("DB_PASSWORD", "…")}, {@code ${DB_PASSWORD:-…}},
 * {@code process.env.API_TOKEN || "…"}); {@code Credentials: user/password};
 * {@code --password …} flags; {@code .netrc} lines.</li>
 * <li><b>Command lines</b>: {@code curl -u user:password}, {@code mysql -p…},
 * {@code sshpass -p …}, {@code docker login -p …}.</li>
 * </ol>
 * Patterns are compiled on first need and use bounded or possessive repeats only, so
 * matching stays linear. Applying the rules to their own output changes nothing: values
 * that already are a marker are skipped.
 */
final class SecretRules {

    private SecretRules() {
    }

    static String redact(String text) {
        byte[] view = view(text);
        return redact(text, view, latin(view));
    }

    /**
     * The view as a Latin-1 string: the rules' substring searches run on it, with the
     * JDK's Latin-1 search that a fresh JVM has compiled already (on text with a
     * character above U+00FF, the JDK's UTF-16 search is interpreted: ~4 ms a search on
     * 100 KB). Its indices are the text's, and no needle searched for holds a
     * {@code '?'}.
     */
    static String latin(byte[] view) {
        return new String(view, StandardCharsets.ISO_8859_1);
    }

    /**
     * {@link #redact(String)} with the text's {@link #view} and {@link #latin} copy
     * already made.
     */
    static String redact(String text, byte[] view, String latin) {
        Spans spans = new Spans();
        privateKeyBlocks(text, latin, spans);
        tokenShapes(text, view, spans);
        unprefixedShapes(text, latin, spans);
        urlCredentials(text, latin, spans);
        authorizationValues(text, latin, view, spans);
        keyValues(text, view, spans);
        commandLines(text, latin, spans);
        return spans.apply(text);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The text as bytes
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * The text with one byte per char ({@link Latin1View}), for the scans that walk every
     * character. Every rule looks for ASCII characters only, and none starts with the
     * {@code '?'} that stands for a char above U+00FF, so a scan of the view finds
     * exactly what a scan of the text would.
     */
    static byte[] view(String text) {
        return Latin1View.of(text);
    }

    /** ASCII letters and digits, by byte value ({@code b & 0xFF}). */
    private static final boolean[] ALNUM = new boolean[256];

    static {
        for (int c = 0; c < 128; c++) {
            ALNUM[c] = isAlnum((char) c);
        }
    }

    /**
     * A pattern compiled on first use: a hook pays the regex compiler (~1 ms a pattern on
     * a fresh JVM) only for the patterns its text needs, not for every pattern of a rule
     * the moment one is.
     */
    static final class LazyPattern {

        private final String regex;

        private final int flags;

        private volatile Pattern pattern;

        LazyPattern(String regex) {
            this(regex, 0);
        }

        LazyPattern(String regex, int flags) {
            this.regex = regex;
            this.flags = flags;
        }

        Pattern get() {
            Pattern p = pattern;
            if (p == null) {
                p = Pattern.compile(regex, flags);
                pattern = p;
            }
            return p;
        }

    }

    // ---------------------------------------------------------------------------------------------------------------
    // Spans
    // ---------------------------------------------------------------------------------------------------------------

    /** Half-open spans to mask; merged when they overlap or touch. */
    static final class Spans {

        private int[] starts = new int[8];

        private int[] ends = new int[8];

        private int size;

        void add(int start, int end) {
            if (end <= start) {
                return;
            }
            if (size == starts.length) {
                starts = Arrays.copyOf(starts, size * 2);
                ends = Arrays.copyOf(ends, size * 2);
            }
            starts[size] = start;
            ends[size] = end;
            size++;
        }

        String apply(String text) {
            if (size == 0) {
                return text;
            }
            long[] packed = new long[size];
            for (int k = 0; k < size; k++) {
                packed[k] = ((long) starts[k] << 32) | ends[k];
            }
            Arrays.sort(packed);
            StringBuilder out = new StringBuilder(text.length());
            int emitted = 0;
            int k = 0;
            while (k < size) {
                int start = (int) (packed[k] >>> 32);
                int end = (int) packed[k];
                k++;
                while (k < size && (int) (packed[k] >>> 32) <= end) {
                    end = Math.max(end, (int) packed[k]);
                    k++;
                }
                if (start < emitted) {
                    start = emitted;
                }
                out.append(text, emitted, start).append(Redactor.SECRET_MARKER);
                emitted = end;
            }
            return out.append(text, emitted, text.length()).toString();
        }

    }

    // ---------------------------------------------------------------------------------------------------------------
    // 1. Private key blocks
    // ---------------------------------------------------------------------------------------------------------------

    private static final class PemPattern {

        /**
         * An unclosed BEGIN runs to the end of the text. Bounded, no nested quantifiers.
         */
        static final LazyPattern PEM = new LazyPattern("-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
                + "(?:.*?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|.*+)", Pattern.DOTALL);

    }

    private static void privateKeyBlocks(String text, String latin, Spans spans) {
        if (!latin.contains("PRIVATE KEY")) {
            return;
        }
        AnchoredFind m = new AnchoredFind(PemPattern.PEM, text, Starts.of(latin, "-----BEGIN ", 0));
        while (m.find()) {
            spans.add(m.start(0), m.end(0));
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 2. Provider token shapes
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * Prefix and body (a regex matched right after the prefix). The whole token is
     * masked. Sources of the formats: the providers' documentation and the rule sets of
     * gitleaks (MIT) and detect-secrets (Apache-2.0).
     */
    static final String[][] SHAPES = { { "sk-", "[A-Za-z0-9_-]{20,}+" }, // Anthropic
                                                                         // sk-ant-…,
                                                                         // OpenAI sk-…,
                                                                         // sk-proj-…
            { "sk_live_", "[A-Za-z0-9]{16,}+" }, { "sk_test_", "[A-Za-z0-9]{16,}+" }, // Stripe
            { "rk_live_", "[A-Za-z0-9]{16,}+" }, { "rk_test_", "[A-Za-z0-9]{16,}+" },
            { "whsec_", "[A-Za-z0-9+/=]{24,}+" }, { "AKIA", "[0-9A-Z]{16}" }, { "ASIA", "[0-9A-Z]{16}" },
            { "ABIA", "[0-9A-Z]{16}" }, { "ACCA", "[0-9A-Z]{16}" }, { "AGPA", "[0-9A-Z]{16}" },
            { "AIDA", "[0-9A-Z]{16}" }, { "AROA", "[0-9A-Z]{16}" }, { "AIPA", "[0-9A-Z]{16}" },
            { "ANPA", "[0-9A-Z]{16}" }, { "ANVA", "[0-9A-Z]{16}" }, { "APKA", "[0-9A-Z]{16}" },
            { "ghp_", "[A-Za-z0-9]{30,}+" }, { "gho_", "[A-Za-z0-9]{30,}+" }, { "ghu_", "[A-Za-z0-9]{30,}+" },
            { "ghs_", "[A-Za-z0-9]{30,}+" }, { "ghr_", "[A-Za-z0-9]{30,}+" }, { "github_pat_", "[A-Za-z0-9_]{20,}+" },
            { "glpat-", "[A-Za-z0-9_-]{20,}+" }, { "gldt-", "[A-Za-z0-9_-]{20,}+" },
            { "glptt-", "[A-Za-z0-9_-]{20,}+" }, { "glrt-", "[A-Za-z0-9_-]{20,}+" },
            { "glcbt-", "[A-Za-z0-9_-]{20,}+" }, { "glsoat-", "[A-Za-z0-9_-]{20,}+" },
            { "glft-", "[A-Za-z0-9_-]{20,}+" }, { "glimt-", "[A-Za-z0-9_-]{20,}+" },
            { "gloas-", "[A-Za-z0-9_-]{20,}+" }, { "GR1348941", "[A-Za-z0-9_-]{20,}+" },
            { "xox", "[abposre]-[A-Za-z0-9-]{10,}+" }, { "xapp-", "\\d-[A-Z0-9]{8,}+-\\d{6,}+-[A-Za-z0-9]{30,}+" },
            { "AIza", "[0-9A-Za-z_-]{35}" }, { "GOCSPX-", "[A-Za-z0-9_-]{24,}+" }, { "ya29.", "[0-9A-Za-z_-]{20,}+" },
            { "1//0", "[A-Za-z0-9_-]{30,}+" }, { "SK", "[0-9a-fA-F]{32}" }, // Twilio API
                                                                            // key
            { "SG.", "[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}" }, // SendGrid
            { "npm_", "[A-Za-z0-9]{36}" }, { "pypi-", "Ag[A-Za-z0-9_-]{50,}+" }, { "dckr_pat_", "[A-Za-z0-9_-]{20,}+" },
            { "dckr_oat_", "[A-Za-z0-9_-]{20,}+" }, { "hf_", "[A-Za-z0-9]{30,}+" }, { "api_org_", "[A-Za-z0-9]{30,}+" },
            { "eyJ", "[A-Za-z0-9_-]{8,}+\\.eyJ[A-Za-z0-9_-]{8,}+\\.[A-Za-z0-9_-]*+" }, // JWT
            { "shpat_", "[a-fA-F0-9]{32}" }, { "shpss_", "[a-fA-F0-9]{32}" }, { "shpca_", "[a-fA-F0-9]{32}" },
            { "shppa_", "[a-fA-F0-9]{32}" }, { "key-", "[0-9a-f]{32}" }, // Mailgun
            { "sq0atp-", "[0-9A-Za-z_-]{22,}+" }, { "sq0csp-", "[0-9A-Za-z_-]{40,}+" }, { "EAA", "[A-Za-z0-9]{60,}+" },
            { "dop_v1_", "[a-f0-9]{64}" }, { "doo_v1_", "[a-f0-9]{64}" }, { "dor_v1_", "[a-f0-9]{64}" },
            { "dapi", "[a-f0-9]{32}(?:-\\d)?" }, { "lin_api_", "[A-Za-z0-9]{40}" }, { "lin_oauth_", "[a-f0-9]{64}" },
            { "ATATT3", "[A-Za-z0-9_=-]{100,}+" }, { "ATCTT3", "[A-Za-z0-9_=-]{100,}+" },
            { "secret_", "[A-Za-z0-9]{43}" }, { "ntn_", "[A-Za-z0-9]{40,}+" }, // Notion
            { "PMAK-", "[a-f0-9]{24}-[a-f0-9]{34}" }, { "hvs.", "[A-Za-z0-9_-]{24,}+" },
            { "hvb.", "[A-Za-z0-9_-]{24,}+" }, { "hvr.", "[A-Za-z0-9_-]{24,}+" },
            { "glc_", "[A-Za-z0-9+/]{32,}+={0,2}" }, { "glsa_", "[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}" },
            { "NRAK-", "[A-Z0-9]{27}" }, { "NRII-", "[A-Za-z0-9_-]{32}" }, { "NRJS-", "[a-f0-9]{19}" },
            { "sntrys_", "eyJ[A-Za-z0-9+/=_-]{40,}+" }, { "sntryu_", "[a-f0-9]{64}" },
            { "dp.", "(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{40,}+" }, // Doppler
            { "pul-", "[a-f0-9]{40}" }, { "v1.0-", "[a-f0-9]{24}-[a-f0-9]{100,}+" }, // Pulumi,
                                                                                     // Cloudflare
                                                                                     // origin
                                                                                     // CA
            { "LTAI", "[A-Za-z0-9]{20}" }, // Alibaba
            { "AAAA", "[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{100,}+" }, // Firebase Cloud
                                                                 // Messaging
            { "r8_", "[A-Za-z0-9]{37}" }, { "gsk_", "[A-Za-z0-9]{48,}+" }, { "xai-", "[A-Za-z0-9]{70,}+" },
            { "pplx-", "[A-Za-z0-9]{40,}+" }, { "lsv2_", "(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}" },
            { "sbp_", "[a-f0-9]{40}" }, { "sb_secret_", "[A-Za-z0-9_-]{20,}+" }, { "nfp_", "[A-Za-z0-9]{36,}+" },
            { "fm2_", "[A-Za-z0-9+/=_-]{60,}+" }, { "fm1a_", "[A-Za-z0-9+/=_-]{60,}+" },
            { "fm1r_", "[A-Za-z0-9+/=_-]{60,}+" }, { "AGE-SECRET-KEY-1", "[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}" },
            { "ATBB", "[A-Za-z0-9_=.-]{28,}+" }, { "pscale_", "(?:pw|tkn|oauth)_[A-Za-z0-9=._-]{32,64}" },
            { "pat", "[A-Za-z0-9]{14}\\.[a-f0-9]{64}" }, // Airtable
            { "rubygems_", "[a-f0-9]{48}" }, { "oy2", "[a-z0-9]{43}" }, { "CLOJARS_", "[a-z0-9]{60}" },
            { "dt0c01.", "[A-Z0-9]{24}\\.[A-Z0-9]{64}" }, { "shippo_", "(?:live|test)_[a-f0-9]{40}" },
            { "FLWSECK", "(?:_TEST)?-[a-h0-9]{32}-X" }, { "EZAK", "[a-zA-Z0-9]{54}" },
            { "duffel_", "(?:test|live)_[A-Za-z0-9_-]{43}" }, { "tfp_", "[A-Za-z0-9_.=-]{59}" },
            { "HRKU-", "[A-Za-z0-9_-]{40,}+" }, { "ops_", "eyJ[A-Za-z0-9+/=_-]{50,}+" }, { "rdme_", "[a-z0-9]{70}" },
            { "pnu_", "[A-Za-z0-9]{36}" }, { "sl.", "[A-Za-z0-9_-]{130,}+" }, { "figd_", "[A-Za-z0-9_-]{40,}+" }, };

    /**
     * The compiled bodies, by index in {@link #SHAPES}; and, per first character, the
     * shapes that start with it.
     */
    private static final class ShapeTable {

        static final Pattern[] BODIES = new Pattern[SHAPES.length];
        static final int[][] BY_FIRST_CHAR = new int[128][];
        static final boolean[] FIRST = new boolean[128];

        /**
         * Per first character, the second characters some prefix has after it (every
         * prefix has two or more).
         */
        static final boolean[][] SECOND = new boolean[128][];

        /**
         * Per first two characters ({@code c0 << 7 | c1}), the characters that may come
         * third: a prefix's third, or any when a prefix is just those two.
         */
        static final boolean[][] THIRD = new boolean[128 * 128][];

        static {
            int[] counts = new int[128];
            for (String[] shape : SHAPES) {
                counts[shape[0].charAt(0)]++;
            }
            for (int k = 0; k < SHAPES.length; k++) {
                char c = SHAPES[k][0].charAt(0);
                if (BY_FIRST_CHAR[c] == null) {
                    BY_FIRST_CHAR[c] = new int[counts[c]];
                    counts[c] = 0;
                    FIRST[c] = true;
                    SECOND[c] = new boolean[256];
                }
                BY_FIRST_CHAR[c][counts[c]++] = k;
                String prefix = SHAPES[k][0];
                SECOND[c][prefix.charAt(1)] = true;
                int pair = c << 7 | prefix.charAt(1);
                if (THIRD[pair] == null) {
                    THIRD[pair] = new boolean[256];
                }
                if (prefix.length() == 2) {
                    Arrays.fill(THIRD[pair], true);
                }
                else {
                    THIRD[pair][prefix.charAt(2)] = true;
                }
            }
        }

        /**
         * Bodies that are one run of a character class, by index in {@link #SHAPES};
         * parsed on first need.
         */
        static final RunBody[] RUNS = new RunBody[SHAPES.length];
        static final boolean[] PARSED = new boolean[SHAPES.length];

        static synchronized Pattern body(int k) {
            Pattern p = BODIES[k];
            if (p == null) {
                p = Pattern.compile(SHAPES[k][1]);
                BODIES[k] = p;
            }
            return p;
        }

        /** The body as a {@link RunBody}, or null when it needs the regex engine. */
        static synchronized RunBody run(int k) {
            if (!PARSED[k]) {
                RUNS[k] = RunBody.parse(SHAPES[k][1]);
                PARSED[k] = true;
            }
            return RUNS[k];
        }

    }

    /**
     * A token body that is a sequence of runs of character classes and literal
     * characters, such as {@code [A-Za-z0-9_-]{20,}+}, {@code [0-9A-Z]{16}} or
     * {@code [A-Za-z0-9]{14}\\.[a-f0-9]{64}}: most bodies are, and matching them by hand
     * spares a hook the regex engine's cold start. Only bodies in which no run can give
     * characters back are accepted (a run is the last element or is followed by a
     * character outside its class), so the longest run (up to its maximum) at each step
     * is what the regex matches with {@code lookingAt}.
     */
    static final class RunBody {

        private final boolean[][] classes; // per element, the characters it takes

        private final int[] mins;

        private final int[] maxes;

        private RunBody(boolean[][] classes, int[] mins, int[] maxes) {
            this.classes = classes;
            this.mins = mins;
            this.maxes = maxes;
        }

        /**
         * Parses a body of {@code [class]} and literal elements, each with an optional
         * quantifier; else null.
         */
        static RunBody parse(String body) {
            int count = 0;
            boolean[][] classes = new boolean[body.length()][];
            int[] mins = new int[body.length()];
            int[] maxes = new int[body.length()];
            int k = 0;
            while (k < body.length()) {
                boolean[] cls = new boolean[128];
                char c = body.charAt(k);
                if (c == '[') {
                    int close = body.indexOf(']', k);
                    if (close < 0 || !parseClass(body.substring(k + 1, close), cls)) {
                        return null;
                    }
                    k = close + 1;
                }
                else if (c == '\\' && k + 1 < body.length() && body.charAt(k + 1) == '.') {
                    cls['.'] = true;
                    k += 2;
                }
                else if (c < 128 && (isAlnum(c) || "_-:=~/".indexOf(c) >= 0)) {
                    cls[c] = true;
                    k++;
                }
                else {
                    return null; // a group, an alternative, an escape class: left to the
                                 // regex engine
                }
                int min = 1;
                int max = 1;
                if (k < body.length() && body.charAt(k) == '{') {
                    int close = body.indexOf('}', k);
                    if (close < 0) {
                        return null;
                    }
                    String q = body.substring(k + 1, close);
                    int comma = q.indexOf(',');
                    String low = comma < 0 ? q : q.substring(0, comma);
                    String high = comma < 0 ? q : q.substring(comma + 1);
                    if (!allDigits(low) || !(high.isEmpty() && comma >= 0 || allDigits(high))) {
                        return null;
                    }
                    min = Integer.parseInt(low);
                    max = high.isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(high);
                    k = close + 1;
                }
                else if (k < body.length() && body.charAt(k) == '*') {
                    min = 0;
                    max = Integer.MAX_VALUE;
                    k++;
                }
                if (k < body.length() && body.charAt(k) == '+') {
                    k++; // possessive: the same as greedy here, since no run gives
                         // characters back
                }
                if (min > max) {
                    return null;
                }
                classes[count] = cls;
                mins[count] = min;
                maxes[count] = max;
                count++;
            }
            for (int e = 0; e < count; e++) {
                if (mins[e] == maxes[e]) {
                    continue;
                }
                // a run that may give characters back: what follows, up to the first
                // element that must take one,
                // may not take a character of this run's class, or the regex could
                // backtrack into this run
                for (int f = e + 1; f < count; f++) {
                    if (overlaps(classes[e], classes[f])) {
                        return null;
                    }
                    if (mins[f] > 0) {
                        break;
                    }
                }
            }
            return count == 0 ? null : new RunBody(Arrays.copyOf(classes, count), Arrays.copyOf(mins, count),
                    Arrays.copyOf(maxes, count));
        }

        private static boolean parseClass(String cls, boolean[] chars) {
            if (cls.isEmpty()) {
                return false;
            }
            int k = 0;
            while (k < cls.length()) {
                char from = cls.charAt(k);
                if (k + 2 < cls.length() && cls.charAt(k + 1) == '-') {
                    char to = cls.charAt(k + 2);
                    if (!isAlnum(from) || !isAlnum(to) || to < from) {
                        return false;
                    }
                    for (char c = from; c <= to; c++) {
                        chars[c] = true;
                    }
                    k += 3;
                }
                else {
                    if (from >= 128 || !(isAlnum(from) || "_-+/=.~".indexOf(from) >= 0)) {
                        return false;
                    }
                    chars[from] = true;
                    k++;
                }
            }
            return true;
        }

        private static boolean overlaps(boolean[] a, boolean[] b) {
            for (int c = 0; c < 128; c++) {
                if (a[c] && b[c]) {
                    return true;
                }
            }
            return false;
        }

        /** The end of the body starting at {@code start}, or -1 when there is none. */
        int end(byte[] view, int start) {
            int p = start;
            for (int e = 0; e < classes.length; e++) {
                boolean[] ok = classes[e];
                int limit = maxes[e] >= view.length - p ? view.length : p + maxes[e];
                int q = p;
                while (q < limit && view[q] >= 0 && ok[view[q]]) {
                    q++;
                }
                if (q - p < mins[e]) {
                    return -1;
                }
                p = q;
            }
            return p;
        }

    }

    private static void tokenShapes(String text, byte[] view, Spans spans) {
        int n = view.length;
        Matcher matcher = null;
        for (int i = nextShapeStart(view, 0); i < n; i = nextShapeStart(view, i + 1)) {
            int c = view[i];
            char second = (char) (view[i + 1] & 0xFF);
            for (int k : ShapeTable.BY_FIRST_CHAR[c]) {
                String prefix = SHAPES[k][0];
                if (prefix.charAt(1) != second || !text.startsWith(prefix, i)) {
                    continue;
                }
                int end;
                RunBody run = ShapeTable.run(k);
                if (run != null) {
                    end = run.end(view, i + prefix.length());
                }
                else {
                    Pattern body = ShapeTable.body(k);
                    matcher = matcher == null ? body.matcher(text) : matcher.usePattern(body);
                    matcher.region(i + prefix.length(), n);
                    end = matcher.lookingAt() ? matcher.end() : -1;
                }
                if (end >= 0 && (end == n || !isAlnum(text.charAt(end)))) {
                    spans.add(i, end);
                    i = end - 1;
                    break;
                }
            }
        }
    }

    /**
     * The first index at or after {@code from} where a token prefix may start: a word's
     * first character that begins some prefix, followed by a character that is second in
     * one of them; or the view's length.
     */
    private static int nextShapeStart(byte[] view, int from) {
        boolean[] first = ShapeTable.FIRST;
        boolean[][] second = ShapeTable.SECOND;
        boolean[][] third = ShapeTable.THIRD;
        boolean[] alnum = ALNUM;
        int last = view.length - 2; // a token is a prefix of two characters or more and a
                                    // body of one or more
        for (int i = from; i < last; i++) {
            int c = view[i];
            if (c >= 0 && first[c] && second[c][view[i + 1] & 0xFF] && third[c << 7 | view[i + 1]][view[i + 2] & 0xFF]
                    && (i == 0 || !alnum[view[i - 1] & 0xFF])) {
                return i;
            }
        }
        return view.length;
    }

    private static final class Unprefixed {

        static final LazyPattern AZURE_AD = new LazyPattern(
                "(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])");
        static final LazyPattern TELEGRAM = new LazyPattern(
                "(?<!\\d)\\d{8,10}:AA[0-9A-Za-z_-]{32,34}(?![0-9A-Za-z_-])");
        static final LazyPattern MAILCHIMP = new LazyPattern("(?<![0-9a-f])[0-9a-f]{32}-us\\d{1,2}(?!\\d)");
        static final LazyPattern TERRAFORM = new LazyPattern("[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,}+");
        static final LazyPattern SENTRY_DSN = new LazyPattern(
                "://([a-f0-9]{32}(?::[a-f0-9]{32})?)@[A-Za-z0-9.-]{0,80}sentry");

        /**
         * Webhook URLs whose path is the credential: the path after the fixed part is
         * masked (group 1).
         */
        static final LazyPattern WEBHOOK = new LazyPattern(
                "(?:hooks\\.slack\\.com/(?:services|workflows|triggers)/|discord(?:app)?\\.com/api/webhooks/"
                        + "|webhook\\.office\\.com/webhookb2/)([A-Za-z0-9@/_-]{16,}+)");

    }

    /**
     * Each pattern runs only where its literal part is (at the offset the pattern puts
     * it), not over the whole text: common words such as "hook" or "-us" would otherwise
     * cost a long text a regex scan each.
     */
    private static void unprefixedShapes(String text, String latin, Spans spans) {
        if (latin.contains("Q~")) {
            Starts starts = new Starts(); // [A-Za-z0-9_~.]{3}\dQ~
            for (int q = latin.indexOf("Q~"); q >= 0; q = latin.indexOf("Q~", q + 1)) {
                starts.addIf(q >= 4 && isDigit(latin.charAt(q - 1)), q - 4);
            }
            addAll(Unprefixed.AZURE_AD, text, starts, spans, 0);
        }
        if (latin.contains(":AA")) {
            Starts starts = new Starts();
            for (int q = latin.indexOf(":AA"); q >= 0; q = latin.indexOf(":AA", q + 1)) {
                int r = q; // a Telegram token starts where the run of digits before :AA
                           // does
                while (r > 0 && q - r <= 10 && isDigit(latin.charAt(r - 1))) {
                    r--;
                }
                starts.addIf(q - r >= 8 && q - r <= 10, r);
            }
            addAll(Unprefixed.TELEGRAM, text, starts, spans, 0);
        }
        if (latin.contains("-us")) {
            Starts starts = new Starts(); // [0-9a-f]{32}-us
            for (int q = latin.indexOf("-us"); q >= 0; q = latin.indexOf("-us", q + 1)) {
                char c = q >= 32 ? latin.charAt(q - 1) : 0;
                starts.addIf(isDigit(c) || (c >= 'a' && c <= 'f'), q - 32);
            }
            addAll(Unprefixed.MAILCHIMP, text, starts, spans, 0);
        }
        if (latin.contains(".atlasv1.")) {
            Starts starts = new Starts(); // [A-Za-z0-9]{14}.atlasv1.
            for (int q = latin.indexOf(".atlasv1."); q >= 0; q = latin.indexOf(".atlasv1.", q + 1)) {
                starts.addIf(q >= 14 && isAlnum(latin.charAt(q - 1)), q - 14);
            }
            addAll(Unprefixed.TERRAFORM, text, starts, spans, 0);
        }
        if (latin.contains("sentry")) {
            addAll(Unprefixed.SENTRY_DSN, text, Starts.of(latin, "://", 0), spans, 1);
        }
        if (latin.contains("hook")) {
            Starts starts = new Starts();
            for (int q = latin.indexOf("hook"); q >= 0; q = latin.indexOf("hook", q + 1)) {
                starts.addIf(latin.startsWith("hooks.slack.com/", q), q);
                starts.addIf(q >= 3 && latin.startsWith("webhook.office.com/webhookb2/", q - 3), q - 3);
                starts.addIf(q >= 19 && latin.startsWith("discord.com/api/webhooks/", q - 19), q - 19);
                starts.addIf(q >= 22 && latin.startsWith("discordapp.com/api/webhooks/", q - 22), q - 22);
            }
            addAll(Unprefixed.WEBHOOK, text, starts, spans, 1);
        }
    }

    private static void addAll(LazyPattern pattern, String text, Starts starts, Spans spans, int group) {
        AnchoredFind m = new AnchoredFind(pattern, text, starts);
        while (m.find()) {
            spans.add(m.start(group), m.end(group));
        }
    }

    /** Positions where a match may start: a growable, then sorted, list. */
    static final class Starts {

        private int[] at = new int[8];

        private int size;

        /** Each occurrence of {@code literal} in {@code latin}, less {@code offset}. */
        static Starts of(String latin, String literal, int offset) {
            Starts starts = new Starts();
            starts.addAll(latin, literal, offset);
            return starts;
        }

        void addAll(String latin, String literal, int offset) {
            for (int q = latin.indexOf(literal); q >= 0; q = latin.indexOf(literal, q + 1)) {
                add(q - offset);
            }
        }

        void addIf(boolean possible, int start) {
            if (possible) {
                add(start);
            }
        }

        void add(int start) {
            if (start < 0) {
                return;
            }
            if (size == at.length) {
                at = Arrays.copyOf(at, size * 2);
            }
            at[size++] = start;
        }

        int[] sorted() {
            int[] sorted = Arrays.copyOf(at, size);
            Arrays.sort(sorted);
            return sorted;
        }

    }

    /**
     * The matches {@code find()} returns, for a pattern every match of which starts at
     * one of the given positions: the pattern is tried there only, in order, each start
     * at or after the end of the last match (as {@code find()} resumes), with transparent
     * bounds so that look-behinds see the text before a start.
     */
    static final class AnchoredFind {

        private final LazyPattern pattern;

        private final String text;

        private final int[] starts;

        private final int n;

        private Matcher m;

        private int k;

        private int lastEnd;

        AnchoredFind(LazyPattern pattern, String text, Starts starts) {
            this.pattern = pattern;
            this.text = text;
            this.starts = starts.sorted();
            this.n = text.length();
        }

        boolean find() {
            while (k < starts.length) {
                int s = starts[k++];
                if (s < lastEnd || s >= n) {
                    continue;
                }
                if (m == null) { // compiled only when there is somewhere to try it
                    m = pattern.get().matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
                }
                m.region(s, n);
                if (m.lookingAt()) {
                    lastEnd = m.end();
                    return true;
                }
            }
            return false;
        }

        int start() {
            return m.start();
        }

        int start(int group) {
            return m.start(group);
        }

        int end(int group) {
            return m.end(group);
        }

    }

    // ---------------------------------------------------------------------------------------------------------------
    // 3. URLs and DSNs
    // ---------------------------------------------------------------------------------------------------------------

    private static final class UrlPatterns {

        /** Go's MySQL DSN {@code user:password@tcp(host)}: group 1 is the password. */
        static final LazyPattern GO_DSN = new LazyPattern(
                "(?<![A-Za-z0-9_./-])[A-Za-z0-9_.-]{1,64}:([^\\s@/:\"']{1,128}+)@(?:tcp|unix)\\(");

    }

    private static void urlCredentials(String text, String latin, Spans spans) {
        int n = text.length();
        for (int at = latin.indexOf("://"); at >= 0; at = latin.indexOf("://", at + 3)) {
            int scheme = at;
            while (scheme > 0 && at - scheme < 30 && isSchemeChar(text.charAt(scheme - 1))) {
                scheme--;
            }
            if (scheme == at || !Character.isLetter(text.charAt(scheme))) {
                continue;
            }
            // userinfo: up to '@', before any character that ends the authority
            int colon = -1;
            int p = at + 3;
            int limit = Math.min(n, p + 768);
            while (p < limit) {
                char c = text.charAt(p);
                if (c == '@' || c == '/' || c == '?' || c == '#' || c == '"' || c == '\'' || c == '<' || c == '>'
                        || c == '\\' || Character.isWhitespace(c)) {
                    break;
                }
                if (c == ':' && colon < 0) {
                    colon = p;
                }
                p++;
            }
            if (p < n && text.charAt(p) == '@' && colon >= 0 && isLiteralSecret(text, colon + 1, p)) {
                spans.add(colon + 1, p);
            }
        }
        if (latin.contains("@tcp(") || latin.contains("@unix(")) {
            Matcher m = UrlPatterns.GO_DSN.get().matcher(text);
            while (m.find()) {
                if (isLiteralSecret(text, m.start(1), m.end(1))) {
                    spans.add(m.start(1), m.end(1));
                }
            }
        }
    }

    /**
     * A value that is neither a marker, a placeholder nor a reference to somewhere else.
     */
    private static boolean isLiteralSecret(String text, int start, int end) {
        if (end <= start) {
            return false;
        }
        char c = text.charAt(start);
        if (c == '$' || c == '{' || c == '<' || c == '%' || c == '[') {
            return false;
        }
        return !isPlaceholder(text.substring(start, end));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 4. Authorization values
    // ---------------------------------------------------------------------------------------------------------------

    private static final class AuthPatterns {

        static final LazyPattern BEARER = new LazyPattern("(?<![A-Za-z0-9])bearer[ \\t]+([A-Za-z0-9._~+/=-]{8,}+)",
                Pattern.CASE_INSENSITIVE);
        static final LazyPattern BASIC = new LazyPattern("(?<![A-Za-z0-9])basic[ \\t]+([A-Za-z0-9+/]{8,}+={0,2})",
                Pattern.CASE_INSENSITIVE);

    }

    private static void authorizationValues(String text, String latin, byte[] view, Spans spans) {
        Starts bearer = new Starts();
        Starts basic = new Starts();
        authorizationWords(latin, view, 'b', bearer, basic);
        authorizationWords(latin, view, 'B', bearer, basic);
        if (bearer.size > 0) {
            credentials(new AnchoredFind(AuthPatterns.BEARER, text, bearer), text, spans);
        }
        if (basic.size > 0) {
            credentials(new AnchoredFind(AuthPatterns.BASIC, text, basic), text, spans);
        }
    }

    /**
     * Where {@code bearer} and {@code basic} begin, in any ASCII case, at a {@code first}
     * (b or B): led by {@link String#indexOf(int, int)}, which a fresh JVM has compiled
     * already, where a loop of its own would be interpreted.
     */
    private static void authorizationWords(String latin, byte[] view, char first, Starts bearer, Starts basic) {
        for (int i = latin.indexOf(first); i >= 0; i = latin.indexOf(first, i + 1)) {
            if (startsWithIgnoreCase(view, i, "bearer")) {
                bearer.add(i);
            }
            else if (startsWithIgnoreCase(view, i, "basic")) {
                basic.add(i);
            }
        }
    }

    private static void credentials(AnchoredFind m, String text, Spans spans) {
        while (m.find()) {
            if (looksLikeCredential(text, m.start(1), m.end(1))) {
                spans.add(m.start(1), m.end(1));
            }
        }
    }

    /**
     * At least 8 characters with a digit, or with both upper and lower case: not an
     * English word.
     */
    private static boolean looksLikeCredential(String text, int start, int end) {
        if (end - start < 8) {
            return false;
        }
        boolean digit = false;
        boolean upper = false;
        boolean lower = false;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            digit |= c >= '0' && c <= '9';
            upper |= c >= 'A' && c <= 'Z';
            lower |= c >= 'a' && c <= 'z';
        }
        return digit || (upper && lower && !isCapitalizedWord(text, start, end));
    }

    private static boolean isCapitalizedWord(String text, int start, int end) {
        if (!Character.isUpperCase(text.charAt(start))) {
            return false;
        }
        for (int i = start + 1; i < end; i++) {
            if (!Character.isLowerCase(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 5. Values of secret-named keys
    // ---------------------------------------------------------------------------------------------------------------

    /** How much a key's name says about its value. */
    enum KeyClass {

        /** Not a secret's name. */
        NONE,
        /**
         * A name that holds a secret only sometimes ({@code key}, {@code auth},
         * {@code sig}): random-looking values.
         */
        WEAK,
        /** A secret's name: every literal value. */
        STRONG,
        /** {@code Authorization}: the credential after the scheme. */
        AUTHORIZATION

    }

    /** Parts that make a name a secret's name. */
    private static final Set<String> SECRET_PARTS = Set.of("password", "passwords", "passwd", "passwrd", "pwd", "pass",
            "pw", "passphrase", "passcode", "secret", "token", "credential", "credentials", "creds", "cred", "apikey",
            "privatekey", "secretkey", "accesskey", "authkey", "authtoken", "accesstoken", "refreshtoken",
            "clientsecret", "sessionkey", "masterkey");

    /** Words before {@code key} that make it a secret's key. */
    private static final Set<String> KEY_QUALIFIERS = Set.of("api", "private", "secret", "access", "auth", "signing",
            "encryption", "encrypt", "decryption", "master", "client", "app", "account", "shared", "service", "license",
            "webhook", "deploy", "hmac", "jwt", "session", "storage", "subscription", "admin", "write", "consumer",
            "aes", "crypto", "cipher", "sas", "secondary", "root", "x", "ingest", "management", "mgmt", "server",
            "sendgrid", "stripe", "openai", "anthropic", "mailgun", "algolia", "cohere", "mistral", "groq");

    /**
     * A last part that says the value is about the secret, not the secret
     * ({@code PASSWORD_MIN_LENGTH}).
     */
    private static final Set<String> META_PARTS = Set.of("length", "len", "min", "max", "count", "type", "types",
            "kind", "field", "fields", "file", "files", "path", "paths", "dir", "url", "uri", "urls", "endpoint",
            "host", "name", "names", "id", "ids", "env", "var", "vars", "header", "prefix", "suffix", "policy", "regex",
            "pattern", "label", "placeholder", "prompt", "hint", "expires", "expiry", "expiration", "expire", "ttl",
            "lifetime", "timeout", "format", "version", "validator", "validation", "required", "enabled", "enable",
            "disabled", "manager", "provider", "usage", "limit", "limits", "size", "index", "mode", "method",
            "strategy", "class", "schema", "input", "form", "error", "errors", "message", "msg", "help", "text",
            "title", "description", "desc", "strength", "rule", "rules", "changed", "updated", "created", "at", "date",
            "time", "ref", "refs", "reference", "location", "arn", "param", "params", "button", "dialog", "modal",
            "page", "screen", "view", "component", "route", "template", "reset", "visible", "visibility", "toggle",
            "checker", "generator", "hasher", "encoder", "expected", "store", "storage", "cache", "source", "issuer",
            "audience", "algorithm", "alg", "scope", "scopes", "budget", "estimate", "secs", "seconds", "ms", "mins",
            "minutes", "hours", "days", "age", "interval", "rotation", "rotated", "lookup", "query", "request",
            "response", "handler", "callback", "spec", "test", "tests");

    /**
     * Words that may follow a secret's name and leave it one ({@code SECRET_KEY_BASE},
     * {@code TOKEN_PROD}).
     */
    private static final Set<String> TAIL_PARTS = Set.of("base", "value", "val", "data", "b64", "base64", "hex", "raw",
            "enc", "encoded", "encrypted", "plain", "plaintext", "str", "string", "prod", "production", "dev",
            "development", "staging", "stage", "test", "live", "sandbox", "current", "old", "new", "confirmation",
            "confirm", "again", "repeat", "local", "default", "override", "secret", "key", "token", "password", "main",
            "secondary", "bytes", "bin", "pem", "der", "json", "admin", "root", "user", "master", "hash", "access",
            "refresh", "api", "auth", "client", "private", "session", "v1", "v2", "v3");

    /**
     * Parts that make a secret-looking name something else ({@code nextPageToken},
     * {@code max_tokens}).
     */
    private static final Set<String> NOT_SECRET_PARTS = Set.of("page", "next", "continuation", "cancellation", "cancel",
            "sync", "resume", "pagination", "cursor", "lexer", "parser", "syntax", "design", "max", "min", "num",
            "total", "is", "has", "use", "uses", "requires", "require", "no", "without", "show", "hide", "forgot",
            "jsonwebtoken", "public", "publishable", "pub", "primary", "foreign", "sort", "partition", "hash", "range",
            "row", "unique", "composite", "surrogate", "natural", "cache", "idempotency", "dedupe", "map", "lookup",
            "dict", "keyboard", "hot", "shortcut", "i18n", "translation");

    /** Classifies a key name (quotes and leading dashes already removed). */
    static KeyClass classify(String name) {
        int dot = name.lastIndexOf('.');
        String[] parts = parts(dot >= 0 ? name.substring(dot + 1) : name);
        if (parts.length == 0 || parts.length > 8) {
            return KeyClass.NONE;
        }
        if (parts.length == 1 && (parts[0].equals("authorization") || parts[0].equals("authentication"))) {
            return KeyClass.AUTHORIZATION;
        }
        if (parts.length == 2 && parts[0].equals("proxy") && parts[1].equals("authorization")) {
            return KeyClass.AUTHORIZATION;
        }
        int core = -1;
        boolean weak = false;
        for (int k = 0; k < parts.length; k++) {
            String p = parts[k];
            if (SECRET_PARTS.contains(p) || isCompoundSecret(p)) {
                core = k;
            }
            else if (p.equals("key") || p.equals("keys")) {
                if (k > 0 && KEY_QUALIFIERS.contains(parts[k - 1]) && !p.equals("keys")) {
                    core = k;
                }
                else if (core < 0) {
                    weak = true;
                    core = k;
                }
            }
        }
        if (core < 0) {
            if (parts.length == 1
                    && (parts[0].equals("auth") || parts[0].equals("sig") || parts[0].equals("signature"))) {
                return KeyClass.WEAK;
            }
            return KeyClass.NONE;
        }
        for (String p : parts) {
            if (NOT_SECRET_PARTS.contains(p)) {
                return KeyClass.NONE;
            }
        }
        if (core < parts.length - 1 && META_PARTS.contains(parts[parts.length - 1])) {
            return KeyClass.NONE;
        }
        for (int k = core + 1; k < parts.length; k++) {
            if (!TAIL_PARTS.contains(parts[k]) && !allDigits(parts[k])) {
                return KeyClass.NONE; // secret_santa: the secret word qualifies something
                                      // else
            }
        }
        return weak ? KeyClass.WEAK : KeyClass.STRONG;
    }

    /**
     * {@code dbpassword}, {@code githubtoken}, {@code mysqlrootpassword}: one word that
     * ends in a secret's name.
     */
    private static boolean isCompoundSecret(String part) {
        return part.length() > 6 && (part.endsWith("password") || part.endsWith("passwd") || part.endsWith("secret")
                || part.endsWith("token") || part.endsWith("apikey") || part.endsWith("privatekey")
                || part.endsWith("secretkey") || part.endsWith("accesskey"));
    }

    /**
     * Splits a name on {@code _ - .} and camel case, lower case. {@code APIKey} → api,
     * key.
     */
    static String[] parts(String name) {
        String[] out = new String[8];
        int count = 0;
        int n = name.length();
        int start = 0;
        for (int i = 0; i <= n; i++) {
            boolean cut;
            if (i == n) {
                cut = true;
            }
            else {
                char c = name.charAt(i);
                if (c == '_' || c == '-' || c == '.' || c == ' ') {
                    if (i > start) {
                        if (count == out.length) {
                            return new String[0];
                        }
                        out[count++] = name.substring(start, i).toLowerCase(Locale.ROOT);
                    }
                    start = i + 1;
                    continue;
                }
                cut = i > start && Character.isUpperCase(c) && (Character.isLowerCase(name.charAt(i - 1)) || (i + 1 < n
                        && Character.isLowerCase(name.charAt(i + 1)) && Character.isUpperCase(name.charAt(i - 1))));
                if (cut) {
                    if (count == out.length) {
                        return new String[0];
                    }
                    out[count++] = name.substring(start, i).toLowerCase(Locale.ROOT);
                    start = i;
                }
                continue;
            }
            if (i > start) {
                if (count == out.length) {
                    return new String[0];
                }
                out[count++] = name.substring(start, i).toLowerCase(Locale.ROOT);
            }
        }
        return Arrays.copyOf(out, count);
    }

    /** Words that make a quoted value a label or a name rather than a secret. */
    private static final String[] LABEL_HINTS = { "password", "passwd", "secret", "token", "key", "credential", "auth",
            "pass" };

    private static void keyValues(String text, byte[] view, Spans spans) {
        int n = view.length;
        Map<String, KeyClass> classes = null; // the same names come back many times in a
                                              // long text
        int i = 0;
        while (i < n) {
            int hit = nextKeyHint(view, i);
            if (hit < 0) {
                return;
            }
            int ks = hit;
            while (ks > 0 && KEY_CHAR[view[ks - 1] & 0xFF]) {
                ks--;
            }
            int ke = hit;
            while (ke < n && KEY_CHAR[view[ke] & 0xFF]) {
                ke++;
            }
            i = Math.max(ke, hit + 1);
            int nameStart = ks;
            while (nameStart < ke && (view[nameStart] == '-' || view[nameStart] == '.')) {
                nameStart++;
            }
            int nameEnd = ke;
            while (nameEnd > nameStart && (view[nameEnd - 1] == '.' || view[nameEnd - 1] == '-')) {
                nameEnd--;
            }
            if (nameEnd - nameStart < 2 || nameEnd - nameStart > 80) {
                continue;
            }
            String name = text.substring(nameStart, nameEnd);
            if (classes == null) {
                classes = new HashMap<>();
            }
            KeyClass kc = classes.get(name);
            if (kc == null) {
                kc = classify(name);
                classes.put(name, kc);
            }
            if (kc == KeyClass.NONE) {
                continue;
            }
            boolean flag = nameStart - ks == 2 && text.startsWith("--", ks);
            new KeyValue(text, spans, kc, ks, nameStart, nameEnd, flag).mask();
        }
    }

    /**
     * ASCII characters that end an unquoted value: whitespace, quotes and
     * {@code , ; & ) } ] < >}.
     */
    private static final boolean[] VALUE_END = new boolean[128];

    /**
     * ASCII characters of a type written after a name: letters, digits and
     * {@code _ [ ] *}.
     */
    private static final boolean[] TYPE_CHAR = new boolean[128];

    static {
        for (char c = 0; c < 128; c++) {
            VALUE_END[c] = Character.isWhitespace(c) || "\"'`,;&)}]<>".indexOf(c) >= 0;
            TYPE_CHAR[c] = Character.isLetterOrDigit(c) || "_[]*".indexOf(c) >= 0;
        }
    }

    private static boolean isTypeChar(char c) {
        return c < 128 ? TYPE_CHAR[c] : Character.isLetterOrDigit(c);
    }

    /** Characters of a key name ({@link #isKeyChar}), by byte value. */
    private static final boolean[] KEY_CHAR = new boolean[256];

    /** Letters that begin a key hint (p, s, t, k, c, a in either case), by byte value. */
    private static final boolean[] HINT_START = new boolean[256];

    static {
        for (int c = 0; c < 128; c++) {
            KEY_CHAR[c] = isKeyChar((char) c);
        }
        for (char c : "pstkca".toCharArray()) {
            HINT_START[c] = true;
            HINT_START[Character.toUpperCase(c)] = true;
        }
    }

    /**
     * Index of the next key hint at or after {@code from}, or -1: {@code pw},
     * {@code pass}, {@code secret}, {@code sig}, {@code token}, {@code key}, {@code cred}
     * or {@code auth} in any ASCII case. One pass over the view, no allocation.
     */
    private static int nextKeyHint(byte[] view, int from) {
        int last = view.length - 1; // every hint has two characters or more
        boolean[] start = HINT_START;
        boolean[] pair = HINT_PAIR;
        for (int i = from; i < last; i++) {
            int c = view[i] & 0xFF;
            if (start[c] && pair[(c | 0x20) << 7 | (view[i + 1] | 0x20) & 0x7F] && isKeyHint(view, i, view.length)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The first two letters of a hint, lower case ({@code c0 << 7 | c1}): pw, pa, se, si,
     * to, ke, cr, au.
     */
    private static final boolean[] HINT_PAIR = new boolean[128 * 128];

    static {
        for (String pair : new String[] { "pw", "pa", "se", "si", "to", "ke", "cr", "au" }) {
            HINT_PAIR[pair.charAt(0) << 7 | pair.charAt(1)] = true;
        }
    }

    private static boolean isKeyHint(byte[] view, int i, int n) {
        return switch (view[i] | 0x20) {
            case 'p' -> i + 1 < n && ((view[i + 1] | 0x20) == 'w' || startsWithIgnoreCase(view, i, "pass"));
            case 's' -> startsWithIgnoreCase(view, i, "secret") || startsWithIgnoreCase(view, i, "sig");
            case 't' -> startsWithIgnoreCase(view, i, "token");
            case 'k' -> startsWithIgnoreCase(view, i, "key");
            case 'c' -> startsWithIgnoreCase(view, i, "cred");
            default -> startsWithIgnoreCase(view, i, "auth");
        };
    }

    /** ASCII case-insensitive {@code startsWith} for a lower-case word. */
    private static boolean startsWithIgnoreCase(byte[] view, int at, String lowerWord) {
        int len = lowerWord.length();
        if (at + len > view.length) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            if ((view[at + k] | 0x20) != lowerWord.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** One secret-named key in a text and what follows it. */
    private static final class KeyValue {

        private final String text;

        private final Spans spans;

        private final KeyClass kc;

        private final int ks;

        private final int nameStart;

        private final int nameEnd;

        private final boolean flag;

        private final int n;

        private boolean spacedSeparator;

        private int sepEnd;

        KeyValue(String text, Spans spans, KeyClass kc, int ks, int nameStart, int nameEnd, boolean flag) {
            this.text = text;
            this.spans = spans;
            this.kc = kc;
            this.ks = ks;
            this.nameStart = nameStart;
            this.nameEnd = nameEnd;
            this.flag = flag;
            this.n = text.length();
        }

        void mask() {
            int p = nameEnd;
            // the key's closing quote: " ' ` or an escaped \" \' (JSON inside a JSON
            // string)
            int quoteLen = quoteAt(p);
            boolean quotedKey = quoteLen > 0;
            p += quoteLen;
            // each special form is tried only when the character that starts it is there
            char at = p < n ? text.charAt(p) : 0;
            char before = ks > 0 ? text.charAt(ks - 1) : 0;
            if (kc == KeyClass.STRONG) {
                if (quotedKey && (before == '"' || before == '\'' || before == '\\') && callArgumentDefault(p)) {
                    return;
                }
                if (before == '{' && shellDefault()) {
                    return;
                }
                if ((at == ')' || at == ']' || at == ' ' || at == '\t' || at == '|' || at == '?' || at == 'o')
                        && fallbackDefault(p)) {
                    return;
                }
                if (!quotedKey && at == '(' && setterCall(p)) {
                    return;
                }
                if (!quotedKey && at == '>' && before == '<' && xmlElement(p)) {
                    return;
                }
            }
            if (at == ']' || at == '?' || at == '!') {
                p++; // TypeScript optional or definite marks, a closing index bracket
            }
            p = skipBlanks(p);
            char c = p < n ? text.charAt(p) : 0;
            int sep = c == ':' || c == '=' || c == '?' || c == '+' || c == '.' ? separatorLength(p) : 0;
            if (sep == 0) {
                if (kc == KeyClass.STRONG && !(isTypeChar(c) && typedDeclaration(p)) && !(c == ',' && csvValue(p))
                        && p != nameEnd && p < n) {
                    spaceSeparated(p);
                }
                return;
            }
            boolean colon = text.charAt(p) == ':' && sep == 1;
            boolean spacedBefore = p > nameEnd + quoteLen && text.charAt(p - 1) == ' ';
            int valueStart = skipBlanks(p + sep);
            spacedSeparator = spacedBefore && valueStart > p + sep;
            sepEnd = p + sep;
            value(valueStart, colon);
        }

        /**
         * {@code <dbPassword>hunter2</dbPassword>}, also with the value on lines of its
         * own.
         */
        private boolean xmlElement(int p) {
            if (ks == 0 || text.charAt(ks - 1) != '<' || p >= n || text.charAt(p) != '>') {
                return false;
            }
            int close = text.indexOf("</", p + 1);
            if (close < 0 || close - p > 4096) {
                return true;
            }
            int vs = p + 1;
            int ve = close;
            while (vs < ve && Character.isWhitespace(text.charAt(vs))) {
                vs++;
            }
            while (ve > vs && Character.isWhitespace(text.charAt(ve - 1))) {
                ve--;
            }
            if (ve > vs && text.indexOf('<', vs) >= ve && isLiteralSecret(text, vs, ve) && !isTemplate(vs, ve)) {
                spans.add(vs, ve);
            }
            return true;
        }

        /**
         * {@code var apiToken string = "…"}, {@code String apiToken = "…"} written after
         * the name.
         */
        private boolean typedDeclaration(int p) {
            int t = p;
            while (t < n && isTypeChar(text.charAt(t))) {
                t++;
            }
            if (t == p || t - p > 40) {
                return false;
            }
            int e = skipBlanks(t);
            if (e >= n || text.charAt(e) != '=' || (e + 1 < n && text.charAt(e + 1) == '=')) {
                return false;
            }
            return quotedValue(skipBlanks(e + 1));
        }

        /** {@code apiToken,8f1c…,} as in a CSV row: only a value that looks random. */
        private boolean csvValue(int p) {
            if (p >= n || text.charAt(p) != ',') {
                return false;
            }
            int vs = skipBlanks(p + 1);
            int ql = quoteAt(vs);
            int start = vs + ql;
            int end = start;
            while (end < n && !Character.isWhitespace(text.charAt(end)) && text.charAt(end) != ','
                    && text.charAt(end) != '"' && text.charAt(end) != '\'' && text.charAt(end) != ')') {
                end++;
            }
            if (isRandomLooking(start, end)) {
                spans.add(start, end);
                return true;
            }
            return false;
        }

        /**
         * {@code api_token: |} then the value on the next, indented line (YAML block
         * scalars).
         */
        private boolean blockScalar(int p) {
            if (p >= n || (text.charAt(p) != '|' && text.charAt(p) != '>')) {
                return false;
            }
            int q = p + 1;
            while (q < n && (text.charAt(q) == '-' || text.charAt(q) == '+' || Character.isDigit(text.charAt(q)))) {
                q++;
            }
            q = skipBlanks(q);
            if (q >= n || (text.charAt(q) != '\n' && text.charAt(q) != '\r')) {
                return false;
            }
            int lineStart = text.indexOf('\n', q) + 1;
            if (lineStart <= 0 || lineStart >= n) {
                return true;
            }
            int vs = skipBlanks(lineStart);
            if (vs == lineStart) {
                return true; // not indented: the block is empty
            }
            int ve = text.indexOf('\n', vs);
            ve = ve < 0 ? n : ve;
            while (ve > vs && Character.isWhitespace(text.charAt(ve - 1))) {
                ve--;
            }
            if (isLiteralSecret(text, vs, ve)) {
                spans.add(vs, ve);
            }
            return true;
        }

        /**
         * {@code getenv("DB_PASSWORD", "default")}, {@code define('DB_PASSWORD', 'x')}:
         * the second argument.
         */
        private boolean callArgumentDefault(int p) {
            int open = ks - 1;
            if (open >= 0 && text.charAt(open) == '\\') {
                open--;
            }
            int q = open;
            if (q < 0 || (text.charAt(q) != '"' && text.charAt(q) != '\'')) {
                return false;
            }
            q--;
            if (q >= 0 && text.charAt(q) == '\\') {
                q--;
            }
            while (q >= 0 && (text.charAt(q) == ' ' || text.charAt(q) == '\t')) {
                q--;
            }
            if (q < 0) {
                return false;
            }
            if (text.charAt(q) == ',') {
                // config.get("database", "password", fallback="…"): only with a default
                // keyword
                int c = skipBlanks(p);
                return c < n && text.charAt(c) == ',' && skipDefaultKeyword(skipBlanks(c + 1)) != skipBlanks(c + 1)
                        && quotedValue(skipDefaultKeyword(skipBlanks(c + 1)));
            }
            if (text.charAt(q) != '(') {
                return false;
            }
            int c = skipBlanks(p);
            if (c >= n || text.charAt(c) != ',') {
                return false;
            }
            return quotedValue(skipDefaultKeyword(skipBlanks(c + 1)));
        }

        /**
         * Skips {@code default=}, {@code fallback=}, {@code defaultValue:} before a
         * default argument.
         */
        private int skipDefaultKeyword(int p) {
            for (String kw : new String[] { "default=", "fallback=", "default_value=", "defaultValue=", "default:" }) {
                if (text.startsWith(kw, p)) {
                    return skipBlanks(p + kw.length());
                }
            }
            return p;
        }

        /**
         * {@code ${DB_PASSWORD:-default}}, {@code ${DB_PASSWORD:default}} (Spring): the
         * default.
         */
        private boolean shellDefault() {
            if (nameStart < 2 || text.charAt(nameStart - 1) != '{' || text.charAt(nameStart - 2) != '$') {
                return false;
            }
            int p = nameEnd;
            if (p >= n) {
                return false;
            }
            if (text.startsWith(":?", p) || text.charAt(p) == '?') {
                return true; // ${VAR:?message}: the message, not a default
            }
            if (text.startsWith(":-", p) || text.startsWith(":=", p)) {
                p += 2;
            }
            else if (text.charAt(p) == ':' || text.charAt(p) == '-' || text.charAt(p) == '=') {
                p++;
            }
            else {
                return false;
            }
            int close = text.indexOf('}', p);
            int nl = text.indexOf('\n', p);
            if (close < 0 || (nl >= 0 && nl < close) || close - p > 512) {
                return true;
            }
            int vs = p;
            int ve = close;
            if (ve > vs && (text.charAt(vs) == '"' || text.charAt(vs) == '\'')
                    && text.charAt(ve - 1) == text.charAt(vs)) {
                vs++;
                ve--;
            }
            if (isLiteralSecret(text, vs, ve)) {
                spans.add(vs, ve);
            }
            return true;
        }

        /**
         * {@code process.env.API_TOKEN || "x"}, {@code os.getenv("X_PASSWORD") or "x"},
         * {@code ?? "x"}.
         */
        private boolean fallbackDefault(int p) {
            int q = p;
            while (q < n && (text.charAt(q) == ')' || text.charAt(q) == ']')) {
                q++;
            }
            q = skipBlanks(q);
            int op;
            if (text.startsWith("||", q) || text.startsWith("??", q) || text.startsWith("?:", q)) {
                op = 2;
            }
            else if (text.startsWith("or ", q)) {
                op = 3;
            }
            else {
                return false;
            }
            return quotedValue(skipBlanks(q + op));
        }

        /**
         * {@code setPassword("x")}, {@code .password("x")}, {@code withToken("x")}: the
         * literal argument.
         */
        private boolean setterCall(int p) {
            if (p >= n || text.charAt(p) != '(') {
                return false;
            }
            int segmentStart = text.lastIndexOf('.', nameEnd - 1) + 1;
            segmentStart = Math.max(segmentStart, nameStart);
            String[] parts = parts(text.substring(segmentStart, nameEnd));
            String first = parts.length == 0 ? "" : parts[0];
            boolean setter = (first.equals("set") || first.equals("with")
                    || (parts.length == 1 && segmentStart > 0 && text.charAt(segmentStart - 1) == '.'))
                    && classify(text.substring(segmentStart, nameEnd)) == KeyClass.STRONG;
            if (!setter) {
                return false;
            }
            return quotedValue(skipBlanks(p + 1));
        }

        /** {@code --password hunter2}; {@code machine h login u password p} (.netrc). */
        private void spaceSeparated(int p) {
            if (p == nameEnd || p >= n) {
                return;
            }
            if (!flag) {
                boolean netrc = (isName("password") || isName("passwd")) && onLineBefore("machine ", "login ");
                if (!netrc) {
                    int end = unquotedEnd(p);
                    if (isAlnum(text.charAt(p)) && isRandomLooking(p, end)) {
                        spans.add(p, end); // aws configure set aws_secret_access_key
                                           // 8f1c…
                    }
                    return;
                }
            }
            char c = text.charAt(p);
            if (c == '-' || c == '\n' || c == '\r') {
                return;
            }
            if (!quotedValue(p)) {
                int end = unquotedEnd(p);
                if (isLiteralSecret(text, p, end)) {
                    spans.add(p, end);
                }
            }
        }

        /** Whether the key's name is {@code lowerName} in any case (a name is ASCII). */
        private boolean isName(String lowerName) {
            return nameEnd - nameStart == lowerName.length()
                    && text.regionMatches(true, nameStart, lowerName, 0, lowerName.length());
        }

        private boolean onLineBefore(String... words) {
            int lineStart = text.lastIndexOf('\n', ks) + 1;
            String line = text.substring(lineStart, ks);
            for (String w : words) {
                if (line.contains(w)) {
                    return true;
                }
            }
            return false;
        }

        /** The value after the separator. */
        private void value(int p, boolean colon) {
            if (p >= n) {
                return;
            }
            char c = text.charAt(p);
            if ((c == '"' || c == '\'' || c == '`' || c == '\\') && quotedValue(p)) {
                return;
            }
            if (c == '\n' || c == '\r') {
                return;
            }
            if (kc == KeyClass.STRONG && colon && (c == '|' || c == '>') && blockScalar(p)) {
                return;
            }
            int end = unquotedEnd(p);
            if (end <= p) {
                return;
            }
            if (kc == KeyClass.AUTHORIZATION) {
                authorization(p, end);
                return;
            }
            if (kc == KeyClass.WEAK) {
                if (isRandomLooking(p, end)) {
                    spans.add(p, end);
                }
                return;
            }
            if (isCode(p, end, colon)) {
                typedThenAssigned(end);
                return;
            }
            if (isCredentialsKey() && maskAfterUser(p, end)) {
                return;
            }
            spans.add(p, end);
        }

        /** {@code password: str = "hunter2"}: a type annotation, then a literal. */
        private void typedThenAssigned(int end) {
            int q = skipBlanks(end);
            if (q < n && text.charAt(q) == '=' && (q + 1 >= n || text.charAt(q + 1) != '=')) {
                quotedValue(skipBlanks(q + 1));
            }
        }

        private boolean isCredentialsKey() {
            if (!containsAsciiIgnoreCase(text, nameStart, nameEnd, "cred")) {
                return false; // no part of the name can start with it
            }
            String[] parts = parts(text.substring(nameStart, nameEnd));
            String last = parts.length == 0 ? "" : parts[parts.length - 1];
            return last.startsWith("cred");
        }

        /** {@code Credentials: neo4j/the-password}: the user stays. */
        private boolean maskAfterUser(int p, int end) {
            for (int k = p + 1; k < end - 1; k++) {
                char c = text.charAt(k);
                if (c == '/' || c == ':') {
                    spans.add(k + 1, end);
                    return true;
                }
            }
            return false;
        }

        /**
         * {@code Authorization: Bearer x}: the part after the scheme word; a bare
         * credential whole.
         */
        private void authorization(int p, int end) {
            int lineEnd = p;
            while (lineEnd < n && text.charAt(lineEnd) != '\n' && text.charAt(lineEnd) != '\r'
                    && text.charAt(lineEnd) != '"' && text.charAt(lineEnd) != '\'' && text.charAt(lineEnd) != '\\') {
                lineEnd++;
            }
            int credStart = p;
            if (end < lineEnd && text.charAt(end) == ' ') {
                credStart = skipBlanks(end);
            }
            int credEnd = credStart;
            while (credEnd < lineEnd && !Character.isWhitespace(text.charAt(credEnd))) {
                credEnd++;
            }
            if (credEnd > credStart && text.charAt(credStart) != '$' && text.charAt(credStart) != '{'
                    && text.charAt(credStart) != '<' && looksLikeCredential(text, credStart, credEnd)) {
                spans.add(credStart, credEnd);
            }
        }

        /**
         * A quoted value at {@code p} (also with escaped quotes, {@code \"…\"}): masks
         * its content when it is a literal secret. Returns whether there was a quoted
         * value (masked or not).
         */
        private boolean quotedValue(int p) {
            int ql = quoteAt(p);
            if (ql == 0) {
                return false;
            }
            boolean escaped = ql == 2;
            char quote = text.charAt(p + ql - 1);
            int vs = p + ql;
            int ve = vs;
            while (ve < n) {
                char c = text.charAt(ve);
                if (c == '\n' || c == '\r') {
                    return true; // unterminated on this line: nothing certain to mask
                }
                if (escaped) {
                    if (c == '\\' && ve + 1 < n && text.charAt(ve + 1) == quote) {
                        break;
                    }
                    if (c == '\\' && ve + 1 < n && text.charAt(ve + 1) == '\\') {
                        ve += 2;
                        continue;
                    }
                }
                else {
                    if (c == '\\' && ve + 1 < n && text.charAt(ve + 1) != '\n') {
                        ve += 2;
                        continue;
                    }
                    if (c == quote) {
                        break;
                    }
                }
                ve++;
            }
            if (ve >= n || ve == vs || ve - vs > 4096) {
                return true;
            }
            if (kc == KeyClass.AUTHORIZATION) {
                authorization(vs, unquotedEnd(vs));
                return true;
            }
            if (kc == KeyClass.WEAK) {
                if (isRandomLooking(vs, ve)) {
                    spans.add(vs, ve);
                }
                return true;
            }
            if (!isLiteralSecret(text, vs, ve) || isTemplate(vs, ve) || isLabel(vs, ve)) {
                return true;
            }
            if (quote == '`' && text.indexOf("${", vs) >= 0 && text.indexOf("${", vs) < ve) {
                return true;
            }
            spans.add(vs, ve);
            return true;
        }

        /**
         * Length of a quote at {@code p}: 1 for {@code " ' `}, 2 for an escaped
         * {@code \" \'}, else 0.
         */
        private int quoteAt(int p) {
            if (p >= n) {
                return 0;
            }
            char c = text.charAt(p);
            if (c == '"' || c == '\'' || c == '`') {
                return 1;
            }
            if (c == '\\' && p + 1 < n && (text.charAt(p + 1) == '"' || text.charAt(p + 1) == '\'')) {
                return 2;
            }
            return 0;
        }

        private int skipBlanks(int p) {
            while (p < n && (text.charAt(p) == ' ' || text.charAt(p) == '\t')) {
                p++;
            }
            return p;
        }

        /** {@code = : := => ?= +=}, not {@code == :: =~}; 0 when there is none. */
        private int separatorLength(int p) {
            if (p >= n) {
                return 0;
            }
            char c = text.charAt(p);
            char next = p + 1 < n ? text.charAt(p + 1) : 0;
            if (c == ':') {
                if (next == '=') {
                    return 2;
                }
                if (text.startsWith("::=", p)) {
                    return 3; // Make's ::= and :::=
                }
                if (text.startsWith(":::=", p)) {
                    return 4;
                }
                return next == ':' ? 0 : 1;
            }
            if (c == '=') {
                if (next == '>') {
                    return 2;
                }
                return next == '=' || next == '~' ? 0 : 1;
            }
            if ((c == '?' || c == '+' || c == '.') && next == '=') {
                return 2;
            }
            return 0;
        }

        /**
         * An unquoted value runs to whitespace, a quote, or one of {@code , ; & ) } ] <
         * >}, or an escape.
         */
        private int unquotedEnd(int p) {
            int e = p;
            boolean[] ends = VALUE_END;
            while (e < n) {
                char c = text.charAt(e);
                if (c < 128 ? ends[c] : Character.isWhitespace(c)) {
                    break;
                }
                if (c == '\\' && e + 1 < n && "nrt\"'\\".indexOf(text.charAt(e + 1)) >= 0) {
                    break;
                }
                e++;
            }
            return e;
        }

        /**
         * Whether an unquoted value is code rather than a literal: a call, an index, a
         * member access, a keyword or a type, a reference to a variable named like the
         * secret, a path, a placeholder, a marker, or (after a colon) the first word of a
         * sentence.
         */
        private boolean isCode(int p, int end, boolean colon) {
            char c = text.charAt(p);
            if ("$%{[(<=!&*@#\\|+".indexOf(c) >= 0 || (c == '-' && (p + 1 >= end || text.charAt(p + 1) == '>'))) {
                return true;
            }
            String v = text.substring(p, end);
            while (v.length() > 1 && (v.endsWith("!") || v.endsWith("?"))) {
                v = v.substring(0, v.length() - 1); // TypeScript's non-null x!, Kotlin's
                                                    // String?
            }
            if (isPlaceholder(v) || isVersion(v) || v.startsWith("/") || v.startsWith("./") || v.startsWith("~/")
                    || v.startsWith("../")) {
                return true;
            }
            if (v.indexOf('(') >= 0 || v.indexOf('[') >= 0 || v.contains("::") || v.contains("->") || v.contains("{{")
                    || v.contains("${")) {
                return true;
            }
            if (isDottedIdentifier(v)) {
                return true;
            }
            if (!isIdentifier(v)) {
                return false;
            }
            String lower = v.toLowerCase(Locale.ROOT);
            if (KEYWORDS.contains(lower)) {
                return true;
            }
            boolean digits = false;
            for (int k = 0; k < v.length(); k++) {
                digits |= Character.isDigit(v.charAt(k));
            }
            if (!digits && mentionsSecret(lower, v)) {
                return true; // password=password, token: authToken, secret =
                             // client_secret
            }
            if (literalContext()) {
                return false;
            }
            if (colon && !digits && Character.isUpperCase(v.charAt(0))) {
                return true; // token: Token, password: String
            }
            int after = skipBlanks(end);
            if (colon && !digits && after == end && p == sepEnd && end < n
                    && (text.charAt(end) == '"' || text.charAt(end) == '\'')) {
                return true; // "token:rotate", scope "secret:read": a name with a colon
                             // in it
            }
            if (after < n && text.charAt(after) == '=' && (after + 1 >= n || text.charAt(after + 1) != '=')) {
                return true; // userid = passwd = acct = '': a chained assignment
            }
            boolean nameLike = v.length() < 20 || v.indexOf('_') >= 0 || v.equals(v.toLowerCase(Locale.ROOT));
            if (!digits && nameLike && after < n && ",);}]".indexOf(text.charAt(after)) >= 0) {
                return true; // connect(user=user, password=pw), { token: tok }
            }
            if (!digits && nameLike && spacedSeparator
                    && (after >= n || text.charAt(after) == '\n' || text.charAt(after) == '\r')) {
                return true; // password = pw (a variable); .env and properties files
                             // write PASSWORD=hunter
            }
            if (colon && !digits && after < n && after > end && Character.isLetter(text.charAt(after))) {
                return true; // "Password: must be eight characters or more"
            }
            return false;
        }

        /**
         * A key right after {@code ; ? &} or a line start of a key=value file is in data,
         * never code.
         */
        private boolean literalContext() {
            int q = ks - 1;
            while (q >= 0 && (text.charAt(q) == ' ' || text.charAt(q) == '\t')) {
                q--;
            }
            if (q >= 0 && (text.charAt(q) == ';' || text.charAt(q) == '?' || text.charAt(q) == '&')) {
                return true;
            }
            return false;
        }

        private boolean mentionsSecret(String lower, String v) {
            for (String hint : LABEL_HINTS) {
                if (lower.contains(hint) && (lower.equals(hint) || v.indexOf('_') >= 0 || !lower.equals(v)
                        || lower.length() <= hint.length() + 4)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * {@code "Forgot password?"}, {@code "DB_PASSWORD"}, {@code "password"}: a label
         * or a name.
         */
        private boolean isLabel(int vs, int ve) {
            String v = text.substring(vs, ve);
            String lower = v.toLowerCase(Locale.ROOT);
            boolean digits = false;
            for (int k = 0; k < v.length(); k++) {
                digits |= Character.isDigit(v.charAt(k));
            }
            for (String hint : LABEL_HINTS) {
                if (!lower.contains(hint)) {
                    continue;
                }
                if (v.indexOf(' ') >= 0 || lower.equals(hint)
                        || (!digits && isIdentifier(v) && (v.indexOf('_') >= 0 || !lower.equals(v)))) {
                    return true;
                }
            }
            return v.indexOf(' ') >= 0 && v.endsWith("?");
        }

        private boolean isTemplate(int vs, int ve) {
            String v = text.substring(vs, ve);
            if (isVersion(v) || isRuleList(v) || isSentence(v)) {
                return true;
            }
            return v.contains("${") || v.contains("{{") || v.contains("#{") || v.contains("%(") || v.contains("%s")
                    || (v.startsWith("{") && v.endsWith("}")) || v.startsWith("$") || v.startsWith("env:")
                    || v.startsWith("vault:") || v.startsWith("secret:") || v.startsWith("op://");
        }

        /**
         * At least 16 characters, letters and digits, about 3 bits of entropy per
         * character or more.
         */
        private boolean isRandomLooking(int vs, int ve) {
            if (ve - vs < 16 || ve - vs > 4096) {
                return false;
            }
            boolean letter = false;
            boolean digit = false;
            int[] counts = new int[128];
            for (int k = vs; k < ve; k++) {
                char c = text.charAt(k);
                if (c >= 128 || Character.isWhitespace(c)) {
                    return false;
                }
                letter |= Character.isLetter(c);
                digit |= Character.isDigit(c);
                counts[c]++;
            }
            if (!letter || !digit) {
                return false;
            }
            double entropy = 0;
            int len = ve - vs;
            for (int count : counts) {
                if (count > 0) {
                    double f = (double) count / len;
                    entropy -= f * (Math.log(f) / Math.log(2));
                }
            }
            return entropy >= 3.0;
        }

    }

    /**
     * Compiled on first need: most texts never get this far, and a hook process pays for
     * every compile.
     */
    private static final class ValuePatterns {

        /** {@code required|string|min:8}: a validation rule list. */
        static final LazyPattern RULE_LIST = new LazyPattern(
                "[a-z_]{2,20}(?::[^|\\s]{0,30})?(?:\\|[a-z_]{2,20}(?::[^|\\s]{0,30})?)+");
        static final LazyPattern VERSION = new LazyPattern(
                "[~^<>=]{0,2}v?\\d{1,4}(?:\\.[0-9x*]{1,6}){1,3}(?:-[A-Za-z0-9.]{1,20})?");

    }

    /** {@code required|string|min:8}: a validation rule list (which has a {@code |}). */
    private static boolean isRuleList(String v) {
        return v.indexOf('|') > 0 && ValuePatterns.RULE_LIST.get().matcher(v).matches();
    }

    /** {@code ^9.0.2}, {@code 1.2.3-rc.1}: a version, not a secret. */
    static boolean isVersion(String v) {
        if (v.length() > 40 || v.indexOf('.') < 0) {
            return false;
        }
        // what the pattern needs before its first digit: up to two of ~^<>= and an
        // optional v
        int p = 0;
        while (p < 2 && p < v.length() && "~^<>=".indexOf(v.charAt(p)) >= 0) {
            p++;
        }
        if (p < v.length() && v.charAt(p) == 'v') {
            p++;
        }
        return p < v.length() && v.charAt(p) >= '0' && v.charAt(p) <= '9'
                && ValuePatterns.VERSION.get().matcher(v).matches();
    }

    /** A message: three or more words ending in sentence punctuation. */
    private static boolean isSentence(String v) {
        int spaces = 0;
        for (int k = 0; k < v.length(); k++) {
            spaces += v.charAt(k) == ' ' ? 1 : 0;
        }
        char last = v.isEmpty() ? 0 : v.charAt(v.length() - 1);
        return spaces >= 2 && (last == '.' || last == '!' || last == '?' || last == ':');
    }

    private static final Set<String> KEYWORDS = Set.of("null", "none", "nil", "undefined", "true", "false", "yes", "no",
            "on", "off", "self", "this", "new", "await", "async", "lambda", "function", "fn", "return", "if", "not",
            "and", "or", "str", "string", "int", "integer", "bool", "boolean", "bytes", "byte", "number", "any",
            "unknown", "object", "float", "double", "char", "void", "required", "optional", "secretstr", "secretbytes",
            "var", "let", "const", "val", "def", "of", "in", "is", "as", "typeof", "type", "default", "env", "string[]",
            "list", "dict", "map", "set", "tuple", "array", "option", "result", "vec", "box", "rc", "arc", "u8", "i32",
            "i64", "u32", "u64", "usize", "long", "short", "text", "varchar", "blob", "uuid", "date", "json", "jsonb",
            "binary", "nullable", "empty", "omit", "hidden", "masked", "redacted", "sensitive", "inherit", "auto",
            "static", "final", "private", "public", "protected", "readonly", "mut", "ref", "read", "write", "readwrite",
            "none_", "disabled", "enabled", "required_");

    private static boolean isIdentifier(String v) {
        return isIdentifier(v, 0, v.length());
    }

    /**
     * Whether {@code v[start, end)} is an identifier: a letter or {@code _}, then
     * letters, digits and {@code _}.
     */
    private static boolean isIdentifier(String v, int start, int end) {
        if (end <= start || !(Character.isLetter(v.charAt(start)) || v.charAt(start) == '_')) {
            return false;
        }
        for (int k = start + 1; k < end; k++) {
            char c = v.charAt(k);
            if (!(Character.isLetterOrDigit(c) || c == '_')) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDottedIdentifier(String v) {
        int dot = v.indexOf('.');
        if (dot <= 0 || dot == v.length() - 1) {
            return false;
        }
        int start = 0;
        while (start <= v.length()) { // every part between dots an identifier (no split:
                                      // it allocates)
            int end = v.indexOf('.', start);
            end = end < 0 ? v.length() : end;
            if (!isIdentifier(v, start, end)) {
                return false;
            }
            start = end + 1;
        }
        char first = v.charAt(0);
        return Character.isLowerCase(first) || first == '_' || Character.isUpperCase(first);
    }

    /** Text that stands for a value rather than being one. */
    static boolean isPlaceholder(String v) {
        if (v.isEmpty() || v.equals(Redactor.SECRET_MARKER) || v.equals(Redactor.PRIVATE_MARKER)) {
            return true;
        }
        if (v.startsWith(Redactor.SECRET_MARKER) || v.endsWith(Redactor.SECRET_MARKER)) {
            return true;
        }
        if (v.startsWith("<") && v.endsWith(">") || v.startsWith("{") && v.endsWith("}")
                || v.startsWith("[") && v.endsWith("]")) {
            return true;
        }
        boolean filler = true; // (only X lower-cases to one of these)
        for (int k = 0; k < v.length() && filler; k++) {
            char ch = v.charAt(k);
            filler = ch == '*' || ch == 'x' || ch == 'X' || ch == '.' || ch == '•' || ch == '…' || ch == '-'
                    || ch == '#' || ch == '?';
        }
        if (filler) {
            return true;
        }
        if (v.length() > PLACEHOLDER_MAX_LENGTH && "yY<rRiIeEdD".indexOf(v.charAt(0)) < 0) {
            return false; // too long for the list, and no prefix below starts with its
                          // first character
        }
        String lower = v.toLowerCase(Locale.ROOT);
        return PLACEHOLDERS.contains(lower) || lower.startsWith("your_") || lower.startsWith("your-")
                || lower.startsWith("<your") || lower.startsWith("replace") || lower.startsWith("insert_")
                || lower.startsWith("example") || lower.startsWith("dummy") || lower.startsWith("redacted");
    }

    private static final Set<String> PLACEHOLDERS = Set.of("password", "passwd", "pass", "secret", "token", "apikey",
            "api_key", "api-key", "key", "credentials", "changeit", "changeme", "change-me", "change_me", "todo", "tbd",
            "fixme", "none", "null", "nil", "undefined", "true", "false", "n/a", "na", "...", "…", "value", "string",
            "xxx", "test", "your-password", "yourpassword", "mypassword", "my-password", "secret-value", "my-secret",
            "mysecret", "yoursecret", "your-secret", "yourtoken", "your-token", "sample", "hidden", "redacted",
            "masked", "empty");

    /**
     * The length of the longest of {@link #PLACEHOLDERS} (lower-casing never makes a
     * string shorter).
     */
    private static final int PLACEHOLDER_MAX_LENGTH = maxLength(PLACEHOLDERS);

    private static int maxLength(Set<String> words) {
        int max = 0;
        for (String w : words) {
            max = Math.max(max, w.length());
        }
        return max;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 6. Command lines
    // ---------------------------------------------------------------------------------------------------------------

    private static final class CommandPatterns {

        static final LazyPattern CURL_USER = new LazyPattern(
                "(?<![A-Za-z0-9_-])(?:-u|--user)[ \\t]+['\"]?[^\\s:'\"]{1,128}:([^\\s'\"@]{1,256}+)");
        static final LazyPattern MYSQL_P = new LazyPattern("(?<![A-Za-z0-9_-])-p(['\"]?)([^\\s'\"-][^\\s'\"]{0,255}+)");
        static final LazyPattern DASH_P_SPACE = new LazyPattern(
                "(?<![A-Za-z0-9_-])-p[ \\t]+(['\"]?)([^\\s'\"-][^\\s'\"]{0,255}+)");

    }

    private static void commandLines(String text, String latin, Spans spans) {
        if (latin.contains("-u ") || latin.contains("--user ")) {
            Starts starts = Starts.of(latin, "-u", 0); // -u or --user
            starts.addAll(latin, "-u", 1);
            AnchoredFind m = new AnchoredFind(CommandPatterns.CURL_USER, text, starts);
            while (m.find()) {
                if (isLiteralSecret(text, m.start(1), m.end(1))
                        && lineContains(text, m.start(), "curl", "wget", "http")) {
                    spans.add(m.start(1), m.end(1));
                }
            }
        }
        if (latin.contains("-p")) {
            boolean mysql = latin.contains("mysql") || latin.contains("mariadb");
            boolean spaced = latin.contains("sshpass") || latin.contains("login");
            if (mysql) {
                AnchoredFind m = new AnchoredFind(CommandPatterns.MYSQL_P, text, Starts.of(latin, "-p", 0));
                while (m.find()) {
                    if (lineContains(text, m.start(), "mysql", "mariadb")
                            && isLiteralSecret(text, m.start(2), m.end(2))) {
                        spans.add(m.start(2), m.end(2));
                    }
                }
            }
            if (spaced) {
                AnchoredFind m = new AnchoredFind(CommandPatterns.DASH_P_SPACE, text, Starts.of(latin, "-p", 0));
                while (m.find()) {
                    if (lineContains(text, m.start(), "sshpass", "docker login", "podman login", "helm registry login")
                            && isLiteralSecret(text, m.start(2), m.end(2))) {
                        spans.add(m.start(2), m.end(2));
                    }
                }
            }
        }
    }

    private static boolean lineContains(String text, int at, String... words) {
        int start = text.lastIndexOf('\n', at) + 1;
        int end = text.indexOf('\n', at);
        String line = text.substring(start, end < 0 ? text.length() : end);
        for (String w : words) {
            if (line.contains(w)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // helpers
    // ---------------------------------------------------------------------------------------------------------------

    private static boolean allDigits(String s) {
        for (int k = 0; k < s.length(); k++) {
            if (!Character.isDigit(s.charAt(k))) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isSchemeChar(char c) {
        return isAlnum(c) || c == '+' || c == '.' || c == '-';
    }

    private static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    /** Whether {@code text[from, to)} holds a lower-case ASCII word in any ASCII case. */
    private static boolean containsAsciiIgnoreCase(String text, int from, int to, String lowerWord) {
        int len = lowerWord.length();
        for (int i = from; i + len <= to; i++) {
            int k = 0;
            while (k < len && (text.charAt(i + k) | 0x20) == lowerWord.charAt(k)) {
                k++;
            }
            if (k == len) {
                return true;
            }
        }
        return false;
    }

    private static boolean isKeyChar(char c) {
        return isAlnum(c) || c == '_' || c == '-' || c == '.';
    }

}
