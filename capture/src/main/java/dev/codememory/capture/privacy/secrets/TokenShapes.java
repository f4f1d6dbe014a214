package dev.codememory.capture.privacy.secrets;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rule 2 of {@link SecretRules}: provider tokens, a fixed prefix and a body of the
 * documented alphabet and length, found by one scan that only looks at a word start whose
 * first characters begin some prefix.
 */
final class TokenShapes {

    private TokenShapes() {
    }

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
            { "sk_prod_", "[A-Za-z0-9]{16,}+" }, { "rk_prod_", "[A-Za-z0-9]{16,}+" },
            { "whsec_", "[A-Za-z0-9+/=]{24,}+" }, { "AKIA", "[0-9A-Z]{16}" }, { "ASIA", "[0-9A-Z]{16}" },
            { "ABIA", "[0-9A-Z]{16}" }, { "ACCA", "[0-9A-Z]{16}" }, { "AGPA", "[0-9A-Z]{16}" },
            { "AIDA", "[0-9A-Z]{16}" }, { "AROA", "[0-9A-Z]{16}" }, { "AIPA", "[0-9A-Z]{16}" },
            { "ANPA", "[0-9A-Z]{16}" }, { "ANVA", "[0-9A-Z]{16}" }, { "APKA", "[0-9A-Z]{16}" },
            { "A3T", "[0-9A-Z]{17}" }, // AWS (detect-secrets' aws_key)
            // Amazon Bedrock's long-lived key: ABSK and the base64 of "BedrockAPIKey-…"
            { "ABSKQmVkcm9ja0FQSUtleS", "[A-Za-z0-9+/]{80,}+={0,2}" }, { "ghp_", "[A-Za-z0-9]{30,}+" },
            { "gho_", "[A-Za-z0-9]{30,}+" }, { "ghu_", "[A-Za-z0-9]{30,}+" }, { "ghs_", "[A-Za-z0-9]{30,}+" },
            { "ghr_", "[A-Za-z0-9]{30,}+" }, { "github_pat_", "[A-Za-z0-9_]{20,}+" },
            { "glpat-", "[A-Za-z0-9_-]{20,}+" }, { "gldt-", "[A-Za-z0-9_-]{20,}+" },
            { "glptt-", "[A-Za-z0-9_-]{20,}+" }, { "glrt-", "[A-Za-z0-9_-]{20,}+" },
            { "glcbt-", "[A-Za-z0-9_-]{20,}+" }, { "glsoat-", "[A-Za-z0-9_-]{20,}+" },
            { "glft-", "[A-Za-z0-9_-]{20,}+" }, { "glimt-", "[A-Za-z0-9_-]{20,}+" },
            { "gloas-", "[A-Za-z0-9_-]{20,}+" }, { "glagent-", "[A-Za-z0-9_-]{40,}+" },
            { "glffct-", "[A-Za-z0-9_-]{20,}+" }, { "GR1348941", "[A-Za-z0-9_-]{20,}+" },
            { "xox", "[abposre]-[A-Za-z0-9-]{10,}+" }, { "xapp-", "\\d-[A-Z0-9]{8,}+-\\d{6,}+-[A-Za-z0-9]{30,}+" },
            { "xoxe.xox", "[a-z]-[A-Za-z0-9-]{10,}+" }, // Slack's rotating tokens
            { "AIza", "[0-9A-Za-z_-]{35}" }, { "GOCSPX-", "[A-Za-z0-9_-]{24,}+" }, { "ya29.", "[0-9A-Za-z_-]{20,}+" },
            { "1//0", "[A-Za-z0-9_-]{30,}+" }, // Google refresh token
            // Twilio API key
            { "SK", "(?:[0-9a-fA-F]{32}|[0-9a-z]{32})" }, { "AC", "[0-9a-z]{32}" }, // Twilio
                                                                                    // account
            { "SG.", "[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}" }, // SendGrid
            { "npm_", "[A-Za-z0-9]{36}" }, { "pypi-", "Ag[A-Za-z0-9_-]{50,}+" }, { "dckr_pat_", "[A-Za-z0-9_-]{20,}+" },
            { "dckr_oat_", "[A-Za-z0-9_-]{20,}+" }, { "hf_", "[A-Za-z0-9]{30,}+" }, { "api_org_", "[A-Za-z0-9]{30,}+" },
            { "eyJ", "[A-Za-z0-9_-]{8,}+\\.eyJ[A-Za-z0-9_-]{8,}+(?:\\.[A-Za-z0-9_-]*+)?" }, // JWT
            { "ZXlK", "[A-Za-z0-9+/_-]{40,}+={0,2}" }, // a JWT in base64
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
            { "dt0c01.", "[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}" }, { "shippo_", "(?:live|test)_[a-f0-9]{40}" },
            { "FLWSECK", "(?:_TEST)?-[a-hA-H0-9]{12}(?:[a-hA-H0-9]{20}-X)?" },
            { "FLWPUBK", "(?:_TEST)?-[a-hA-H0-9]{32}-X" }, { "EZAK", "[a-zA-Z0-9]{54}" }, { "EZTK", "[a-zA-Z0-9]{54}" },
            { "duffel_", "(?:test|live)_[A-Za-z0-9_-]{43}" }, { "tfp_", "[A-Za-z0-9_.=-]{59}" },
            { "HRKU-", "[A-Za-z0-9_-]{40,}+" }, { "ops_", "eyJ[A-Za-z0-9+/=_-]{50,}+" }, { "rdme_", "[a-z0-9]{70}" },
            { "pnu_", "[A-Za-z0-9]{36}" }, { "p8e-", "[A-Za-z0-9]{32}" }, // Adobe
            // 1Password secret key
            { "A3-", "[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}" },
            // 42 (intra)
            { "s-s4t2ud-", "[a-fA-F0-9]{64}" }, { "s-s4t2af-", "[a-fA-F0-9]{64}" }, { "sha256~", "[A-Za-z0-9_-]{43}" }, // OpenShift
            { "sgp_", "(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}" }, // Sourcegraph
            { "AKC", "[A-Za-z0-9]{10,}+" },
            // Artifactory (AP…: with a digit and a lower-case letter, so APEnvironment
            // stays)
            { "AP", "(?=[0-9A-F][A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[0-9])[0-9A-F][A-Za-z0-9]{10,}+" },
            { "sl.", "[A-Za-z0-9_-]{130,}+" }, { "figd_", "[A-Za-z0-9_-]{40,}+" }, { "fo1_", "[A-Za-z0-9_-]{43}" }, // Fly.io
            // Vault before 1.10: s. and 24 of mixed case and digits
            { "s.", "(?=[a-z0-9]*[A-Z])(?=[A-Z0-9]*[a-z])(?=[A-Za-z]*[0-9])[A-Za-z0-9]{24}" }, };

    /** The compiled bodies, by index in {@link #SHAPES}. */
    private static final Pattern[] BODIES = new Pattern[SHAPES.length];

    /** Per first character, the shapes that start with it. */
    private static final int[][] BY_FIRST_CHAR = new int[128][];

    /** The characters that begin some prefix. */
    private static final boolean[] FIRST = new boolean[128];

    /**
     * Per first character, the second characters some prefix has after it (every prefix
     * has two or more).
     */
    private static final boolean[][] SECOND = new boolean[128][];

    /**
     * Per first two characters ({@code c0 << 7 | c1}), the characters that may come
     * third: a prefix's third, or any when a prefix is just those two.
     */
    private static final boolean[][] THIRD = new boolean[128 * 128][];

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
     * Bodies that are one run of a character class, by index in {@link #SHAPES}; parsed
     * on first need.
     */
    private static final RunBody[] RUNS = new RunBody[SHAPES.length];

    private static final boolean[] PARSED = new boolean[SHAPES.length];

    private static synchronized Pattern body(int k) {
        Pattern p = BODIES[k];
        if (p == null) {
            p = Pattern.compile(SHAPES[k][1]);
            BODIES[k] = p;
        }
        return p;
    }

    /** The body as a {@link RunBody}, or null when it needs the regex engine. */
    private static synchronized RunBody run(int k) {
        if (!PARSED[k]) {
            RUNS[k] = RunBody.parse(SHAPES[k][1]);
            PARSED[k] = true;
        }
        return RUNS[k];
    }

    /** Adds the span of every token in the view. */
    static void mask(String text, byte[] view, Spans spans) {
        int n = view.length;
        Matcher matcher = null;
        for (int i = nextShapeStart(view, 0); i < n; i = nextShapeStart(view, i + 1)) {
            int c = view[i];
            char second = (char) (view[i + 1] & 0xFF);
            for (int k : BY_FIRST_CHAR[c]) {
                String prefix = SHAPES[k][0];
                if (prefix.charAt(1) != second || !text.startsWith(prefix, i)) {
                    continue;
                }
                int end;
                RunBody run = run(k);
                if (run != null) {
                    end = run.end(view, i + prefix.length());
                }
                else {
                    Pattern body = body(k);
                    matcher = matcher == null ? body.matcher(text) : matcher.usePattern(body);
                    matcher.region(i + prefix.length(), n);
                    end = matcher.lookingAt() ? matcher.end() : -1;
                }
                if (end >= 0 && (end == n || !Ascii.isAlnum(text.charAt(end)))) {
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
        boolean[] first = FIRST;
        boolean[][] second = SECOND;
        boolean[][] third = THIRD;
        boolean[] alnum = Ascii.ALNUM;
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

}
