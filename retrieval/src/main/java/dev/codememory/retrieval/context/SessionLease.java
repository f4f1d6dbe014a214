package dev.codememory.retrieval.context;

import dev.codememory.config.db.DuckDb;

/**
 * A database session held for one answer: opened read-only for it and closed after it
 * (the hook's cold path), or lent by the resident process that keeps it open
 * ({@code owned} false: closing the lease leaves it open).
 */
public record SessionLease(DuckDb.Session session, boolean owned) implements AutoCloseable {

    public static SessionLease openReadOnly(DuckDb duckDb) {
        return new SessionLease(duckDb.openReadOnly(), true);
    }

    public static SessionLease lent(DuckDb.Session session) {
        return new SessionLease(session, false);
    }

    @Override
    public void close() {
        if (owned) {
            session.close();
        }
    }
}
