package dev.codememory.capture.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The cache of texts gated lately: a text is gated once while it is held, a long one
 * every time, and a full cache starts again empty.
 */
class GateCacheTests {

    private final List<String> gated = new ArrayList<>();

    private final Function<String, GatedText> gate = text -> {
        gated.add(text);
        return new GatedText(text.toUpperCase(), 0);
    };

    @Test
    void aTextHeldIsGatedOnce() {
        GateCache cache = new GateCache(4, 10);

        assertThat(cache.get("abc", gate).text()).isEqualTo("ABC");
        assertThat(cache.get("abc", gate).text()).isEqualTo("ABC");

        assertThat(gated).containsExactly("abc");
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void aTextLongerThanTheLimitIsGatedEveryTimeAndNotHeld() {
        GateCache cache = new GateCache(4, 10);

        cache.get("0123456789x", gate);
        cache.get("0123456789x", gate);
        cache.get("0123456789", gate);

        assertThat(gated).containsExactly("0123456789x", "0123456789x", "0123456789");
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void aFullCacheIsEmptiedBeforeTheNextText() {
        GateCache cache = new GateCache(2, 10);
        cache.get("a", gate);
        cache.get("b", gate);

        cache.get("c", gate);
        cache.get("a", gate);

        assertThat(gated).containsExactly("a", "b", "c", "a");
        assertThat(cache.size()).isEqualTo(2);
    }

}
