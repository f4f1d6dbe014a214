package dev.codememory.capture.privacy;

import dev.codememory.capture.privacy.secrets.SecretRules;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Files whose every value is a secret ({@code .env}, {@code .netrc}, AWS
 * {@code credentials}, …), and the masking of their text: each {@code key=value},
 * {@code key: value} or {@code "key": "value"} line keeps its key and loses its value,
 * whatever the key is called; {@code .netrc}'s
 * {@code login}/{@code password}/{@code account} words lose the word after them.
 * Comments, section headers and blank lines stay. A {@code cat -n}-style line number in
 * front of a line (as the Read tool shows a file) is kept.
 */
final class CredentialFiles {

    private CredentialFiles() {
    }

    /** Exact file names (lower case). */
    private static final Set<String> NAMES = Set.of(".env", ".envrc", ".netrc", "_netrc", ".pgpass", ".npmrc",
            ".pypirc", ".git-credentials", ".dockercfg", "credentials", "credentials.json", "credentials.yml",
            "credentials.yaml", "credentials.toml", "credentials.xml", ".htpasswd", "secrets.json", "secrets.yml",
            "secrets.yaml", "secrets.toml", "secrets.env", ".secrets", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519",
            "kubeconfig", "application-secrets.yml", "application-secrets.properties", ".s3cfg", ".boto",
            "service-account.json", "service_account.json", "auth.json", ".vault-token", "terraform.tfvars");

    /** Suffixes of example files that hold placeholders, not secrets. */
    private static final String[] EXAMPLES = { ".example", ".sample", ".template", ".dist", ".tmpl", ".defaults" };

    static boolean isCredentialFile(String path) {
        if (path == null || path.isBlank()) {
            return false;
        }
        String normalized = path.replace('\\', '/');
        String name = normalized.substring(normalized.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        for (String example : EXAMPLES) {
            if (name.endsWith(example)) {
                return false;
            }
        }
        if (NAMES.contains(name) || name.startsWith(".env.") || name.endsWith(".env") || name.endsWith(".pem")
                || name.endsWith(".key") || name.endsWith(".tfvars") || name.endsWith(".secrets")
                || name.startsWith("secrets.") || name.startsWith("credentials.")) {
            return true;
        }
        String lower = normalized.toLowerCase(Locale.ROOT);
        return lower.endsWith("/.docker/config.json") || lower.endsWith("/.kube/config")
                || lower.endsWith("/.aws/credentials") || lower.endsWith("/.aws/config");
    }

    private static final class Lines {

        /**
         * Optional line number, then key and separator (group 1), then the value (group
         * 2).
         */
        static final Pattern KEY_VALUE = Pattern.compile(
                "^([ \\t]*(?:\\d{1,7}(?:→|\\t| {1,2}))?[ \\t]*(?:export[ \\t]+)?[\"']?[A-Za-z0-9_.\\-/@ ]{1,128}?[\"']?"
                        + "[ \\t]*(?:=|:(?!//))[ \\t]*)(.*?)[ \\t]*,?[ \\t]*$");
        static final Pattern NETRC = Pattern.compile("(?<![A-Za-z0-9_])(?:login|password|passwd|account)[ \\t]+(\\S+)");

    }

    static String mask(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int start = 0;
        int n = text.length();
        while (start <= n) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? n : nl;
            out.append(maskLine(text.substring(start, end)));
            if (nl < 0) {
                break;
            }
            out.append('\n');
            start = nl + 1;
        }
        return out.toString();
    }

    private static String maskLine(String line) {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith(";") || trimmed.startsWith("//")
                || trimmed.startsWith("[") || trimmed.startsWith("---") || trimmed.equals("{") || trimmed.equals("}")) {
            return line;
        }
        Matcher netrc = Lines.NETRC.matcher(line);
        if (line.contains("login") || line.contains("machine") || trimmed.startsWith("password")) {
            boolean any = false;
            StringBuilder sb = new StringBuilder();
            int last = 0;
            while (netrc.find()) {
                sb.append(line, last, netrc.start(1)).append(Redactor.SECRET_MARKER);
                last = netrc.end(1);
                any = true;
            }
            if (any) {
                return sb.append(line, last, line.length()).toString();
            }
        }
        Matcher kv = Lines.KEY_VALUE.matcher(line);
        if (!kv.matches()) {
            return line;
        }
        int vs = kv.start(2);
        int ve = kv.end(2);
        if (ve <= vs) {
            return line;
        }
        char first = line.charAt(vs);
        if (first == '{' || first == '[' || first == '|' || first == '>') {
            return line; // a nested block: its own lines carry the values
        }
        if ((first == '"' || first == '\'') && ve - vs >= 2 && line.charAt(ve - 1) == first) {
            vs++;
            ve--;
        }
        if (ve <= vs || SecretRules.isPlaceholder(line.substring(vs, ve)) || line.startsWith("${", vs)) {
            return line;
        }
        return line.substring(0, vs) + Redactor.SECRET_MARKER + line.substring(ve);
    }

}
