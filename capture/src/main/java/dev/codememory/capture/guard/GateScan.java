package dev.codememory.capture.guard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;

/**
 * What {@link ContextGate} finds in a text: the text with invisible characters removed,
 * and the parts of it to withhold (the stretch a bidi override governs; each trigger of
 * {@link InstructionRules}, matched on the text's {@link FoldedView}s and not only named
 * ({@link TriggerMentions}), from the start of its sentence to the end of its paragraph),
 * as {@code {from, to}} offsets into {@code visible}, sorted and merged where they
 * overlap or touch.
 */
record GateScan(String visible, List<int[]> parts, boolean removedInvisible) {

    /**
     * Right-to-left and left-to-right overrides and isolates: the text they govern is
     * stored in another order than it is displayed, so it is withheld whole.
     */
    private static final String BIDI_OVERRIDES = "\u202D\u202E\u2066\u2067\u2068";

    private static final int PDF = 0x202C;

    private static final int PDI = 0x2069;

    static GateScan of(String text) {
        StringBuilder kept = new StringBuilder(text.length());
        List<int[]> parts = new ArrayList<>();
        boolean removedInvisible = false;
        int previous = -1;
        int overrideFrom = -1;
        for (int i = 0; i < text.length();) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (overrideFrom >= 0 && (cp == PDF || cp == PDI || cp == '\n')) {
                parts.add(new int[] { overrideFrom, kept.length() });
                overrideFrom = -1;
            }
            if (invisible(cp, previous)) {
                removedInvisible = true;
                if (BIDI_OVERRIDES.indexOf(cp) >= 0 && overrideFrom < 0) {
                    overrideFrom = kept.length();
                }
                continue;
            }
            kept.appendCodePoint(cp);
            previous = cp;
        }
        if (overrideFrom >= 0) {
            parts.add(new int[] { overrideFrom, kept.length() });
        }
        String visible = kept.toString();
        FoldedView view = FoldedView.of(visible);
        // the last paragraph end found, and the position it was sought from: every
        // position between them ends there too, so a paragraph of a thousand triggers is
        // read once per rule, not once per trigger
        int soughtFrom = -1;
        int paragraphEnd = -1;
        String[] views = view.plain().equals(view.latin()) ? new String[] { view.plain() }
                : new String[] { view.plain(), view.latin() };
        for (InstructionRules.Rule rule : InstructionRules.RULES) {
            for (String folded : views) {
                if (!rule.prefilter().admits(folded)) {
                    continue;
                }
                Matcher m = rule.pattern().matcher(folded);
                while (m.find()) {
                    if (m.end() == m.start()) {
                        continue;
                    }
                    int start = view.origin()[m.start()];
                    int end = view.originEnd()[m.end() - 1];
                    if (rule.tag() && TriggerMentions.shortElement(visible, start, end)) {
                        continue;
                    }
                    if (rule.named() && (TriggerMentions.quotedMention(visible, start, end)
                            || TriggerMentions.shortSlug(visible, start, end,
                                    folded != view.plain() && view.readsJoinersAsSpaces(m.start(), m.end())))) {
                        continue;
                    }
                    if (end < soughtFrom || end > paragraphEnd) {
                        soughtFrom = end;
                        paragraphEnd = InstructionRules.paragraphEnd(visible, end);
                    }
                    parts.add(new int[] { InstructionRules.sentenceStart(visible, start), paragraphEnd });
                }
            }
        }
        parts.sort(Comparator.comparingInt(p -> p[0]));
        List<int[]> merged = new ArrayList<>();
        for (int[] part : parts) {
            int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && part[0] <= last[1]) {
                last[1] = Math.max(last[1], part[1]);
            }
            else {
                merged.add(new int[] { part[0], part[1] });
            }
        }
        return new GateScan(visible, merged, removedInvisible);
    }

    /**
     * A format character (general category Cf: zero-width spaces and joiners, bidi
     * controls, tag characters, soft hyphen), except a zero-width joiner after an emoji.
     */
    private static boolean invisible(int cp, int previous) {
        if (Character.getType(cp) != Character.FORMAT) {
            return false;
        }
        return !(cp == 0x200D && previous >= 0x2600);
    }

}
