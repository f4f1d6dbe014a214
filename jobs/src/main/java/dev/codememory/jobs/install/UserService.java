package dev.codememory.jobs.install;

import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code serve} as a service of the user's session: a systemd user unit on Linux, a
 * launchd agent on macOS. It runs the same jar with the JDK that runs this command (a
 * service does not see the login shell's PATH), and the home this command uses.
 */
record UserService(Path file, String content, String startHint, String stopHint) {

    static final String UNIT = "code-memory.service";
    static final String LABEL = "dev.codememory.serve";

    /**
     * The service for this operating system ({@code os.name}), or null where neither
     * applies.
     */
    static UserService forThisSystem(Path userHome, Path java, Path jar, Path codeMemoryHome) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.contains("mac")) {
            return launchd(userHome, java, jar, codeMemoryHome);
        }
        if (os.contains("linux")) {
            return systemd(userHome, java, jar, codeMemoryHome);
        }
        return null;
    }

    static UserService systemd(Path userHome, Path java, Path jar, Path codeMemoryHome) {
        Path file = userHome.resolve(".config/systemd/user").resolve(UNIT);
        String content = """
                [Unit]
                Description=code-memory: ingests and graduates Claude Code sessions (java -jar jobs.jar serve)

                [Service]
                Type=simple
                Environment=CODE_MEMORY_HOME=%s
                ExecStart=%s -jar %s serve
                Restart=on-failure
                RestartSec=30

                [Install]
                WantedBy=default.target
                """.formatted(systemdQuote(codeMemoryHome.toString()), systemdQuote(java.toString()),
                systemdQuote(jar.toString()));
        return new UserService(file, content, "systemctl --user daemon-reload && systemctl --user enable --now " + UNIT,
                "systemctl --user disable --now " + UNIT);
    }

    static UserService launchd(Path userHome, Path java, Path jar, Path codeMemoryHome) {
        Path file = userHome.resolve("Library/LaunchAgents").resolve(LABEL + ".plist");
        String content = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                  <key>Label</key><string>%s</string>
                  <key>ProgramArguments</key>
                  <array><string>%s</string><string>-jar</string><string>%s</string><string>serve</string></array>
                  <key>EnvironmentVariables</key>
                  <dict><key>CODE_MEMORY_HOME</key><string>%s</string></dict>
                  <key>RunAtLoad</key><true/>
                  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>
                  <key>StandardOutPath</key><string>%s</string>
                  <key>StandardErrorPath</key><string>%s</string>
                </dict>
                </plist>
                """.formatted(LABEL, xml(java.toString()), xml(jar.toString()), xml(codeMemoryHome.toString()),
                xml(codeMemoryHome.resolve("logs/serve.log").toString()),
                xml(codeMemoryHome.resolve("logs/serve.log").toString()));
        return new UserService(file, content, "launchctl load -w " + file, "launchctl unload -w " + file);
    }

    /** A value systemd reads as one word, spaces and all. */
    private static String systemdQuote(String s) {
        return s.matches("[A-Za-z0-9_./+:@=-]+") ? s : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
