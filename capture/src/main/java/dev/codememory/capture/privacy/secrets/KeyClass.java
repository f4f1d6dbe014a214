package dev.codememory.capture.privacy.secrets;

/** How much a key's name says about its value. */
enum KeyClass {

    /** Not a secret's name. */
    NONE,
    /**
     * A name that holds a secret only sometimes ({@code key}, {@code auth}, {@code sig}):
     * random-looking values.
     */
    WEAK,
    /** A secret's name: every literal value. */
    STRONG,
    /** {@code Authorization}: the credential after the scheme. */
    AUTHORIZATION

}
