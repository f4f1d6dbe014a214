package dev.codememory.jobs.serve;

/**
 * Something {@code serve} answers on beside its socket (the web viewer): started once
 * serve holds the database and answers on the socket, stopped before the socket closes.
 * Declared here so that serve starts it without depending on it; it depends on serve.
 */
public interface ServeSurface {

    void start();

    void stop();

}
