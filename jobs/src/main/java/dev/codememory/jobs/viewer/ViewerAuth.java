package dev.codememory.jobs.viewer;

import dev.codememory.config.home.CodeMemoryHome;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who may use the viewer: whoever can ask serve for a sign-in address. {@code viewer}
 * asks serve over its owner-only socket for an address carrying a one-time token (random,
 * used once, valid {@link #TOKEN_LIFETIME}); the browser trades it for a session cookie
 * (HttpOnly, SameSite=Strict), a random id with nothing in it.
 * <p>
 * A browser sends a cookie for 127.0.0.1 to every port there, so any local server the
 * user visits can read it; what makes a copied cookie short-lived is the record kept
 * here, in this serve's memory only:
 * <ul>
 * <li>a session ends {@link #SESSION_LIFETIME} after sign-in whatever happens (a working
 * day: the user signs in again the next day with one {@code viewer} command);</li>
 * <li>it ends sooner after {@link #SESSION_IDLE} without a request (an open live timeline
 * counts as use), so a cookie left behind in a closed browser dies within the hour;</li>
 * <li>every session ends when serve stops: a new serve starts with no sessions at all, so
 * a cookie is never worth more than the serve that issued it.</li>
 * </ul>
 * The {@code __Host-} prefix would need {@code Secure}, which plain-HTTP loopback cannot
 * carry, hence the server-side record. Each session's CSRF token is a random value kept
 * in its record.
 */
final class ViewerAuth {

    static final Duration TOKEN_LIFETIME = Duration.ofMinutes(5);

    static final Duration SESSION_LIFETIME = Duration.ofHours(12);

    static final Duration SESSION_IDLE = Duration.ofHours(1);

    /**
     * Sessions kept at once; past it the one used longest ago ends (each sign-in needs
     * the owner's socket, so this only bounds memory).
     */
    static final int MAX_SESSIONS = 64;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String cookieName;

    private final Clock clock;

    private final Map<String, Instant> tokens = new ConcurrentHashMap<>();

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /**
     * One signed-in browser: its CSRF token, when it signed in, when it was last used.
     */
    private record Session(String csrf, Instant signedIn, Instant lastUsed) {

        boolean live(Instant now) {
            return now.isBefore(signedIn.plus(SESSION_LIFETIME)) && now.isBefore(lastUsed.plus(SESSION_IDLE));
        }

    }

    private ViewerAuth(String cookieName, Clock clock) {
        this.cookieName = cookieName;
        this.clock = clock;
    }

    /**
     * The sessions of one start of the viewer; the cookie is named for the home, so the
     * viewers of two homes on one machine do not sign each other out (a browser keeps
     * cookies per host, not per port).
     */
    static ViewerAuth forHome(CodeMemoryHome home) {
        return forHome(home, Clock.systemUTC());
    }

    static ViewerAuth forHome(CodeMemoryHome home, Clock clock) {
        String id = hex(sha256(home.root().toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8))).substring(0,
                8);
        return new ViewerAuth("code_memory_" + id, clock);
    }

    String cookieName() {
        return cookieName;
    }

    /** The cookie's attributes: the browser drops it when the server would. */
    String cookieAttributes() {
        return "Path=/; HttpOnly; SameSite=Strict; Max-Age=" + SESSION_LIFETIME.toSeconds();
    }

    /** The attributes that make a browser drop the cookie now. */
    String clearedCookieAttributes() {
        return "Path=/; HttpOnly; SameSite=Strict; Max-Age=0";
    }

    /** Ends the session a cookie holds: its record goes, the cookie is worth nothing. */
    void signOut(String cookie) {
        if (cookie != null) {
            sessions.remove(cookie);
        }
    }

    /** A new one-time sign-in token. */
    String newToken() {
        Instant now = clock.instant();
        tokens.values().removeIf(expiry -> expiry.isBefore(now));
        String token = random(24);
        tokens.put(token, now.plus(TOKEN_LIFETIME));
        return token;
    }

    /**
     * Trades a one-time token for a new session's cookie value; empty when unknown, used
     * or expired.
     */
    Optional<String> exchange(String token) {
        Instant now = clock.instant();
        Instant expiry = token == null ? null : tokens.remove(token);
        if (expiry == null || expiry.isBefore(now)) {
            return Optional.empty();
        }
        sessions.values().removeIf(s -> !s.live(now));
        while (sessions.size() >= MAX_SESSIONS) {
            sessions.entrySet()
                .stream()
                .min(Comparator.comparing(e -> e.getValue().lastUsed()))
                .ifPresent(e -> sessions.remove(e.getKey()));
        }
        String id = random(32);
        sessions.put(id, new Session(random(32), now, now));
        return Optional.of(id);
    }

    /**
     * Whether a cookie value is a live session of this viewer; a live one counts as used
     * now, an ended one is dropped.
     */
    boolean valid(String cookie) {
        if (cookie == null) {
            return false;
        }
        Instant now = clock.instant();
        return sessions.computeIfPresent(cookie,
                (id, s) -> s.live(now) ? new Session(s.csrf(), s.signedIn(), now) : null) != null;
    }

    /** The CSRF token of the session a cookie holds. */
    String csrf(String cookie) {
        return session(cookie).map(Session::csrf).orElseThrow();
    }

    /** Whether {@code token} is the CSRF token of the session {@code cookie} holds. */
    boolean csrfMatches(String cookie, String token) {
        return token != null && session(cookie)
            .map(s -> MessageDigest.isEqual(s.csrf().getBytes(StandardCharsets.US_ASCII),
                    token.getBytes(StandardCharsets.US_ASCII)))
            .orElse(false);
    }

    private Optional<Session> session(String cookie) {
        Session s = cookie == null ? null : sessions.get(cookie);
        return s != null && s.live(clock.instant()) ? Optional.of(s) : Optional.empty();
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) {
            s.append(String.format("%02x", b));
        }
        return s.toString();
    }

}
