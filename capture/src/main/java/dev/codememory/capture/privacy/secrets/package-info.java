/**
 * The secret rules of the redactor.
 * {@link dev.codememory.capture.privacy.secrets.SecretRules} is the one entry: it makes
 * the text's byte view and Latin-1 copy once and runs each rule family over them, in this
 * order: {@code PrivateKeyBlocks}, {@code TokenShapes} (with {@code RunBody}, its
 * hand-made matcher), {@code UnprefixedShapes}, {@code UrlCredentials},
 * {@code AuthorizationValues}, {@code SecretNamedKeys} (with {@code SecretNames},
 * {@code ValueAfterKey} and {@code Values}), {@code CommandLines}.
 *
 * <p>
 * The shared scanner every family uses: {@code Starts} (where a pattern may match, found
 * by a substring search) and {@code AnchoredFind} (the pattern tried only there),
 * {@code LazyPattern} (compiled on first need), {@code Ascii} (character tests on the
 * view) and {@code Spans} (what to mask, merged and replaced by the marker at the end).
 *
 * <p>
 * JDK only: this package runs inside the hook process, whose class-data archive is
 * trained on a redaction of a large tool output.
 */
package dev.codememory.capture.privacy.secrets;
