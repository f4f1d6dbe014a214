package dev.codememory.jobs.schedule;

import dev.codememory.config.home.CodeMemoryHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.UUID;

/**
 * The names a clustered schedule goes by: the scheduler's, one per home, shared by every
 * serve of that home, and this serve's own within the cluster.
 */
final class ScheduleIdentity {

    /** The file in the home that holds its id, made once and kept. */
    static final String HOME_ID = "home-id";

    private ScheduleIdentity() {
    }

    /**
     * This serve's name in the cluster: the host, the process id and a random part.
     * Quartz's {@code AUTO} is the host and the start's millisecond, which two serves
     * started at once on one host share (seen in CI); two members with one id take each
     * other's fires for their own and never recover each other's.
     */
    static String instanceId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        }
        catch (UnknownHostException e) {
            host = "localhost";
        }
        return host + "-" + ProcessHandle.current().pid() + "-"
                + HexFormat.of().toHexDigits(new SecureRandom().nextInt());
    }

    /**
     * The scheduler's name, {@code code-memory-} and the home's id: the same for every
     * serve of this home (wherever the home is mounted), another for every other home.
     */
    static String schedulerName(CodeMemoryHome home) {
        return "code-memory-" + homeId(home);
    }

    /**
     * The id in the home's {@value #HOME_ID} file, written on first use (a random UUID).
     * Two processes starting at once agree: the file appears whole, by a hard link from a
     * temporary file, and the second one reads the first one's.
     */
    static String homeId(CodeMemoryHome home) {
        Path file = home.root().resolve(HOME_ID);
        try {
            if (!Files.exists(file)) {
                Path written = Files.createTempFile(home.root(), HOME_ID, ".tmp");
                try {
                    Files.writeString(written, UUID.randomUUID() + "\n", StandardCharsets.US_ASCII);
                    Files.createLink(file, written);
                }
                catch (FileAlreadyExistsException e) {
                    // another process made it first: its id is the home's
                }
                finally {
                    Files.deleteIfExists(written);
                }
            }
            String id = Files.readString(file, StandardCharsets.US_ASCII).strip();
            if (!id.matches("[0-9a-f-]{36}")) {
                throw new IllegalStateException(
                        file + " does not hold a home id (a UUID); delete it to make a new one");
            }
            return id;
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read or create " + file, e);
        }
    }

}
