// The oracle of tests/test_java_regex_oracle.py: Java's own java.util.regex.Pattern.
//
// Reads lines from stdin: "P <hex UTF-8>" compiles a pattern and prints "OK" or
// "ERR <message>"; each following "S <hex UTF-8>" prints "1" when
// Pattern.compile(p).matcher(s).matches() (String.matches, as Kafka's TopicFilter does),
// else "0" ("-" after a pattern that did not compile). One JVM serves a whole test run,
// answering each line at once (autoflush), so a test can talk to it case by case.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public final class RegexOracle {
    private static String decode(String hex) {
        return new String(HexFormat.of().parseHex(hex), StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8); // autoflush: one case at a time
        Pattern pattern = null;
        String line;
        while ((line = in.readLine()) != null) {
            String text = decode(line.substring(2));
            if (line.charAt(0) == 'P') {
                try {
                    pattern = Pattern.compile(text);
                    out.println("OK");
                } catch (PatternSyntaxException e) {
                    pattern = null;
                    int at = e.getIndex();
                    String why = e.getDescription() + (at >= 0 ? " near index " + at : "");
                    out.println("ERR " + why.replaceAll("[\\r\\n\\u0085\\u2028\\u2029]", "?")); // one line
                } catch (RuntimeException | StackOverflowError e) { // not a PatternSyntaxException
                    pattern = null;
                    out.println("ERR " + e.getClass().getSimpleName());
                }
            } else if (pattern == null) {
                out.println("-");
            } else {
                try {
                    out.println(pattern.matcher(text).matches() ? "1" : "0");
                } catch (RuntimeException | StackOverflowError e) { // a Java failure, not an answer
                    System.err.println(e);
                    out.println("X");
                }
            }
        }
        out.flush();
    }
}
