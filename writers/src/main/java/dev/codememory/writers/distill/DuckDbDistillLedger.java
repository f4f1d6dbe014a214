package dev.codememory.writers.distill;

import dev.codememory.config.db.Sql;
import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.Transactions;
import dev.codememory.config.distill.DistillCall;
import dev.codememory.config.distill.DistillLedger;
import dev.codememory.config.distill.ProvenClaim;
import dev.codememory.config.distill.StoredAnswer;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.json.Json;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * The distiller's ledger in DuckDB ({@code distill_answers}, {@code distill_calls}): each
 * record is its own transaction, committed when the model has answered and before the
 * step stores anything from the answer. Rejected claims are kept only as counts.
 */
public class DuckDbDistillLedger implements DistillLedger {

    private final Supplier<DuckDBConnection> connections;

    public DuckDbDistillLedger(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public Optional<StoredAnswer> answer(String sessionId, String version) {
        try (Connection c = connections.get()) {
            return Sql.first(c, """
                    SELECT outcome, claims_json, rejected_json, attempts, next_attempt_at FROM distill_answers
                    WHERE session_id = ? AND version = ?""",
                    rs -> new StoredAnswer(rs.getString(1), claims(rs.getString(2)), counts(rs.getString(3)),
                            rs.getInt(4), rs.getObject(5, LocalDateTime.class)),
                    sessionId, version);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read the distill answer of session " + sessionId, e);
        }
    }

    @Override
    public long tokensUsed(LocalDate day) {
        try (Connection c = connections.get()) {
            return Sql
                .first(c, "SELECT coalesce(sum(input_tokens + output_tokens), 0) FROM distill_calls WHERE day = ?",
                        rs -> rs.getLong(1), day)
                .orElseThrow();
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read the distiller's usage of " + day, e);
        }
    }

    @Override
    public void record(DistillCall call, String sessionId, String version, StoredAnswer answer, String lastError) {
        Transactions.inTransaction(connections, () -> "record the distill answer of session " + sessionId, c -> {
            if (call != null) {
                Sql.update(c, "INSERT INTO distill_calls VALUES (?, ?, ?, ?, ?, ?, ?)", call.sessionId(), call.at(),
                        call.at().toLocalDate(), call.inputTokens(), call.outputTokens(), call.estimated(),
                        call.outcome());
            }
            Sql.update(c, """
                    INSERT OR REPLACE INTO distill_answers (session_id, version, outcome, claims_json, rejected_json,
                                                           attempts, next_attempt_at, last_error, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, now() AT TIME ZONE 'UTC')""", sessionId, version, answer.outcome(),
                    Json.write(claimsJson(answer.claims())), Json.write(new TreeMap<>(answer.rejected())),
                    answer.attempts(), answer.nextAttemptAt(), lastError);
            return null;
        });
    }

    private static List<Object> claimsJson(List<ProvenClaim> claims) {
        List<Object> out = new ArrayList<>();
        for (ProvenClaim claim : claims) {
            List<Object> quotes = new ArrayList<>();
            for (Quote q : claim.quotes()) {
                quotes.add(Map.of("eventId", q.eventId(), "field", q.field(), "text", q.text()));
            }
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("kind", claim.kind());
            json.put("text", claim.text());
            json.put("reason", claim.reason());
            json.put("quotes", quotes);
            out.add(json);
        }
        return out;
    }

    private static List<ProvenClaim> claims(String json) {
        List<ProvenClaim> claims = new ArrayList<>();
        if (json == null || json.isBlank()) {
            return claims;
        }
        for (Object item : (List<?>) Json.parse(json)) {
            Map<?, ?> claim = (Map<?, ?>) item;
            List<Quote> quotes = new ArrayList<>();
            for (Object q : (List<?>) claim.get("quotes")) {
                Map<?, ?> quote = (Map<?, ?>) q;
                quotes.add(new Quote((String) quote.get("eventId"), (String) quote.get("field"),
                        (String) quote.get("text")));
            }
            claims.add(new ProvenClaim((String) claim.get("kind"), (String) claim.get("text"),
                    (String) claim.get("reason"), quotes));
        }
        return claims;
    }

    private static Map<String, Integer> counts(String json) {
        Map<String, Integer> counts = new TreeMap<>();
        if (json != null && !json.isBlank() && Json.parse(json) instanceof Map<?, ?> map) {
            map.forEach((reason, n) -> counts.put(String.valueOf(reason),
                    Integer.parseInt(n instanceof Json.JsonNumber number ? number.literal() : String.valueOf(n))));
        }
        return counts;
    }

}
