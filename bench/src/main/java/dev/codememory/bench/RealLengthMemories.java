package dev.codememory.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generated memories as long as real ones, by kind, for the embedding bench. The words
 * are synthetic (drawn from a fixed list of English and code words); only the lengths
 * come from real sessions.
 *
 * <p>
 * Lengths in characters, read from the 14 real Claude Code transcripts of the coding eval
 * (one developer's project, 280 typed prompts, 243 non-empty replies, 86
 * {@code git commit} messages, 383 TodoWrite items; the hook events its converter
 * produces), as percentiles p10 / p25 / p50 / p75 / p90 / p99:
 * <ul>
 * <li>prompt: 18 / 42 / 86 / 197 / 436 / 10,980 (mean 328)</li>
 * <li>reply: 51 / 172 / 524 / 924 / 1,270 / 2,753 (mean 632)</li>
 * <li>commit message: 112 / 204 / 410 / 499 / 642 / 1,303 (mean 401)</li>
 * <li>to-do item: 33 / 39 / 47 / 55 / 63 / 82 (mean 47); one memory per item, as
 * graduation leaves it (the item's earlier statuses are superseded before the embed step
 * queues anything)</li>
 * </ul>
 * A length is drawn by linear interpolation between those percentiles (p0 and p100 set by
 * hand: prompt 3 and 12,000, reply 10 and 4,000, commit 20 and 2,000, to-do 10 and 100).
 * The mix of kinds is the embed queue of a 183,200-event replay of real sessions:
 * exchange 55%, task 29%, work 16% (commits), summary 3% (two or three sentences of a
 * reply); the few claims (1%) are left out.
 */
final class RealLengthMemories {

    /** One memory as the entries table holds it; {@code replyQuote} for exchanges. */
    record Memory(String kind, String title, String body, String replyQuote) {
    }

    private static final String[] STATUSES = { "pending", "in progress", "done" };

    private static final double[] P = { 0, 10, 25, 50, 75, 90, 99, 100 };

    static final double[] PROMPT = { 3, 18, 42, 86, 197, 436, 10_980, 12_000 };

    static final double[] REPLY = { 10, 51, 172, 524, 924, 1_270, 2_753, 4_000 };

    static final double[] COMMIT = { 20, 112, 204, 410, 499, 642, 1_303, 2_000 };

    static final double[] TODO = { 10, 33, 39, 47, 55, 63, 82, 100 };

    private static final String[] WORDS = ("the a to of and in is it that for on with this we be as not are can "
            + "you should test tests build fix error failing passes config file files class method function "
            + "service job step reader writer query index vector model batch chunk token memory session "
            + "prompt reply commit branch merge review retry timeout cache database table column schema "
            + "migration hook spool event events import export json yaml maven gradle docker java python "
            + "script parser output input value values null empty list map string number count limit order "
            + "update delete insert select where because instead first then after before again now still "
            + "already only also run runs running ran added removed changed moved renamed kept need needs "
            + "want make sure check look see find found use using used works working broken slow fast "
            + "src/main/App.java README.md pom.xml ./mvnw npm git status diff log HEAD origin/main PR #42 "
            + "TODO FIXME v1.2.3 localhost:8080 UserService.java getUserById() List<String> 404 500 ms")
        .split(" ");

    private RealLengthMemories() {
    }

    /** {@code n} memories, the same for the same {@code n} and seed. */
    static List<Memory> generate(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Memory> memories = new ArrayList<>(n);
        while (memories.size() < n) {
            // weighted so that memories come out 53 / 28 / 16 / 3
            int kind = random.nextInt(990);
            if (kind < 525) {
                String prompt = text(random, draw(random, PROMPT));
                String reply = text(random, draw(random, REPLY));
                String title = firstLine(prompt);
                memories.add(new Memory("exchange", title, prompt + "\n\n" + reply, firstSentence(reply)));
            }
            else if (kind < 805) {
                String item = capitalized(text(random, draw(random, TODO)));
                String status = STATUSES[random.nextInt(STATUSES.length)];
                memories.add(new Memory("task", item, item + "\nstatus: " + status + " (Claude's to-do list)", null));
            }
            else if (kind < 961) {
                String message = text(random, draw(random, COMMIT));
                String subject = firstLine(message);
                memories.add(new Memory("work", "Committed: " + subject, message, null));
            }
            else {
                String summary = text(random, 300 + random.nextInt(700));
                memories.add(new Memory("summary", "Session: " + firstLine(summary), summary, null));
            }
        }
        return memories;
    }

    static int draw(SplittableRandom random, double[] percentiles) {
        double u = random.nextDouble() * 100;
        for (int i = 1; i < P.length; i++) {
            if (u <= P[i]) {
                double f = (u - P[i - 1]) / (P[i] - P[i - 1]);
                return (int) Math.max(1, Math.round(percentiles[i - 1] + f * (percentiles[i] - percentiles[i - 1])));
            }
        }
        return (int) percentiles[percentiles.length - 1];
    }

    /**
     * Sentences of 6 to 20 words, a paragraph break every few, cut to {@code length}
     * characters.
     */
    static String text(SplittableRandom random, int length) {
        StringBuilder text = new StringBuilder(length + 40);
        int inSentence = 0;
        int sentenceLength = 6 + random.nextInt(15);
        int sentences = 0;
        while (text.length() < length) {
            String word = WORDS[(int) (WORDS.length * Math.pow(random.nextDouble(), 1.5))];
            if (inSentence == 0) {
                word = capitalized(word);
            }
            text.append(word);
            if (++inSentence == sentenceLength) {
                text.append(++sentences % 4 == 0 ? ".\n\n" : ". ");
                inSentence = 0;
                sentenceLength = 6 + random.nextInt(15);
            }
            else {
                text.append(' ');
            }
        }
        String cut = text.substring(0, Math.max(1, length)).strip();
        return cut.isEmpty() ? "ok" : cut;
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        String line = nl < 0 ? text : text.substring(0, nl);
        return line.length() > 100 ? line.substring(0, 99) + "…" : line;
    }

    private static String firstSentence(String text) {
        int end = text.indexOf(". ");
        int nl = text.indexOf('\n');
        int cut = end < 0 ? nl : nl < 0 ? end + 1 : Math.min(end + 1, nl);
        String s = cut < 0 ? text : text.substring(0, cut);
        return s.length() > 300 ? s.substring(0, 300) : s;
    }

}
