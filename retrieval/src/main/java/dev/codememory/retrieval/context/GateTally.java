package dev.codememory.retrieval.context;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.capture.guard.GatedText;
import dev.codememory.capture.guard.Provenance;

/**
 * The {@link ContextGate} as one context build uses it: every recorded text that is not
 * the user's own passes it, and the parts withheld are counted for the hook's log. No
 * block shows more than {@link ContextBudget#CLAUDE_CODE_MAX_CHARS} characters, so a text
 * is gated only as far as that could reach ({@link ContextGate#reach}): a memory body of
 * a megabyte costs the hook no more than one that fits.
 */
final class GateTally {

    private int withheld;

    /** {@code text} through the gate. */
    String gated(String text) {
        return count(ContextGate.pass(shownAtMost(text)));
    }

    /** {@code text} as it may be shown, given whose words they are. */
    String gated(String text, Provenance provenance) {
        return count(provenance.gate(shownAtMost(text)));
    }

    /**
     * {@code text} through the gate; when {@code trusted} (the user's own words) only
     * what it quotes from elsewhere ({@link ContextGate#passUserText}).
     */
    String gated(String text, boolean trusted) {
        return trusted ? count(ContextGate.passUserText(shownAtMost(text))) : gated(text);
    }

    private static String shownAtMost(String text) {
        return text == null ? null : ContextGate.reach(text, ContextBudget.CLAUDE_CODE_MAX_CHARS);
    }

    int withheld() {
        return withheld;
    }

    private String count(GatedText gated) {
        withheld += gated.withheld();
        return gated.text();
    }

}
