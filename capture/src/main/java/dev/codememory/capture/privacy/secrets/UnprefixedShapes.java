package dev.codememory.capture.privacy.secrets;

/**
 * Rule 2 of {@link SecretRules}, continued: token shapes without a prefix of their own
 * (Azure AD client secrets, Telegram bot tokens, Mailchimp keys, Terraform Cloud tokens,
 * Sentry DSN keys, Slack, Discord and Teams webhook paths, Facebook app tokens
 * {@code appid|secret}, Discord bot tokens).
 */
final class UnprefixedShapes {

    private UnprefixedShapes() {
    }

    /**
     * The rule's patterns, in a holder of their own: a text without a trigger of the rule
     * loads neither them nor {@link LazyPattern}, and each compiles on first use.
     */
    private static final class Patterns {

        static final LazyPattern AZURE_AD = new LazyPattern(
                "(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])");
        static final LazyPattern TELEGRAM = new LazyPattern(
                "(?<!\\d)\\d{5,16}:A(?=[A-Za-z_-]*\\d)[0-9A-Za-z_-]{33,35}(?![0-9A-Za-z_-])");
        static final LazyPattern MAILCHIMP = new LazyPattern("(?<![0-9a-f])[0-9a-f]{32}-us\\d{1,2}(?!\\d)");
        static final LazyPattern TERRAFORM = new LazyPattern("[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,}+");

        /** Facebook's app access token, {@code app id|app secret}. */
        static final LazyPattern FACEBOOK = new LazyPattern(
                "(?<![0-9A-Za-z])\\d{15,16}(?:\\||%7C)(?=[A-Za-z_-]*\\d)[0-9A-Za-z_-]{27,40}(?![0-9A-Za-z_-])");

        /**
         * Discord's bot token: the base64 of the bot's numeric id (so it starts with M, N
         * or O and holds a digit), a dot, six characters of time stamp, a dot and the
         * HMAC.
         */
        static final LazyPattern DISCORD_BOT = new LazyPattern(
                "(?<![A-Za-z0-9_-])[MNO](?=[A-Za-z]*\\d)[A-Za-z0-9]{22,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}"
                        + "(?![A-Za-z0-9_-])");

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
     * Adds the span of every unprefixed token. Each pattern runs only where its literal
     * part is (at the offset the pattern puts it), not over the whole text: common words
     * such as "hook" or "-us" would otherwise cost a long text a regex scan each.
     */
    static void mask(String text, String latin, Spans spans) {
        if (latin.contains("Q~")) {
            Starts starts = new Starts(); // [A-Za-z0-9_~.]{3}\dQ~
            for (int q = latin.indexOf("Q~"); q >= 0; q = latin.indexOf("Q~", q + 1)) {
                starts.addIf(q >= 4 && Ascii.isDigit(latin.charAt(q - 1)), q - 4);
            }
            addAll(Patterns.AZURE_AD, text, starts, spans, 0);
        }
        if (latin.contains(":A")) {
            Starts starts = new Starts();
            for (int q = latin.indexOf(":A"); q >= 0; q = latin.indexOf(":A", q + 1)) {
                int r = q; // a Telegram token starts where the run of digits before :A
                           // does
                while (r > 0 && q - r <= 16 && Ascii.isDigit(latin.charAt(r - 1))) {
                    r--;
                }
                starts.addIf(q - r >= 5 && q - r <= 16, r);
            }
            addAll(Patterns.TELEGRAM, text, starts, spans, 0);
        }
        if (latin.contains("-us")) {
            Starts starts = new Starts(); // [0-9a-f]{32}-us
            for (int q = latin.indexOf("-us"); q >= 0; q = latin.indexOf("-us", q + 1)) {
                char c = q >= 32 ? latin.charAt(q - 1) : 0;
                starts.addIf(Ascii.isDigit(c) || (c >= 'a' && c <= 'f'), q - 32);
            }
            addAll(Patterns.MAILCHIMP, text, starts, spans, 0);
        }
        if (latin.contains(".atlasv1.")) {
            Starts starts = new Starts(); // [A-Za-z0-9]{14}.atlasv1.
            for (int q = latin.indexOf(".atlasv1."); q >= 0; q = latin.indexOf(".atlasv1.", q + 1)) {
                starts.addIf(q >= 14 && Ascii.isAlnum(latin.charAt(q - 1)), q - 14);
            }
            addAll(Patterns.TERRAFORM, text, starts, spans, 0);
        }
        if (latin.indexOf('|') >= 0 || latin.contains("%7C")) {
            Starts starts = new Starts(); // \d{15,16}(?:\||%7C)
            for (int q = latin.indexOf('|'); q >= 0; q = latin.indexOf('|', q + 1)) {
                addDigitRunStart(latin, q, starts);
            }
            for (int q = latin.indexOf("%7C"); q >= 0; q = latin.indexOf("%7C", q + 1)) {
                addDigitRunStart(latin, q, starts);
            }
            addAll(Patterns.FACEBOOK, text, starts, spans, 0);
        }
        if (latin.indexOf('.') >= 0) {
            Starts starts = new Starts(); // [A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6}\.
            for (int q = latin.indexOf('.'); q >= 0; q = latin.indexOf('.', q + 1)) {
                if (q + 7 < latin.length() && latin.charAt(q + 7) == '.' && isTokenRun(latin, q + 1, q + 7)) {
                    int r = q;
                    while (r > 0 && q - r <= 28 && isTokenChar(latin.charAt(r - 1))) {
                        r--;
                    }
                    starts.addIf(q - r >= 23 && q - r <= 28, r);
                }
            }
            addAll(Patterns.DISCORD_BOT, text, starts, spans, 0);
        }
        if (latin.contains("sentry")) {
            addAll(Patterns.SENTRY_DSN, text, Starts.of(latin, "://", 0), spans, 1);
        }
        if (latin.contains("hook")) {
            Starts starts = new Starts();
            for (int q = latin.indexOf("hook"); q >= 0; q = latin.indexOf("hook", q + 1)) {
                starts.addIf(latin.startsWith("hooks.slack.com/", q), q);
                starts.addIf(q >= 3 && latin.startsWith("webhook.office.com/webhookb2/", q - 3), q - 3);
                starts.addIf(q >= 19 && latin.startsWith("discord.com/api/webhooks/", q - 19), q - 19);
                starts.addIf(q >= 22 && latin.startsWith("discordapp.com/api/webhooks/", q - 22), q - 22);
            }
            addAll(Patterns.WEBHOOK, text, starts, spans, 1);
        }
    }

    /** Adds where the run of 15 or 16 digits that ends at {@code q} starts. */
    private static void addDigitRunStart(String latin, int q, Starts starts) {
        int r = q;
        while (r > 0 && q - r <= 16 && Ascii.isDigit(latin.charAt(r - 1))) {
            r--;
        }
        starts.addIf(q - r >= 15 && q - r <= 16, r);
    }

    private static boolean isTokenRun(String latin, int from, int to) {
        for (int k = from; k < to; k++) {
            if (!isTokenChar(latin.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isTokenChar(char c) {
        return Ascii.isAlnum(c) || c == '_' || c == '-';
    }

    private static void addAll(LazyPattern pattern, String text, Starts starts, Spans spans, int group) {
        AnchoredFind m = new AnchoredFind(pattern, text, starts);
        while (m.find()) {
            spans.add(m.start(group), m.end(group));
        }
    }

}
